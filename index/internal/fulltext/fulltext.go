package fulltext

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// The full-text reads index/search ranks by: the search engine (query
// reading, ranking, copies, the vocabulary bridge) is index/search's, and
// every statement it needs is a typed read here, on one read transaction
// (FullText), so that the schema and the statements that call FTS5's
// auxiliary functions (index/sqliteconn registers them) stay in this
// package (ADR-0063).

// ErrBadQuery wraps a search text that is not a valid query: one FTS5
// refuses, or one index/search reads no query from (no words, too many).
var ErrBadQuery = errors.New("bad search query")

// FullText is one read transaction on the full-text index (index.Store.ReadFullText):
// its reads see the index as of the first of them, whatever commits
// meanwhile, so that a ranking's counts and the rows they score come from
// the same index. Queries are FTS5 queries as index/search writes them
// (its FTSQuery, or its phrases joined). A query FTS5 refuses is an
// ErrBadQuery naming the text the person typed.
type FullText struct {
	s     *Index
	c     *sql.Conn
	text  string // as typed: what a refused query's error names
	where string // the filter's conditions on the documents (d), "" for none
	args  []any  // their arguments
}

// Read runs fn in one read transaction (ReadConn) on the full-text
// index, narrowed by where, conditions on the documents (d) with their
// arguments args ("" for none); text is what the person typed, for errors.
func (s *Index) Read(ctx context.Context, text, where string, args []any, fn func(t *FullText) error) error {
	return s.ReadConn(ctx, func(c *sql.Conn) error {
		return fn(&FullText{s: s, c: c, text: text, where: where, args: args})
	})
}

// ReadConn runs fn in one read transaction: its queries see the index as of
// the first of them, whatever commits meanwhile (a ranking's counts and the
// rows they score come from the same index). It begins with BEGIN, not
// the DSN's BEGIN IMMEDIATE (sqlstore.Handle.InTx's, for writes): a read takes no write
// lock, so reads never wait for one another, nor hold up a sync, however
// long one takes (canon mcp answers its read-only calls side by side).
func (s *Index) ReadConn(ctx context.Context, fn func(c *sql.Conn) error) error {
	c, err := s.h.DB.Conn(ctx)
	if err != nil {
		return s.h.Friendly(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `BEGIN`); err != nil {
		return s.h.Friendly(err)
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
			err = s.h.Friendly(eerr)
		}
	}
	return err
}

// matchError says whether a failed search was the query's fault; any
// other failure is the database's, said as Explain says it.
func (s *Index) matchError(err error, text string) error {
	if strings.Contains(err.Error(), "fts5") {
		return fmt.Errorf("%w: %q: %w", ErrBadQuery, text, err)
	}
	return s.h.Friendly(fmt.Errorf("search: %w", err))
}

// RankedCTE scores every section matching ?1 once (rank: RankExpr's
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
func RankedCTE(rank string) string {
	return `WITH r AS MATERIALIZED (SELECT rid, score FROM (SELECT rowid AS rid, ` + rank + ` AS score FROM chunks_fts WHERE chunks_fts MATCH ?1) WHERE score IS NOT NULL),
	kept AS (SELECT rid, score FROM r WHERE score <= coalesce((SELECT score FROM r ORDER BY score LIMIT 1 OFFSET ?2), 1e308))`
}

// matchedCount is the column that says how many sections matched in all
// (canon_bm25 scored each once; r holds only the candidates): what chooses
// how to read the highlights. It is read as the rows come, once r is
// complete.
const matchedCount = `canon_bm25_scored()`

// SectionHit is a section as a search shows it: its document, where it
// starts, its heading and slug, and its score when the read ranked it.
type SectionHit struct {
	sqlstore.DocRef
	Chunk   sqlstore.ChunkID
	Line    int    // first line of the section
	Heading string // "" for the text before the first heading
	Slug    string
	Score   float64 // canon_bm25, lower is better (Exact)
}

// RankedSection is a section a ranking kept: where it is, its score and,
// for a natural ranking (Candidates), which of the query's phrases it
// holds.
type RankedSection struct {
	Chunk     sqlstore.ChunkID
	Doc       sqlstore.DocID
	Key       string // its document's node key
	Seq       int    // its position in the document
	Slug      string
	Generated bool    // its document is generated (docs.generated)
	Score     float64 // canon_bm25 (Best) or canon_bm25_pivot (Candidates), lower is better
	Mask      uint64  // the query's phrases it holds (canon_phrases; bit i: phrase i), when asked
	Title     uint64  // the query's phrases its title holds (the first section's)
	Near      uint64  // the query's neighbouring phrases it holds together (canon_near)
}

