package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
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
	Rank  float64  // what orders the matches: BM25, or the document's score (RankDocuments)
	Terms []string // the words that matched, lower-cased, as FTS5 highlighted them
}

// matchError says whether a failed search was the query's fault; any
// other failure is the database's, said as Explain says it.
func (s *Store) matchError(err error, text string) error {
	if strings.Contains(err.Error(), "fts5") {
		return fmt.Errorf("%w: %q: %w", ErrBadQuery, text, err)
	}
	return friendly(fmt.Errorf("search: %w", err), s.path)
}

// rankedCTE scores every section matching ?1 once (rank: rankExpr's
// canon_bm25, FTS5's bm25 with the title weighing 10, the heading 4, the
// text 1, asked for the ?2+1 best) and keeps the rows at or above the
// score of the (?2+1)-th best (ties included): the query that joins it
// reads the chunks and documents of those rows only. A common word
// matches thousands of sections; reading each one's rows cost more than
// ranking them, and FTS5's own ORDER BY rank is slower than scoring into a
// table and sorting it (it carries every row's position lists through its
// sorter). Rows canon_bm25 already knows cannot be kept score NULL and
// are not stored: r holds the candidates only (at 100k documents, storing
// the 2,384 matches of "webhook retry" cost 0.5 ms of a 4 ms search).
func rankedCTE(rank string) string {
	return `WITH r AS MATERIALIZED (SELECT rid, score FROM (SELECT rowid AS rid, ` + rank + ` AS score FROM chunks_fts WHERE chunks_fts MATCH ?1) WHERE score IS NOT NULL),
	kept AS (SELECT rid, score FROM r WHERE score <= coalesce((SELECT score FROM r ORDER BY score LIMIT 1 OFFSET ?2), 1e308))`
}

// matchedCount is the column that says how many sections matched in all
// (canon_bm25 scored each once; r holds only the candidates): what chooses
// how to read the highlights. It is read as the rows come, once r is
// complete.
const matchedCount = `canon_bm25_scored()`

// Ranked is the best sections for a full-text query, in order, and how
// many sections matched in all.
type Ranked struct {
	Matches []ChunkMatch // without their Terms: MatchedTerms reads them
	Total   int          // how many sections matched
	Read    Reading      // how RankDocuments read the text
	query   string       // as FTSQuery made it
}

// RankSections returns the best limit sections for text (as FTSQuery
// reads it), ordered by score, node key and position: every match is
// scored once, and only those at or above the limit-th score are joined
// to their documents.
func (s *Store) RankSections(ctx context.Context, text string, limit int) (*Ranked, error) {
	q, err := FTSQuery(text)
	if err != nil {
		return nil, err
	}
	r := &Ranked{query: q}
	if limit <= 0 {
		return r, nil
	}
	err = s.read(ctx, func(tx *sql.Conn) error {
		rank, err := s.rankExpr(ctx, tx, q, limit)
		if err != nil {
			return s.matchError(err, text)
		}
		rows, err := tx.QueryContext(ctx, rankedCTE(rank)+`
			SELECT c.id, c.doc, c.seq, c.slug, d.key, kept.score, `+matchedCount+`
			FROM kept JOIN chunks c ON c.id = kept.rid JOIN docs d ON d.id = c.doc
			ORDER BY kept.score, d.key, c.seq LIMIT ?3`, q, limit-1, limit)
		if err != nil {
			return s.matchError(err, text)
		}
		r.Matches, err = scanAll(rows, func(rs *sql.Rows) (ChunkMatch, error) {
			var m ChunkMatch
			var id, doc int64
			err := rs.Scan(&id, &doc, &m.Seq, &m.Slug, &m.Key, &m.BM25, &r.Total)
			m.Chunk, m.Doc, m.Rank = ChunkID(id), DocID(doc), m.BM25
			return m, err
		})
		return err
	})
	return r, err
}

// read runs fn in one read transaction: its queries see the index as of
// the first of them, whatever commits meanwhile (a ranking's counts and the
// rows they score come from the same index). It begins with BEGIN, not
// the DSN's BEGIN IMMEDIATE (Tx's, for writes): a read takes no write
// lock, so reads never wait for one another, nor hold up a sync, however
// long one takes (canon mcp answers its read-only calls side by side).
func (s *Store) read(ctx context.Context, fn func(c *sql.Conn) error) error {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return friendly(err, s.path)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `BEGIN`); err != nil {
		return friendly(err, s.path)
	}
	end := `COMMIT` // keeps the scratch table a first highlight made (hitsDDL)
	if err = fn(c); err != nil {
		end = `ROLLBACK`
	}
	// Whatever ctx says: the connection must not go back to the pool
	// inside a transaction.
	if _, eerr := c.ExecContext(context.Background(), end); eerr != nil {
		_ = c.Raw(func(any) error { return driver.ErrBadConn }) // drop it: the error is the point
		if err == nil {
			err = friendly(eerr, s.path)
		}
	}
	return err
}

// MatchedTerms returns the words each of the sections ids (among r's
// matches) matched, lower-cased, as FTS5 highlights them in the title, the
// heading and a window of the text.
func (s *Store) MatchedTerms(ctx context.Context, r *Ranked, ids []ChunkID) (map[ChunkID][]string, error) {
	terms := make(map[ChunkID][]string, len(ids))
	if len(ids) == 0 {
		return terms, nil
	}
	// One connection, no transaction: a transaction here begins IMMEDIATE
	// (the index's DSN) and would wait on, and hold up, a writer.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, friendly(fmt.Errorf("highlight: %w", err), s.path)
	}
	defer conn.Close()
	err = eachHighlight(ctx, conn, r.query, idArgs(ids), r.Total, markCols, func(rs *sql.Rows) error {
		var id int64
		var title, heading, body string
		if err := rs.Scan(&id, &title, &heading, &body); err != nil {
			return err
		}
		terms[ChunkID(id)] = highlighted(title, heading, body)
		return nil
	})
	if err != nil {
		return nil, friendly(fmt.Errorf("highlight: %w", err), s.path)
	}
	return terms, nil
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
