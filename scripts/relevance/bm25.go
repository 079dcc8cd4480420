package main

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// BM25 parameters of the baseline (the usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// tokens splits text into lower-cased runs of letters and digits: no
// stemming, no stop words, the same for documents and queries.
func tokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// BM25 is the baseline: an in-memory index of whole documents, queried with
// the query's words OR-ed.
type BM25 struct {
	paths  []string
	tf     []map[string]int // per document: term -> count
	length []int
	df     map[string]int
	avgLen float64
}

// NewBM25 indexes docs (path -> text).
func NewBM25(docs map[string]string) *BM25 {
	ix := &BM25{df: map[string]int{}}
	for p := range docs {
		ix.paths = append(ix.paths, p)
	}
	sort.Strings(ix.paths)
	total := 0
	for _, p := range ix.paths {
		tf := map[string]int{}
		toks := tokens(docs[p])
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			ix.df[t]++
		}
		ix.tf = append(ix.tf, tf)
		ix.length = append(ix.length, len(toks))
		total += len(toks)
	}
	if len(ix.paths) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.paths))
	}
	return ix
}

// idf is BM25's inverse document frequency in the form that stays positive
// (Lucene's): ln(1 + (N - df + 0.5) / (df + 0.5)).
func (ix *BM25) idf(term string) float64 {
	n, df := float64(len(ix.paths)), float64(ix.df[term])
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// Search returns the paths of the top limit documents that contain at least
// one query word, best first; ties go to the lower path.
func (ix *BM25) Search(query string, limit int) []string {
	// A word repeated in the query counts once; sorted, so the sums (and
	// the ties) do not depend on map order.
	terms := tokens(query)
	sort.Strings(terms)
	terms = slices.Compact(terms)
	type scored struct {
		path  string
		score float64
	}
	var hits []scored
	for i := range ix.tf {
		if s := bm25Score(ix, i, terms); s > 0 {
			hits = append(hits, scored{ix.paths[i], s})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].score != hits[b].score {
			return hits[a].score > hits[b].score
		}
		return hits[a].path < hits[b].path
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.path
	}
	return out
}

// bm25Score is document i's score for terms (each once).
func bm25Score(ix *BM25, i int, terms []string) float64 {
	s := 0.0
	norm := bm25K1 * (1 - bm25B + bm25B*float64(ix.length[i])/ix.avgLen)
	for _, t := range terms {
		f := float64(ix.tf[i][t])
		if f == 0 {
			continue
		}
		s += ix.idf(t) * f * (bm25K1 + 1) / (f + norm)
	}
	return s
}
