package index

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/sqliteconn"
)

// craft runs SQL on the database at path as another program would: through
// the driver's plain registration, without canon's connection settings.
func craft(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// newSlice creates a workset database as canon does and closes it.
func newSlice(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "workset.db")
	sl, _, err := OpenSlice(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sl.SetManifest(context.Background(), map[string]string{"name": "x"}); err != nil {
		t.Fatal(err)
	}
	sl.Close()
	return path
}

// TestConnectionsDistrustTheSchema: every connection canon opens runs no
// trigger and no view a database holds, lets its schema use no function
// that is not innocuous (trusted_schema off) and is defensive.
func TestConnectionsDistrustTheSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	for _, open := range []func(string) (*Store, bool, error){Open, OpenIndex} {
		st, _, err := open(path)
		if err != nil {
			t.Fatal(err)
		}
		craft(t, path,
			`CREATE TABLE IF NOT EXISTS fired (n INTEGER)`,
			`CREATE TRIGGER IF NOT EXISTS spy AFTER INSERT ON meta BEGIN INSERT INTO fired VALUES (1); END`,
			`CREATE VIEW IF NOT EXISTS peek AS SELECT key FROM meta`)
		if err := st.SetMeta(ctx, map[string]string{"k" + time.Now().Format("150405.000000"): "v"}); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := st.h.DB.QueryRow(`SELECT count(*) FROM fired`).Scan(&n); err != nil || n != 0 {
			t.Errorf("the database's trigger ran %d times (%v): SQLITE_DBCONFIG_ENABLE_TRIGGER is on", n, err)
		}
		if _, err := st.h.DB.Exec(`SELECT * FROM peek`); err == nil || !strings.Contains(err.Error(), "prohibited") {
			t.Errorf("the database's view was read (%v): SQLITE_DBCONFIG_ENABLE_VIEW is on", err)
		}
		var trusted, writable int
		if err := st.h.DB.QueryRow(`PRAGMA trusted_schema`).Scan(&trusted); err != nil || trusted != 0 {
			t.Errorf("PRAGMA trusted_schema = %d (%v), want 0", trusted, err)
		}
		c, err := st.h.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Defensive mode ignores writable_schema.
		_, _ = c.ExecContext(ctx, `PRAGMA writable_schema = ON`) // refused or ignored: the query below tells
		if err := c.QueryRowContext(ctx, `PRAGMA writable_schema`).Scan(&writable); err != nil || writable != 0 {
			t.Errorf("PRAGMA writable_schema = %d (%v) after setting it: SQLITE_DBCONFIG_DEFENSIVE is off", writable, err)
		}
		var long string
		if err := c.QueryRowContext(ctx, `SELECT zeroblob(?)`, sqliteconn.MaxValueBytes+1).Scan(&long); err == nil {
			t.Errorf("a value of %d bytes was made: SQLITE_LIMIT_LENGTH is not set", sqliteconn.MaxValueBytes+1)
		}
		c.Close()
		st.Close()
	}
}

// TestSlicesCheckCellSizes: a workset's database, which can come with a
// clone, is read with cell_size_check on; the repository's own index,
// which only canon writes, without it.
func TestSlicesCheckCellSizes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	sl, _, err := OpenSlice(ctx, filepath.Join(dir, "workset.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	st, _, err := OpenIndex(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct {
		name string
		st   *Store
		want int
	}{{"workset", sl.Store, 1}, {"index", st, 0}} {
		var on int
		if err := c.st.h.DB.QueryRowContext(ctx, `PRAGMA cell_size_check`).Scan(&on); err != nil || on != c.want {
			t.Errorf("%s: PRAGMA cell_size_check = %d (%v), want %d", c.name, on, err, c.want)
		}
	}
}

