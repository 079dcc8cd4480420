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
	keep func(ctx context.Context, ids []int64) (map[int64]bool, error)
}

// Reached is a node an expansion reached, and how.
type Reached struct {
	index.DocRef
	Depth int  `json:"depth"`
	Seed  bool `json:"seed,omitempty"`
	Via   *Via `json:"via,omitempty"` // nil for a seed

	id int64
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
	ex := &Expansion{}
	seen := make(map[int64]int, len(seeds)) // id → index in ex.Nodes
	var frontier []int64
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
		links, err := g.links(ctx, frontier, opt.Edges, opt.Direction)
		if err != nil {
			return nil, err
		}
		var kept map[int64]bool
		if opt.keep != nil {
			var cands []int64
			for _, f := range frontier {
				for _, l := range links[f] {
					if _, ok := seen[l.other]; !ok {
						cands = append(cands, l.other)
					}
				}
			}
			if kept, err = opt.keep(ctx, uniq(cands)); err != nil {
				return nil, err
			}
		}
		var next []int64
	level:
		for _, f := range frontier {
			from := ex.Nodes[seen[f]]
			taken := 0
			for _, l := range links[f] {
				if _, ok := seen[l.other]; ok {
					continue
				}
				if kept != nil && !kept[l.other] {
					continue
				}
				if opt.MaxPerNode > 0 && taken >= opt.MaxPerNode {
					ex.FanoutCapped++
					break
				}
				if opt.MaxNodes > 0 && len(ex.Nodes) >= opt.MaxNodes {
					ex.NodeCapped = true
					break level
				}
				r := Reached{Depth: depth, id: l.other, Via: &Via{
					From: from.Key, FromID: from.ID, Type: l.typ, Direction: l.dir, Field: l.field, Line: l.line,
				}}
				seen[l.other] = len(ex.Nodes)
				ex.Nodes = append(ex.Nodes, r)
				next = append(next, l.other)
				taken++
			}
		}
		refs, err := g.refs(ctx, next)
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

func uniq(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
