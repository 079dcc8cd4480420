package graph

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

func TestCompileFilter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		sql  string
		args []any
	}{
		{"state = 'Ready'", `((d.state COLLATE NOCASE) IS ?)`, []any{"Ready"}},
		{"state != 'Dropped'", `((d.state COLLATE NOCASE) IS NOT ?)`, []any{"Dropped"}},
		{"priority <= 'P1'", `((json_extract(d.fm, ?) COLLATE NOCASE) <= ?)`, []any{`$."priority"`, "P1"}},
		{"external.jira_key IS NOT NULL", `((json_extract(d.fm, ?) COLLATE NOCASE) IS NOT NULL)`, []any{`$."external"."jira_key"`}},
		{"state IN ('Ready', 'InProgress') and priority <= 'P1'",
			`(((d.state COLLATE NOCASE) IN (?, ?)) AND ((json_extract(d.fm, ?) COLLATE NOCASE) <= ?))`,
			[]any{"Ready", "InProgress", `$."priority"`, "P1"}},
		{"NOT (kind = 'adr' OR title LIKE '%web%')",
			`(NOT (((d.kind COLLATE NOCASE) IS ?) OR ((d.title COLLATE NOCASE) LIKE ?)))`, []any{"adr", "%web%"}},
		{"id NOT IN ('a')", `((d.ident COLLATE NOCASE) NOT IN (?))`, []any{"a"}},
		{"title NOT LIKE 'x%'", `((d.title COLLATE NOCASE) NOT LIKE ?)`, []any{"x%"}},
		{"azure_id > -5 AND points = 1.5 AND done = true", `((((json_extract(d.fm, ?) COLLATE NOCASE) > ?) AND ((json_extract(d.fm, ?) COLLATE NOCASE) IS ?)) AND ((json_extract(d.fm, ?) COLLATE NOCASE) IS ?))`,
			[]any{`$."azure_id"`, int64(-5), `$."points"`, 1.5, `$."done"`, true}},
		{"title = 'it''s'", `((d.title COLLATE NOCASE) IS ?)`, []any{"it's"}},
		{"a-b <> 'x'", `((json_extract(d.fm, ?) COLLATE NOCASE) IS NOT ?)`, []any{`$."a-b"`, "x"}},
	}
	for _, tt := range tests {
		f, err := index.CompileFilter(tt.in)
		if err != nil {
			t.Errorf("index.CompileFilter(%q): %v", tt.in, err)
			continue
		}
		if f.SQL != tt.sql || !reflect.DeepEqual(f.Args, tt.args) {
			t.Errorf("index.CompileFilter(%q) =\n  %s %#v\nwant\n  %s %#v", tt.in, f.SQL, f.Args, tt.sql, tt.args)
		}
	}
}

