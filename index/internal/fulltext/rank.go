package fulltext

import (
	"bytes"
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// phraseCounts remembers, for the full-text index as it was when its
// averages and structure records read gen, how many sections each phrase
// of a query matches: bm25's document frequencies, which FTS5 counts again
// for every query by reading each phrase's whole list of rows (2 of the 5
// ms a two-word search took at 100k documents). FTS5 rewrites its
// structure record in every transaction that changes the index (and its
// averages, the number of rows and of tokens, in nearly all), so a
// different gen means counting again; a full build's new file (index.Store.Refresh,
// swapIn) forgets the counts too.
type phraseCounts struct {
	mu   sync.Mutex
	gen  []byte
	hits map[string]int64
}

// forget drops every count.
func (c *phraseCounts) forget() {
	c.mu.Lock()
	c.gen, c.hits = nil, nil
	c.mu.Unlock()
}

// maxRankedPhrases is the most phrases RankExpr passes counts for:
// SQLite takes at most 1,000 arguments to a function (a query pasted from
// a page of text can have more words).
const maxRankedPhrases = 900

// maxCountedPhrases bounds the memory of phraseCounts: past it, the counts
// start again from nothing.
const maxCountedPhrases = 4096

// RankExpr is the score of a section for the full-text query q (as
// FTSQuery makes it), read through x inside the transaction that runs the
// query: canon_bm25 with the title weighing 10, the heading 4, the text 1,
// and, in a store that keeps its pages (index.Store.KeepPages: a process that asks
// many questions), each phrase's count of matching sections. The scores
// are bm25's, to the last bit (TestCanonBM25IsBM25). keep > 0 makes the
// score NULL for a section that cannot be among the keep best (see
// canon_bm25).
func (s *Index) RankExpr(ctx context.Context, x sqlstore.Q, q string, keep int) (string, error) {
	return s.rankBy(ctx, x, exactRank, q, keep)
}

// The rankings: canon_bm25 and its column weights (title, heading,
// text). A query with operators ranks sections as it always has; a
// natural reading weighs the title less and does not reward short
// sections, for it ranks documents (rankDocs) and a stub's title was
// outranking the document that decides (ADR-0035).
const (
	exactRank   = `canon_bm25(chunks_fts, 10.0, 4.0, 1.0, `
	naturalRank = `canon_bm25_pivot(chunks_fts, 1.0, 1.5, 1.0, `
)

// rankBy is RankExpr with the ranking fn (exactRank, naturalRank).
func (s *Index) rankBy(ctx context.Context, x sqlstore.Q, fn, q string, keep int) (string, error) {
	phrases := FTSPhrases(q)
	if s.h.PageCache != sqlstore.KeptPages || len(phrases) > maxRankedPhrases {
		// A one-shot command would count once either way, and a count of
		// its own costs it a statement more per phrase (canon search at 10k:
		// +0.3 ms); past SQLite's limit of arguments to a function there is
		// no room for the counts. canon_bm25 counts for itself then, as
		// bm25 does.
		return fn + strconv.Itoa(max(keep, 0)) + `)`, nil
	}
	var gen []byte
	rows, err := x.QueryContext(ctx, `SELECT block FROM chunks_fts_data WHERE id IN (1, 10) ORDER BY id`)
	if err != nil {
		return "", err
	}
	if err := sqlstore.EachRow(rows, func(rs *sql.Rows) error {
		var b []byte
		err := rs.Scan(&b)
		gen = append(append(gen, b...), 0xff)
		return err
	}); err != nil {
		return "", err
	}
	c := &s.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if !bytes.Equal(gen, c.gen) || len(c.hits) > maxCountedPhrases {
		c.gen, c.hits = gen, map[string]int64{}
	}
	var b strings.Builder
	b.WriteString(fn + strconv.Itoa(max(keep, 0))) // the counts follow K
	for _, p := range phrases {
		n, ok := c.hits[p]
		if !ok {
			if err := x.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, p).Scan(&n); err != nil {
				return "", err
			}
			c.hits[p] = n
		}
		b.WriteString(", ")
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteString(")")
	return b.String(), nil
}

// RankWithout is canon_bm25 counting the phrases itself, asked for the
// keep best (0: all).
func RankWithout(keep int) string {
	return exactRank + strconv.Itoa(max(keep, 0)) + `)`
}

// Merged is what MergeFullText did.
type Merged struct {
	Before, After int           // full-text segments
	Elapsed       time.Duration // how long it took
}

// MergeFullText merges the full-text index into one segment (FTS5's
// optimize), as a full build leaves it. Every sync adds a segment and FTS5
// merges them four at a time; a search reads each term in each segment
// (at 100k documents, 4.8 ms with one segment, 5.3 ms with six; ADR-0025).
// It took 1.45 s at 100k. The caller holds the writer lock.
func (s *Index) MergeFullText(ctx context.Context) (*Merged, error) {
	start := time.Now()
	m := &Merged{}
	err := s.h.InTx(ctx, func(tx *sql.Tx) error {
		count := func(n *int) error {
			return tx.QueryRowContext(ctx, `SELECT count(DISTINCT segid) FROM chunks_fts_idx`).Scan(n)
		}
		if err := count(&m.Before); err != nil {
			return err
		}
		if m.Before > 1 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`); err != nil {
				return err
			}
		}
		return count(&m.After)
	})
	if err != nil {
		return nil, s.h.Friendly(err)
	}
	m.Elapsed = time.Since(start)
	return m, nil
}
