//go:build !sqlite_fts5

package index

// canon's full-text search is SQLite's FTS5, which mattn/go-sqlite3 compiles
// in only with the sqlite_fts5 build tag. Without it every command would
// fail at run time with "no such module: fts5"; the build stops here
// instead, with the fix as the name of what is missing.
var _ = canon_needs_the_sqlite_fts5_build_tag__build_with_go_build_tags_sqlite_fts5__or_run_make_build
