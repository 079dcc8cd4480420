package graph

import (
	"context"

	"github.com/canon-md/canon/index"
)

// ExpandOptions bound a breadth-first expansion.
type ExpandOptions struct {
	Depth      int       // hops from the seeds
	Edges      []string  // edge types to follow; none means all
	Direction  Direction // which way to follow them ("" is both)
	MaxPerNode int       // new neighbours one node may add; 0 means no cap
	MaxNodes   int       // nodes in the result, seeds included; 0 means no cap

	// keep, when set, says which candidates may join; a rejected node is
	// neither listed nor expanded through.
	keep func(ctx context.Context, ids []index.DocID) (map[index.DocID]bool, error)
}

// Reached is a node an expansion reached, and how.
type Reached struct {
	index.DocRef
	Depth int  `json:"depth"`
	Seed  bool `json:"seed,omitempty"`
	Via   *Via `json:"via,omitempty"` // nil for a seed

	id index.DocID
}

// Via is the edge by which a neighbour was first reached.
type Via struct {
	From      string    `json:"from"`    // node key of the node expanded
	FromID    string    `json:"from_id"` // its display id
	Type      string    `json:"type"`
	Direction Direction `json:"direction"` // out: from → this node; in: this node → from
	Field     string    `json:"field,omitempty"`
	Line      int       `json:"line"` // where the edge is written, in its source document
}

// Expansion is the result of Expand, in discovery order: the seeds in the
// order given, then depth 1, depth 2 and so on; within a depth, the
// neighbours of earlier nodes first, each node's by edge type, direction,
// source order and key (see link.less).
type Expansion struct {
	Nodes []Reached `json:"nodes"`
	// NodeCapped says max_nodes stopped the expansion.
	NodeCapped bool `json:"node_capped"`
	// FanoutCapped counts the nodes that had more new neighbours than
	// max_per_node allowed.
	FanoutCapped int `json:"fanout_capped"`
}

// Expand walks from the seeds (references as Find takes them) breadth first.
func (g *Graph) Expand(ctx context.Context, seeds []string, opt ExpandOptions) (*Expansion, error) {
	nodes := make([]node, 0, len(seeds))
	for _, s := range seeds {
		n, err := g.resolve(ctx, s)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return g.expand(ctx, nodes, opt)
}

func (g *Graph) expand(ctx context.Context, seeds []node, opt ExpandOptions) (*Expansion, error) {
	return breadthFirst(ctx, g, seeds, opt)
}

// neighbourhood is what an expansion reads, a frontier at a time: the
// links of the frontier's nodes, each node's in link.less order, and the
// refs of the nodes it reached. The index answers (*Graph); tests answer
// from memory.
type neighbourhood interface {
	links(ctx context.Context, ids []index.DocID, types []string, dir Direction) (map[index.DocID][]link, error)
	refs(ctx context.Context, ids []index.DocID) (map[index.DocID]index.DocRef, error)
}

func (g *Graph) refs(ctx context.Context, ids []index.DocID) (map[index.DocID]index.DocRef, error) {
	return g.st.DocRefs(ctx, ids)
}

// breadthFirst is the expansion itself: seeds first, as given, then each
// depth in turn; within a depth the frontier's nodes in order, each one's
// new neighbours in link order, until MaxPerNode (per node) or MaxNodes
// (in all) stops it. What it reads comes from nb.
func breadthFirst(ctx context.Context, nb neighbourhood, seeds []node, opt ExpandOptions) (*Expansion, error) {
	ex := &Expansion{}
	seen := make(map[index.DocID]int, len(seeds)) // id → index in ex.Nodes
	var frontier []index.DocID
	for _, s := range seeds {
		if _, dup := seen[s.id]; dup {
			continue
		}
		if opt.MaxNodes > 0 && len(ex.Nodes) >= opt.MaxNodes {
			ex.NodeCapped = true
			break
		}
		seen[s.id] = len(ex.Nodes)
		ex.Nodes = append(ex.Nodes, Reached{DocRef: s.ref, Seed: true, id: s.id})
		frontier = append(frontier, s.id)
	}
	for depth := 1; depth <= opt.Depth && len(frontier) > 0 && !ex.NodeCapped; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		links, err := nb.links(ctx, frontier, opt.Edges, opt.Direction)
		if err != nil {
			return nil, err
		}
		kept, err := keptOf(ctx, opt, frontier, links, seen)
		if err != nil {
			return nil, err
		}
		next := expandLevel(ex, seen, frontier, links, kept, depth, opt)
		refs, err := nb.refs(ctx, next)
		if err != nil {
			return nil, err
		}
		for _, id := range next {
			ex.Nodes[seen[id]].DocRef = refs[id]
		}
		frontier = next
	}
	return ex, nil
}

// keptOf asks opt.keep (when set) which of the frontier's new neighbours
// may join; nil means all may.
func keptOf(ctx context.Context, opt ExpandOptions, frontier []index.DocID, links map[index.DocID][]link, seen map[index.DocID]int) (map[index.DocID]bool, error) {
	if opt.keep == nil {
		return nil, nil
	}
	var cands []index.DocID
	for _, f := range frontier {
		for _, l := range links[f] {
			if _, ok := seen[l.Other]; !ok {
				cands = append(cands, l.Other)
			}
		}
	}
	return opt.keep(ctx, uniq(cands))
}

// expandLevel adds the nodes one depth reaches to ex and returns them, in
// order: the next frontier.
func expandLevel(ex *Expansion, seen map[index.DocID]int, frontier []index.DocID, links map[index.DocID][]link, kept map[index.DocID]bool, depth int, opt ExpandOptions) []index.DocID {
	var next []index.DocID
	for _, f := range frontier {
		from := ex.Nodes[seen[f]]
		taken := 0
		for _, l := range links[f] {
			if _, ok := seen[l.Other]; ok {
				continue
			}
			if kept != nil && !kept[l.Other] {
				continue
			}
			if opt.MaxPerNode > 0 && taken >= opt.MaxPerNode {
				ex.FanoutCapped++
				break
			}
			if opt.MaxNodes > 0 && len(ex.Nodes) >= opt.MaxNodes {
				ex.NodeCapped = true
				return next
			}
			r := Reached{Depth: depth, id: l.Other, Via: &Via{
				From: from.Key, FromID: from.ID, Type: l.Type, Direction: dirOf(l), Field: l.Field, Line: l.Line,
			}}
			seen[l.Other] = len(ex.Nodes)
			ex.Nodes = append(ex.Nodes, r)
			next = append(next, l.Other)
			taken++
		}
	}
	return next
}

func uniq(ids []index.DocID) []index.DocID {
	seen := make(map[index.DocID]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
