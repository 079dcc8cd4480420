package search

import (
	"context"

	"github.com/canon-md/canon/index"
)

// ChunkMatch is a section that matched a full-text query: the raw
// material of a context pack's search seeds.
type ChunkMatch struct {
	Chunk index.ChunkID
	Doc   index.DocID
	Key   string // its document's node key
	Seq   int    // its position in the document
	Slug  string
	BM25  float64  // with the title weighing 10, the heading 4, the text 1; lower is better
	Rank  float64  // what orders the matches: BM25, or the document's score (RankDocuments)
	Terms []string // the words that matched, lower-cased, as FTS5 highlighted them
}

// Ranked is the best sections for a full-text query, in order, and how
// many sections matched in all.
type Ranked struct {
	Matches []ChunkMatch // without their Terms: MatchedTerms reads them
	Total   int          // how many sections matched
	Read    Reading      // how RankDocuments read the text
	// Named are the documents the text names (ADR-0073), first among the
	// matches, with the edges the words next to each name ask for.
	Named []Named
	query string // as FTSQuery made it
}

// RankSections returns the best limit sections for text (as FTSQuery
// reads it), ordered by score, node key and position: every match is
// scored once, and only those at or above the limit-th score are joined
// to their documents (index's FullText.Best).
func RankSections(ctx context.Context, st *index.Store, text string, limit int) (*Ranked, error) {
	q, err := FTSQuery(text)
	if err != nil {
		return nil, err
	}
	r := &Ranked{query: q}
	if limit <= 0 {
		return r, nil
	}
	err = st.ReadFullText(ctx, text, index.DocFilter{}, func(t *index.FullText) error {
		best, total, err := t.Best(ctx, q, limit)
		for _, m := range best {
			r.Matches = append(r.Matches, ChunkMatch{Chunk: m.Chunk, Doc: m.Doc, Key: m.Key, Seq: m.Seq, Slug: m.Slug, BM25: m.Score, Rank: m.Score})
		}
		r.Total = total
		return err
	})
	return r, err
}

// MatchedTerms returns the words each of the sections ids (among r's
// matches) matched, lower-cased, as FTS5 highlights them in the title, the
// heading and a window of the text.
func MatchedTerms(ctx context.Context, st *index.Store, r *Ranked, ids []index.ChunkID) (map[index.ChunkID][]string, error) {
	return st.MatchedTerms(ctx, r.query, r.Total, ids)
}
