package search

import (
	"context"
	"slices"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// Names in a query (ADR-0073): an agent names what it asks about ("what
// blocks KABSD-TSK-0155", "EIP-1559 base fee", "task-35"), and the document
// named is the answer's first hit and a pack's first seed, whatever the
// words around the name match. A name is an id-shaped word (PREFIX-NUMBER
// as resolve.PrefixNumber reads it, a uid, a file name ending in .md) that
// names a document by its id, uid, file stem or file number, as canon show
// resolves it (index.Store.Find); or the whole query, when it is exactly a
// document's title or file stem. Any other word, however it equals a stem
// (readme, index, summary), is a word: it does not name.

// maxNamed is the most documents one name may name: an id a few files
// share (a duplicate id, a decision and its appendix) names them all; a
// whole query that is the title or stem of more (index, Summary) is a
// common word, not a name.
const maxNamed = 4

// name is a name a query holds.
type name struct {
	at    int      // its place among the query's words (-1: the whole query)
	terms []string // the alias terms that may name it, tried in order
}

// namesIn reads the names a query holds: its id-shaped words, in order,
// each once, then the whole query as a title or stem (unless it is one
// id-shaped word, already read).
func namesIn(text string) []name {
	var out []name
	seen := map[string]bool{}
	words := queryWords(text)
	for i, w := range words {
		terms := nameTerms(w)
		if len(terms) == 0 || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, name{at: i, terms: terms})
	}
	whole := strings.TrimRight(strings.TrimSpace(text), "?!.")
	if len(words) == 1 && len(out) == 1 || whole == "" {
		return out
	}
	var terms []string
	if t := resolve.TitleKey(whole); t != "" && len(words) >= minTitleWords {
		terms = append(terms, "title:"+t)
	}
	if len(words) == 1 && strings.ContainsAny(whole, "-_.") && !strings.ContainsAny(whole, "/\\") {
		terms = append(terms, "stem:"+words[0])
	}
	if len(terms) > 0 {
		out = append(out, name{at: -1, terms: terms})
	}
	return out
}

// minTitleWords is the fewest words a query must have to name a document
// by its whole title: a title of a few words is what a keyword query
// types ("vector backend"), and the stub titled so must not outrank the
// document that decides it (ADR-0047); a longer title typed whole is a
// name. A whole query names by file stem only when it is shaped as a file
// name (one word with a dash, an underscore or a dot: vector-backend), not
// a plain word (readme, index).
const minTitleWords = 4

// queryWords are the words of a query as names are written: split on
// spaces, the punctuation around each trimmed ("KB-TSK-0007?", "(EIP-1559)",
// "`task-35`", "BACK-7's"), lower-cased.
func queryWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, "\"'`()[]{}<>,;:!?*")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		w = strings.TrimRight(w, ".")
		if w != "" {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// nameTerms are the alias terms an id-shaped word (lower-cased) may name a
// document by, in Find's order; none for any other word.
func nameTerms(w string) []string {
	switch {
	case len(w) > 200:
		return nil
	case isUID(w):
		return []string{"uid:" + w}
	case strings.HasSuffix(w, ".md") && len(w) > 3:
		return []string{"stem:" + strings.ToLower(markdown.Stem(w))}
	}
	if resolve.IsNumber(w) {
		// 1287: the file or folder numbered so (a KEP's, an RFC's), or
		// the id a renamed prefix gave that number.
		return []string{"num:" + w, "was:" + w}
	}
	if _, _, ok := resolve.PrefixNumber(w); !ok {
		return nil
	}
	return []string{"id:" + w, "uid:" + w, "stem:" + w, "num:" + w, "was:" + w}
}

// isUID reports whether w is shaped as a uid: a UUID (8-4-4-4-12 hex
// digits) or a ULID (26 Crockford base-32 characters, digits among them).
func isUID(w string) bool {
	switch len(w) {
	case 36:
		for i, r := range w {
			dash := i == 8 || i == 13 || i == 18 || i == 23
			if dash != (r == '-') || !dash && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return false
			}
		}
		return true
	case 26:
		digits := 0
		for _, r := range w {
			switch {
			case r >= '0' && r <= '9':
				digits++
			case r < 'a' || r > 'z' || r == 'i' || r == 'l' || r == 'o' || r == 'u':
				return false
			}
		}
		return digits > 0 && w[0] <= '7'
	}
	return false
}

