package index

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestSearchEqualsFullRanking: Search ranks inside FTS5 and joins only the
// hits at or above the limit's score; its answer must equal ranking every
// match with its document (the plain query), ties at the limit included.
func TestSearchEqualsFullRanking(t *testing.T) {
	t.Parallel()
	onSegments(t, func(t *testing.T, segments int) { // its snippets read from chunks_fts, or from the scratch table
		searchEqualsFullRanking(t, segmented(t, tokensIndex(t, 1, false), segments))
	})
}

// onSegments runs test on an index of one full-text segment and on one of
// six: the two ways a read highlights its hits (hits.go).
func onSegments(t *testing.T, test func(t *testing.T, segments int)) {
	for _, segments := range []int{1, 6} {
		t.Run(fmt.Sprint(segments, " segments"), func(t *testing.T) {
			t.Parallel()
			test(t, segments)
		})
	}
}

func searchEqualsFullRanking(t *testing.T, st *Store) {
	ctx := context.Background()
	full := func(text string, limit int) []Hit {
		q, _ := FTSQuery(text)
		rows, err := st.db.QueryContext(ctx, `SELECT `+docRefCols+`, c.line, c.heading, c.slug,
				snippet(chunks_fts, 2, '**', '**', '…', 16), bm25(chunks_fts, 10.0, 4.0, 1.0) AS score
			FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
			WHERE chunks_fts MATCH ? ORDER BY score, d.path, c.seq LIMIT ?`, q, limit)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []Hit
		for rows.Next() {
			var h Hit
			ref, err := scanDocRef(rows, &h.Line, &h.Section, &h.Slug, &h.Snippet, &h.Score)
			if err != nil {
				t.Fatal(err)
			}
			h.DocRef, h.Chunk, h.Snippet = ref, ref.Key+"#"+h.Slug, oneLine(h.Snippet)
			out = append(out, h)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Quoted: a query with operators is ranked by section, as FTS5 reads
	// it (a natural one, by document: TestNatural*).
	for _, text := range []string{`"tokens"`, `"session"`, `"refresh" "tokens"`, `"expire"`, `"nothingmatches"`} {
		for _, limit := range []int{1, 3, 10, 13, 14, 100} {
			got, err := st.Search(ctx, text, SearchOptions{Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			if want := full(text, limit); !reflect.DeepEqual(got, want) {
				t.Errorf("search %q limit %d:\n got  %+v\n want %+v", text, limit, got, want)
			}
		}
	}
}

// TestMatchesEqualFullRanking: RankSections scores every match once and
// joins only the ones it keeps, MatchedTerms highlights given sections
// (from chunks_fts, or a scratch table, hits.go); together they must equal
// ranking every match with its document and highlighting each with
// chunks_fts's own highlight() and snippet() (the plain query), ties at the
// limit included.
func TestMatchesEqualFullRanking(t *testing.T) {
	t.Parallel()
	onSegments(t, func(t *testing.T, segments int) { // its highlights read from chunks_fts, or from the scratch table
		matchesEqualFullRanking(t, segmented(t, tokensIndex(t, 2, true), segments))
	})
}

func matchesEqualFullRanking(t *testing.T, st *Store) {
	ctx := context.Background()
	full := func(text string, limit int) []ChunkMatch {
		q, _ := FTSQuery(text)
		rows, err := st.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key, bm25(chunks_fts, 10.0, 4.0, 1.0) AS s, highlight(chunks_fts, 0, char(2), char(3)), highlight(chunks_fts, 1, char(2), char(3)), snippet(chunks_fts, 2, char(2), char(3), '', 64)
			FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
			WHERE chunks_fts MATCH ? ORDER BY s, d.key, c.seq LIMIT ?`, q, limit)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []ChunkMatch
		for rows.Next() {
			var m ChunkMatch
			var id, doc int64
			var title, heading, body string
			if err := rows.Scan(&id, &doc, &m.Seq, &m.Slug, &m.Key, &m.BM25, &title, &heading, &body); err != nil {
				t.Fatal(err)
			}
			m.Chunk, m.Doc, m.Rank, m.Terms = ChunkID(id), DocID(doc), m.BM25, highlighted(title, heading, body)
			out = append(out, m)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, text := range []string{"tokens", "session", "refresh tokens", "expire", "doc", "nothingmatches"} {
		for _, limit := range []int{1, 3, 10, 13, 14, 40, 100} {
			got, err := matchesByScore(ctx, st, text, limit)
			if err != nil {
				t.Fatal(err)
			}
			if want := full(text, limit); !reflect.DeepEqual(got, want) {
				t.Errorf("matches %q limit %d:\n got  %+v\n want %+v", text, limit, got, want)
			}
		}
	}
}

// TestBuildMergesFullText: a full build writes the full-text rows in runs
// (more than one run here) and merges FTS5's index into one segment, which
// a lookup by row id seeks once per term; it leaves FTS5's own merge
// settings for the syncs, and an index FTS5 finds sound.
func TestBuildMergesFullText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	docs, sections := 130, 40 // 5,200 rows: more than ftsHold
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: D%03d\n---\n", i)
		for j := range sections {
			fmt.Fprintf(&b, "## Part %d\n\nword%d and word%d\n\n", j, i, j)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("d%03d.md", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	st, _, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.Exec(`INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')`); err != nil {
		t.Fatalf("integrity-check: %v", err)
	}
	var rows, chunks int
	if err := st.db.QueryRow(`SELECT (SELECT count(*) FROM chunks_fts), (SELECT count(*) FROM chunks)`).Scan(&rows, &chunks); err != nil {
		t.Fatal(err)
	}
	if rows != chunks || rows < ftsHold {
		t.Errorf("%d full-text rows for %d sections (want equal, above %d)", rows, chunks, ftsHold)
	}
	settings := map[string]int{}
	cfgRows, err := st.db.Query(`SELECT k, v FROM chunks_fts_config WHERE k IN ('automerge', 'crisismerge')`)
	if err != nil {
		t.Fatal(err)
	}
	for cfgRows.Next() {
		var k string
		var v int
		if err := cfgRows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		settings[k] = v
	}
	cfgRows.Close()
	if !reflect.DeepEqual(settings, ftsDefaultSettings) {
		t.Errorf("FTS5 settings after a build: %v, want %v", settings, ftsDefaultSettings)
	}
	// The structure record (FTS5's %_data row 10): a 4-byte cookie, then
	// the number of levels and of segments (varints, one byte here).
	var structure []byte
	if err := st.db.QueryRow(`SELECT block FROM chunks_fts_data WHERE id = 10`).Scan(&structure); err != nil {
		t.Fatal(err)
	}
	if len(structure) < 6 || structure[5] != 1 {
		t.Errorf("the full-text index has %d segments after a build, want 1", structure[5])
	}
	hits, err := st.Search(ctx, fmt.Sprintf("word%d word%d", docs-1, sections-1), SearchOptions{Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Slug != fmt.Sprintf("part-%d", sections-1) {
		t.Errorf("the last section written: %+v, %v", hits, err)
	}
}

// TestKeepPages: a store that keeps pages gives every connection its page
// cache, and one that does not leaves SQLite's.
func TestKeepPages(t *testing.T) {
	t.Parallel()
	st, _, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	size := func() int {
		var n int
		if err := st.db.QueryRow(`PRAGMA cache_size`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := size(); n != -2000 {
		t.Errorf("cache_size %d, want SQLite's -2000", n)
	}
	if err := st.KeepPages(); err != nil {
		t.Fatal(err)
	}
	if n := size(); n != -keptPages || st.cacheSizePragma() != fmt.Sprintf("PRAGMA cache_size = -%d", keptPages) {
		t.Errorf("cache_size %d (%s), want -%d", n, st.cacheSizePragma(), keptPages)
	}
}

// matchesByScore is RankSections with the words every section matched.
func matchesByScore(ctx context.Context, s *Store, text string, limit int) ([]ChunkMatch, error) {
	r, err := s.RankSections(ctx, text, limit)
	if err != nil {
		return nil, err
	}
	ids := make([]ChunkID, len(r.Matches))
	for i, m := range r.Matches {
		ids[i] = m.Chunk
	}
	terms, err := s.MatchedTerms(ctx, r, ids)
	if err != nil {
		return nil, err
	}
	for i := range r.Matches {
		r.Matches[i].Terms = terms[r.Matches[i].Chunk]
	}
	return r.Matches, nil
}

// tokensIndex builds an index of 40 documents made of the same few words,
// so that sections tie on score and their paths (which run the other way
// from the documents' numbers) break the tie; every third document has
// refreshes "Refresh" sections, and withIDs gives each an id. It is
// closed when the test ends.
func tokensIndex(t *testing.T, refreshes int, withIDs bool) *Store {
	t.Helper()
	root := t.TempDir()
	for i := range 40 {
		body := "# Tokens\n\nsession tokens expire\n"
		if i%3 == 0 {
			body += strings.Repeat("\n## Refresh\n\nrefresh tokens tokens before expiry, session by session\n", refreshes)
		}
		fm := fmt.Sprintf("title: Doc %d\n", i)
		if withIDs {
			fm = fmt.Sprintf("id: D%02d\n", i) + fm
		}
		p := filepath.Join(root, fmt.Sprintf("n/%02d/doc%02d.md", 39-i, i))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte("---\n"+fm+"---\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	st, _, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Rebuild(context.Background(), NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestReadTakesNoWriteLock: while a search's read transaction is open, a
// write commits and another search answers. A read began with the DSN's
// BEGIN IMMEDIATE: the write waited for the busy timeout (10 s) and
// failed, and one slow search held up every other. That failure is the
// assertion (database is locked); no clock is read.
func TestReadTakesNoWriteLock(t *testing.T) {
	t.Parallel()
	st := tokensIndex(t, 1, false)
	ctx := context.Background()
	err := st.read(ctx, func(c *sql.Conn) error {
		var n int
		if err := c.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&n); err != nil {
			return err
		}
		if err := st.SetMeta(ctx, map[string]string{"probe": "1"}); err != nil {
			return fmt.Errorf("a write while a read is open: %w", err)
		}
		if _, err := st.Search(ctx, "tokens", SearchOptions{Limit: 3}); err != nil {
			return fmt.Errorf("a search while a read is open: %w", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
