//go:build !cgo

package index

// canon's index is SQLite through mattn/go-sqlite3, which needs cgo. A build
// without it stops here, with the fix as the name of what is missing, rather
// than at an error deep in the driver.
var _ = canon_needs_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler__or_run_make_build
