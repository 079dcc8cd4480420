package indextest

import (
	"database/sql"
	"fmt"
	"strconv"
	"testing"

	"github.com/gofrs/flock"

	"github.com/canon-md/canon/index"
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
// context). The lock is released when the test ends.
func MigrationHeld(t testing.TB, path string) {
	t.Helper()
	if err := Craft(path, `PRAGMA user_version = `+strconv.Itoa(index.SchemaVersion-1)); err != nil {
		t.Fatal(err)
	}
	held := flock.New(path + ".lock")
	if ok, err := held.TryLock(); err != nil || !ok {
		t.Fatalf("take the index's lock: %v %v", ok, err)
	}
	t.Cleanup(func() { held.Unlock() })
}
