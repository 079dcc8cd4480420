package graph

import (
	"context"
	"fmt"
	"sort"

	"github.com/canon-md/canon/index"
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

// Stats reads the whole graph. It is the one graph query that reads every
// link; its memory is a few words per document and per edge.
func (g *Graph) Stats(ctx context.Context) (*Stats, error) {
	st := &Stats{NodesByKind: map[string]int{}, EdgesByType: map[string]int{},
		DanglingByType: map[string]int{}, AmbiguousByType: map[string]int{},
		ParentCycles: []Cycle{}, BlockingCycles: []Cycle{}}
	all, err := g.allNodes(ctx)
	if err != nil {
		return nil, err
	}
	st.Nodes = len(all.keys)
	for _, k := range all.kinds {
		st.NodesByKind[k]++
	}
	rows, err := g.db.QueryContext(ctx, `SELECT type, status, count(*) FROM links WHERE status IN ('dangling', 'ambiguous') GROUP BY type, status`)
	if err != nil {
		return nil, fmt.Errorf("count links: %w", err)
	}
	for rows.Next() {
		var typ, status string
		var n int
		if err := rows.Scan(&typ, &status, &n); err != nil {
			rows.Close()
			return nil, err
		}
		if status == index.StatusDangling {
			st.Dangling += n
			st.DanglingByType[typ] += n
		} else {
			st.Ambiguous += n
			st.AmbiguousByType[typ] += n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	n := len(all.keys)
	uf := newUnionFind(n)
	parentAdj := make([][]int32, n)
	waitAdj := make([][]int32, n)
	degree := make([]int32, n)
	err = g.eachEdge(ctx, all, func(src, dst int32, typ string) {
		st.Edges++
		st.EdgesByType[typ]++
		uf.union(src, dst)
		degree[src]++
		degree[dst]++
		switch typ {
		case EdgeParent:
			parentAdj[src] = append(parentAdj[src], dst)
		case EdgeBlockedBy, EdgeDependsOn:
			waitAdj[src] = append(waitAdj[src], dst)
		case EdgeBlocks:
			waitAdj[dst] = append(waitAdj[dst], src)
		}
	})
	if err != nil {
		return nil, err
	}
	sizes := map[int32]int{}
	for i := range n {
		sizes[uf.find(int32(i))]++
		if degree[i] == 0 {
			st.Isolated++
		}
	}
	st.Components = len(sizes)
	for _, s := range sizes {
		st.LargestComponent = max(st.LargestComponent, s)
	}
	st.ParentCycles = cyclesOf(parentAdj, all)
	st.BlockingCycles = cyclesOf(waitAdj, all)
	return st, nil
}

// allNodes holds every document, indexed densely in key order.
type allNodes struct {
	ids    []int64
	keys   []string
	idents []string
	kinds  []string
	pos    map[int64]int32
}

func (g *Graph) allNodes(ctx context.Context) (*allNodes, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT `+index.DocRefColumns+`, d.id FROM docs d ORDER BY d.key`)
	if err != nil {
		return nil, fmt.Errorf("read documents: %w", err)
	}
	defer rows.Close()
	a := &allNodes{pos: map[int64]int32{}}
	for rows.Next() {
		var id int64
		ref, err := index.ScanDocRef(rows, &id)
		if err != nil {
			return nil, err
		}
		a.pos[id] = int32(len(a.ids))
		a.ids = append(a.ids, id)
		a.keys = append(a.keys, ref.Key)
		a.idents = append(a.idents, ref.ID)
		a.kinds = append(a.kinds, ref.Kind)
	}
	return a, rows.Err()
}

// eachEdge streams every resolved edge between two different documents,
// as dense positions; it reads three columns a row and keeps nothing.
func (g *Graph) eachEdge(ctx context.Context, a *allNodes, fn func(src, dst int32, typ string)) error {
	rows, err := g.db.QueryContext(ctx, `SELECT src, dst, type FROM links WHERE status = 'ok' AND dst IS NOT NULL AND dst <> src`)
	if err != nil {
		return fmt.Errorf("read links: %w", err)
	}
	defer rows.Close()
	types := map[string]string{} // one copy of each type name
	var src, dst int64
	var raw []byte
	for rows.Next() {
		if err := rows.Scan(&src, &dst, &raw); err != nil {
			return err
		}
		typ, ok := types[string(raw)]
		if !ok {
			typ = string(raw)
			types[typ] = typ
		}
		s, ok1 := a.pos[src]
		d, ok2 := a.pos[dst]
		if ok1 && ok2 {
			fn(s, d, typ)
		}
	}
	return rows.Err()
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
func cyclesOf(adj [][]int32, a *allNodes) []Cycle {
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
			c.Nodes = append(c.Nodes, CycleNode{Key: a.keys[v], ID: a.idents[v]})
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
