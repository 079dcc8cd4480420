package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestWorkArchived(t *testing.T) {
	w := DefaultWork()
	for path, want := range map[string]bool{
		"backlog/archive/tasks/task-1.md": true,
		"backlog/completed/task-2.md":     true,
		"backlog/tasks/task-3.md":         false,
		"docs/archive.md":                 false,
		"notes/archived/old.md":           true,
		"completed/x.md":                  false, // only Backlog.md's folder by default
		"_kano/backlog/_archive/KB-1.md":  true,
		"backlog/tasks/archive-plan/a.md": false,
		"":                                false,
	} {
		if got := w.Archived(path); got != want {
			t.Errorf("Archived(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestWorkFromFile(t *testing.T) {
	cfg, err := Parse(File, []byte("work:\n  kinds: [Task, bug]\n  priorities: [P0, P1]\n  archive: done-items/\n  limit: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Work
	if !reflect.DeepEqual(w.Kinds, []string{"task", "bug"}) || w.Limit != 0 || !reflect.DeepEqual(w.Archive, []string{"done-items/"}) {
		t.Fatalf("work = %+v", w)
	}
	if !w.Archived("x/done-items/a.md") || w.Archived("backlog/completed/a.md") {
		t.Error("archive patterns of the file must replace the defaults")
	}
	if !w.IsWork("task") || w.IsWork("feature") || w.IsWork("doc") {
		t.Error("work.kinds must name exactly the work kinds")
	}
	for _, bad := range []string{"work:\n  limit: -1\n", "work:\n  kinds: ['']\n", "work:\n  archive: ['']\n", "work:\n  limits: 3\n"} {
		if _, err := Parse(File, []byte(bad)); err == nil || !strings.Contains(err.Error(), "work") && !strings.Contains(err.Error(), "limits") {
			t.Errorf("Parse(%q) = %v, want an error naming the key", bad, err)
		}
	}
}

func TestWorkDefaults(t *testing.T) {
	w := DefaultWork()
	for kind, want := range map[string]bool{"task": true, "doc": true, "story": true, "feature": true, "adr": false, "Epic": false, "index": false} {
		if got := w.IsWork(kind); got != want {
			t.Errorf("IsWork(%q) = %v, want %v", kind, got, want)
		}
	}
	ps := []string{"", "low", "P1", "High", "medium", "P0", "wishlist"}
	w.SortPriorities(ps)
	if want := []string{"High", "medium", "low", "P0", "P1", "wishlist", ""}; !reflect.DeepEqual(ps, want) {
		t.Errorf("sorted priorities = %q, want %q", ps, want)
	}
}
