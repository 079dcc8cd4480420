package graph

import (
	"context"
	"sort"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/resolve"
)

// Stats sums up the whole graph.
type Stats struct {
	Nodes       int            `json:"nodes"`
	NodesByKind map[string]int `json:"nodes_by_kind"`
	// Edges counts resolved edges between two different documents.
	Edges       int            `json:"edges"`
	EdgesByType map[string]int `json:"edges_by_type"`
	// Dangling and Ambiguous count references that name no document or more
	// than one, by edge type.
	Dangling        int            `json:"dangling"`
	DanglingByType  map[string]int `json:"dangling_by_type"`
	Ambiguous       int            `json:"ambiguous"`
	AmbiguousByType map[string]int `json:"ambiguous_by_type"`
	// Components counts weakly connected components (edge direction
	// ignored); Isolated counts the documents with no resolved edge.
	Components       int `json:"components"`
	LargestComponent int `json:"largest_component"`
	Isolated         int `json:"isolated"`
	// ParentCycles are groups of documents that are each other's ancestors;
	// BlockingCycles are groups that wait for each other through blocks,
	// blocked_by and depends_on.
	ParentCycles   []Cycle `json:"parent_cycles"`
	BlockingCycles []Cycle `json:"blocking_cycles"`
}

// Cycle is one strongly connected group of documents. When the group is a
// simple cycle, Nodes are in cycle order starting at the smallest key (the
// last one leads back to the first); otherwise they are sorted by key.
type Cycle struct {
	Nodes  []CycleNode `json:"nodes"`
	Simple bool        `json:"simple"`
}

// CycleNode names a document in a cycle.
type CycleNode struct {
	Key string `json:"key"`
	ID  string `json:"id"`
}

// Stats reads the whole graph: every document, every resolved link
// between two of them, and the counts of unresolved links. It is the one
// graph query that reads every link; it streams them into a statsGraph,
// which keeps a few words per document and per edge.
func (g *Graph) Stats(ctx context.Context) (*Stats, error) {
	sg := newStatsGraph()
	if err := g.st.EachNode(ctx, sg.addNode); err != nil {
		return nil, err
	}
	unresolved, err := g.st.UnresolvedCounts(ctx)
	if err != nil {
		return nil, err
	}
	sg.addUnresolved(unresolved)
	sg.startEdges()
	if err := g.st.EachEdge(ctx, nil, sg.addEdge); err != nil {
		return nil, err
	}
	return sg.finish(), nil
}

// statsOf is Stats over a graph in memory. Edges whose ends are not both
// among nodes, and edges from a node to itself, are not counted.
func statsOf(nodes []index.Node, edges []index.DocEdge, unresolved []index.UnresolvedCount) *Stats {
	if !sort.SliceIsSorted(nodes, func(i, j int) bool { return nodes[i].Key < nodes[j].Key }) {
		nodes = append([]index.Node{}, nodes...)
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].Key < nodes[j].Key })
	}
	sg := newStatsGraph()
	for _, n := range nodes {
		_ = sg.addNode(n) // the error is a row callback's: none here
	}
	sg.addUnresolved(unresolved)
	sg.startEdges()
	for _, e := range edges {
		_ = sg.addEdge(e)
	}
	return sg.finish()
}

// statsGraph counts a graph as it comes in: the nodes first, in key order
// (a node's dense position is its rank, which orders cycles), then the
// edges.
type statsGraph struct {
	st        *Stats
	keys, ids []string // node keys and display ids, by position
	pos       map[index.DocID]int32
	uf        *unionFind
	parentAdj [][]int32
	waitAdj   [][]int32
	degree    []int32
}

func newStatsGraph() *statsGraph {
	return &statsGraph{pos: map[index.DocID]int32{}, st: &Stats{NodesByKind: map[string]int{}, EdgesByType: map[string]int{},
		DanglingByType: map[string]int{}, AmbiguousByType: map[string]int{},
		ParentCycles: []Cycle{}, BlockingCycles: []Cycle{}}}
}

func (sg *statsGraph) addNode(n index.Node) error {
	sg.pos[n.Doc] = int32(len(sg.keys))
	sg.keys = append(sg.keys, n.Key)
	sg.ids = append(sg.ids, n.ID)
	sg.st.Nodes++
	sg.st.NodesByKind[n.Kind]++
	return nil
}

