package workset

import (
	"context"
	"fmt"
	"time"

	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/search"
)

// Hit sources.
const (
	FromWorkset = "workset" // answered by the workset's own rows
	FromIndex   = "index"   // answered by the repository's index (fallback)
)

// SearchOptions adjust a workset search.
type SearchOptions struct {
	Limit  int  // hits in all; 0 means 10
	Enrich bool // add fallback hits to the workset, within the size cap and enrich_distance
	Who    string
}

// SearchHit is a section that matched, and where the answer came from.
type SearchHit struct {
	search.Hit
	From string `json:"from"` // workset or index
	// Distance is, for an index hit that --enrich looked at, its hops from
	// the nearest member (nil when it is farther than enrich_distance).
	Distance *int `json:"distance,omitempty"`
	Added    bool `json:"added,omitempty"` // --enrich added its document
	// NotAdded says why --enrich left its document out: too_far, size_cap,
	// or some_words (the hit holds only some of a natural query's words).
	NotAdded string `json:"not_added,omitempty"`
}

// SearchResult is the answer of a workset-first search.
type SearchResult struct {
	Workset      string        `json:"workset"`
	Query        string        `json:"query"`
	Stale        bool          `json:"stale"`
	StaleReasons []StaleReason `json:"stale_reasons"`
	// FellBack says the workset had fewer than workset.min_hits hits, so
	// the repository's index was asked too.
	FellBack bool        `json:"fell_back"`
	Hits     []SearchHit `json:"hits"`
	Enriched []Member    `json:"enriched"` // documents --enrich added
	Docs     int         `json:"docs"`     // members after the search

	enrich bool // --enrich was asked for
}

// Search asks the workset first. When it has fewer than workset.min_hits
// hits, the repository's index answers too (documents outside the
// workset); with Enrich, those within enrich_distance hops of a member are
// added to the workset while it stays under workset.max_docs.
func Search(ctx context.Context, e *Env, name, query string, opt SearchOptions) (*SearchResult, error) {
	if opt.Limit <= 0 {
		opt.Limit = 10
	}
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	if err := h.catchDrift(ctx, e); err != nil {
		return nil, err
	}
	res := &SearchResult{Workset: name, Query: query, Hits: []SearchHit{}, Enriched: []Member{}, enrich: opt.Enrich}
	if res.StaleReasons, err = h.staleReasons(ctx); err != nil {
		return nil, err
	}
	res.Stale = len(res.StaleReasons) > 0
	own, err := search.Hits(ctx, h.st.Store, query, search.Options{Limit: opt.Limit})
	if err != nil {
		return nil, err
	}
	// A natural query's hits that hold only some of its words (Hit.Words)
	// come after the repository's that hold them all.
	var some []SearchHit
	for _, hit := range own {
		if len(hit.Words) > 0 {
			some = append(some, SearchHit{Hit: hit, From: FromWorkset})
			continue
		}
		res.Hits = append(res.Hits, SearchHit{Hit: hit, From: FromWorkset})
	}
	ms, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	res.Docs = len(ms)
	if full := len(res.Hits); full >= e.Config.Workset.MinHits || full >= opt.Limit {
		res.Hits = append(res.Hits, some...)
		return res, nil
	}
	res.FellBack = true
	member := map[string]bool{}
	for _, mb := range ms {
		member[mb.Key] = true
	}
	// Ask for enough to fill the limit after dropping members' sections.
	more, err := search.Hits(ctx, e.Index, query, search.Options{Limit: opt.Limit + len(own) + 20})
	if err != nil {
		return nil, err
	}
	first := len(res.Hits)
	for _, hit := range more {
		if len(res.Hits) >= opt.Limit {
			break
		}
		if !member[hit.Key] {
			res.Hits = append(res.Hits, SearchHit{Hit: hit, From: FromIndex})
		}
	}
	last := len(res.Hits)
	res.Hits = append(res.Hits, some[:min(len(some), max(opt.Limit-last, 0))]...)
	if !opt.Enrich || last == first {
		return res, nil
	}
	added, err := h.enrich(ctx, e, ms, res.Hits[first:last], query, opt.Who)
	if err != nil {
		return nil, err
	}
	res.Enriched = added
	res.Docs += len(added)
	return res, nil
}

