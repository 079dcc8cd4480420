// Package slice is the store's family of a workset's database
// (docs/worksets.md, ADR-0080): the documents of the index a workset
// keeps, copied with their aliases, links, sections and problems from the
// repository's index into the workset's (CopyFrom, copy.go), and the
// workset's own tables beside them (records.go: its manifest, its members
// and how each was chosen, the reasons it went stale, the findings it
// promoted, its checkpoints).
//
// index.Slice embeds Records beside the *index.Store it is, and index
// names its values (index.SliceMember, ...). It shares the store's handle
// (index/internal/sqlstore) and hands out no rows; a copy's own
// transaction is handed only to the callback of the family's caller.
package slice

import "github.com/canon-md/canon/index/internal/sqlstore"

// Records reads and writes a workset's own tables in its database.
type Records struct{ h *sqlstore.Handle }

// New is the workset's tables of the database h holds.
func New(h *sqlstore.Handle) Records { return Records{h} }