func (sg *statsGraph) addUnresolved(counts []index.UnresolvedCount) {
	for _, c := range counts {
		if c.Status == resolve.StatusDangling {
			sg.st.Dangling += c.N
			sg.st.DanglingByType[c.Type] += c.N
		} else {
			sg.st.Ambiguous += c.N
			sg.st.AmbiguousByType[c.Type] += c.N
		}
	}
}

// startEdges makes room for the edges of the nodes added.
func (sg *statsGraph) startEdges() {
	n := len(sg.keys)
	sg.uf = newUnionFind(n)
	sg.parentAdj = make([][]int32, n)
	sg.waitAdj = make([][]int32, n)
	sg.degree = make([]int32, n)
}

func (sg *statsGraph) addEdge(e index.DocEdge) error {
	src, ok1 := sg.pos[e.Src]
	dst, ok2 := sg.pos[e.Dst]
	if !ok1 || !ok2 || src == dst {
		return nil
	}
	sg.st.Edges++
	sg.st.EdgesByType[e.Type]++
	sg.uf.union(src, dst)
	sg.degree[src]++
	sg.degree[dst]++
	switch e.Type {
	case EdgeParent:
		sg.parentAdj[src] = append(sg.parentAdj[src], dst)
	case EdgeBlockedBy, EdgeDependsOn:
		sg.waitAdj[src] = append(sg.waitAdj[src], dst)
	case EdgeBlocks:
		sg.waitAdj[dst] = append(sg.waitAdj[dst], src)
	}
	return nil
}

// finish counts components and finds the cycles.
func (sg *statsGraph) finish() *Stats {
	st := sg.st
	sizes := map[int32]int{}
	for i := range sg.keys {
		sizes[sg.uf.find(int32(i))]++
		if sg.degree[i] == 0 {
			st.Isolated++
		}
	}
	st.Components = len(sizes)
	for _, s := range sizes {
		st.LargestComponent = max(st.LargestComponent, s)
	}
	st.ParentCycles = cyclesOf(sg.parentAdj, sg.keys, sg.ids)
	st.BlockingCycles = cyclesOf(sg.waitAdj, sg.keys, sg.ids)
	return st
}

type unionFind struct{ parent, rank []int32 }

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), rank: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
	}
	return u
}

func (u *unionFind) find(x int32) int32 {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

func (u *unionFind) union(a, b int32) {
	a, b = u.find(a), u.find(b)
	if a == b {
		return
	}
	if u.rank[a] < u.rank[b] {
		a, b = b, a
	}
	u.parent[b] = a
	if u.rank[a] == u.rank[b] {
		u.rank[a]++
	}
}

// cyclesOf lists the strongly connected groups of more than one node, in
// the order of their smallest key (positions are in key order already).
func cyclesOf(adj [][]int32, keys, ids []string) []Cycle {
	out := []Cycle{}
	for _, comp := range sccs(adj) {
		if len(comp) < 2 {
			continue
		}
		sort.Slice(comp, func(i, j int) bool { return comp[i] < comp[j] })
		in := make(map[int32]bool, len(comp))
		for _, v := range comp {
			in[v] = true
		}
		simple := true
		next := map[int32]int32{}
		for _, v := range comp {
			var inside []int32
			for _, w := range adj[v] {
				if in[w] && (len(inside) == 0 || inside[0] != w) {
					inside = append(inside, w)
				}
			}
			if len(inside) != 1 {
				simple = false
				break
			}
			next[v] = inside[0]
		}
		order := comp
		if simple {
			order = []int32{comp[0]}
			for v := next[comp[0]]; v != comp[0] && len(order) <= len(comp); v = next[v] {
				order = append(order, v)
			}
			if len(order) != len(comp) {
				simple, order = false, comp
			}
		}
		c := Cycle{Simple: simple}
		for _, v := range order {
			c.Nodes = append(c.Nodes, CycleNode{Key: keys[v], ID: ids[v]})
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Nodes[0].Key < out[j].Nodes[0].Key })
	return out
}

// sccs is Tarjan's algorithm without recursion, so a long chain cannot
// overflow the stack.
func sccs(adj [][]int32) [][]int32 {
	n := len(adj)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	var out [][]int32
	next := int32(0)
	type frame struct {
		v int32
		i int
	}
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: int32(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var comp []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				out = append(out, comp)
			}
		}
	}
	return out
}
