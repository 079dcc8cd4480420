// Package index is canon's derived store: documents, sections, links and
// problems in SQLite with FTS5 (docs/architecture.md, "The index"). It
// parses the files index/scan finds and reads (through index/markdown),
// resolves references through index/resolve (alias terms, match keys,
// namespaces; pure, asked of the alias table index stores, ADR-0004),
// writes full builds and incremental
// batches in one transaction each, previews a batch without writing
// (Store.Preview), and answers queries with typed methods that return
// plain values: documents by key, path or row id, links by type and
// direction, sections and their text, full-text matches (read.go,
// match.go), documents chosen by query-template filters, which
// index/filter compiles (select.go). A workset's database is an index
// too, with the workset's own tables beside it (Slice, slice.go). The
// stat walk compares the working tree with the sizes and times it holds,
// kept in a cache beside the database stamped with its sync id
// (statcache.go, ADR-0081).
//
// It owns the schema: it is the only package that imports database/sql or
// writes SQL against its tables. index/check reads them through a
// Querier, which the live database (Store.Read) and a preview
// (Store.Preview) hand out, and which other packages only pass back to
// index's typed reads (checkreads.go, ADR-0049; learnreads.go for
// index/learn): a Querier has no method, and no *sql.DB, *sql.Tx or
// *sql.Rows leaves the package. Every IN list goes
// through one batching helper (batch.go), within SQLite's limit on
// parameters. Row ids (DocID, ChunkID) may leave it to join within one call and
// are never shown. Every row loop ends with rows.Err (rows.go). It knows
// nothing of git (paths and blob ids come in, rows go out), of hooks or of
// the CLI; one writer at a time holds its lock file, readers never wait
// for it.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it is the bottom; its sub-packages markdown (parsing), config
// (settings), scan (finding and reading files), resolve (reference
// resolution), filter (the filter language), ids (telling, counting
// and minting ids), generated (which documents tools wrote) and sqliteconn (readying each SQLite connection: its
// defensive options, the WAL on close, the FTS5 ranking functions), all
// of which it imports, and check (validation over a
// Querier) sit with it.
package index
