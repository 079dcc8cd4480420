package index

import (
	"database/sql"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// Explain classifies real SQLite errors: missing tables and columns are a
// damaged index (the fix is a rebuild), a read-only database is a
// permission problem with the path, anything else passes through.
func TestExplain(t *testing.T) {
	t.Parallel()
	db, err := sql.Open(driverName, "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, noTable := db.Exec(`SELECT * FROM chunks_fts`)
	_, noColumn := db.Exec(`CREATE TABLE t(a); SELECT b FROM t`)
	if _, err := db.Exec(`PRAGMA query_only = ON`); err != nil {
		t.Fatal(err)
	}
	_, readonly := db.Exec(`INSERT INTO t VALUES (1)`)
	_, syntax := db.Exec(`SELEC 1`)
	for _, tt := range []struct {
		name    string
		err     error
		damaged bool
		perm    bool
		want    string
	}{
		{"no such table", noTable, true, false, "the index .git/canon/index.db is damaged (no such table: chunks_fts); run canon index --full to rebuild it"},
		{"no such column", noColumn, true, false, "is damaged (no such column: b)"},
		{"read-only", readonly, false, true, "permission denied"},
		{"other", syntax, false, false, "syntax error"},
	} {
		got := Explain(tt.err, ".git/canon/index.db")
		if errors.Is(got, ErrDamaged) != tt.damaged || errors.Is(got, fs.ErrPermission) != tt.perm || !strings.Contains(got.Error(), tt.want) {
			t.Errorf("%s: %v (damaged %v, permission %v)", tt.name, got, errors.Is(got, ErrDamaged), errors.Is(got, fs.ErrPermission))
		}
	}
	if Explain(nil, "") != nil {
		t.Error("nil is not an error")
	}
}
