package graph

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
)

// searchSeed is a document full-text search proposes as a seed.
type searchSeed struct {
	node
	bm25    float64    // the best of its sections (lower is better)
	chunks  []chunkHit // its matching sections, best first
	matched []string   // the words that matched, lower-cased, sorted
}

// chunkHit is a section that matched a search.
type chunkHit struct {
	id   index.ChunkID
	seq  int
	slug string
	bm25 float64
}

// searchSeeds runs the search the way canon search ranks it (bm25 with the
// title weighing 10, the heading 4, the text 1) and groups the hits by
// document: the best n documents, each with its matching sections among
// the best 4n sections. Ties break on the node key and the section's
// position, never on row ids.
//
// The fast path lets FTS5 sort by rank itself (index.MatchesByRank), and
// reads nothing else per match. FTS5 breaks ties by row id, so rows that
// tie with the last one returned may be cut arbitrarily: they are
// dropped, and when that leaves fewer than n documents, the slow path
// sorts every match by score, key and position (index.MatchesByScore).
func (g *Graph) searchSeeds(ctx context.Context, text string, n int) ([]searchSeed, error) {
	if n <= 0 || strings.TrimSpace(text) == "" {
		return nil, nil
	}
	limit := n * 4
	hits, err := g.st.MatchesByRank(ctx, text, limit)
	if err != nil {
		return nil, err
	}
	sortMatches(hits)
	dropped := false
	if len(hits) == limit {
		dropped = true
		hits = dropLastTies(hits)
	}
	out, err := g.groupHits(ctx, hits, n)
	if err != nil {
		return nil, err
	}
	if dropped && len(out) < n {
		// Some rows were dropped as ties: sort every match.
		if hits, err = g.st.MatchesByScore(ctx, text, limit); err != nil {
			return nil, err
		}
		if out, err = g.groupHits(ctx, hits, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sortMatches orders matches by score, node key and position: FTS5's rank
// order with the ties broken without row ids.
func sortMatches(ms []index.ChunkMatch) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.BM25 != b.BM25 {
			return a.BM25 < b.BM25
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Seq < b.Seq
	})
}

// dropLastTies drops the matches scoring the same as the last one: a
// limited rank query may have cut some of them.
func dropLastTies(ms []index.ChunkMatch) []index.ChunkMatch {
	last := ms[len(ms)-1].BM25
	kept := ms[:0]
	for _, m := range ms {
		if m.BM25 != last {
			kept = append(kept, m)
		}
	}
	return kept
}

// groupHits groups sorted hits by document: the first n documents, each
// with its sections and the words they matched.
func (g *Graph) groupHits(ctx context.Context, hits []index.ChunkMatch, n int) ([]searchSeed, error) {
	var out []searchSeed
	terms := []map[string]bool{}
	at := map[index.DocID]int{}
	for _, h := range hits {
		ch := chunkHit{id: h.Chunk, seq: h.Seq, slug: h.Slug, bm25: h.BM25}
		if i, ok := at[h.Doc]; ok {
			out[i].chunks = append(out[i].chunks, ch)
			for _, t := range h.Terms {
				terms[i][t] = true
			}
			continue
		}
		if len(out) == n {
			continue
		}
		at[h.Doc] = len(out)
		out = append(out, searchSeed{node: node{id: h.Doc}, bm25: h.BM25, chunks: []chunkHit{ch}})
		set := map[string]bool{}
		for _, t := range h.Terms {
			set[t] = true
		}
		terms = append(terms, set)
	}
	ids := make([]index.DocID, len(out))
	for i, s := range out {
		ids[i] = s.id
	}
	refs, err := g.st.DocRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].ref = refs[out[i].id]
		out[i].matched = make([]string, 0, len(terms[i]))
		for t := range terms[i] {
			out[i].matched = append(out[i].matched, t)
		}
		sort.Strings(out[i].matched)
	}
	return out, nil
}

// round keeps d decimals, so that scores print and compare the same on
// every platform.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
