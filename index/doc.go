// Package index is canon's derived store: documents, sections, links and
// problems in SQLite with FTS5 (DESIGN.md §3). It parses files (through
// index/markdown), resolves references (resolve.go: alias terms, match
// keys, namespaces), writes full builds and incremental batches in one
// transaction each, previews a batch without writing (Store.Preview), and
// answers queries with typed methods.
//
// It owns the schema: no other package should write SQL against its
// tables. It knows nothing of git (paths and blob ids come in, rows go out),
// of hooks or of the CLI; one writer at a time holds its lock file, readers
// never wait for it.
//
// On the ladder cmd → hooks → gitsync, workset → graph → index, it is the
// bottom; its sub-packages markdown (parsing), config (settings) and check
// (validation over a Querier) sit with it.
package index
