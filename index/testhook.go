package index

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// TestDriver, when set, names the database/sql driver a store connects
// with, given the one it would use: the query-plan guard's tests
// (index/planguard) wrap canon's driver to explain each statement it runs.
// Nil outside tests; it is set before any store opens.
var TestDriver func(name string) string

// migrationWaitsForContext counts the callers of MigrationWaitsForContext
// whose restore has not run yet.
var migrationWaitsForContext atomic.Int32

// MigrationWaitsForContext makes a schema migration that finds another
// writer's lock wait until its context ends, not migrationWait, until the
// returned restore is called. Only tests call it (indextest.MigrationHeld):
// a test of a wait that must end with its context then proves it by the
// error alone, no clock asked, because nothing but the context can end a
// wait that has no limit of its own. Safe beside parallel tests.
func MigrationWaitsForContext() (restore func()) {
	migrationWaitsForContext.Add(1)
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			migrationWaitsForContext.Add(-1)
		}
	}
}

// waitForMigration is how long a migration waits for another writer's
// lock: migrationWait, or, under MigrationWaitsForContext, longer than any
// test runs.
func waitForMigration() time.Duration {
	if migrationWaitsForContext.Load() > 0 {
		return 24 * time.Hour
	}
	return migrationWait
}

// RunForTest runs query on q and reads its rows to the end without
// scanning them, returning how many there were: for the tests of other
// packages that time a statement or explain its plan (index/search's
// benchmarks, index/planguard). Canon itself reads through typed
// functions; this hands out no rows.
func RunForTest(ctx context.Context, q Querier, query string, args ...any) (int, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	err = sqlstore.EachRow(rows, func(*sql.Rows) error { n++; return nil })
	return n, err
}

// CountForTest runs query, a count, on q and returns its one value: for
// the tests of other packages, as RunForTest.
func CountForTest(ctx context.Context, q Querier, query string, args ...any) (int64, error) {
	var n int64
	err := sqlstore.Reads(q).QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}
