package graph

import (
	"context"

	"github.com/canon-md/canon/index"
)

// PathOptions bound a shortest-path search.
type PathOptions struct {
	Edges      []string  // edge types to follow; none means all
	Direction  Direction // "" is both
	MaxDepth   int       // longest path looked for; 0 means 8
	MaxVisited int       // nodes visited before giving up; 0 means 200,000
}

// Step is one node of a path and the edge that led to it from the previous
// step (nil for the first).
type Step struct {
	index.DocRef
	Via *Via `json:"via,omitempty"`
}

// PathResult is a shortest path, or none within the limits.
type PathResult struct {
	From  index.DocRef `json:"from"`
	To    index.DocRef `json:"to"`
	Found bool         `json:"found"`
	Steps []Step       `json:"steps"` // from From to To, both included
	// Exhausted says the search stopped at MaxVisited rather than running
	// out of nodes within MaxDepth.
	Exhausted bool `json:"exhausted,omitempty"`

	maxDepth int // the longest path looked for, for the text
}

// Path finds a shortest path from one document to another, breadth first
// from the first. Among paths of the same length it returns the one whose
// edges come first in link order (structure before references, then
// source order and key), so the answer is deterministic.
func (g *Graph) Path(ctx context.Context, from, to string, opt PathOptions) (*PathResult, error) {
	a, err := g.resolve(ctx, from)
	if err != nil {
		return nil, err
	}
	b, err := g.resolve(ctx, to)
	if err != nil {
		return nil, err
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 8
	}
	if opt.MaxVisited <= 0 {
		opt.MaxVisited = 200000
	}
	res := &PathResult{From: a.ref, To: b.ref, Steps: []Step{}, maxDepth: opt.MaxDepth}
	prev := map[index.DocID]link{a.id: {}}
	frontier := []index.DocID{a.id}
	found := a.id == b.id
	for depth := 1; depth <= opt.MaxDepth && len(frontier) > 0 && !found; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		links, err := g.links(ctx, frontier, opt.Edges, opt.Direction)
		if err != nil {
			return nil, err
		}
		var next []index.DocID
	level:
		for _, f := range frontier {
			for _, l := range links[f] {
				if _, ok := prev[l.Other]; ok {
					continue
				}
				prev[l.Other] = l
				if l.Other == b.id {
					found = true
					break level
				}
				if len(prev) >= opt.MaxVisited {
					res.Exhausted = true
					break level
				}
				next = append(next, l.Other)
			}
		}
		if res.Exhausted {
			break
		}
		frontier = next
	}
	if !found {
		return res, nil
	}
	res.Found = true
	var ids []index.DocID
	var edges []link
	for id := b.id; id != a.id; id = prev[id].At {
		ids = append(ids, id)
		edges = append(edges, prev[id])
	}
	ids = append(ids, a.id)
	refs, err := g.st.DocRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := len(ids) - 1; i >= 0; i-- {
		st := Step{DocRef: refs[ids[i]]}
		if i < len(edges) {
			l := edges[i]
			fr := refs[l.At]
			st.Via = &Via{From: fr.Key, FromID: fr.ID, Type: l.Type, Direction: dirOf(l), Field: l.Field, Line: l.Line}
		}
		res.Steps = append(res.Steps, st)
	}
	return res, nil
}
