package planguard

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

// failures is a testing.TB that keeps what Check reports.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func TestGuardSeesFullScans(t *testing.T) {
	dir := t.TempDir()
	r := Watch(t, dir)
	st, _, err := index.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.Take() // what opening ran
	queries := map[string][]any{
		// The old group-cycle rule's first query, every group, asked by
		// the frontmatter's type (kind = 'group' is a search of
		// docs_kind_state since schema 23).
		`SELECT id FROM docs WHERE type = 'group'
			UNION SELECT dst FROM links WHERE type = 'group' AND status = 'ok'`: nil,
		`SELECT l.src FROM links l JOIN docs d ON d.id = l.src WHERE l.dst IN (?, ?, ?)`: {1, 2, 3},
		`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?`:                          {"retry"},
		`SELECT count(*) FROM chunks_fts`:                                                nil,
		`SELECT ident FROM docs WHERE ident LIKE '%-TSK-%'`:                              nil,
	}
	runAll(t, st, queries)
	got := map[string][]string{}
	for _, s := range r.Take() {
		if s.Err != nil {
			t.Fatalf("%s: %v", s.SQL, s.Err)
		}
		got[s.SQL] = s.Scans
	}
	want := map[string][]string{
		"SELECT id FROM docs WHERE type = 'group' UNION SELECT dst FROM links WHERE type = 'group' AND status = 'ok'": {"docs", "links"},
		"SELECT l.src FROM links l JOIN docs d ON d.id = l.src WHERE l.dst IN (?, …)":                                 nil,
		"SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?":                                                       nil,
		"SELECT count(*) FROM chunks_fts":                                                                             {"chunks_fts"},
		"SELECT ident FROM docs WHERE ident LIKE '%-TSK-%'":                                                           {"docs"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scans:\n got %q\nwant %q", got, want)
	}

	// Check names the statement and its plan, and lets an allowed one by.
	runAll(t, st, map[string][]any{`SELECT count(*) FROM chunks_fts`: nil, `SELECT path FROM docs ORDER BY path`: nil})
	f := &failures{TB: t}
	r.Check(f, "a path", map[string]string{"SELECT count(*) FROM chunks_fts": "a test"})
	if len(f.msgs) != 1 || !strings.Contains(f.msgs[0], "a path reads docs whole") || !strings.Contains(f.msgs[0], "statement: SELECT path FROM docs ORDER BY path") ||
		!strings.Contains(f.msgs[0], "SCAN docs") {
		t.Errorf("Check said: %q", f.msgs)
	}
	f = &failures{TB: t}
	r.Check(f, "nothing", nil)
	if len(f.msgs) != 1 || !strings.Contains(f.msgs[0], "no statement was recorded") {
		t.Errorf("Check of nothing said: %q", f.msgs)
	}
}

// runAll runs each query (SQL → arguments) on the store.
func runAll(t *testing.T, st *index.Store, queries map[string][]any) {
	t.Helper()
	err := st.Read(func(q index.Querier) error {
		for sql, args := range queries {
			if _, err := index.RunForTest(context.Background(), q, sql, args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSplitAndNormalize(t *testing.T) {
	got := split("CREATE TABLE a (x TEXT DEFAULT ';'); -- a; comment\nINSERT INTO a VALUES ('b;c') ;/* ; */ SELECT 1")
	want := []string{"CREATE TABLE a (x TEXT DEFAULT ';')", "-- a; comment\nINSERT INTO a VALUES ('b;c')", "/* ; */ SELECT 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("split: %q", got)
	}
	if got := Normalize("SELECT a\n\t FROM t WHERE x IN (?, ?,?) AND y = ?;"); got != "SELECT a FROM t WHERE x IN (?, …) AND y = ?" {
		t.Errorf("Normalize: %q", got)
	}
	for stmt, want := range map[string]bool{"select 1": true, "WITH x AS (SELECT 1) SELECT * FROM x": true, "PRAGMA optimize": false,
		"CREATE INDEX i ON t(x)": false, "CREATE TEMP TABLE m AS SELECT id FROM docs": true, "DELETE FROM docs WHERE id = ?": true,
		"-- why\n/* what */ SELECT 1": true, "-- SELECT\nPRAGMA x": false} {
		if explainable(stmt) != want {
			t.Errorf("explainable(%q) != %v", stmt, want)
		}
	}
}
