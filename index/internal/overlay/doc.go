// Package overlay is the store's table family of the overlays (ADR-0042,
// ADR-0080): for each ref canon follows besides HEAD (local and
// remote-tracking branches, linked worktrees), the documents it changes
// since its merge base with the indexed HEAD, with the fields that say who
// does what (state, assignee, title, edges). gitsync keeps the tables
// (refs, ref_docs, the trunks' trunk_docs, the blobs' ref_blobs) in step
// with the refs from tree diffs (O(what differs)); the answers compare
// them with the indexed documents (Overlay).
//
// index.Store embeds Overlays, so its callers write st.ApplyRefs and
// st.Overlay, and index names its types (index.RefDoc, ...). It knows
// nothing of git: names, commit ids and blob ids come in, rows go out. It
// shares the store's handle (index/internal/sqlstore) and hands out no
// rows and no transaction.
package overlay

import "github.com/canon-md/canon/index/internal/sqlstore"

// Overlays reads and writes the overlays' tables of one index database.
type Overlays struct{ h *sqlstore.Handle }

// New is the overlays' tables of the database h holds.
func New(h *sqlstore.Handle) Overlays { return Overlays{h} }