// Exact ranks the sections matching q by canon_bm25 with the title
// weighing most, then the heading, then the text, and returns the best
// limit, ties broken on path and position (so the order is stable), and
// how many sections matched in all (0 when not counted: under a filter).
func (t *FullText) Exact(ctx context.Context, q string, limit int) ([]SectionHit, int, error) {
	args := append(append([]any{q}, t.args...), limit)
	// Rank inside FTS5, then join to chunks and documents (for the
	// tie-break by path) only the hits at or above the score of the
	// limit-th one, ties included: a common word matches thousands of
	// sections, and reading each one's document row cost most of a search.
	// A filter (kind, namespace) needs the documents first: then every
	// match is joined.
	keep := 0 // a filter comes after the ranking: every match is a candidate
	if t.where == "" {
		keep = limit
	}
	rank, err := t.s.RankExpr(ctx, t.c, q, keep)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	query := `SELECT ` + sqlstore.DocRefCols + `, c.line, c.heading, c.slug, c.id, ` + rank + ` AS score, 0
		FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
		WHERE chunks_fts MATCH ?` + t.where + `
		ORDER BY score, d.path, c.seq LIMIT ?`
	total := 0 // the sections that matched in all, 0 when not counted
	if t.where == "" {
		query = RankedCTE(rank) + `
			SELECT ` + sqlstore.DocRefCols + `, c.line, c.heading, c.slug, c.id, kept.score, ` + matchedCount + `
			FROM kept JOIN chunks c ON c.id = kept.rid JOIN docs d ON d.id = c.doc
			ORDER BY kept.score, d.path, c.seq LIMIT ?3`
		args = []any{q, limit - 1, limit}
	}
	rows, err := t.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	out, err := sqlstore.ScanAll(rows, func(rows *sql.Rows) (SectionHit, error) {
		var h SectionHit
		var id int64
		ref, err := sqlstore.ScanDocRef(rows, &h.Line, &h.Heading, &h.Slug, &id, &h.Score, &total)
		h.DocRef, h.Chunk = ref, sqlstore.ChunkID(id)
		return h, err
	})
	return out, total, err
}

// Best returns the best limit sections for q ranked as Exact ranks them,
// ordered by score, node key and position: every match is scored once, and
// only those at or above the limit-th score are joined to their documents.
// It reads no filter. total is how many sections matched in all.
func (t *FullText) Best(ctx context.Context, q string, limit int) ([]RankedSection, int, error) {
	rank, err := t.s.RankExpr(ctx, t.c, q, limit)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	rows, err := t.c.QueryContext(ctx, RankedCTE(rank)+`
		SELECT c.id, c.doc, c.seq, c.slug, d.key, kept.score, `+matchedCount+`
		FROM kept JOIN chunks c ON c.id = kept.rid JOIN docs d ON d.id = c.doc
		ORDER BY kept.score, d.key, c.seq LIMIT ?3`, q, limit-1, limit)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	total := 0
	out, err := sqlstore.ScanAll(rows, func(rs *sql.Rows) (RankedSection, error) {
		var m RankedSection
		var id, doc int64
		err := rs.Scan(&id, &doc, &m.Seq, &m.Slug, &m.Key, &m.Score, &total)
		m.Chunk, m.Doc = sqlstore.ChunkID(id), sqlstore.DocID(doc)
		return m, err
	})
	return out, total, err
}

