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

// TestExactEqualsFullRanking: Exact ranks inside FTS5 and joins only the
// sections at or above the limit's score; with their Snippets (what
// index/search's exact search shows) it must equal ranking every match
// with its document (the plain query), ties at the limit included.
func TestExactEqualsFullRanking(t *testing.T) {
	t.Parallel()
	onSegments(t, func(t *testing.T, segments int) { // its snippets read from chunks_fts, or from the scratch table
		exactEqualsFullRanking(t, segmented(t, tokensIndex(t, 1, false), segments))
	})
}

// shownHit is a section as a search shows it, with its snippet.
type shownHit struct {
	SectionHit
	Snippet string
}

// exact is Exact with the snippets of the sections it keeps, each on one
// line.
func exact(ctx context.Context, st *Store, q string, limit int) ([]shownHit, error) {
	var out []shownHit
	err := st.ReadFullText(ctx, q, DocFilter{}, func(t *FullText) error {
		hits, total, err := t.Exact(ctx, q, limit)
		if err != nil || len(hits) == 0 {
			return err
		}
		ids := make([]ChunkID, len(hits))
		for i, h := range hits {
			ids[i] = h.Chunk
		}
		snips, err := t.Snippets(ctx, q, ids, total)
		for _, h := range hits {
			out = append(out, shownHit{h, strings.Join(strings.Fields(snips[h.Chunk]), " ")})
		}
		return err
	})
	return out, err
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

func exactEqualsFullRanking(t *testing.T, st *Store) {
	ctx := context.Background()
	full := func(q string, limit int) []shownHit {
		rows, err := st.db.QueryContext(ctx, `SELECT `+docRefCols+`, c.id, c.line, c.heading, c.slug,
				snippet(chunks_fts, 2, '**', '**', '…', 16), bm25(chunks_fts, 10.0, 4.0, 1.0) AS score
			FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
			WHERE chunks_fts MATCH ? ORDER BY score, d.path, c.seq LIMIT ?`, q, limit)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []shownHit
		for rows.Next() {
			var h shownHit
			var id int64
			ref, err := scanDocRef(rows, &id, &h.Line, &h.Heading, &h.Slug, &h.Snippet, &h.Score)
			if err != nil {
				t.Fatal(err)
			}
			h.DocRef, h.Chunk, h.Snippet = ref, ChunkID(id), strings.Join(strings.Fields(h.Snippet), " ")
			out = append(out, h)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Queries with operators, as index/search's FTSQuery writes them: its
	// exact search ranks them by section, as FTS5 reads them.
	for _, q := range []string{`"tokens"`, `"session"`, `"refresh" "tokens"`, `"expire"`, `"nothingmatches"`} {
		for _, limit := range []int{1, 3, 10, 13, 14, 100} {
			got, err := exact(ctx, st, q, limit)
			if err != nil {
				t.Fatal(err)
			}
			if want := full(q, limit); !reflect.DeepEqual(got, want) {
				t.Errorf("search %s limit %d:\n got  %+v\n want %+v", q, limit, got, want)
			}
		}
	}
}

// TestMatchesEqualFullRanking: Best scores every match once and joins
// only the ones it keeps, MatchedTerms highlights given sections
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
	full := func(q string, limit int) []rankedTerms {
		rows, err := st.db.QueryContext(ctx, `SELECT c.id, c.doc, c.seq, c.slug, d.key, bm25(chunks_fts, 10.0, 4.0, 1.0) AS s, highlight(chunks_fts, 0, char(2), char(3)), highlight(chunks_fts, 1, char(2), char(3)), snippet(chunks_fts, 2, char(2), char(3), '', 64)
			FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN docs d ON d.id = c.doc
			WHERE chunks_fts MATCH ? ORDER BY s, d.key, c.seq LIMIT ?`, q, limit)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []rankedTerms
		for rows.Next() {
			var m rankedTerms
			var id, doc int64
			var title, heading, body string
			if err := rows.Scan(&id, &doc, &m.Seq, &m.Slug, &m.Key, &m.Score, &title, &heading, &body); err != nil {
				t.Fatal(err)
			}
			m.Chunk, m.Doc, m.Terms = ChunkID(id), DocID(doc), highlighted(title, heading, body)
			out = append(out, m)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, q := range []string{`"tokens"`, `"session"`, `"refresh" "tokens"`, `"expire"`, `"doc"`, `"nothingmatches"`} {
		for _, limit := range []int{1, 3, 10, 13, 14, 40, 100} {
			got, err := matchesByScore(ctx, st, q, limit)
			if err != nil {
				t.Fatal(err)
			}
			if want := full(q, limit); !reflect.DeepEqual(got, want) {
				t.Errorf("matches %s limit %d:\n got  %+v\n want %+v", q, limit, got, want)
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
	hits, err := exact(ctx, st, fmt.Sprintf(`"word%d" "word%d"`, docs-1, sections-1), 1)
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

// rankedTerms is a ranked section with the words it matched.
type rankedTerms struct {
	RankedSection
	Terms []string
}

// matchesByScore is Best with the words every section matched
// (MatchedTerms), as a context pack's seeds read them.
func matchesByScore(ctx context.Context, s *Store, q string, limit int) ([]rankedTerms, error) {
	var best []RankedSection
	var total int
	err := s.ReadFullText(ctx, q, DocFilter{}, func(t *FullText) error {
		var err error
		best, total, err = t.Best(ctx, q, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	ids := make([]ChunkID, len(best))
	for i, m := range best {
		ids[i] = m.Chunk
	}
	terms, err := s.MatchedTerms(ctx, q, total, ids)
	if err != nil {
		return nil, err
	}
	var out []rankedTerms
	for _, m := range best {
		out = append(out, rankedTerms{m, terms[m.Chunk]})
	}
	return out, nil
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
		if _, err := exact(ctx, st, `"tokens"`, 3); err != nil {
			return fmt.Errorf("a search while a read is open: %w", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
