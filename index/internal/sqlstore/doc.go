// Package sqlstore is the ground every table family of canon's store
// stands on (ADR-0080): the handle on the database that index.Store and
// its families share (Handle: one write transaction, SQLite's errors as
// sentences), the Querier index/check and index/learn hand back, the row
// loop (EachRow), the batching of IN lists (Batches, EachIn), and the
// values more than one family reads (row ids, a document's reference,
// Node, DocEdge, Problem; index names them by aliases).
//
// It is internal to index: only the store (index and its table families,
// index/internal/overlay, index/internal/checkreads, ...) imports it, so a *sql.DB, *sql.Tx
// or *sql.Rows reaches no other package. It runs no statement of its own
// against the index's tables.
package sqlstore
