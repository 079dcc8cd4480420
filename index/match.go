package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// ChunkMatch is a section that matched a full-text query: the raw
// material of a context pack's search seeds.
type ChunkMatch struct {
	Chunk ChunkID
	Doc   DocID
	Key   string // its document's node key
	Seq   int    // its position in the document
	Slug  string
	BM25  float64  // with the title weighing 10, the heading 4, the text 1; lower is better
	Terms []string // the words that matched, lower-cased, as FTS5 highlighted them
}

// highlightCols are the auxiliary functions that mark matched words with
// \x02 ... \x03 in the title, the heading and a window of the text.
const highlightCols = `highlight(chunks_fts, 0, char(2), char(3)), highlight(chunks_fts, 1, char(2), char(3)), snippet(chunks_fts, 2, char(2), char(3), '', 64)`

// matchError says whether a failed search was the query's fault.
func matchError(err error, text string) error {
	if strings.Contains(err.Error(), "fts5") {
		return fmt.Errorf("%w: %q: %v", ErrBadQuery, text, err)
	}
	return fmt.Errorf("search: %w", err)
}

// MatchesByRank is the fast way to the best limit sections for text (as
// FTSQuery reads it): FTS5 sorts by its own rank, so highlight() runs for
// the returned rows only. FTS5 breaks ties by row id, so the caller must
// not trust the order among equal scores, nor that rows tying with the
// last one are all there (MatchesByScore is exact).
func (s *Store) MatchesByRank(ctx context.Context, text string, limit int) ([]ChunkMatch, error) {
	q, err := FTSQuery(text)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, rank, `+highlightCols+`
		FROM chunks_fts WHERE chunks_fts MATCH ? AND rank MATCH 'bm25(10.0, 4.0, 1.0)' ORDER BY rank LIMIT ?`, q, limit)
	if err != nil {
		return nil, matchError(err, text)
	}
	ms, err := scanAll(rows, func(r *sql.Rows) (ChunkMatch, error) {
		var m ChunkMatch
		var id int64
		var title, heading, body string
		if err := r.Scan(&id, &m.BM25, &title, &heading, &body); err != nil {
			return m, err
		}
		m.Chunk, m.Terms = ChunkID(id), highlighted(title, heading, body)
		return m, nil
	})
	if err != nil {
		return nil, err
	}
	return ms, s.placeMatches(ctx, ms)
}

// placeMatches fills in the document, position and slug of each match.
func (s *Store) placeMatches(ctx context.Context, ms []ChunkMatch) error {
	type place struct {
		doc  DocID
		seq  int
		slug string
		key  string
	}
	ids := make([]any, len(ms))
	for i, m := range ms {
		ids[i] = int64(m.Chunk)
	}
	places := make(map[ChunkID]place, len(ms))
	var id, doc int64
	var p place
	err := eachIn(ctx, s.db, `SELECT c.id, c.doc, c.seq, c.slug, d.key FROM chunks c JOIN docs d ON d.id = c.doc
			WHERE c.id IN (%s)`, nil, ids, nil, func(r *sql.Rows) error {
		if err := r.Scan(&id, &doc, &p.seq, &p.slug, &p.key); err != nil {
			return err
		}
		p.doc = DocID(doc)
		places[ChunkID(id)] = p
		return nil
	})
	if err != nil {
		return err
	}
	for i := range ms {
		p := places[ms[i].Chunk]
		ms[i].Doc, ms[i].Seq, ms[i].Slug, ms[i].Key = p.doc, p.seq, p.slug, p.key
	}
	return nil
}

// MatchesByScore is the exact way to the best limit sections for text:
// every match sorted by score, node key and position in SQL, then the
// highlights of the ones returned.
func (s *Store) MatchesByScore(ctx context.Context, text string, limit int) ([]ChunkMatch, error) {
	q, err := FTSQuery(text)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key, bm25(chunks_fts, 10.0, 4.0, 1.0) AS s
		FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
		WHERE chunks_fts MATCH ? ORDER BY s, d.key, c.seq LIMIT ?`, q, limit)
	if err != nil {
		return nil, matchError(err, text)
	}
	ms, err := scanAll(rows, func(r *sql.Rows) (ChunkMatch, error) {
		var m ChunkMatch
		var id, doc int64
		err := r.Scan(&id, &doc, &m.Seq, &m.Slug, &m.Key, &m.BM25)
		m.Chunk, m.Doc = ChunkID(id), DocID(doc)
		return m, err
	})
	if err != nil {
		return nil, err
	}
	for i := range ms {
		var title, heading, body string
		err := s.db.QueryRowContext(ctx, `SELECT `+highlightCols+` FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?`, q, int64(ms[i].Chunk)).Scan(&title, &heading, &body)
		if err != nil {
			return nil, fmt.Errorf("highlight: %w", err)
		}
		ms[i].Terms = highlighted(title, heading, body)
	}
	return ms, nil
}

// highlighted lists the lower-cased words between \x02 and \x03 marks.
func highlighted(texts ...string) []string {
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
