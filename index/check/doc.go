// Package check validates documents as the index holds them: frontmatter
// against per-kind schemas, references and links against the other
// documents and against the tree git records. It reads through an
// index.Querier, so it can look at a previewed index (the repository as a
// commit will make it) as easily as at the live one. It never writes.
//
// It owns the rules, their severities and the output formats (text, JSON,
// SARIF, GitHub annotations: format.go). What the index holds and how a
// staged change is laid over it are the index's and gitsync's: check is
// handed a Querier and never opens a database, runs git or reads files
// other than through what it is given. It writes no SQL: it passes the
// Querier to the store's typed reads (index/internal/checkreads), which return
// structs, and decodes the JSON the index stored (stored.go).
//
// On the ladder cmd → hooks → gitsync, workset → graph → index, it sits
// just above index (it reads index types and config) and below gitsync and
// the CLI, which run it.
package check
