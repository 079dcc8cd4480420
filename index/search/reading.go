package search

import (
	"slices"
	"strings"

	"github.com/canon-md/canon/index"
)

// How a search read its text (Reading.Match).
const (
	// MatchExact is a query with operators ("phrase", prefix*, AND, OR,
	// NOT): FTS5 reads it as written, every word in one section.
	MatchExact = "exact"
	// MatchAll is a natural query whose hits each hold every word it
	// counted in one section.
	MatchAll = "all"
	// MatchAny is a natural query with too few such hits: hits hold some
	// of its words, ranked by how many and how rare.
	MatchAny = "any"
)

// Reading is how a search read its text: the words that counted, the
// words it left out as too common to mean anything (stop words, question
// words), and whether hits had to hold all the words or any of them.
type Reading struct {
	Words   []string `json:"words"`
	Ignored []string `json:"ignored"`
	Match   string   `json:"match"`
	// Common are words so common in a large index that a search for any
	// of the words leaves them out (maxAnyMatches).
	Common []string `json:"common,omitempty"`
	// Added are the words a vocabulary bridge asked for besides (ADR-0050).
	Added []Added `json:"added,omitempty"`
	// Respelled: words no section holds, searched as the documents spell
	// them (builtin as "built in").
	Respelled []Respelled `json:"respelled,omitempty"`
	added     []int       // the bit of each of Added in a ranking's masks, -1 for none
	all       string      // the FTS5 query of every word (the exact query as written)
	phrases   []string    // the FTS5 phrase of each word, in Words' order
}

// ReadQuery reads what a person typed. A text with an operator (a quote,
// a trailing *, or AND, OR, NOT in capitals) is read as FTSQuery reads it,
// exactly as written. Any other text is read as people write: each word
// (letters and digits; "sqlite-vec" is one word of two tokens, in order)
// counts once, except stop words and question words, which are ignored
// unless every word is one. The search then asks for all the words in one
// section first, and for any of them when that finds too few documents.
func ReadQuery(text string) (Reading, error) {
	q, err := FTSQuery(text)
	if err != nil {
		return Reading{}, err
	}
	if hasOperator(text) {
		return Reading{Words: ftsUnquoted(index.FTSPhrases(q)), Ignored: []string{}, Match: MatchExact, all: q}, nil
	}
	r := Reading{Words: []string{}, Ignored: []string{}}
	seen := map[string]bool{}
	var stop []string
	for _, w := range strings.Fields(text) {
		t := strings.ToLower(index.FTSWords(w))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if allStop(t) {
			stop = append(stop, t)
			continue
		}
		r.Words = append(r.Words, t)
	}
	if len(r.Words) == 0 {
		r.Words, stop = stop, nil // only stop words: they are the question
	}
	r.Ignored = append(r.Ignored, stop...)
	for _, w := range r.Words {
		r.phrases = append(r.phrases, `"`+w+`"`)
	}
	r.all = strings.Join(r.phrases, " ")
	r.Match = MatchAll
	return r, nil
}

// clone is a copy of r whose lists are its own.
func (r *Reading) clone() Reading {
	c := *r
	c.Words, c.Ignored, c.Common = slices.Clone(r.Words), slices.Clone(r.Ignored), slices.Clone(r.Common)
	c.Added, c.Respelled, c.added, c.phrases = slices.Clone(r.Added), slices.Clone(r.Respelled), slices.Clone(r.added), slices.Clone(r.phrases)
	return c
}

// natural reports whether the reading is of a natural query (its match
// decided by the search), not of operators.
func (r Reading) natural() bool { return r.Match != MatchExact }

// hasOperator reports whether text uses FTSQuery's operators: a quote, a
// word ending in *, or AND, OR, NOT written in capitals as a word.
func hasOperator(text string) bool {
	if strings.ContainsRune(text, '"') {
		return true
	}
	for _, w := range strings.Fields(text) {
		switch {
		case w == "AND", w == "OR", w == "NOT":
			return true
		case strings.HasSuffix(w, "*") && index.FTSWords(w) != "":
			return true
		}
	}
	return false
}

// allStop reports whether every token of the word w (what's is what s)
// is a stop word.
func allStop(w string) bool {
	for _, t := range strings.Fields(w) {
		if !stopWords[t] {
			return false
		}
	}
	return true
}

// ftsUnquoted lists the words of FTS5 phrases ("a b"*) as typed: a b*.
func ftsUnquoted(phrases []string) []string {
	out := make([]string, 0, len(phrases))
	for _, p := range phrases {
		out = append(out, strings.ReplaceAll(p, `"`, ""))
	}
	return out
}

// stopWords are the words a natural query does not need to match: English
// function words, question words and the verbs questions are built with.
// They occur in nearly every section, so requiring them finds nothing a
// question means and ranking by them adds nothing.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a about above after again against all am an and any are aren as at
		be because been before being below between both but by
		can cannot could couldn did didn do does doesn doing don down during
		each few for from further had hadn has hasn have haven having he her here
		hers herself him himself his how i if in into is isn it its itself
		just let me more most must my myself no nor not now of off on once only or
		other ought our ours ourselves out over own same shall she should shouldn so
		some such than that the their theirs them themselves then there these they
		this those through to too under until up upon very was wasn we were weren
		what when where whether which while who whom whose why will with won would
		wouldn you your yours yourself yourselves
		s t d ll m re ve
		get gets got tell explain describe
		contain contains happen happens happened`) {
		m[w] = true
	}
	return m
}()
