package index

import (
	"database/sql"
	"errors"
	"testing"
)

// FuzzFTSQuery: whatever a person types, FTSQuery gives a query FTS5
// accepts, or says there are no words in it; never FTS5's syntax error.
func FuzzFTSQuery(f *testing.F) {
	for _, s := range []string{"token refresh", `"a b" OR c`, "unsafe AND NOT trait", "NOT", "OR OR", `"`, "a*", "NEAR(a b)", "title:x", "a - b", "(a OR b) AND c", "^a", "a + b", "ÄÖ ü*", "AND AND a NOT NOT b OR"} {
		f.Add(s)
	}
	db, err := sql.Open(driverName, ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5(` + ftsColumns + `); INSERT INTO t VALUES ('a', 'b', 'token refresh not or and')`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, err := FTSQuery(text)
		if err != nil {
			if !errors.Is(err, ErrBadQuery) {
				t.Fatalf("FTSQuery(%q): %v", text, err)
			}
			return
		}
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM t WHERE t MATCH ?`, q).Scan(&n); err != nil {
			t.Fatalf("FTSQuery(%q) = %q, which FTS5 refuses: %v", text, q, err)
		}
	})
}
