package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/scan"
)

// fixture writes files into a fresh folder and builds an index of them.
type fixture struct {
	t     testing.TB
	root  string
	store *index.Store
	g     *Graph
}

func newFixture(t testing.TB, files map[string]string) *fixture {
	t.Helper()
	f := &fixture{t: t, root: t.TempDir()}
	for name, body := range files {
		f.write(name, body)
	}
	st, _, err := index.Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.store = st
	f.g = New(st)
	f.rebuild()
	return f
}

func (f *fixture) write(name, body string) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) rebuild() {
	f.t.Helper()
	cfg := config.Default()
	files, err := scan.NewScope(f.root, cfg, "").Walk()
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.store.Rebuild(context.Background(), index.NewLoader(f.root, cfg), files, nil, nil); err != nil {
		f.t.Fatal(err)
	}
}

// reconcile brings the index up to date incrementally, as a sync would.
func (f *fixture) reconcile() {
	f.t.Helper()
	cfg := config.Default()
	if _, err := f.store.Reconcile(context.Background(), index.NewLoader(f.root, cfg), scan.NewScope(f.root, cfg, ""), nil); err != nil {
		f.t.Fatal(err)
	}
}

// item writes a backlog item's Markdown.
func item(id, typ, state, extra, body string) string {
	return fmt.Sprintf("---\nid: %s\ntype: %s\ntitle: %s title\nstate: %s\n%s---\n%s", id, typ, id, state, extra, body)
}

func ids(rs []Reached) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// smallGraph: task T1 under story S1 under feature F1; T1 blocked by T2,
// decided by ADR-1, referencing N1 and N2 in its body; T3 is T1's sibling;
// ADR-1 supersedes ADR-0.
func smallGraph(t *testing.T) *fixture {
	return newFixture(t, map[string]string{
		"f1.md":   item("F1", "Feature", "InProgress", "", "# Goal\nShip it.\n"),
		"s1.md":   item("S1", "UserStory", "InProgress", "parent: F1\n", "# Goal\nA story.\n"),
		"t1.md":   item("T1", "Task", "Ready", "parent: S1\nlinks:\n  blocked_by: [T2]\ndecisions: [ADR-1]\n", "# Context\nSee [[N2]] and [one](n1.md).\n# Goal\nDo the thing with webhooks.\n"),
		"t2.md":   item("T2", "Task", "InProgress", "parent: S1\n", "# Goal\nFirst things first.\n"),
		"t3.md":   item("T3", "Task", "Planned", "parent: S1\n", "# Goal\nLater.\n"),
		"adr1.md": "---\nid: ADR-1\ntitle: Use webhooks\nstatus: Accepted\nsupersedes: ADR-0\n---\n# Decision\nWebhooks it is.\n",
		"adr0.md": "---\nid: ADR-0\ntitle: Poll\nstatus: Superseded\n---\n# Decision\nPolling.\n",
		"n1.md":   "# Note one\nplain\n",
		"n2.md":   "# Note two\nplain\n",
	})
}

