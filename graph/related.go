package graph

import (
	"context"
	"strings"
	"unicode"
)

// ReasonRelated is the reason of an entry a task's pack found by searching
// the task's title: no edge reaches the task, so nothing else says what is
// near it.
const ReasonRelated = "related"

// relatedWeight weighs a document found by the task's title as a body link
// (references) weighs a neighbour: sharing words is no stronger a tie.
const relatedWeight = 0.5

// related finds, for a task no edge reaches, the opt.Related documents a
// search for its title ranks first (read as canon search reads plain
// words; generated documents, the task and the documents in skip left
// out). Each is a task-scope entry saying which words matched; its score
// is a depth-1 neighbour's, its search relevance in place of an edge's
// weight.
func (g *Graph) related(ctx context.Context, task node, opt PackOptions, gen *genFilter, skip map[string]bool) ([]Entry, error) {
	q := plainWords(task.ref.Title)
	if q == "" {
		return nil, nil
	}
	found, err := g.searchSeeds(ctx, q, 2*opt.Related+1, gen)
	if err != nil {
		return nil, err
	}
	var out []Entry
	best := 0.0
	for _, f := range found {
		if f.bm25 < best {
			best = f.bm25
		}
	}
	for _, f := range found {
		if len(out) == opt.Related {
			break
		}
		if f.id == task.id || skip[f.ref.Key] {
			continue
		}
		rel := 1.0
		if best < 0 {
			rel = f.bm25 / best
		}
		e := Entry{DocRef: f.ref, id: f.id, Excerpts: []Excerpt{}, hits: f.chunks, order: len(out) + 1}
		e.Why = Why{Reason: ReasonRelated, Source: SourceSearch, Matched: f.matched, Depth: 1}
		e.base = opt.Weights.Decay * relatedWeight * rel
		e.weigh(opt.Weights)
		out = append(out, e)
	}
	return out, nil
}

// plainWords keeps a title's letters and digits, lower-cased, so that the
// search reads it as plain words: a title's quotes, stars, parentheses or
// an upper-case AND, OR or NOT are not operators there. It keeps at most
// relatedWords words and relatedBytes bytes, within what a search takes.
func plainWords(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	n, size := 0, 0
	for n < len(words) && n < relatedWords && size+len(words[n]) <= relatedBytes {
		size += len(words[n]) + 1
		n++
	}
	return strings.Join(words[:n], " ")
}

// A title searched for related documents is cut to these bounds, well
// within a search's (search.MaxQueryWords, search.MaxQueryBytes).
const (
	relatedWords = 32
	relatedBytes = 1024
)
