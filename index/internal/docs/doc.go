// Package docs is the store's reads of the documents' tables (docs,
// links, chunks; ADR-0080): for the packages above the index (graph,
// workset, gitsync/watch), documents by key, path, blob or row id, their
// links by type and direction, their sections and text, the work items
// and their assignees, every node and edge of the graph; and the
// documents query-template filters choose (select.go: SelectDocs,
// DocsPassing, FieldValues, running what index/filter compiles). Each returns
// plain values named for what they hold, so that no package outside the
// store writes SQL against the index's tables.
//
// index.Store embeds Docs, so its callers write st.LinksOf and
// st.EachNode, and index names its values (index.Link, index.Chunk, ...).
// It shares the store's handle (index/internal/sqlstore) and hands out no
// rows and no transaction.
package docs

import "github.com/canon-md/canon/index/internal/sqlstore"

// Docs reads the documents' tables of one index database.
type Docs struct{ h *sqlstore.Handle }

// New is the documents' tables of the database h holds.
func New(h *sqlstore.Handle) Docs { return Docs{h} }
