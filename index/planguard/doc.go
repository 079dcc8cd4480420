// Package planguard is the query-plan guard (ADR-0034): in tests, every
// statement canon runs on an index is explained (EXPLAIN QUERY PLAN) on the
// connection that runs it, at the moment it runs, and a full scan of a
// table that grows with the repository fails the test unless the statement
// is allowed, with its reason. A regression that makes a hook or a
// one-file check read the whole index shows as a test failure that names
// the statement and its plan, with no timing.
//
// It wraps canon's SQLite driver (index.TestDriver, set when this package
// is loaded), so it records what the real code runs, through every API
// (queries, execs, prepared statements, transactions, previews). Only
// connections to a database under a folder a Recorder watches are
// explained; others pass through untouched.
//
// It is for tests only: no package but a _test.go file may import it. On
// the ladder cmd → usecase → hooks → gitsync, workset → graph → index, it
// sits just above index, beside indextest.
package planguard
