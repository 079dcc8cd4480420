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
// document: the best n documents, each with its matching sections among
// the best 4n sections. Ties break on the node key and the section's
// position, never on row ids.
//
// The fast path lets FTS5 sort by rank itself, so that highlight() runs
// for the returned rows only, and reads nothing else per match. FTS5 breaks
// ties by row id, so rows that tie with the last one returned may be cut
// arbitrarily: they are dropped, and when that leaves fewer than n
// documents, the slow path sorts every match by score, key and position.
func (g *Graph) searchSeeds(ctx context.Context, text string, n int) ([]searchSeed, error) {
	if n <= 0 || strings.TrimSpace(text) == "" {
		return nil, nil
	}
	q, err := index.FTSQuery(text)
	if err != nil {
		return nil, err
	}
	limit := n * 4
	hits, err := g.rankedHits(ctx, text, q, limit)
	if err != nil {
		return nil, err
	}
	dropped := false
	if len(hits) == limit {
		dropped = true
		last := hits[limit-1].bm25
		kept := hits[:0]
		for _, h := range hits {
			if h.bm25 != last {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	out, err := g.groupHits(ctx, hits, n)
	if err != nil {
		return nil, err
	}
	if dropped && len(out) < n {
		// Some rows were dropped as ties: sort every match.
		if hits, err = g.sortedHits(ctx, text, q, limit); err != nil {
			return nil, err
		}
		if out, err = g.groupHits(ctx, hits, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hit is one matching section.
type hit struct {
	chunkHit
	doc   int64
	key   string
	terms []string // highlighted words
}

func ftsError(err error, text string) error {
	if strings.Contains(err.Error(), "fts5") {
		return fmt.Errorf("%w: %q: %v", index.ErrBadQuery, text, err)
	}
	return fmt.Errorf("search: %w", err)
}

// highlightCols are the auxiliary functions that mark matched words with
// \x02 ... \x03 in the title, the heading and a window of the text.
const highlightCols = `highlight(chunks_fts, 0, char(2), char(3)), highlight(chunks_fts, 1, char(2), char(3)), snippet(chunks_fts, 2, char(2), char(3), '', 64)`

// rankedHits is the fast path: FTS5's own rank order, ties by row id.
func (g *Graph) rankedHits(ctx context.Context, text, q string, limit int) ([]hit, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT rowid, rank, `+highlightCols+`
		FROM chunks_fts WHERE chunks_fts MATCH ? AND rank MATCH 'bm25(10.0, 4.0, 1.0)' ORDER BY rank LIMIT ?`, q, limit)
	if err != nil {
		return nil, ftsError(err, text)
	}
	var hits []hit
	for rows.Next() {
		var h hit
		var title, heading, body string
		if err := rows.Scan(&h.id, &h.bm25, &title, &heading, &body); err != nil {
			rows.Close()
			return nil, err
		}
		h.terms = marked(title, heading, body)
		hits = append(hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	type meta struct {
		doc  int64
		seq  int
		slug string
		key  string
	}
	metas := map[int64]meta{}
	err = inChunks(ids, func(part []int64) error {
		rows, err := g.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key FROM chunks c JOIN docs d ON d.id = c.doc
			WHERE c.id IN (`+placeholders(len(part))+`)`, idArgs(part)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var m meta
			if err := rows.Scan(&id, &m.doc, &m.seq, &m.slug, &m.key); err != nil {
				return err
			}
			metas[id] = m
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	for i := range hits {
		m := metas[hits[i].id]
		hits[i].doc, hits[i].seq, hits[i].slug, hits[i].key = m.doc, m.seq, m.slug, m.key
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.bm25 != b.bm25 {
			return a.bm25 < b.bm25
		}
		if a.key != b.key {
			return a.key < b.key
		}
		return a.seq < b.seq
	})
	return hits, nil
}

// sortedHits is the slow path: every match sorted by score, key and
// position in SQL, then the highlights of the best ones.
func (g *Graph) sortedHits(ctx context.Context, text, q string, limit int) ([]hit, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key, bm25(chunks_fts, 10.0, 4.0, 1.0) AS s
		FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
		WHERE chunks_fts MATCH ? ORDER BY s, d.key, c.seq LIMIT ?`, q, limit)
	if err != nil {
		return nil, ftsError(err, text)
	}
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.id, &h.doc, &h.seq, &h.slug, &h.key, &h.bm25); err != nil {
			rows.Close()
			return nil, err
		}
		hits = append(hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range hits {
		var title, heading, body string
		err := g.db.QueryRowContext(ctx, `SELECT `+highlightCols+` FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?`, q, hits[i].id).Scan(&title, &heading, &body)
		if err != nil {
			return nil, fmt.Errorf("highlight: %w", err)
		}
		hits[i].terms = marked(title, heading, body)
	}
	return hits, nil
}

// groupHits groups sorted hits by document: the first n documents, each
// with its sections and the words they matched.
func (g *Graph) groupHits(ctx context.Context, hits []hit, n int) ([]searchSeed, error) {
	var out []searchSeed
	terms := []map[string]bool{}
	at := map[int64]int{}
	for _, h := range hits {
		if i, ok := at[h.doc]; ok {
			out[i].chunks = append(out[i].chunks, h.chunkHit)
			for _, t := range h.terms {
				terms[i][t] = true
			}
			continue
		}
		if len(out) == n {
			continue
		}
		at[h.doc] = len(out)
		out = append(out, searchSeed{node: node{id: h.doc}, bm25: h.bm25, chunks: []chunkHit{h.chunkHit}})
		set := map[string]bool{}
		for _, t := range h.terms {
			set[t] = true
		}
		terms = append(terms, set)
	}
	ids := make([]int64, len(out))
	for i, s := range out {
		ids[i] = s.id
	}
	refs, err := g.refs(ctx, ids)
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

// marked lists the lower-cased words between \x02 and \x03 marks.
func marked(texts ...string) []string {
	out := []string{}
	for _, s := range texts {
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
				out = append(out, t)
			}
			s = s[i+j+1:]
		}
	}
	return out
}

// round keeps d decimals, so that scores print and compare the same on
// every platform.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
