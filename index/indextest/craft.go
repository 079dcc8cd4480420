package indextest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest/hang"
)

// Craft runs SQL on the database at path as another program would: through
// the driver's plain registration ("sqlite3"), without canon's connection
// settings. Tests make the databases a hostile repository could hold with
// it (ADR-0032).
func Craft(path string, stmts ...string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// MigrationHeld leaves the index database at path one schema version
// behind, with its writer lock held as by another process migrating it:
// an opener waits for the lock (tests of a wait that must end with its
// context). Until the test ends, a migration's wait has no limit of its
// own (index.MigrationWaitsForContext), so only its context can end it.
// The lock is released when the test ends.
func MigrationHeld(t testing.TB, path string) {
	t.Helper()
	if err := Craft(path, `PRAGMA user_version = `+strconv.Itoa(index.SchemaVersion-1)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(index.MigrationWaitsForContext())
	held := flock.New(path + ".lock")
	if ok, err := held.TryLock(); err != nil || !ok {
		t.Fatalf("take the index's lock: %v %v", ok, err)
	}
	t.Cleanup(func() { held.Unlock() })
}

// EndsWithContext runs wait with a context cancelled after 100 ms (the
// signal) and fails the test unless wait returns that context's error.
// Under MigrationHeld the wait has no limit of its own, so that error
// proves the context ended it, with no clock read; a wait that ignores its
// context hangs, and the test says so after hang.Limit. wait closes what it
// opened when it returns no error.
func EndsWithContext(t testing.TB, wait func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	ended := make(chan error, 1)
	go func() { ended <- wait(ctx) }()
	err := hang.Wait(t, ended, "a wait whose context was cancelled did not end")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled: the wait must end with its context", err)
	}
}
