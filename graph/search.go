package graph

import (
	"context"
	"fmt"
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
	id   int64
	seq  int
	slug string
	bm25 float64
}

// searchSeeds runs the search the way canon search ranks it (bm25 with the
// title weighing 10, the heading 4, the text 1) and groups the hits by
// document: the best n documents, each with its matching sections. Ties
// break on the node key and the section's position, never on row ids.
func (g *Graph) searchSeeds(ctx context.Context, text string, n int) ([]searchSeed, error) {
	if n <= 0 || strings.TrimSpace(text) == "" {
		return nil, nil
	}
	q, err := index.FTSQuery(text)
	if err != nil {
		return nil, err
	}
	// A document rarely has more than a few matching sections among the
	// best hits; four per wanted document is plenty to find n documents.
	rows, err := g.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key, bm25(chunks_fts, 10.0, 4.0, 1.0) AS s
		FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
		WHERE chunks_fts MATCH ? ORDER BY s, d.key, c.seq LIMIT ?`, q, n*4)
	if err != nil {
		if strings.Contains(err.Error(), "fts5") {
			return nil, fmt.Errorf("%w: %q: %v", index.ErrBadQuery, text, err)
		}
		return nil, fmt.Errorf("search: %w", err)
	}
	var out []searchSeed
	at := map[int64]int{}
	for rows.Next() {
		var h chunkHit
		var doc int64
		var key string
		if err := rows.Scan(&h.id, &doc, &h.seq, &h.slug, &key, &h.bm25); err != nil {
			rows.Close()
			return nil, err
		}
		if i, ok := at[doc]; ok {
			out[i].chunks = append(out[i].chunks, h)
			continue
		}
		if len(out) == n {
			continue
		}
		at[doc] = len(out)
		out = append(out, searchSeed{node: node{id: doc}, bm25: h.bm25, chunks: []chunkHit{h}})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var ids []int64
	for _, s := range out {
		ids = append(ids, s.id)
	}
	refs, err := g.refs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].ref = refs[out[i].id]
		if out[i].matched, err = g.matchedTerms(ctx, q, out[i].chunks); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// matchedTerms lists the words FTS5 highlights in the title, heading and
// text of some sections.
func (g *Graph) matchedTerms(ctx context.Context, q string, hits []chunkHit) ([]string, error) {
	set := map[string]bool{}
	for _, h := range hits {
		var title, heading, body string
		err := g.db.QueryRowContext(ctx, `SELECT highlight(chunks_fts, 0, ?, ?), highlight(chunks_fts, 1, ?, ?), snippet(chunks_fts, 2, ?, ?, '', 64)
			FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?`, "\x02", "\x03", "\x02", "\x03", "\x02", "\x03", q, h.id).Scan(&title, &heading, &body)
		if err != nil {
			return nil, fmt.Errorf("highlight: %w", err)
		}
		for _, s := range []string{title, heading, body} {
			for {
				i := strings.IndexByte(s, 2)
				if i < 0 {
					break
				}
				j := strings.IndexByte(s[i:], 3)
				if j < 0 {
					break
				}
				if t := strings.ToLower(strings.TrimSpace(s[i+1 : i+j])); t != "" {
					set[t] = true
				}
				s = s[i+j+1:]
			}
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}

// round keeps d decimals, so that scores print and compare the same on
// every platform.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
