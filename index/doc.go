// Package index is canon's derived store: documents, sections, links and
// problems in SQLite with FTS5 (docs/architecture.md, "The index"). It
// parses the files index/scan finds and reads (through index/markdown),
// resolves references through index/resolve (alias terms, match keys,
// namespaces; pure, asked of the alias table index stores, ADR-0004),
// writes full builds and incremental batches in one transaction each,
// previews a batch without writing (Store.Preview), and answers queries
// with typed methods that return plain values. A workset's database is an
// index too, with the workset's own tables beside it (Slice).
//
// It owns the schema, and opens, locks and migrates every database. Its
// tables' statements are split by family (ADR-0080), each a package of
// index/internal that Store embeds or holds, so that st.ApplyRefs or
// st.LinksOf read as before and index names their values by aliases:
// the overlays of other refs (overlay), the documents' tables' reads and
// the documents query-template filters choose (docs), the full-text
// index's reads, ranking and highlights (fulltext), the reads of scoped
// packs (scoped), a workset's copy and records (slice), and the reads of
// canon check and canon learn over a Querier (checkreads). What index
// keeps itself is the writer (build.go, apply.go, write.go, inplace.go,
// reconcile.go), the stat walk's cache of sizes and times beside the
// database, stamped with its sync id (statcache.go, ADR-0081), the
// document counts and lookups of query.go, and the schema. The families share index/internal/sqlstore: the handle on the
// database, the row loop (every loop ends with rows.Err), the batching of
// IN lists within SQLite's limit on parameters, and the values more than
// one family reads (DocID, DocRef, Problem, Querier).
//
// index, its families and sqlstore are the only packages that import
// database/sql or write SQL against its tables. index/check and
// index/learn read them through a Querier, which the live database
// (Store.Read) and a preview (Store.Preview) hand out, and which they
// only pass back to the store's typed reads (ADR-0049): a Querier has no
// method, and no *sql.DB, *sql.Tx or *sql.Rows leaves the store. Row ids
// (DocID, ChunkID) may leave it to join within one call and are never
// shown. It runs no git (paths and blob ids come in, rows go out; it can
// tell a well-formed object id, IsObjectID) and knows nothing of hooks or
// of the CLI; one writer at a time holds its lock file, readers never
// wait for it.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it is the bottom; its sub-packages markdown (parsing), config
// (settings), scan (finding and reading files), resolve (reference
// resolution), filter (the filter language), ids (telling, counting and
// minting ids), generated (which documents tools wrote) and sqliteconn
// (readying each SQLite connection: its defensive options, the WAL on
// close, the FTS5 ranking functions), all of which it imports, and check
// (validation over a Querier) sit with it.
package index
