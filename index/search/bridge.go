package search

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/vectors"
)

// A vocabulary bridge (ADR-0050): when a natural reading falls back to any
// of its words, each of its first bridgeWords words gets its bridgeK
// nearest words by cosine in a word-vectors sidecar (at least bridgeMin,
// among the words the index holds), weighed cosine × bridgeWeight:
//
//   - a word no section holds is bridged in both rankings: its neighbours
//     are asked for as words (their idf weighed) and scored in the
//     whole-document bm25 (weighed);
//   - a word sections hold is bridged in the whole-document bm25 only, and
//     only when it runs (maxWholeMatches): asked for as words, its
//     neighbours outranked the documents that use the question's own words
//     (ADR-0050's figures).
//
// The lookup reads every vector of the sidecar once per word bridged:
// at most bridgeWords × vectors.MaxCells multiplications a search.
const (
	bridgeK      = 3
	bridgeMin    = 0.6
	bridgeWeight = 0.5
	bridgeWords  = 10
)

// Added is a word a vocabulary bridge added to a natural reading: a
// neighbour of its word For by word vectors, ranked with Weight (below 1;
// a word of the reading weighs 1).
type Added struct {
	Word   string  `json:"word"`
	For    string  `json:"for"`
	Weight float64 `json:"weight"`
}

// extra is a phrase a bridge adds: its FTS5 phrase, its bm25 idf among
// the sections and count of them, and its weight.
type extra struct {
	phrase string
	idf    float64
	count  int64
	weight float64
}

// bridged is what a bridge adds to a natural reading's search for any of
// its words: asked, the neighbours of words no section holds (asked for as
// words); whole, the neighbours of words sections hold (in the
// whole-document bm25 only).
type bridged struct {
	asked, whole []extra
}

// extend adds b to the words asked for (asked, their phrases, the idf of
// every phrase of the reading, the sections they match) and returns them
// with the phrases the whole-document bm25 scores and their weights (nil
// when nothing is added).
func (b bridged) extend(asked []int, phrases []string, idf []float64, matches int64) ([]int, []string, []float64, int64, []string, []float64) {
	for _, e := range b.asked {
		asked = append(asked, len(idf))
		phrases = append(phrases, e.phrase)
		idf = append(idf, e.idf*e.weight)
		matches += e.count
	}
	if len(b.asked)+len(b.whole) == 0 {
		return asked, phrases, idf, matches, phrases, nil
	}
	whole := slices.Clone(phrases)
	weights := make([]float64, len(phrases), len(phrases)+len(b.whole))
	for i := range weights {
		weights[i] = 1
	}
	for i, e := range b.asked {
		weights[len(weights)-len(b.asked)+i] = e.weight
	}
	for _, e := range b.whole {
		whole = append(whole, e.phrase)
		weights = append(weights, e.weight)
	}
	return asked, phrases, idf, matches, whole, weights
}

// bridge finds the neighbours of r's words among the word vectors t
// (the store's sidecar, index.Store.Vectors; counts: the sections each
// word matches; matches: the sections the words asked for match) and
// records them in r.Added. The words asked for stay within maxAnyMatches
// sections, the whole-document bm25's within maxWholeMatches.
func (k *ranker) bridge(ctx context.Context, t *vectors.Table, r *Reading, counts []int64, matches int64) (bridged, error) {
	var b bridged
	type near struct {
		Added
		held bool // its word is held by sections
	}
	var found []near
	taken := map[string]bool{}
	ok := func(n string) bool {
		if stopWords[n] || taken[n] {
			return false
		}
		for _, w := range r.Words {
			if sameStem(n, w) {
				return false
			}
		}
		return true
	}
	for i, w := range r.Words[:min(len(r.Words), bridgeWords)] {
		held := counts[i] > 0
		if held && matches > maxWholeMatches {
			continue // no whole-document bm25 to bridge in
		}
		for _, n := range t.Neighbours(w, bridgeK, bridgeMin, ok) {
			taken[n.Word] = true
			weight := math.Round(n.Cosine*bridgeWeight*1000) / 1000 // as shown
			found = append(found, near{Added{Word: n.Word, For: w, Weight: weight}, held})
		}
	}
	if len(found) == 0 {
		return b, nil
	}
	phrases := make([]string, len(found))
	for i, c := range found {
		phrases[i] = `"` + c.Word + `"`
	}
	ncounts, idf, err := k.idf(ctx, phrases)
	if err != nil {
		return b, err
	}
	whole, wholeRuns := matches, matches <= maxWholeMatches
	var at []int // of each word added: its place in b.asked, or in b.whole minus 1 and negated
	for i, c := range found {
		n := ncounts[i]
		switch {
		case n == 0 || len(counts)+len(b.asked) >= 62:
			continue
		case !c.held && matches+n <= maxAnyMatches && (!wholeRuns || whole+n <= maxWholeMatches):
			// an added word must not take the whole-document bm25 away
			matches += n
			whole += n
			at = append(at, len(b.asked))
			b.asked = append(b.asked, extra{phrases[i], idf[i], n, c.Weight})
		case c.held && whole+n <= maxWholeMatches:
			whole += n
			at = append(at, -1-len(b.whole))
			b.whole = append(b.whole, extra{phrases[i], idf[i], n, c.Weight})
		default:
			continue
		}
		r.Added = append(r.Added, c.Added)
	}
	// The masks' bits: the reading's words, then the words asked, then
	// the whole-document bm25's (extend, rankNatural).
	for _, j := range at {
		bit := len(counts) + j
		if j < 0 {
			bit = len(counts) + len(b.asked) - 1 - j
		}
		if bit >= 62 {
			bit = -1
		}
		r.added = append(r.added, bit)
	}
	return b, nil
}

// addedOf lists the words a bridge added (r.Added) that a mask holds.
func (r *Reading) addedOf(mask uint64) []string {
	var out []string
	for i, bit := range r.added {
		if bit >= 0 && mask&(1<<bit) != 0 {
			out = append(out, r.Added[i].Word)
		}
	}
	return out
}

// sameStem reports whether two words share a stem as far as a bridge
// cares: the first five letters of both (all of the shorter's when it is
// shorter), as ticket and tickets, quiet and quietly. The porter stemmer
// matches such forms already; a bridge adds other words.
func sameStem(a, b string) bool {
	n := min(5, len(a), len(b))
	return strings.EqualFold(a[:n], b[:n])
}