// Candidates returns the best keep sections (ties at the last included)
// matching q, best first, ranked for documents (canon_bm25_pivot: the
// title weighing 1, the heading 1.5, the text 1, a section shorter than
// the average counted as long as it), ties broken on node key and
// position; with the phrases each holds when masks is set, and always the
// phrases its title holds and the neighbouring phrases it holds together.
// Under a filter every match is a candidate (the filter comes after the
// ranking), and total, else how many sections matched, is 0.
func (t *FullText) Candidates(ctx context.Context, q string, masks bool, keep int) ([]RankedSection, int, error) {
	k := keep
	if t.where != "" {
		k = 0
	}
	rank, err := t.s.rankBy(ctx, t.c, naturalRank, q, k)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	mask := `0`
	if masks {
		mask = `canon_phrases(chunks_fts)`
	}
	inner := `SELECT rowid AS rid, ` + rank + ` AS score, ` + mask + ` AS mask, canon_phrases(chunks_fts, 0) AS title, canon_near(chunks_fts) AS near FROM chunks_fts WHERE chunks_fts MATCH ?1`
	query := `WITH r AS MATERIALIZED (SELECT rid, score, mask, title, near FROM (` + inner + `) WHERE score IS NOT NULL),
	kept AS (SELECT rid, score, mask, title, near FROM r WHERE score <= coalesce((SELECT score FROM r ORDER BY score LIMIT 1 OFFSET ?2), 1e308))
	SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', kept.score, kept.mask, kept.title, kept.near, ` + matchedCount + `
	FROM kept JOIN chunks c ON c.id = kept.rid JOIN docs d ON d.id = c.doc
	ORDER BY kept.score, d.key, c.seq LIMIT ?3`
	args := []any{q, keep - 1, keep}
	if t.where != "" {
		query = `SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', r.score, r.mask, r.title, r.near, 0
		FROM (` + inner + `) r JOIN chunks c ON c.id = r.rid JOIN docs d ON d.id = c.doc
		WHERE 1` + t.where + ` ORDER BY r.score, d.key, c.seq LIMIT ?`
		args = append(append([]any{q}, t.args...), keep)
	}
	rows, err := t.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, t.s.matchError(err, t.text)
	}
	total := 0
	out, err := sqlstore.ScanAll(rows, func(rs *sql.Rows) (RankedSection, error) {
		var c RankedSection
		var id, doc, mask, title, near int64
		err := rs.Scan(&id, &doc, &c.Seq, &c.Slug, &c.Key, &c.Generated, &c.Score, &mask, &title, &near, &total)
		c.Chunk, c.Doc, c.Mask, c.Title, c.Near = sqlstore.ChunkID(id), sqlstore.DocID(doc), uint64(mask), uint64(title), uint64(near)
		return c, err
	})
	return out, total, err
}