// enrich adds the documents of fallback hits that lie within
// enrich_distance hops of a member, best hit first, while the workset
// stays under max_docs. It marks each hit with what it decided.
func (h *handle) enrich(ctx context.Context, e *Env, ms []Member, hits []SearchHit, query, who string) ([]Member, error) {
	unlock, err := h.st.Lock(ctx, who, 30*time.Second)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Distances from the members, over the edges context packs follow,
	// in the repository's index.
	var seeds []string
	dist := map[string]int{}
	for _, mb := range ms {
		dist[mb.Key] = mb.Distance
	}
	exists, err := e.existingKeys(ctx, keysOf(ms))
	if err != nil {
		return nil, err
	}
	for _, mb := range ms {
		if exists[mb.Key] {
			seeds = append(seeds, mb.Key)
		}
	}
	reach := map[string]graph.Reached{}
	if len(seeds) > 0 && e.Config.Workset.EnrichDistance > 0 {
		ex, err := graph.New(e.Index).Expand(ctx, seeds, graph.ExpandOptions{
			Depth: e.Config.Workset.EnrichDistance, Edges: e.Config.Context.Edges,
			Direction: graph.Direction(e.Config.Context.Direction), MaxNodes: 20000,
		})
		if err != nil {
			return nil, fmt.Errorf("measure distances from the members: %w", err)
		}
		for _, r := range ex.Nodes {
			if r.Seed {
				continue
			}
			reach[r.Key] = r
			dist[r.Key] = dist[r.Via.From] + 1
		}
	}
	room := e.Config.Workset.MaxDocs - len(ms)
	var add []Member
	taken := map[string]bool{}
	now := e.Now.UTC()
	for i := range hits {
		hit := &hits[i]
		if len(hit.Words) > 0 {
			hit.NotAdded = "some_words" // enrich with what answers the whole query
			continue
		}
		r, ok := reach[hit.Key]
		if !ok {
			hit.NotAdded = "too_far"
			continue
		}
		d := r.Depth
		hit.Distance = &d
		if taken[hit.Key] {
			hit.Added = true
			continue
		}
		if len(add) >= room {
			hit.NotAdded = "size_cap"
			continue
		}
		taken[hit.Key] = true
		hit.Added = true
		add = append(add, Member{DocRef: r.DocRef, Source: SourceEnrich, Distance: dist[hit.Key],
			Via:     &Via{From: r.Via.From, FromID: r.Via.FromID, Edge: r.Via.Type, Direction: string(r.Via.Direction)},
			AddedAt: now, AddedBy: "search: " + query})
	}
	if len(add) == 0 {
		return []Member{}, nil
	}
	if err := writeKeys(h.dir, keysOf(ms), keysOf(add)); err != nil {
		return nil, err
	}
	err = h.st.Copy(ctx, e.Index.Path(), keysOf(add), index.SliceCopy{Members: sliceMembers(add)})
	if err != nil {
		return nil, fmt.Errorf("enrich workset %s: %w", h.name, err)
	}
	return add, nil
}

func keysOf(ms []Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Key
	}
	return out
}

// ContextOptions shape a workset's context pack.
type ContextOptions struct {
	Query  string // full-text search within the workset for more seeds
	Budget *int   // estimated tokens; nil: context.budget
}

// Context builds a context pack from the workset's own rows, the way canon
// context does from the index: its seeds (and the query's hits among its
// members), expanded over its edges far enough to reach every member,
// ranked and cut to the budget.
func Context(ctx context.Context, e *Env, name string, opt ContextOptions) (*graph.Pack, *Info, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	defer h.close()
	if err := h.catchDrift(ctx, e); err != nil {
		return nil, nil, err
	}
	info, err := h.info(ctx, e.Now)
	if err != nil {
		return nil, nil, err
	}
	ms, err := h.members(ctx)
	if err != nil {
		return nil, nil, err
	}
	po := graph.PackOptionsOf(e.Config)
	po.Query = opt.Query
	po.MaxNodes, po.MaxPerNode, po.Depth = 0, 0, 0
	for _, mb := range ms {
		if mb.Seed {
			po.Seeds = append(po.Seeds, mb.Key)
		}
		po.Depth = max(po.Depth, mb.Distance)
	}
	if opt.Budget != nil {
		po.Budget = *opt.Budget
	}
	p, err := graph.New(h.st.Store).Pack(ctx, po)
	if err != nil {
		return nil, nil, err
	}
	p.Title = "Workset " + name
	if opt.Query != "" {
		p.Title += ": " + opt.Query
	}
	p.Seeds = append([]string{}, info.Seeds...)
	return p, info, nil
}
