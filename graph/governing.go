package graph

import (
	"context"
	"slices"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// maxGoverning is how far up its parent chain a task's pack looks for
// the decisions that govern it: the parent, its parent, and so on.
const maxGoverning = 4

// governing are the decisions a task's parent chain names (decision_ref
// out of its parent, the parent's parent, ...) that its neighbourhood
// does not hold: an ADR that governs a feature governs the feature's
// tasks. They come after the neighbours, weighed down a hop each, so
// the budget takes them when it has room and lists them when it has not.
func (g *Graph) governing(ctx context.Context, task node, have []Entry, opt PackOptions, gen *genFilter) ([]Entry, error) {
	if opt.Depth == 0 || opt.MaxNodes > 0 && len(have) >= opt.MaxNodes || len(opt.Edges) > 0 && !slices.Contains(opt.Edges, EdgeDecisionRef) {
		return nil, nil
	}
	seen := map[index.DocID]bool{}
	for _, e := range have {
		seen[e.id] = true
	}
	var out []Entry
	climbed := map[index.DocID]bool{task.id: true}
	at, base := task.id, 1.0
	for hop := 1; hop <= maxGoverning; hop++ {
		up, err := g.links(ctx, []index.DocID{at}, []string{EdgeParent}, Out)
		if err != nil {
			return nil, err
		}
		if len(up[at]) == 0 || climbed[up[at][0].Other] {
			break
		}
		parent := up[at][0].Other
		climbed[parent] = true
		base *= opt.Weights.Decay
		decs, err := g.links(ctx, []index.DocID{parent}, []string{EdgeDecisionRef}, Out)
		if err != nil {
			return nil, err
		}
		var ids []index.DocID
		for _, l := range decs[parent] {
			if !seen[l.Other] {
				seen[l.Other] = true
				ids = append(ids, l.Other)
			}
		}
		if ids, err = keepOf(ctx, gen, ids); err != nil {
			return nil, err
		}
		refs, err := g.refs(ctx, append(ids, parent))
		if err != nil {
			return nil, err
		}
		from := refs[parent]
		for _, id := range ids {
			r, ok := refs[id]
			if !ok {
				continue
			}
			e := Entry{DocRef: r, id: id, order: len(have) + len(out), Excerpts: []Excerpt{}}
			e.Why = Why{Reason: ReasonNeighbour, Depth: hop + 1, Edge: EdgeDecisionRef, Direction: Out, From: from.Key, FromID: from.ID}
			e.base = base * opt.Weights.Decay * config.Weight(opt.Weights.Edges, EdgeDecisionRef)
			e.weigh(opt.Weights)
			out = append(out, e)
		}
		at = parent
	}
	return out, nil
}

// keepOf are the ids gen lets into a pack (generated documents out).
func keepOf(ctx context.Context, gen *genFilter, ids []index.DocID) ([]index.DocID, error) {
	keep := gen.keep(nil)
	if keep == nil || len(ids) == 0 {
		return ids, nil
	}
	ok, err := keep(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := ids[:0]
	for _, id := range ids {
		if ok[id] {
			out = append(out, id)
		}
	}
	return out, nil
}
