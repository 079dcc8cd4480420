package graph

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// memItems makes work items from "ID:Kind:State:Priority" specs; the row
// id is the position plus one, the key the id.
func memItems(specs ...string) []index.WorkItem {
	out := make([]index.WorkItem, len(specs))
	for i, s := range specs {
		f := strings.Split(s+":::", ":")
		out[i] = index.WorkItem{Node: index.Node{Doc: index.DocID(i + 1),
			DocRef: index.DocRef{Key: f[0], ID: f[0], Path: f[0] + ".md", Kind: f[1], Title: f[0], State: f[2]}}, Priority: f[3]}
	}
	return out
}

// memEdges makes edges from "SRC type DST" specs over items' ids
// (memDocEdges), every key an item's.
func memEdges(t *testing.T, items []index.WorkItem, specs ...string) []index.DocEdge {
	t.Helper()
	nodes := make([]index.Node, len(items))
	for i, it := range items {
		nodes[i] = it.Node
	}
	for _, s := range specs {
		if len(strings.Fields(s)) != 3 {
			t.Fatalf("bad edge %q", s)
		}
	}
	edges := memDocEdges(nodes, specs...)
	for i, e := range edges {
		if e.Src == 999 || e.Dst == 999 {
			t.Fatalf("bad edge %q: no such item", specs[i])
		}
	}
	return edges
}

// workLines writes a Work as lines: "ID" for a ready item; for a blocked
// one "ID: BLOCKER/edge[/via VIA] ..." with [state] and [cycle] marks.
func workLines(w *Work) (ready, blocked []string) {
	for _, it := range w.Ready {
		ready = append(ready, it.ID)
	}
	for _, b := range w.Blocked {
		line := b.ID
		if b.StateBlocked {
			line += " [state]"
		}
		if b.InCycle {
			line += " [cycle]"
		}
		line += ":"
		for _, bl := range b.Blockers {
			line += " " + bl.ID + "/" + bl.Edge
			if bl.Via != "" {
				line += "/via " + bl.ViaID
			}
		}
		blocked = append(blocked, line)
	}
	return ready, blocked
}

