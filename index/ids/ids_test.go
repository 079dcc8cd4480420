package ids

import (
	"context"
	"testing"

	"github.com/canon-md/canon/index/config"
)

func TestCollisions(t *testing.T) {
	cfg := config.Default()
	docs := []Doc{
		{Path: "tasks/a.md", Ident: "KB-1"},
		{Path: "tasks/b.md", Ident: "kb-1"},   // another item, another case: a collision
		{Path: "archive/c.md", Ident: "KB-1"}, // archived: its id is free again
		{Path: "tasks/d.md", Ident: "KB-2", UID: "01a"},
		{Path: "other/d.md", Ident: "KB-2", UID: "01A"}, // one item in two places
		{Path: "tasks/e.md", Ident: "KB-3"},
	}
	got := Collisions(docs, cfg)
	if len(got) != 1 || got[0].Ident != "KB-1" || len(got[0].Docs) != 2 || got[0].Docs[0].Path != "tasks/a.md" || got[0].Docs[1].Path != "tasks/b.md" {
		t.Fatalf("Collisions = %+v, want KB-1 in tasks/a.md and tasks/b.md", got)
	}
}

func TestNextID(t *testing.T) {
	docs := []Doc{
		{Ident: "KB-TSK-0007", Kind: "task"}, {Ident: "KB-TSK-0012", Kind: "task"}, {Ident: "KB-TSK-0012.1", Kind: "task"},
		{Ident: "task-9", Kind: "bug"}, {Ident: "ADR-0043", Kind: "adr"},
	}
	for _, c := range []struct{ kind, prefix string }{{"task", "KB-TSK-"}, {"adr", "ADR-"}, {"TASK", "KB-TSK-"}, {"kb-tsk", "KB-TSK-"}, {"bug", "task-"}} {
		if p, ok := PrefixOf(docs, c.kind); !ok || p != c.prefix {
			t.Errorf("PrefixOf(%s) = %q, %v; want %q", c.kind, p, ok, c.prefix)
		}
	}
	if _, ok := PrefixOf(docs, "epic"); ok {
		t.Errorf("PrefixOf(epic) found a prefix no id carries")
	}
	taken := []string{"KB-TSK-0007", "kb-tsk-0012", "KB-TSK-0012.1", "KB-TSK-x", "task-9", "task-10"}
	for _, c := range []struct{ prefix, want string }{{"KB-TSK-", "KB-TSK-0013"}, {"task-", "task-11"}, {"ADR-", "ADR-1"}} {
		if got := Next(c.prefix, taken); got != c.want {
			t.Errorf("Next(%s) = %s, want %s", c.prefix, got, c.want)
		}
	}
	if _, n, w, ok := Split("ADR-0099"); !ok || n != 99 || w != 4 {
		t.Errorf("Split(ADR-0099) = %d, %d, %v", n, w, ok)
	}
}

// The number a file name carries is taken, whatever its frontmatter:
// Backlog.md's archived "task-35 - Old.md" without an id holds task-35,
// and so does a task whose file kept its old name.
func TestNextFreeCountsFileNames(t *testing.T) {
	cfg := config.Default()
	docs := []Doc{
		{Path: "backlog/tasks/task-33 - Start.md", Ident: "task-33", Kind: "task"},
		{Path: "backlog/tasks/task-34 - First.md", Ident: "task-34", Kind: "task"},
		{Path: "backlog/archive/tasks/task-35 - Old.md", Kind: "doc"},
		{Path: "backlog/tasks/task-38 - Renumbered.md", Ident: "task-30", Kind: "task"},
		{Path: "notes/task-list.md", Kind: "doc"},
	}
	id, err := NextFree(context.Background(), docs[:3], cfg, "task", "", nil)
	if err != nil || id != "task-36" {
		t.Fatalf("NextFree = %q, %v; want task-36 (task-35's file holds 35)", id, err)
	}
	if id, _ := NextFree(context.Background(), docs, cfg, "task", "", nil); id != "task-39" {
		t.Fatalf("NextFree = %q; want task-39 (a file named task-38 holds 38)", id)
	}
}

// A child's id is numbered in its parent's series; an id of no series is
// its letters.
func TestSeries(t *testing.T) {
	for id, want := range map[string]struct {
		prefix string
		n      int64
	}{"KB-TSK-0012": {"KB-TSK-", 12}, "BACK-12.1": {"BACK-", 12}, "BACK-12": {"BACK-", 12}, "notes": {"notes", 0}, "v2.x": {"v2.x", 0}} {
		if p, n := Series(id); p != want.prefix || n != want.n {
			t.Errorf("Series(%q) = %q, %d; want %q, %d", id, p, n, want.prefix, want.n)
		}
	}
	if p, n, ok := Child("BACK-12.3"); !ok || p != "BACK-12" || n != 3 {
		t.Errorf("Child(BACK-12.3) = %q, %d, %v", p, n, ok)
	}
	if _, _, ok := Child("BACK-12"); ok {
		t.Errorf("Child(BACK-12) says it names a child")
	}
}

func TestIndexedSeries(t *testing.T) {
	for prefix, want := range map[string]bool{"BACK-": true, "task-": true, "KB-TSK-": true, "": false, "Ü-": false, "BACK": true} {
		if got := IndexedSeries(prefix); got != want {
			t.Errorf("IndexedSeries(%q) = %v, want %v", prefix, got, want)
		}
	}
}
