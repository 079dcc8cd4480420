package graph

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// A task no edge reaches is not alone in its pack: the documents a search
// for its title ranks first come with it, each saying which words matched;
// a task with a neighbour gets none, and context.related 0 turns it off.
func TestLoneTaskPackAddsRelated(t *testing.T) {
	t.Parallel()
	task := func(id, title, extra, body string) string {
		return "---\nid: " + id + "\ntype: Task\ntitle: " + title + "\nstate: To Do\n" + extra + "---\n# Description\n" + body + "\n"
	}
	f := newFixture(t, map[string]string{
		"t1.md": task("T1", "Concurrent task edits lose data", "", "Two edits at once lose one."),
		"t2.md": task("T2", "Lock the task file", "", "Concurrent edits fail while an edit writes it."),
		"t3.md": task("T3", "Board shows edits", "", "The board shows concurrent edits."),
		"t4.md": task("T4", "Pick a colour", "", "Nothing about it."),
		"t5.md": task("T5", "Concurrent task edits in the web UI", "parent: T4\n", "A child."),
		"g.md":  "---\ngenerated: true\ntitle: Concurrent task edits report\n---\n# Edits\n\nconcurrent task edits lose data\n",
	})
	opt := OptionsFrom(config.DefaultContext())
	pack := func(task string, related int, set ...func(*PackOptions)) []string {
		t.Helper()
		o := opt
		o.Related = related
		for _, f := range set {
			f(&o)
		}
		p, err := f.g.ScopedPack(context.Background(), ScopedArgs{For: task, Options: o, Shares: config.DefaultContext().Scopes})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range p.Entries {
			out = append(out, e.ID+" "+e.Why.String())
		}
		return out
	}
	got := pack("T1", 2)
	if len(got) != 3 || got[0] != "T1 given seed" || !strings.HasPrefix(got[1], "T2 ") {
		t.Fatalf("T1's pack = %q, want the task and 2 related documents", got)
	}
	for _, e := range got[1:] {
		if !strings.Contains(e, "related: no edge reaches the task; a search for its title matched") || strings.HasPrefix(e, "g ") {
			t.Fatalf("T1's pack = %q: a related entry says why and is never generated", got)
		}
	}
	if got := pack("T1", 0); len(got) != 1 {
		t.Fatalf("context.related 0: T1's pack = %q, want the task alone", got)
	}
	if got := pack("T5", 2); !reflect.DeepEqual(got, []string{"T5 given seed", "T4 T5 --parent--> this (depth 1)"}) {
		t.Fatalf("T5's pack = %q: a task with a neighbour gets no related documents", got)
	}
	// An edge the pack does not follow still reaches the task; depth 0
	// asks for the task alone; max_nodes caps the related ones too.
	if got := pack("T5", 2, func(o *PackOptions) { o.Edges = []string{"blocks"} }); len(got) != 1 {
		t.Fatalf("T5's pack over blocks = %q, want the task alone: an edge reaches it", got)
	}
	if got := pack("T1", 2, func(o *PackOptions) { o.Depth = 0 }); len(got) != 1 {
		t.Fatalf("T1's pack at depth 0 = %q, want the task alone", got)
	}
	if got := pack("T1", 2, func(o *PackOptions) { o.MaxNodes = 2 }); len(got) != 2 {
		t.Fatalf("T1's pack with max_nodes 2 = %q, want 2 entries", got)
	}
}

func TestPlainWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`Do NOT "merge" (yet) OR wait*`:  "do not merge yet or wait",
		"273.03: Build core Fuse search": "273 03 build core fuse search",
		"   ":                            "",
		"Überprüfung der Änderungen":     "überprüfung der änderungen",
	} {
		if got := plainWords(in); got != want {
			t.Errorf("plainWords(%q) = %q, want %q", in, got, want)
		}
	}
}