// relations maps the words that ask for a document's neighbours to the
// edge types that lead to them: "what blocks X" its blockers, "children
// of X" the documents whose parent it is, "what does X require" its
// dependencies.
var relations = map[string][]string{
	"block": {"blocked_by", "blocks"}, "blocks": {"blocked_by", "blocks"}, "blocked": {"blocked_by", "blocks"},
	"blocking": {"blocked_by", "blocks"}, "blocker": {"blocked_by", "blocks"}, "blockers": {"blocked_by", "blocks"},
	"parent": {"parent"}, "parents": {"parent"}, "child": {"parent"}, "children": {"parent"},
	"subtask": {"parent"}, "subtasks": {"parent"},
	"require": {"depends_on", "blocked_by"}, "requires": {"depends_on", "blocked_by"}, "required": {"depends_on", "blocked_by"},
	"depend": {"depends_on", "blocked_by"}, "depends": {"depends_on", "blocked_by"}, "dependency": {"depends_on", "blocked_by"},
	"dependencies": {"depends_on", "blocked_by"}, "prerequisites": {"depends_on", "blocked_by"},
	"supersede": {"supersedes"}, "supersedes": {"supersedes"}, "superseded": {"supersedes"},
	"replaces": {"supersedes"}, "replaced": {"supersedes"},
	"decision": {"decision_ref"}, "decisions": {"decision_ref"},
}

// relationNear is the edge types the words near a name (within 3 before
// it, within 2 after: "what blocks X", "X is blocked by", "children of X")
// ask for, in the order the words come; none for the whole query.
func relationNear(words []string, at int) []string {
	if at < 0 {
		return nil
	}
	var out []string
	for i := max(0, at-3); i < min(len(words), at+3); i++ {
		for _, e := range relations[words[i]] {
			if i != at && !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// Named is a document a query names: a search's first hits, a pack's
// first seeds.
type Named struct {
	Doc index.DocID
	// Edges are the edge types the words next to the name ask for
	// (relationNear): a pack follows them first.
	Edges []string
}

// namedDocs resolves the names text holds (namesIn) to documents, each
// name by its first term that names at most maxNamed documents of the
// read's filter: the documents' first sections (allPerDoc each), in the
// order of the names, people's documents before generated ones, each once.
func (k *ranker) namedDocs(ctx context.Context, text string) ([]docRank, []Named, error) {
	names := namesIn(text)
	if len(names) == 0 {
		return nil, nil, nil
	}
	words := queryWords(text)
	var docs []docRank
	var named []Named
	at := map[index.DocID]bool{}
	for _, n := range names {
		for _, term := range n.terms {
			secs, err := k.t.NamedSections(ctx, term, maxNamed, allPerDoc)
			if err != nil {
				return nil, nil, err
			}
			if len(secs) == 0 {
				continue
			}
			byDoc := groupSections(secs)
			if len(byDoc) > maxNamed {
				break // a common word: it names nothing
			}
			for _, d := range byDoc {
				if id := d.sections[0].Doc; !at[id] {
					at[id] = true
					docs = append(docs, d)
					named = append(named, Named{Doc: id, Edges: relationNear(words, n.at)})
				}
			}
			break
		}
	}
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ga, gb := docs[a].sections[0].Generated, docs[b].sections[0].Generated
		switch {
		case ga == gb:
			return 0
		case gb:
			return -1
		}
		return 1
	})
	outDocs, outNamed := make([]docRank, len(docs)), make([]Named, len(docs))
	for i, o := range order {
		outDocs[i], outNamed[i] = docs[o], named[o]
	}
	return outDocs, outNamed, nil
}

// groupSections groups sections (each document's together) by document,
// in order; each docRank is marked named.
func groupSections(secs []candidate) []docRank {
	var out []docRank
	for _, s := range secs {
		if len(out) == 0 || out[len(out)-1].sections[0].Doc != s.Doc {
			out = append(out, docRank{named: true})
		}
		out[len(out)-1].sections = append(out[len(out)-1].sections, s)
	}
	return out
}

// namedFirst puts the named documents before the ranked ones (a named
// document the ranking found keeps its sections and words there, moved
// first), each once, at most limit in all; also follows the documents.
// Scores stay in order: a named document scores as the best of the ranked
// (or -1).
func namedFirst(named, ranked []docRank, also [][]string, limit int) ([]docRank, [][]string) {
	if len(named) == 0 {
		return ranked, also
	}
	best := -1.0
	if len(ranked) > 0 && ranked[0].score < 0 {
		best = ranked[0].score
	}
	found := map[index.DocID]int{}
	for i, d := range ranked {
		found[d.sections[0].Doc] = i
	}
	var docs []docRank
	var out [][]string
	in := map[index.DocID]bool{}
	for _, d := range named {
		id := d.sections[0].Doc
		var a []string
		if i, ok := found[id]; ok {
			d, a = ranked[i], also[i]
			d.named = true
		} else {
			d.sections = slices.Clone(d.sections)
			for j := range d.sections {
				d.sections[j].Score = best
			}
		}
		d.score = best
		in[id] = true
		docs, out = append(docs, d), append(out, a)
	}
	for i, d := range ranked {
		if !in[d.sections[0].Doc] {
			docs, out = append(docs, d), append(out, also[i])
		}
	}
	n := min(limit, len(docs))
	return docs[:n], out[:n]
}
