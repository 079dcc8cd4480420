package graph

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/hang"
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
	var w *Work
	var err error
	hang.Go(t, "Work did not return: a cycle is walked forever", func() {
		w, err = f.g.Work(context.Background(), WorkOptions{States: config.DefaultStates()})
	})
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

// TestReadyLimit checks the answer canon ready, canon blocked and their
// MCP tools share: the first items by the limit (work.limit unless asked),
// how many more, the size of the other list, and the unknown states.
func TestReadyLimit(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"b1.md":  item("B1", "Task", "Ready", "priority: low\nlinks:\n  blocked_by: [R1]\n", ""),
		"b2.md":  item("B2", "Task", "Blocked", "", ""),
		"b3.md":  item("B3", "Task", "Blocked", "priority: high\n", ""),
		"new.md": item("N1", "Task", "New", "", ""),
	}
	for i := 1; i <= 5; i++ {
		files[fmt.Sprintf("r%d.md", i)] = item(fmt.Sprintf("R%d", i), "Task", "To Do", "", "")
	}
	f := newFixture(t, files)
	ctx := context.Background()
	opt := WorkOptions{States: config.DefaultStates(), Work: config.DefaultWork()}
	opt.Work.Limit = 3
	for _, tt := range []struct {
		name        string
		q           WorkQuery
		ready       string
		readyMore   int
		blocked     string
		blockedMore int
	}{
		{"work.limit by default", WorkQuery{WorkOptions: opt}, "R1 R2 R3", 2, "B3 B1 B2", 0},
		{"a limit asked for", WorkQuery{WorkOptions: opt, Limit: 2}, "R1 R2", 3, "B3 B1", 1},
		{"all", WorkQuery{WorkOptions: opt, Limit: 2, All: true}, "R1 R2 R3 R4 R5", 0, "B3 B1 B2", 0},
		{"a limit above the count", WorkQuery{WorkOptions: opt, Limit: 50}, "R1 R2 R3 R4 R5", 0, "B3 B1 B2", 0},
	} {
		r, err := f.g.Ready(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.g.Blocked(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var rs, bs []string
		for _, it := range r.Ready {
			rs = append(rs, it.ID)
		}
		for _, it := range b.Blocked {
			bs = append(bs, it.ID)
		}
		if got := strings.Join(rs, " "); got != tt.ready || r.Truncated != tt.readyMore || r.BlockedCount != 3 {
			t.Errorf("%s: ready %q, %d more, %d blocked; want %q, %d more, 3 blocked", tt.name, got, r.Truncated, r.BlockedCount, tt.ready, tt.readyMore)
		}
		if got := strings.Join(bs, " "); got != tt.blocked || b.Truncated != tt.blockedMore || b.ReadyCount != 5 {
			t.Errorf("%s: blocked %q, %d more, %d ready; want %q, %d more, 5 ready", tt.name, got, b.Truncated, b.ReadyCount, tt.blocked, tt.blockedMore)
		}
		if want := []StateCount{{"New", 1}}; !reflect.DeepEqual(r.Unknown, want) || !reflect.DeepEqual(b.Unknown, want) {
			t.Errorf("%s: unknown states %v and %v, want %v", tt.name, r.Unknown, b.Unknown, want)
		}
	}
	var text strings.Builder
	r, _ := f.g.Ready(ctx, WorkQuery{WorkOptions: opt})
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := "5 ready (3 listed, 2 more: --limit N or --all), 3 blocked (canon blocked)\n" +
		"1 item in a state that is neither open nor done, not listed: New (1); list each in states.open or states.done\n"
	if got := text.String(); !strings.HasSuffix(got, want) {
		t.Errorf("text ends\n%s\nwant\n%s", got, want)
	}
}

// TestUnknownStatesStayOneLine: free-text states (a paragraph in status:)
// are clipped, and past eight the rest are counted, so the line stays a
// line (it was 5,430 characters on a real backlog).
func TestUnknownStatesStayOneLine(t *testing.T) {
	var us []StateCount
	for i := 0; i < 12; i++ {
		us = append(us, StateCount{State: fmt.Sprintf("Accepted (goga, 2026-07-%02d) — hold for now; stay on the plan we had", i), Count: 1})
	}
	var b strings.Builder
	if err := writeUnknown(&b, us); err != nil {
		t.Fatal(err)
	}
	line := b.String()
	if len(line) > 600 || strings.Count(line, "\n") != 1 || !strings.Contains(line, ", 4 more states (--json lists them); ") {
		t.Errorf("%d characters: %q", len(line), line)
	}
}

// A decision record or a proposal that names neither a type nor an id
// (docs/adr/0007-cache.md, docs/proposals/x.md) is no work to pick up:
// ready and blocked list it only when its kind is asked for, and it still
// blocks what waits for it. A plain note with a state elsewhere (a TODO
// note) is work.
func TestRecordsAreNoWork(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		"docs/adr/0007-cache.md":   "---\ntitle: Cache\nstatus: Proposed\n---\n# Cache\n",
		"docs/proposals/search.md": "---\ntitle: Search\nstatus: To Do\n---\n# Search\n",
		"t1.md":                    item("T1", "Task", "To Do", "blocked_by: [docs/adr/0007-cache.md]\n", ""),
		"back-1.md":                "---\nid: BACK-1\ntitle: One\nstatus: To Do\n---\n# One\n",
		"todo/fix-login.md":        "---\ntitle: Fix login\nstatus: todo\npriority: high\n---\n# Fix login\n",
	})
	ctx := context.Background()
	opt := WorkOptions{States: config.DefaultStates(), Work: config.DefaultWork()}
	opt.States.Open = append(opt.States.Open, "todo")
	ids := func(kinds ...string) (ready, blocked []string) {
		t.Helper()
		o := opt
		o.Kinds = kinds
		w, err := f.g.Work(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range w.Ready {
			ready = append(ready, it.ID)
		}
		for _, it := range w.Blocked {
			blocked = append(blocked, it.ID)
		}
		return ready, blocked
	}
	ready, blocked := ids()
	if !reflect.DeepEqual(ready, []string{"fix-login", "BACK-1"}) || !reflect.DeepEqual(blocked, []string{"T1"}) {
		t.Fatalf("ready %v, blocked %v; want [fix-login BACK-1] and [T1]: the proposed decision and the proposal are no work, the TODO note is, and the decision still blocks T1", ready, blocked)
	}
	if ready, _ := ids("doc", "adr"); !reflect.DeepEqual(ready, []string{"fix-login", "0007-cache", "BACK-1", "search"}) {
		t.Fatalf("--kind doc,adr: ready %v, want the records too", ready)
	}
}

// A repository whose documents have no state says so, instead of an
// unexplained "0 ready, 0 blocked".
func TestReadyWithoutStates(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{"a.md": "# A\n", "b.md": "---\ntitle: B\n---\n# B\n"})
	r, err := f.g.Ready(context.Background(), WorkQuery{WorkOptions: WorkOptions{States: config.DefaultStates(), Work: config.DefaultWork()}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !r.NoStates || !strings.Contains(b.String(), "\nno document of the kinds listed has a state (state: or status: in its frontmatter): nothing here is open work\n") {
		t.Fatalf("no_states %v, text %q", r.NoStates, b.String())
	}
	g := newFixture(t, map[string]string{"a.md": item("T1", "Task", "Done", "", "")})
	if r, err := g.g.Ready(context.Background(), WorkQuery{WorkOptions: WorkOptions{States: config.DefaultStates(), Work: config.DefaultWork()}}); err != nil || r.NoStates {
		t.Fatalf("a done task is a state: no_states %v, %v", r.NoStates, err)
	}
}