// TestOpenSliceRefusesForeignSchema: a workset's database holding anything
// canon does not create there is refused before anything reads it, with
// what it holds named; canon's own database opens.
func TestOpenSliceRefusesForeignSchema(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		stmts []string
		want  []string // objects named, in order
	}{
		"endless trigger": {[]string{`CREATE TRIGGER spin AFTER INSERT ON workset_stale BEGIN
			SELECT (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r); END`},
			[]string{`trigger "spin" on "workset_stale"`}},
		"view in place of a table": {[]string{`DROP TABLE workset_members`, `CREATE VIEW workset_members AS
			WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS key FROM r`},
			[]string{`view "workset_members"`}},
		"table of its own": {[]string{`CREATE TABLE extra (x)`, `CREATE INDEX extra_x ON extra(x)`},
			[]string{`index "extra_x" on "extra"`, `table "extra"`}},
		"canon's table declared otherwise": {[]string{`DROP TABLE workset_manifest`,
			`CREATE TABLE workset_manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL, big AS (zeroblob(100000000))) WITHOUT ROWID`},
			[]string{`table "workset_manifest" (not as canon creates it)`}},
		"expression index on a content table": {[]string{`DROP INDEX docs_key`, `CREATE INDEX docs_key ON docs(lower(key))`},
			[]string{`index "docs_key" on "docs" (not as canon creates it)`}},
	} {
		t.Run(name, func(t *testing.T) {
			path := newSlice(t)
			craft(t, path, c.stmts...)
			sl, _, err := OpenSlice(ctx, path)
			if err == nil {
				sl.Close()
				t.Fatal("opened")
			}
			var fe *ForeignSchemaError
			if !errors.As(err, &fe) || !errors.Is(err, ErrForeignSchema) {
				t.Fatalf("err = %v, want a ForeignSchemaError", err)
			}
			if strings.Join(fe.Objects, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("objects = %q, want %q", fe.Objects, c.want)
			}
			if !strings.Contains(err.Error(), path+" holds what canon did not create there (") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// TestOpenSliceMigratesOlderContent: content tables declared otherwise in a
// database of another schema version are an older canon's; the migration
// drops them unread, and the workset opens, its own records kept.
func TestOpenSliceMigratesOlderContent(t *testing.T) {
	ctx := context.Background()
	path := newSlice(t)
	craft(t, path, `DROP TABLE links`, `CREATE TABLE links (id INTEGER PRIMARY KEY, src INTEGER)`, `PRAGMA user_version = 1`)
	sl, migrated, err := OpenSlice(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	if !migrated {
		t.Error("the older schema was not migrated")
	}
	if m, err := sl.Manifest(ctx); err != nil || m["name"] != "x" {
		t.Errorf("manifest = %v, %v", m, err)
	}
	sl.Close()
	// Migrated, it is canon's schema to the letter.
	sl, migrated, err = OpenSlice(ctx, path)
	if err != nil || migrated {
		t.Fatalf("reopened: migrated %v, %v", migrated, err)
	}
	sl.Close()
}

// TestOpenIndexRemovesBuildDebris: the database of a full build that was
// killed is removed by the next opener of the index, unless a writer
// holds the lock (a build in progress does).
func TestOpenIndexRemovesBuildDebris(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	holder, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := holder.Lock(context.Background(), "test", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	debris := path + buildSuffix
	craft(t, debris, `CREATE TABLE half (x)`)
	st, _, err = OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(debris); err != nil {
		t.Fatalf("removed while a writer held the lock: %v", err)
	}
	unlock()
	holder.Close()
	st, _, err = OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := os.Stat(debris); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the killed build's database is still there: %v", err)
	}
}

// TestOpenSliceLeavesForeignDatabasesAlone: a workset database that is a
// link to another database, or another program's database in its place,
// is refused before canon's connections open it: the database is left as
// it was (they would have turned it to WAL mode).
func TestOpenSliceLeavesForeignDatabasesAlone(t *testing.T) {
	journalMode := func(path string) string {
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var mode string
		if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		return mode
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "elsewhere.db")
	craft(t, other, `CREATE TABLE mine (x)`)
	link := filepath.Join(dir, "link", "workset.db")
	must.OK(t, os.Mkdir(filepath.Dir(link), 0o755))
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	_, _, err := OpenSlice(context.Background(), link)
	var fe *ForeignSchemaError
	if !errors.As(err, &fe) || !fe.NotAFile || err.Error() != link+" is a symbolic link or not a regular file; canon opens no database through it" {
		t.Fatalf("a link: err = %v", err)
	}
	_, _, err = OpenSlice(context.Background(), other)
	if !errors.As(err, &fe) || fe.NotAFile || err.Error() != other+` holds what canon did not create there (table "mine"); canon does not run it` {
		t.Fatalf("another database: err = %v", err)
	}
	if mode := journalMode(other); mode != "delete" {
		t.Errorf("the foreign database's journal mode is %q, want it untouched", mode)
	}
}
