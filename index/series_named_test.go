package index

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// NamedPathsOf reads the file names that start with one series' prefix
// from a range of docs_named (a search, not a scan of every named path:
// canon new's cost no longer grows with the repository), and finds them
// in any folder and in any case.
func TestNamedPathsOf(t *testing.T) {
	st, _, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, p := range []string{
		"backlog/tasks/task-35 - Fix-x.md", "backlog/tasks/TASK-36.md", "task-37.md", "deep/er/task-38 - y.md",
		"backlog/tasks/tasks-1.md", "backlog/tasks/xtask-2.md", "notes/task-list.md", "task-/task-9.md", "docs/adr-004-x.md",
	} {
		if _, err := st.h.DB.Exec(`INSERT INTO docs VALUES (?, ?, '', 0, 0, ?, ?, '', 0, '', 0, '', '', '', '', '', '{}', '{}', '', '', 0, 0, '', '')`, i+1, p, p, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.NamedPathsOf(context.Background(), "task-")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"backlog/tasks/TASK-36.md", "backlog/tasks/task-35 - Fix-x.md", "deep/er/task-38 - y.md", "task-/task-9.md", "task-37.md"}
	if !slices.Equal(got, want) {
		t.Errorf("NamedPathsOf(task-) = %q, want %q", got, want)
	}
	var plan []string
	rows, err := st.h.DB.Query(`EXPLAIN QUERY PLAN `+namedOfSeries, "task-", "task.")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if len(plan) != 1 || !strings.HasPrefix(plan[0], "SEARCH docs USING INDEX docs_named (") {
		t.Errorf("the named paths of one series: plan %q, want a search of docs_named", plan)
	}
}
