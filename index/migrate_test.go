package index

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/canon-md/canon/index/indextest/hang"
)

// TestMigrationWaitEndsWithContext: a schema migration that waits for
// another writer's lock stops waiting when its context ends (Ctrl-C,
// SIGTERM), at once and with the context's error, and writes nothing: the
// database keeps its old schema version for the next opener to migrate.
func TestMigrationWaitEndsWithContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	old := SchemaVersion - 1
	craft(t, path, `PRAGMA user_version = `+strconv.Itoa(old))

	// Another process holds the writer lock (a migration or a build).
	held := flock.New(path + ".lock")
	if ok, err := held.TryLock(); err != nil || !ok {
		t.Fatalf("take the lock: %v %v", ok, err)
	}
	defer held.Unlock()
	// The wait has no limit of its own here: context.Canceled can only
	// come from the context, and a wait that ignores it hangs.
	defer MigrationWaitsForContext()()

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel) // the signal
	opened := make(chan error, 1)
	go func() {
		st, _, err := OpenIndexContext(ctx, path)
		if err == nil {
			st.Close()
		}
		opened <- err
	}()
	err = hang.Wait(t, opened, "a migration's wait for a held lock did not end with its context")
	if err == nil {
		t.Fatal("opened an index whose migration waits for a lock someone holds")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if v := userVersion(t, path); v != old {
		t.Fatalf("user_version = %d after an interrupted migration, want %d (nothing written)", v, old)
	}

	// Once the lock is free, the next opener migrates.
	held.Unlock()
	st, built, err := OpenIndexContext(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !built || userVersion(t, path) != SchemaVersion {
		t.Fatalf("not migrated after the lock was released: built %v", built)
	}
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