func TestExpandOrder(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	ex, err := f.g.Expand(ctx, []string{"T1"}, ExpandOptions{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	// parent, blocked_by, decision_ref, then references in body order.
	want := []string{"T1", "S1", "T2", "ADR-1", "n2", "n1"}
	if got := ids(ex.Nodes); !reflect.DeepEqual(got, want) {
		t.Fatalf("depth 1 = %v, want %v", got, want)
	}
	if v := ex.Nodes[2].Via; v.Type != EdgeBlockedBy || v.Direction != Out || v.FromID != "T1" || v.Line != 8 {
		t.Fatalf("via of T2 = %+v", v)
	}

	ex, err = f.g.Expand(ctx, []string{"T1"}, ExpandOptions{Depth: 2, Direction: Both})
	if err != nil {
		t.Fatal(err)
	}
	// Depth 2: S1's parent F1, then S1's other children (incoming parent,
	// by key), then ADR-1's supersedes.
	want = []string{"T1", "S1", "T2", "ADR-1", "n2", "n1", "F1", "T3", "ADR-0"}
	if got := ids(ex.Nodes); !reflect.DeepEqual(got, want) {
		t.Fatalf("depth 2 = %v, want %v", got, want)
	}
	for _, r := range ex.Nodes[6:] {
		if r.Depth != 2 {
			t.Errorf("%s at depth %d", r.ID, r.Depth)
		}
	}
	if v := ex.Nodes[7].Via; v.Type != EdgeParent || v.Direction != In || v.FromID != "S1" {
		t.Fatalf("via of T3 = %+v", v)
	}

	ex, err = f.g.Expand(ctx, []string{"S1"}, ExpandOptions{Depth: 1, Direction: In})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(ex.Nodes), []string{"S1", "T1", "T2", "T3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("in = %v, want %v", got, want)
	}
}

func TestExpandCaps(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	tests := []struct {
		name         string
		opt          ExpandOptions
		want         []string
		nodeCapped   bool
		fanoutCapped int
	}{
		{"fan-out", ExpandOptions{Depth: 1, MaxPerNode: 2}, []string{"T1", "S1", "T2"}, false, 1},
		{"node cap", ExpandOptions{Depth: 2, MaxNodes: 4}, []string{"T1", "S1", "T2", "ADR-1"}, true, 0},
		{"allowlist", ExpandOptions{Depth: 3, Edges: []string{EdgeParent}, Direction: Out}, []string{"T1", "S1", "F1"}, false, 0},
		{"depth 0", ExpandOptions{Depth: 0}, []string{"T1"}, false, 0},
		{"fan-out per node at depth 2", ExpandOptions{Depth: 2, MaxPerNode: 1, Edges: []string{EdgeParent}}, []string{"T1", "S1", "F1"}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := f.g.Expand(ctx, []string{"T1"}, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(ex.Nodes); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("nodes = %v, want %v", got, tt.want)
			}
			if ex.NodeCapped != tt.nodeCapped || ex.FanoutCapped != tt.fanoutCapped {
				t.Errorf("capped = %v/%d, want %v/%d", ex.NodeCapped, ex.FanoutCapped, tt.nodeCapped, tt.fanoutCapped)
			}
		})
	}
}

func TestExpandSeedsAndErrors(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	// A seed reached again stays a seed, at depth 0.
	ex, err := f.g.Expand(ctx, []string{"T1", "T2", "T1"}, ExpandOptions{Depth: 1, Edges: []string{EdgeBlockedBy}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Nodes) != 2 || !ex.Nodes[1].Seed || ex.Nodes[1].Via != nil {
		t.Fatalf("nodes = %+v", ex.Nodes)
	}
	if _, err := f.g.Expand(ctx, []string{"NOPE"}, ExpandOptions{}); err == nil {
		t.Fatal("an unknown seed was accepted")
	} else if nf := (*index.NotFoundError)(nil); !errors.As(err, &nf) {
		t.Fatalf("err = %v, want a NotFoundError", err)
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	res, err := f.g.Path(ctx, "T3", "ADR-0", PathOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Steps {
		step := s.ID
		if s.Via != nil {
			step = fmt.Sprintf("%s(%s,%s)", s.ID, s.Via.Type, s.Via.Direction)
		}
		got = append(got, step)
	}
	want := []string{"T3", "S1(parent,out)", "T1(parent,in)", "ADR-1(decision_ref,out)", "ADR-0(supersedes,out)"}
	if !res.Found || !reflect.DeepEqual(got, want) {
		t.Fatalf("path = %v (found %v), want %v", got, res.Found, want)
	}
	res, err = f.g.Path(ctx, "T3", "ADR-0", PathOptions{Direction: Out})
	if err != nil || res.Found {
		t.Fatalf("following edges out only found %+v, %v", res, err)
	}
	res, err = f.g.Path(ctx, "T3", "ADR-0", PathOptions{MaxDepth: 3})
	if err != nil || res.Found {
		t.Fatalf("a path of 4 hops was found within 3: %+v, %v", res, err)
	}
	res, err = f.g.Path(ctx, "T3", "T3", PathOptions{})
	if err != nil || !res.Found || len(res.Steps) != 1 {
		t.Fatalf("path to itself = %+v, %v", res, err)
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		"a.md": item("A", "Task", "Ready", "parent: B\n", ""),
		"b.md": item("B", "Task", "Ready", "parent: C\n", ""),
		"c.md": item("C", "Task", "Ready", "parent: A\n", ""), // A → B → C → A
		"p.md": item("P", "Task", "Ready", "links:\n  blocks: [Q]\n", ""),
		"q.md": item("Q", "Task", "Ready", "links:\n  blocks: [P]\n", ""), // P ⇄ Q
		"x.md": item("X", "Bug", "Ready", "parent: GONE\n", "[[also-gone]]\n"),
		"y.md": "# lonely\n",
	})
	st, err := f.g.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Nodes != 7 || st.NodesByKind["task"] != 5 || st.NodesByKind["bug"] != 1 || st.NodesByKind["doc"] != 1 {
		t.Errorf("nodes = %d %v", st.Nodes, st.NodesByKind)
	}
	if st.Edges != 5 || st.EdgesByType["parent"] != 3 || st.EdgesByType["blocks"] != 2 {
		t.Errorf("edges = %d %v", st.Edges, st.EdgesByType)
	}
	if st.Dangling != 2 || st.DanglingByType["parent"] != 1 || st.DanglingByType["references"] != 1 {
		t.Errorf("dangling = %d %v", st.Dangling, st.DanglingByType)
	}
	if st.Components != 4 || st.LargestComponent != 3 || st.Isolated != 2 {
		t.Errorf("components = %d, largest %d, isolated %d", st.Components, st.LargestComponent, st.Isolated)
	}
	cyc := func(cs []Cycle) []string {
		var out []string
		for _, c := range cs {
			var s []string
			for _, n := range c.Nodes {
				s = append(s, n.ID)
			}
			out = append(out, fmt.Sprintf("%s simple=%v", strings.Join(s, ">"), c.Simple))
		}
		return out
	}
	if got := cyc(st.ParentCycles); !reflect.DeepEqual(got, []string{"A>B>C simple=true"}) {
		t.Errorf("parent cycles = %v", got)
	}
	if got := cyc(st.BlockingCycles); !reflect.DeepEqual(got, []string{"P>Q simple=true"}) {
		t.Errorf("blocking cycles = %v", got)
	}
}

func TestSCCLongChain(t *testing.T) {
	t.Parallel()
	// A chain far longer than a recursive Tarjan could take, closed into
	// one cycle.
	n := 200000
	adj := make([][]int32, n)
	for i := range adj {
		adj[i] = []int32{int32((i + 1) % n)}
	}
	comps := sccs(adj)
	if len(comps) != 1 || len(comps[0]) != n {
		t.Fatalf("got %d components", len(comps))
	}
}

func TestExport(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		"a.md": item("A", "Task", "Ready", "parent: B\n", "see [[b]] and [[b]]\n"),
		"b.md": "---\nid: B\ntype: Story\ntitle: \"Say \\\"hi\\\" | #1\"\n---\n",
		"c.md": "# C\n",
	})
	ctx := context.Background()
	var dot, mer, nodes, edges, js strings.Builder
	for _, sink := range []Sink{DOT(&dot), Mermaid(&mer), JSONL(&nodes, &edges), JSON(&js)} {
		res, err := f.g.Export(ctx, ExportOptions{}, sink)
		if err != nil {
			t.Fatal(err)
		}
		if res.Nodes != 3 || res.Edges != 2 {
			t.Fatalf("exported %+v", res)
		}
	}
	wantDot := `digraph canon {
  node [shape=box, fontname="Helvetica"];
  "A" [label="A\nA title", kind="task"];
  "B" [label="B\nSay \"hi\" | #1", kind="story"];
  "c.md" [label="c\nC", kind="doc"];
  "A" -> "B" [label="parent"];
  "A" -> "B" [label="references"];
}
`
	wantMermaid := `flowchart LR
  n1["A: A title"]
  n2["B: Say #quot;hi#quot; #124; #35;1"]
  n3["c: C"]
  n1 -->|parent| n2
  n1 -->|references| n2
`
	wantNodes := `{"key":"A","id":"A","path":"a.md","kind":"task","title":"A title","state":"Ready"}
{"key":"B","id":"B","path":"b.md","kind":"story","title":"Say \"hi\" | #1"}
{"key":"c.md","id":"c","path":"c.md","kind":"doc","title":"C"}
`
	wantEdges := `{"src":"A","dst":"B","type":"parent","field":"parent","line":6}
{"src":"A","dst":"B","type":"references","line":8}
`
	wantJSON := `{
  "nodes": [
    {"key":"A","id":"A","path":"a.md","kind":"task","title":"A title","state":"Ready"},
    {"key":"B","id":"B","path":"b.md","kind":"story","title":"Say \"hi\" | #1"},
    {"key":"c.md","id":"c","path":"c.md","kind":"doc","title":"C"}
  ],
  "edges": [
    {"src":"A","dst":"B","type":"parent","field":"parent","line":6},
    {"src":"A","dst":"B","type":"references","line":8}
  ]
}
`
	for _, c := range []struct{ name, got, want string }{
		{"dot", dot.String(), wantDot}, {"mermaid", mer.String(), wantMermaid},
		{"nodes", nodes.String(), wantNodes}, {"edges", edges.String(), wantEdges},
		{"json", js.String(), wantJSON},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, c.got, c.want)
		}
	}
	// From a root: the same order, only what it reaches.
	js.Reset()
	res, err := f.g.Export(ctx, ExportOptions{Roots: []string{"B"}, Depth: 0}, JSON(&js))
	if err != nil || res.Nodes != 1 || res.Edges != 0 {
		t.Fatalf("root export = %+v, %v", res, err)
	}
	if want := "{\n  \"nodes\": [\n    {\"key\":\"B\",\"id\":\"B\",\"path\":\"b.md\",\"kind\":\"story\",\"title\":\"Say \\\"hi\\\" | #1\"}\n  ],\n  \"edges\": []\n}\n"; js.String() != want {
		t.Fatalf("root export:\n%s", js.String())
	}
	var a, b strings.Builder
	if _, err := f.g.Export(ctx, ExportOptions{Roots: []string{"A"}, Depth: 1}, JSONL(&a, &b)); err != nil {
		t.Fatal(err)
	}
	if a.String() != strings.Join(strings.SplitAfter(wantNodes, "\n")[:2], "") || b.String() != wantEdges {
		t.Fatalf("export from A differs from the whole graph:\n%s%s", a.String(), b.String())
	}
}

func packJSON(t *testing.T, p *Pack) string {
	t.Helper()
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
