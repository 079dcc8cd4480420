package graph

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/config"
)

func TestWork(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		// Done blockers do not block.
		"a.md":    item("A", "Task", "Ready", "priority: P1\nlinks:\n  blocked_by: [DONE]\n", ""),
		"done.md": item("DONE", "Task", "Done", "", ""),
		// An open blocker, written on either side.
		"b.md": item("B", "Task", "Ready", "priority: P0\nlinks:\n  blocked_by: [A]\n", ""),
		"c.md": item("C", "Task", "Planned", "priority: P2\n", ""),
		"d.md": item("D", "Task", "Ready", "links:\n  blocks: [C]\ndepends_on: [A]\n", ""),
		// A blocking cycle: X waits for Y, Y for X.
		"x.md": item("X", "Task", "Ready", "links:\n  blocked_by: [Y]\n", ""),
		"y.md": item("Y", "Task", "Ready", "links:\n  blocked_by: [X]\n", ""),
		// A parent cycle P1 → P2 → P1, and P2 is blocked: its children
		// inherit the blocker without walking round forever.
		"p1.md":    item("P1", "Feature", "InProgress", "parent: P2\n", ""),
		"p2.md":    item("P2", "Epic", "InProgress", "parent: P1\nlinks:\n  blocked_by: [EXT]\n", ""),
		"ext.md":   item("EXT", "Task", "Review", "", ""),
		"kid.md":   item("KID", "Story", "Ready", "parent: P1\n", ""),
		"stuck.md": item("STUCK", "Bug", "Blocked", "", ""),
		"note.md":  "# a note, not an item\n",
		"adr.md":   "---\nid: ADR-1\nstatus: Accepted\n---\n",
	})
	done := make(chan struct{})
	var w *Work
	var err error
	go func() {
		w, err = f.g.Work(context.Background(), WorkOptions{States: config.DefaultStates()})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Work did not return: a cycle is walked forever")
	}
	if err != nil {
		t.Fatal(err)
	}
	var ready []string
	for _, it := range w.Ready {
		ready = append(ready, it.ID)
	}
	if want := []string{"A", "EXT"}; !reflect.DeepEqual(ready, want) {
		t.Errorf("ready = %v, want %v", ready, want)
	}
	var blocked []string
	for _, b := range w.Blocked {
		var by []string
		for _, bl := range b.Blockers {
			s := bl.ID + "/" + bl.Edge
			if bl.Via != "" {
				s += "@" + bl.ViaID
			}
			by = append(by, s)
		}
		blocked = append(blocked, fmt.Sprintf("%s[%s]cycle=%v,state=%v", b.ID, strings.Join(by, " "), b.InCycle, b.StateBlocked))
	}
	want := []string{
		"B[A/blocked_by]cycle=false,state=false",
		"C[D/blocks]cycle=false,state=false",
		"D[A/depends_on]cycle=false,state=false",
		"KID[EXT/blocked_by@P2]cycle=false,state=false",
		"P1[EXT/blocked_by@P2]cycle=false,state=false",
		"P2[EXT/blocked_by]cycle=false,state=false",
		"STUCK[]cycle=false,state=true",
		"X[Y/blocked_by]cycle=true,state=false",
		"Y[X/blocked_by]cycle=true,state=false",
	}
	if !reflect.DeepEqual(blocked, want) {
		t.Errorf("blocked =\n  %s\nwant\n  %s", strings.Join(blocked, "\n  "), strings.Join(want, "\n  "))
	}

	w, err = f.g.Work(context.Background(), WorkOptions{States: config.DefaultStates(), Kinds: []string{"Story"}})
	if err != nil || len(w.Ready) != 0 || len(w.Blocked) != 1 || w.Blocked[0].ID != "KID" {
		t.Fatalf("--kind story = %+v, %v", w, err)
	}
	// What counts as done is configurable: with Review done, EXT stops
	// blocking.
	st := config.DefaultStates()
	st.Done = append(st.Done, "Review")
	w, err = f.g.Work(context.Background(), WorkOptions{States: st, Kinds: []string{"story"}})
	if err != nil || len(w.Ready) != 1 || w.Ready[0].ID != "KID" {
		t.Fatalf("with Review done: %+v, %v", w, err)
	}
}
