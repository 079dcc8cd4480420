package search

import (
	"context"
	"strings"

	"github.com/canon-md/canon/index"
)

// Hit is one full-text search result: a section of a document.
type Hit struct {
	index.DocRef
	Line    int     `json:"line"`    // first line of the section
	Section string  `json:"section"` // heading ("" for the text before the first heading)
	Slug    string  `json:"slug"`
	Chunk   string  `json:"chunk"`   // chunk id: node key # slug
	Snippet string  `json:"snippet"` // matched terms between ** **
	Score   float64 `json:"score"`   // bm25, lower is better; a natural reading's document score
	// Words are the words of a natural reading the document holds, when
	// it holds only some of them (Reading.Match "any").
	Words []string `json:"words,omitempty"`
	// Added are the words a vocabulary bridge added (Reading.Added) that
	// the document holds, when it holds only some of the reading's.
	Added []string `json:"added,omitempty"`
	// Also are the documents whose best section is this one's text (a
	// page copied per version), left out of the hits after it.
	Also []string `json:"also,omitempty"`
}

// hitOf is a section as a hit shows it, its score the section's.
func hitOf(s index.SectionHit) Hit {
	return Hit{DocRef: s.DocRef, Line: s.Line, Section: s.Heading, Slug: s.Slug, Chunk: s.Key + "#" + s.Slug, Score: s.Score}
}

// Options narrow a search.
type Options struct {
	Limit int // hits at most; 0 means 10
	Kind  string
	// Namespace, when set, keeps the documents of that namespace.
	Namespace string
}

// Hits is Search's hits.
func Hits(ctx context.Context, st *index.Store, text string, opt Options) ([]Hit, error) {
	f, err := Search(ctx, st, text, opt)
	if f == nil || len(f.Hits) == 0 {
		return nil, err
	}
	return f.Hits, err
}

// Search reads text (ReadQuery) and searches the index st: a natural
// reading by document (searchNatural), a query with operators by section
// as FTS5 reads it (searchExact). The answer says how the text was read.
// An option that names nothing (a kind no document has, a namespace none
// is in) is an index.NothingNamed when nothing is found.
func Search(ctx context.Context, st *index.Store, text string, opt Options) (*Found, error) {
	r, err := ReadQuery(text)
	if err != nil {
		return nil, err
	}
	if opt.Limit <= 0 {
		opt.Limit = 10
	}
	filter := index.DocFilter{Kind: opt.Kind, Namespace: opt.Namespace}
	var out []Hit
	err = st.ReadFullText(ctx, text, filter, func(t *index.FullText) error {
		var err error
		if r.natural() {
			k := &ranker{st: st, t: t, text: text}
			out, err = k.searchNatural(ctx, &r, opt.Limit)
		} else {
			out, err = searchExact(ctx, t, r.all, opt.Limit)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		if err := st.Unmatched(ctx, filter); err != nil {
			return nil, err
		}
	}
	f := NewFound(text, out)
	f.Read = &r
	return f, nil
}

// searchExact ranks sections matching the FTS5 query q with canon_bm25:
// title matches weigh most, then the heading, then the text (index's
// FullText.Exact). Ties break on path and position, so the order is
// stable. Snippets are made for the hits kept only.
func searchExact(ctx context.Context, t *index.FullText, q string, limit int) ([]Hit, error) {
	sections, total, err := t.Exact(ctx, q, limit)
	if err != nil || len(sections) == 0 {
		return nil, err
	}
	out := make([]Hit, len(sections))
	ids := make([]index.ChunkID, len(sections))
	for i, s := range sections {
		out[i], ids[i] = hitOf(s), s.Chunk
	}
	return out, snippets(ctx, t, q, ids, total, out)
}

// snippets fills the snippets of hits, the sections ids (in order) that
// match q (which matched total sections, 0 when not counted).
func snippets(ctx context.Context, t *index.FullText, q string, ids []index.ChunkID, total int, hits []Hit) error {
	snips, err := t.Snippets(ctx, q, ids, total)
	if err != nil {
		return err
	}
	for i := range hits {
		hits[i].Snippet = oneLine(snips[ids[i]])
	}
	return nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