func TestSplitWork(t *testing.T) {
	custom := config.DefaultStates()
	custom.Blocked = []string{"OnHold"}
	tests := []struct {
		name    string
		items   []string
		edges   []string
		states  *config.States // nil: the defaults
		work    *config.Work   // nil: the defaults
		kinds   []string
		ready   []string
		blocked []string
		unknown []StateCount
	}{
		{
			name:  "no edges: every open item is ready, done and stateless ones are not items",
			items: []string{"A:task:Ready", "B:task:Done", "C:doc:", "D:task:InProgress"},
			ready: []string{"A", "D"},
		},
		{
			name:    "a chain waits one link at a time",
			items:   []string{"A:task:Ready", "B:task:Ready", "C:task:Ready"},
			edges:   []string{"C blocked_by B", "B blocked_by A"},
			ready:   []string{"A"},
			blocked: []string{"B: A/blocked_by", "C: B/blocked_by"},
		},
		{
			name:  "a done blocker blocks nothing",
			items: []string{"A:task:Ready", "B:task:Done"},
			edges: []string{"A blocked_by B", "A depends_on B", "B blocks A"},
			ready: []string{"A"},
		},
		{
			name:    "blocks is written on the blocker",
			items:   []string{"A:task:Ready", "B:task:Ready"},
			edges:   []string{"A blocks B"},
			ready:   []string{"A"},
			blocked: []string{"B: A/blocks"},
		},
		{
			name:    "one blocker named three ways is listed once, by the waiting item's own edge",
			items:   []string{"A:task:Ready", "B:task:Ready"},
			edges:   []string{"A blocks B", "B depends_on A", "B blocked_by A"},
			ready:   []string{"A"},
			blocked: []string{"B: A/blocked_by"},
		},
		{
			name:  "blockers are inherited up the parent chain, nearest first",
			items: []string{"E:epic:InProgress", "F:feature:Ready", "K:task:Ready", "X:task:Ready", "Y:task:Ready", "Z:task:Ready"},
			kinds: []string{"epic", "feature", "task"},
			edges: []string{"K parent F", "F parent E", "E blocked_by X", "F depends_on Y", "K blocked_by Z"},
			ready: []string{"X", "Y", "Z"},
			blocked: []string{
				"E: X/blocked_by",
				"F: Y/depends_on X/blocked_by/via E",
				"K: Z/blocked_by X/blocked_by/via E Y/depends_on/via F",
			},
		},
		{
			name:  "a done ancestor still passes its open blockers on",
			items: []string{"E:epic:Done", "K:task:Ready", "X:task:Ready"},
			edges: []string{"K parent E", "E blocked_by X"},
			ready: []string{"X"},
			blocked: []string{
				"K: X/blocked_by/via E",
			},
		},
		{
			name:    "a parent cycle is walked once",
			items:   []string{"P1:epic:InProgress", "P2:epic:InProgress", "K:task:Ready", "X:task:Review"},
			kinds:   []string{"epic", "task"},
			edges:   []string{"P1 parent P2", "P2 parent P1", "K parent P1", "P2 blocked_by X"},
			ready:   []string{"X"},
			blocked: []string{"K: X/blocked_by/via P2", "P1: X/blocked_by/via P2", "P2: X/blocked_by"},
		},
		{
			name:    "a blocking cycle is marked on each of its items",
			items:   []string{"X:task:Ready", "Y:task:Ready", "Z:task:Ready"},
			edges:   []string{"X blocked_by Y", "Y blocked_by X", "Z blocked_by X"},
			blocked: []string{"X [cycle]: Y/blocked_by", "Y [cycle]: X/blocked_by", "Z: X/blocked_by"},
		},
		{
			name:    "a cycle through a done item is no cycle",
			items:   []string{"X:task:Ready", "Y:task:Done"},
			edges:   []string{"X blocked_by Y", "Y blocked_by X"},
			ready:   []string{"X"},
			blocked: nil,
		},
		{
			name:    "a state neither open nor done is not open: not listed, blocks nothing, counted by state",
			items:   []string{"A:task:Someday", "B:task:Ready", "C:bug:New", "D:task:New", "E:adr:Draft", "archive/F:task:Someday"},
			edges:   []string{"B blocked_by A"},
			ready:   []string{"B"},
			unknown: []StateCount{{"New", 2}, {"Someday", 1}},
		},
		{
			name:    "the common spellings of open and done work out of the box",
			items:   []string{"A:doc:To Do", "B:doc:In Progress", "C:doc:Done", "D:doc:to do", "E:doc:Won't Do", "F:task:Todo"},
			edges:   []string{"A blocked_by B", "D blocked_by C", "F blocked_by E"},
			ready:   []string{"D", "F", "B"}, // B is under way: last
			blocked: []string{"A: B/blocked_by"},
		},
		{
			name:    "archived and completed items are not work: not listed, blocking nothing",
			items:   []string{"backlog/archive/tasks/A:doc:To Do", "backlog/completed/B:doc:To Do", "C:doc:To Do", "backlog/tasks/D:doc:To Do"},
			edges:   []string{"C blocked_by backlog/archive/tasks/A", "backlog/tasks/D blocked_by backlog/completed/B"},
			ready:   []string{"C", "backlog/tasks/D"},
			blocked: nil,
		},
		{
			name:    "decisions and epics are not work by default, yet they block and pass blockers on",
			items:   []string{"ADR:adr:Proposed", "E:epic:InProgress", "K:task:Ready", "T:task:Ready", "X:task:Ready", "I:index:Ready", "S:story:Ready"},
			edges:   []string{"K parent E", "E blocked_by X", "T blocked_by ADR"},
			ready:   []string{"S", "X"},
			blocked: []string{"K: X/blocked_by/via E", "T: ADR/blocked_by"},
		},
		{
			name:    "kinds asked for are listed, epics included",
			items:   []string{"ADR:adr:Proposed", "E:epic:InProgress", "K:task:Ready", "G:epic:Mulling"},
			edges:   []string{"K parent E"},
			kinds:   []string{"Epic"},
			ready:   []string{"E"},
			unknown: []StateCount{{"Mulling", 1}},
		},
		{
			name:  "work.kinds names the work kinds",
			items: []string{"ADR:adr:Proposed", "E:epic:InProgress", "K:task:Ready", "B:bug:Ready"},
			work:  &config.Work{Kinds: []string{"task", "epic"}},
			ready: []string{"K", "E"}, // E is under way: last
		},
		{
			name: "ready work first: free items, then the kinds that hold others, then those whose open children are the work, then what is under way",
			items: []string{"F1:feature:Ready", "T1:task:Ready", "F2:feature:Ready", "T2:task:Ready", "I:task:In Progress", "W:task:Doing",
				"D:task:Done", "F3:feature:Ready"},
			edges: []string{"T1 parent F1", "D parent F3"},
			ready: []string{"T1", "T2", "F2", "F3", "F1", "I", "W"},
		},
		{
			name:    "the Blocked state blocks without a recorded blocker, without case",
			items:   []string{"A:task:Blocked", "B:task:blocked", "C:task:Ready"},
			ready:   []string{"C"},
			blocked: []string{"A [state]:", "B [state]:"},
		},
		{
			name:    "blocked states come from the configuration",
			items:   []string{"A:task:Blocked", "B:task:onhold"},
			states:  &custom,
			ready:   []string{"A"},
			blocked: []string{"B [state]:"},
		},
		{
			name:    "kinds narrow the lists, not the blockers",
			items:   []string{"A:bug:Ready", "B:task:Ready", "C:task:Ready"},
			edges:   []string{"C blocked_by A"},
			kinds:   []string{"Task"},
			ready:   []string{"B"},
			blocked: []string{"C: A/blocked_by"},
		},
		{
			name:  "sorted by priority (missing last), then id",
			items: []string{"D:task:Ready", "C:task:Ready:P2", "B:task:Ready:P0", "A:task:Ready"},
			ready: []string{"B", "C", "A", "D"},
		},
		{
			name:  "priorities in the scale's order, without case, others after it in text order",
			items: []string{"A:doc:To Do:low", "B:doc:To Do:High", "C:doc:To Do:medium", "D:doc:To Do", "E:doc:To Do:someday", "F:doc:To Do:critical", "G:doc:To Do:high", "H:doc:To Do:P1"},
			ready: []string{"F", "B", "G", "C", "A", "H", "E", "D"},
		},
		{
			name:  "work.priorities is the scale",
			items: []string{"A:task:Ready:now", "B:task:Ready:later", "C:task:Ready:high"},
			work:  &config.Work{Priorities: []string{"now", "later"}},
			ready: []string{"A", "B", "C"},
		},
		{
			name:  "other edge types are ignored",
			items: []string{"A:task:Ready", "B:task:Ready"},
			edges: []string{"A relates B", "B references A"},
			ready: []string{"A", "B"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := memItems(tt.items...)
			states := config.DefaultStates()
			if tt.states != nil {
				states = *tt.states
			}
			work := config.DefaultWork()
			if tt.work != nil {
				work = *tt.work
			}
			w := splitWork(items, memEdges(t, items, tt.edges...), WorkOptions{States: states, Work: work, Kinds: tt.kinds})
			ready, blocked := workLines(w)
			if !reflect.DeepEqual(ready, tt.ready) {
				t.Errorf("ready = %q, want %q", ready, tt.ready)
			}
			if !reflect.DeepEqual(blocked, tt.blocked) {
				t.Errorf("blocked = %q, want %q", blocked, tt.blocked)
			}
			if want := append([]StateCount{}, tt.unknown...); !reflect.DeepEqual(w.Unknown, want) {
				t.Errorf("unknown states = %v, want %v", w.Unknown, tt.unknown)
			}
			if w.Ready == nil || w.Blocked == nil || w.Unknown == nil {
				t.Error("empty lists must be [], not null, in JSON")
			}
		})
	}
}

// TestSplitWorkOrderFree checks that the order edges and items arrive in
// decides nothing.
func TestSplitWorkOrderFree(t *testing.T) {
	items := memItems("E:epic:InProgress", "F:epic:InProgress", "K:task:Ready", "X:task:Ready", "Y:task:Ready")
	edges := memEdges(t, items, "K parent F", "K parent E", "E blocked_by Y", "F blocked_by X", "F blocked_by Y", "Y blocks K")
	want := fmt.Sprint(workLines(splitWork(items, edges, WorkOptions{States: config.DefaultStates()})))
	for i := range 6 {
		ri := append([]index.WorkItem{}, items...)
		re := append([]index.DocEdge{}, edges...)
		for j := range re {
			k := (j*7 + i) % len(re)
			re[j], re[k] = re[k], re[j]
		}
		for j := range ri {
			k := (j*3 + i) % len(ri)
			ri[j], ri[k] = ri[k], ri[j]
		}
		if got := fmt.Sprint(workLines(splitWork(ri, re, WorkOptions{States: config.DefaultStates()}))); got != want {
			t.Fatalf("shuffle %d: %s, want %s", i, got, want)
		}
	}
}