// Counts returns how many sections the full-text index holds (from FTS5's
// averages record, as bm25 reads it) and how many of them each phrase
// matches: a bm25's inverse document frequencies among the sections.
func (t *FullText) Counts(ctx context.Context, phrases []string) (int64, []int64, error) {
	var b []byte
	if err := t.c.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 1`).Scan(&b); err != nil {
		return 0, nil, err
	}
	n, _ := sqliteVarint(b) // FTS5's averages record: the number of rows first
	counts := make([]int64, len(phrases))
	for i, p := range phrases {
		if err := t.c.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, p).Scan(&counts[i]); err != nil {
			return 0, nil, err
		}
	}
	return int64(n), counts, nil
}

// Documents counts the documents of the index.
func (t *FullText) Documents(ctx context.Context) (int64, error) {
	var n int64
	err := t.c.QueryRowContext(ctx, `SELECT count(*) FROM docs`).Scan(&n)
	return n, err
}

// PhraseHit is a section that holds a phrase (PhraseHits): the section,
// its document's size in bytes, and how many times the phrase occurs in
// it, its title counted once (canon_hits).
type PhraseHit struct {
	RankedSection // its place and document; no score, no masks
	Size          int64
	Hits          int64
}

// PhraseHits returns every section (under the filter) that holds the
// phrase, by document and position, with its document's size and the
// phrase's instances in its heading and text, and in its title where the
// heading does not repeat it (canon_hits): what a bm25 over whole
// documents counts.
func (t *FullText) PhraseHits(ctx context.Context, phrase string) ([]PhraseHit, error) {
	rows, err := t.c.QueryContext(ctx, `WITH r AS MATERIALIZED (SELECT rowid AS rid, canon_hits(chunks_fts) AS hits FROM chunks_fts WHERE chunks_fts MATCH ?)
		SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', d.size, r.hits FROM r JOIN chunks c ON c.id = r.rid JOIN docs d ON d.id = c.doc
		WHERE 1`+t.where+` ORDER BY c.doc, c.seq`, append([]any{phrase}, t.args...)...)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(rs *sql.Rows) (PhraseHit, error) {
		var h PhraseHit
		var id, doc int64
		err := rs.Scan(&id, &doc, &h.Seq, &h.Slug, &h.Key, &h.Generated, &h.Size, &h.Hits)
		h.Chunk, h.Doc = sqlstore.ChunkID(id), sqlstore.DocID(doc)
		return h, err
	})
}

// Hashes reads the hashes of some sections' texts (chunks.hash: heading and
// body, and the title in a document's first section), by row id.
func (t *FullText) Hashes(ctx context.Context, ids []sqlstore.ChunkID) (map[sqlstore.ChunkID]int64, error) {
	hashes := make(map[sqlstore.ChunkID]int64, len(ids))
	err := sqlstore.EachIn(ctx, t.c, `SELECT id, hash FROM chunks WHERE id IN (%s)`, nil, sqlstore.IDArgs(ids), nil, func(rows *sql.Rows) error {
		var id, h int64
		err := rows.Scan(&id, &h)
		hashes[sqlstore.ChunkID(id)] = h
		return err
	})
	return hashes, err
}

// Holds reports whether some section holds the phrase: the first match is
// enough.
func (t *FullText) Holds(ctx context.Context, phrase string) (bool, error) {
	var one int
	err := t.c.QueryRowContext(ctx, `SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1`, phrase).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Texts returns the texts (title, heading and body, a space between) of
// the first n sections that hold the phrase.
func (t *FullText) Texts(ctx context.Context, phrase string, n int) ([]string, error) {
	rows, err := t.c.QueryContext(ctx, `SELECT title || ' ' || heading || ' ' || body FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?`, phrase, n)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(rs *sql.Rows) (string, error) {
		var text string
		return text, rs.Scan(&text)
	})
}

// SectionHits reads some sections as a search shows them, by row id (an id
// no section has is left out).
func (t *FullText) SectionHits(ctx context.Context, ids []sqlstore.ChunkID) (map[sqlstore.ChunkID]SectionHit, error) {
	out := make(map[sqlstore.ChunkID]SectionHit, len(ids))
	err := sqlstore.EachIn(ctx, t.c, `SELECT `+sqlstore.DocRefCols+`, c.line, c.heading, c.slug, c.id FROM chunks c JOIN docs d ON d.id = c.doc WHERE c.id IN (%s)`, nil, sqlstore.IDArgs(ids), nil, func(rows *sql.Rows) error {
		var h SectionHit
		var id int64
		ref, err := sqlstore.ScanDocRef(rows, &h.Line, &h.Heading, &h.Slug, &id)
		h.DocRef, h.Chunk = ref, sqlstore.ChunkID(id)
		out[h.Chunk] = h
		return err
	})
	return out, err
}

// Snippets returns the snippets of the sections ids that match q (which
// matched total sections, 0 when not counted): a window of each one's
// text, the matched words between ** **, by row id.
func (t *FullText) Snippets(ctx context.Context, q string, ids []sqlstore.ChunkID, total int) (map[sqlstore.ChunkID]string, error) {
	snips := make(map[sqlstore.ChunkID]string, len(ids))
	err := eachHighlight(ctx, t.c, q, sqlstore.IDArgs(ids), total, SnippetCol, func(rows *sql.Rows) error {
		var id int64
		var sn string
		if err := rows.Scan(&id, &sn); err != nil {
			return err
		}
		snips[sqlstore.ChunkID(id)] = sn
		return nil
	})
	if err != nil {
		return nil, t.s.h.Friendly(fmt.Errorf("search: %w", err))
	}
	return snips, nil
}

// MatchedTerms returns the words each of the sections ids matched in the
// query q (which matched total sections in all, 0 when not counted),
// lower-cased, as FTS5 highlights them in the title, the heading and a
// window of the text.
func (s *Index) MatchedTerms(ctx context.Context, q string, total int, ids []sqlstore.ChunkID) (map[sqlstore.ChunkID][]string, error) {
	terms := make(map[sqlstore.ChunkID][]string, len(ids))
	if len(ids) == 0 {
		return terms, nil
	}
	// One connection, no transaction: a transaction here begins IMMEDIATE
	// (the index's DSN) and would wait on, and hold up, a writer.
	conn, err := s.h.DB.Conn(ctx)
	if err != nil {
		return nil, s.h.Friendly(fmt.Errorf("highlight: %w", err))
	}
	defer conn.Close()
	err = eachHighlight(ctx, conn, q, sqlstore.IDArgs(ids), total, MarkCols, func(rs *sql.Rows) error {
		var id int64
		var title, heading, body string
		if err := rs.Scan(&id, &title, &heading, &body); err != nil {
			return err
		}
		terms[sqlstore.ChunkID(id)] = Highlighted(title, heading, body)
		return nil
	})
	if err != nil {
		return nil, s.h.Friendly(fmt.Errorf("highlight: %w", err))
	}
	return terms, nil
}

// Highlighted lists the lower-cased words between \x02 and \x03 marks.
func Highlighted(texts ...string) []string {
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
