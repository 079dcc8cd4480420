package graph

import (
	"context"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/filter"
)

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
		flt, err := filter.Compile(text)
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
func filterKeys(ctx context.Context, st *index.Store, flt *filter.Filter) ([]string, error) {
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
