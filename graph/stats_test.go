package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/resolve"
)

// memNodes makes nodes from "KEY:kind" specs, row ids in the order given.
func memNodes(specs ...string) []index.Node {
	out := make([]index.Node, len(specs))
	for i, s := range specs {
		key, kind, _ := strings.Cut(s, ":")
		out[i] = index.Node{Doc: index.DocID(i + 1), DocRef: index.DocRef{Key: key, ID: "id-" + key, Kind: kind}}
	}
	return out
}

// memDocEdges makes edges from "SRC type DST" specs over nodes' keys; a
// key that is no node gets row id 999.
func memDocEdges(nodes []index.Node, specs ...string) []index.DocEdge {
	id := map[string]index.DocID{}
	for _, n := range nodes {
		id[n.Key] = n.Doc
	}
	var out []index.DocEdge
	for _, s := range specs {
		f := strings.Fields(s)
		src, dst := id[f[0]], id[f[2]]
		if src == 0 {
			src = 999
		}
		if dst == 0 {
			dst = 999
		}
		out = append(out, index.DocEdge{Src: src, Dst: dst, Type: f[1]})
	}
	return out
}

func cycleLines(cs []Cycle) []string {
	var out []string
	for _, c := range cs {
		var ids []string
		for _, n := range c.Nodes {
			ids = append(ids, n.ID)
		}
		line := strings.Join(ids, ">")
		if !c.Simple {
			line += " (not simple)"
		}
		out = append(out, line)
	}
	return out
}

func TestStatsOf(t *testing.T) {
	tests := []struct {
		name       string
		nodes      []string
		edges      []string
		unresolved []index.UnresolvedCount
		check      func(t *testing.T, st *Stats)
	}{
		{
			name:  "components, the largest and the isolated",
			nodes: []string{"a:task", "b:task", "c:epic", "d:doc", "e:doc", "f:doc"},
			edges: []string{"a parent c", "b parent c", "d references e"},
			check: func(t *testing.T, st *Stats) {
				if st.Nodes != 6 || st.Edges != 3 || st.Components != 3 || st.LargestComponent != 3 || st.Isolated != 1 {
					t.Errorf("nodes %d edges %d components %d largest %d isolated %d",
						st.Nodes, st.Edges, st.Components, st.LargestComponent, st.Isolated)
				}
				if want := map[string]int{"task": 2, "epic": 1, "doc": 3}; !reflect.DeepEqual(st.NodesByKind, want) {
					t.Errorf("by kind %v", st.NodesByKind)
				}
				if want := map[string]int{"parent": 2, "references": 1}; !reflect.DeepEqual(st.EdgesByType, want) {
					t.Errorf("by type %v", st.EdgesByType)
				}
			},
		},
		{
			name:  "edges to unknown documents and to oneself are not counted",
			nodes: []string{"a:task", "b:task"},
			edges: []string{"a relates gone", "a relates a", "a relates b"},
			check: func(t *testing.T, st *Stats) {
				if st.Edges != 1 || st.Components != 1 || st.Isolated != 0 {
					t.Errorf("edges %d components %d isolated %d", st.Edges, st.Components, st.Isolated)
				}
			},
		},
		{
			name:  "a simple parent cycle starts at the smallest key, in cycle order",
			nodes: []string{"c:epic", "a:epic", "b:epic"},
			edges: []string{"a parent c", "c parent b", "b parent a"},
			check: func(t *testing.T, st *Stats) {
				if got := cycleLines(st.ParentCycles); !reflect.DeepEqual(got, []string{"id-a>id-c>id-b"}) {
					t.Errorf("parent cycles %v", got)
				}
				if len(st.BlockingCycles) != 0 {
					t.Errorf("blocking cycles %v", cycleLines(st.BlockingCycles))
				}
			},
		},
		{
			name:  "blocking cycles follow blocks backwards, and a knot is not simple",
			nodes: []string{"p:task", "q:task", "x:task", "y:task", "z:task"},
			edges: []string{"p blocked_by q", "p blocks q", "x depends_on y", "y depends_on z", "z depends_on x", "x depends_on z"},
			check: func(t *testing.T, st *Stats) {
				want := []string{"id-p>id-q", "id-x>id-y>id-z (not simple)"}
				if got := cycleLines(st.BlockingCycles); !reflect.DeepEqual(got, want) {
					t.Errorf("blocking cycles %v, want %v", got, want)
				}
			},
		},
		{
			name:  "unresolved links are counted by status and type",
			nodes: []string{"a:task"},
			unresolved: []index.UnresolvedCount{
				{Type: "parent", Status: resolve.StatusDangling, N: 2},
				{Type: "references", Status: resolve.StatusDangling, N: 3},
				{Type: "references", Status: resolve.StatusAmbiguous, N: 1},
			},
			check: func(t *testing.T, st *Stats) {
				if st.Dangling != 5 || st.Ambiguous != 1 || st.DanglingByType["parent"] != 2 || st.AmbiguousByType["references"] != 1 {
					t.Errorf("dangling %d %v ambiguous %d %v", st.Dangling, st.DanglingByType, st.Ambiguous, st.AmbiguousByType)
				}
			},
		},
		{
			name: "an empty graph",
			check: func(t *testing.T, st *Stats) {
				if st.Nodes != 0 || st.Components != 0 || st.ParentCycles == nil || st.BlockingCycles == nil {
					t.Errorf("%+v", st)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := memNodes(tt.nodes...)
			tt.check(t, statsOf(nodes, memDocEdges(nodes, tt.edges...), tt.unresolved))
		})
	}
}