func TestCompileFilterRejects(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, err string }{
		// Injection attempts.
		{"state = 'x'; DROP TABLE docs", "';' is not allowed"},
		{"state = 'x';", "';' is not allowed"},
		{"1=1) OR (1=1", "')' has no matching '('"},
		{"state = 'x' -- comment", "comments are not allowed"},
		{"state = 'x' /* c */", "comments are not allowed"},
		{"state = 'x' OR 1=1 --", "comments are not allowed"},
		{`"state" = 'x'`, "quoted or bracketed names"},
		{"[state] = 'x'", "quoted or bracketed names"},
		{"`state` = 'x'", "quoted or bracketed names"},
		{"load_extension('x') = 1", "unknown function load_extension"},
		{"lower(state) = 'x'", "unknown function lower"},
		{"state = char(65)", "unknown function char"},
		{"state = 'x' UNION SELECT 1", "unexpected \"UNION\""},
		{"state = 'x' state = 'y'", "unexpected \"state\""},
		{"(SELECT 1) = 1", "expected a comparison"},
		{"state = x'41'", "unexpected '41'"},
		{"state = 'unclosed", "not closed"},
		{"state == 'x'", "unknown operator"},
		{"state ! 'x'", "unknown operator"},
		{"state", "expected a comparison"},
		{"state = ", "expected a value, found the end"},
		{"(state = 'x'", "'(' is not closed"},
		{"state IN 'x'", "IN needs a list"},
		{"state IN ('a' 'b')", "expected ',' or ')'"},
		{"state IN (kind)", "expected a value, found the name kind"},
		{"state LIKE kind", "LIKE needs a 'pattern'"},
		{"state IS 'x'", "expected NULL after IS"},
		{"fm.a..b = 1", "is not a field name"},
		{"a. = 1", "is not a field name"},
		{"state = 1x", "neither a number nor a name"},
		{"state = 1.2.3", "is not a number"},
		{"state = ?", "unexpected \"?\""},
		{"state = $1", "unexpected \"$\""},
		{"", "empty"},
		{strings.Repeat("(", 40) + "a = 1" + strings.Repeat(")", 40), "nests deeper"},
		{strings.Repeat("NOT ", 40) + "a = 1", "nests deeper"},
		{"a = '" + strings.Repeat("x", 3000) + "'", "at most"},
	}
	for _, tt := range tests {
		_, err := index.CompileFilter(tt.in)
		var fe *index.FilterError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("index.CompileFilter(%.60q) err = %v, want a FilterError containing %q", tt.in, err, tt.err)
		}
	}
}

// TestFiltersRun runs compiled filters against a real index: they select
// what they say, and the hostile ones never reach SQLite.
func TestFiltersRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		"a.md": item("A", "Task", "Ready", "priority: P0\ntags: [x]\nexternal:\n  jira_key: J-1\n", ""),
		"b.md": item("B", "Task", "InProgress", "priority: P2\n", ""),
		"c.md": item("C", "Bug", "Dropped", "priority: P1\n", ""),
		"d.md": "# a note\n",
	})
	ctx := context.Background()
	run := func(text string) []string {
		t.Helper()
		flt, err := index.CompileFilter(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		out, err := filterKeys(ctx, f.store, flt)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		return out
	}
	tests := []struct {
		filter string
		want   []string
	}{
		{"state = 'ready'", []string{"A"}},
		{"state != 'Dropped'", []string{"A", "B", "d.md"}},
		{"priority <= 'P1'", []string{"A", "C"}},
		{"state IN ('Ready', 'InProgress') AND priority <= 'P1'", []string{"A"}},
		{"kind = 'task' AND NOT (state = 'Ready')", []string{"B"}},
		{"external.jira_key = 'J-1'", []string{"A"}},
		{"priority IS NULL", []string{"d.md"}},
		{"title LIKE 'b%'", []string{"B"}},
		{"id = 'x' OR 1 = 1", []string{"A", "B", "C", "d.md"}},
		{"path LIKE '%.md' AND state = ''", []string{"d.md"}},
	}
	for _, tt := range tests {
		if got := run(tt.filter); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q selects %v, want %v", tt.filter, got, tt.want)
		}
	}
	// A field name full of SQL is only a JSON path, matching nothing.
	if got := run("state = 'x' OR drop-table-docs = 1"); got != nil {
		t.Errorf("got %v", got)
	}
	var n int
	c, err := f.store.Counts(ctx)
	if err == nil {
		n = c.Documents
	}
	if err != nil || n != 4 {
		t.Fatalf("docs has %d rows, %v", n, err)
	}
}

// filterKeys runs a compiled filter against an index: the keys of the
// documents it selects, in key order.
func filterKeys(ctx context.Context, st *index.Store, flt *index.Filter) ([]string, error) {
	ids, err := st.SelectDocs(ctx, index.DocSelect{Filter: flt, Limit: -1})
	if err != nil {
		return nil, err
	}
	refs, err := st.DocRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		out = append(out, refs[id].Key)
	}
	return out, nil
}
