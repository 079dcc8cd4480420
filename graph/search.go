package graph

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/search"
)

// searchSeed is a document full-text search proposes as a seed.
type searchSeed struct {
	node
	pos     int        // its place among the documents found, from 0
	bm25    float64    // the best of its sections (lower is better)
	chunks  []chunkHit // its matching sections, best first
	matched []string   // the words that matched, lower-cased, sorted
	// follow are the edge types the words next to its name ask for, when
	// the query names it (search.Named): the neighbours they reach come
	// right after it.
	follow  []string
	related []index.DocID // the documents those edges reach, in link order
}

// chunkHit is a section that matched a search.
type chunkHit struct {
	id   index.ChunkID
	seq  int
	slug string
	bm25 float64
}

// searchSeeds runs the search the way canon search reads and ranks it. A
// question or plain words (search.RankDocuments, ADR-0035): the best n
// documents, each with its matching sections. A query with operators: bm25
// with the title weighing 10, the heading 4, the text 1, the hits grouped
// by document: the best n documents, each with its matching sections among
// the best 4n sections. Ties break on the node key and the section's
// position, never on row ids.
//
// For a query with operators, when the best 4n fill the limit, the sections scoring the same as the
// last one are left out, and the whole 4n used only when that leaves fewer
// than n documents: the rule of the ranking this replaced (FTS5's ORDER BY
// rank, whose ties at the limit fell by row id), kept so that every pack
// stays the same (ADR-0023). Sections of generated documents are left out
// (gen, ADR-0036).
func (g *Graph) searchSeeds(ctx context.Context, text string, n int, gen *genFilter) ([]searchSeed, error) {
	if n <= 0 || strings.TrimSpace(text) == "" {
		return nil, nil
	}
	r, err := search.RankDocuments(ctx, g.st, text, n)
	if err != nil || r != nil {
		if err != nil {
			return nil, err
		}
		// Generated documents are dropped from the documents found: ask
		// once more for as many more as were dropped (asking for more
		// than n from the start would change what is found without any).
		kept, err := gen.dropMatches(ctx, r.Matches)
		if err != nil {
			return nil, err
		}
		if dropped := docCount(r.Matches) - docCount(kept); dropped > 0 {
			if r, err = search.RankDocuments(ctx, g.st, text, n+dropped); err != nil {
				return nil, err
			}
			if kept, err = gen.dropMatches(ctx, r.Matches); err != nil {
				return nil, err
			}
		}
		return g.groupHits(ctx, r, kept, n)
	}
	limit := n * 4
	r, err = search.RankSections(ctx, g.st, text, limit)
	if err != nil {
		return nil, err
	}
	if r.Matches, err = gen.dropMatches(ctx, r.Matches); err != nil {
		return nil, err
	}
	if len(r.Matches) < limit {
		return g.groupHits(ctx, r, r.Matches, n)
	}
	out, err := g.groupHits(ctx, r, dropLastTies(r.Matches), n)
	if err != nil || len(out) == n {
		return out, err
	}
	return g.groupHits(ctx, r, r.Matches, n)
}

// docCount is how many documents matches hold.
func docCount(ms []search.ChunkMatch) int {
	seen := map[index.DocID]bool{}
	for _, m := range ms {
		seen[m.Doc] = true
	}
	return len(seen)
}

// dropLastTies returns the matches that score better than the last one.
func dropLastTies(ms []search.ChunkMatch) []search.ChunkMatch {
	last := ms[len(ms)-1].BM25
	var kept []search.ChunkMatch
	for _, m := range ms {
		if m.BM25 != last {
			kept = append(kept, m)
		}
	}
	return kept
}

// groupHits groups sorted hits (of r) by document: the first n documents,
// each with its sections and the words they matched. Only the sections of
// those documents are highlighted.
func (g *Graph) groupHits(ctx context.Context, r *search.Ranked, hits []search.ChunkMatch, n int) ([]searchSeed, error) {
	var out []searchSeed
	var ids []index.ChunkID
	at := map[index.DocID]int{}
	for _, h := range hits {
		ch := chunkHit{id: h.Chunk, seq: h.Seq, slug: h.Slug, bm25: h.BM25}
		i, ok := at[h.Doc]
		switch {
		case ok:
			out[i].chunks = append(out[i].chunks, ch)
		case len(out) == n:
			continue
		default:
			at[h.Doc] = len(out)
			out = append(out, searchSeed{node: node{id: h.Doc}, pos: len(out), bm25: h.Rank, chunks: []chunkHit{ch}})
		}
		ids = append(ids, h.Chunk)
	}
	terms, err := search.MatchedTerms(ctx, g.st, r, ids)
	if err != nil {
		return nil, err
	}
	docs := make([]index.DocID, len(out))
	for i, s := range out {
		docs[i] = s.id
	}
	refs, err := g.st.DocRefs(ctx, docs)
	if err != nil {
		return nil, err
	}
	follow := map[index.DocID][]string{}
	for _, nd := range r.Named {
		follow[nd.Doc] = nd.Edges
	}
	for i := range out {
		out[i].ref = refs[out[i].id]
		if out[i].follow = follow[out[i].id]; len(out[i].follow) > 0 {
			ls, err := g.links(ctx, []index.DocID{out[i].id}, out[i].follow, Both)
			if err != nil {
				return nil, err
			}
			for _, l := range ls[out[i].id] {
				out[i].related = append(out[i].related, l.Other)
			}
		}
		set := map[string]bool{}
		for _, c := range out[i].chunks {
			for _, t := range terms[c.id] {
				set[t] = true
			}
		}
		out[i].matched = make([]string, 0, len(set))
		for t := range set {
			out[i].matched = append(out[i].matched, t)
		}
		sort.Strings(out[i].matched)
	}
	return out, nil
}

// round4 keeps 4 decimals, so that scores print and compare the same on
// every platform.
func round4(x float64) float64 {
	return math.Round(x*1e4) / 1e4
}
