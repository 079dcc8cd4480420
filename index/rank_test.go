package index

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// rankWords is the vocabulary of rankCorpus: few enough words that every
// query below matches many sections with many different scores.
var rankWords = strings.Fields("alpha beta gamma delta webhook retry payment session token expiry ledger audit")

// rankCorpus writes n documents of random words from rankWords (seeded)
// into root: titles, headings and text of different lengths.
func rankCorpus(t *testing.T, root string, n int, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	words := func(k int) string {
		w := make([]string, 1+rng.Intn(k))
		for i := range w {
			w[i] = rankWords[rng.Intn(len(rankWords))]
		}
		return strings.Join(w, " ")
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %s\n---\n# %s\n\n%s\n", words(4), words(3), words(30))
		for range rng.Intn(3) {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", words(3), words(60))
		}
		p := filepath.Join(root, fmt.Sprintf("d/%03d.md", i))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scores returns every matching section's score under rank, by row id.
func scores(t *testing.T, q querier, rank, match string) map[int64]float64 {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), `SELECT rowid, `+rank+` FROM chunks_fts WHERE chunks_fts MATCH ?`, match)
	if err != nil {
		t.Fatalf("%s: %v", rank, err)
	}
	out := map[int64]float64{}
	if err := eachRow(rows, func(rs *sql.Rows) error {
		var id int64
		var s float64
		err := rs.Scan(&id, &s)
		out[id] = s
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// canon_bm25 with rankExpr's counts gives FTS5's bm25 to the last bit, for
// every kind of query index/search's FTSQuery makes (words, phrases,
// prefixes, OR, NOT; written here as it writes them), and again after the
// index changed
// underneath the counts it remembered; without counts it counts as bm25
// does.
func TestCanonBM25IsBM25(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	rankCorpus(t, root, 120, 1)
	cfg := config.Default()
	st, _, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.KeepPages(); err != nil { // as canon mcp: it remembers the counts
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	queries := []string{`"webhook"`, `"webhook" "retry"`, `"alpha" OR "ledger"`, `"payment" NOT "audit"`, `"session token"`,
		`"web"*`, `"gamma delta" "expiry"`, `"retry" OR "webhook" NOT "beta"`, `"nothingmatches"`, `"alpha" "beta" "gamma" "delta"`,
		`"webhook" OR "nothingmatches"`}
	compare := func(when string) {
		t.Helper()
		for _, q := range queries {
			rank, err := st.rankExpr(ctx, st.db, q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(rank, ","); n != 4+len(FTSPhrases(q)) {
				t.Fatalf("%s: %s passes %d counts for the phrases of %s", when, rank, n-4, q)
			}
			want := scores(t, st.db, `bm25(chunks_fts, 10.0, 4.0, 1.0)`, q)
			if len(want) == 0 && q != `"nothingmatches"` {
				t.Fatalf("%s: %s matches nothing: the test proves nothing", when, q)
			}
			for name, got := range map[string]map[int64]float64{
				rank:                             scores(t, st.db, rank, q),
				"canon_bm25 counting for itself": scores(t, st.db, `canon_bm25(chunks_fts, 10.0, 4.0, 1.0)`, q),
			} {
				if len(got) != len(want) {
					t.Fatalf("%s: %s: %s scored %d sections, bm25 %d", when, q, name, len(got), len(want))
				}
				for id, w := range want {
					if got[id] != w {
						t.Fatalf("%s: %s: section %d: %s gives %v, bm25 %v", when, q, id, name, got[id], w)
					}
				}
			}
		}
	}
	compare("after the build")

	// Asked for its K best, canon_bm25 leaves out (NULL) only sections that
	// cannot be among them: what rankedCTE keeps is what it keeps from
	// bm25's full scores, ties with the K-th included.
	kept := func(rank, q string, k int) string {
		rows, err := st.db.QueryContext(ctx, rankedCTE(rank)+` SELECT rid, score FROM kept ORDER BY score, rid`, q, k-1)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := eachRow(rows, func(rs *sql.Rows) error {
			var id int64
			var sc float64
			err := rs.Scan(&id, &sc)
			fmt.Fprintf(&b, "%d %v\n", id, sc)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, q := range queries {
		for _, k := range []int{1, 2, 3, 10, 50, 1000} {
			rank, err := st.rankExpr(ctx, st.db, q, k)
			if err != nil {
				t.Fatal(err)
			}
			want := kept(`bm25(chunks_fts, 10.0, 4.0, 1.0)`, q, k)
			for _, rank := range []string{rank, rankWithout(k)} { // with the counts and without (a one-shot command)
				if got := kept(rank, q, k); got != want {
					t.Fatalf("%s, the %d best: %s keeps\n%s\nbm25 keeps\n%s", q, k, rank, got, want)
				}
			}
			// How many matched in all, though r holds the candidates only.
			var n int
			if err := st.db.QueryRow(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			var total int
			err = st.ReadFullText(ctx, q, DocFilter{}, func(ft *FullText) error {
				_, total, err = ft.Best(ctx, q, k)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 && total != n {
				t.Fatalf("%s, the %d best: Total %d, but %d sections match", q, k, total, n)
			}
		}
	}

	// Sections come and go: the counts rankExpr remembered no longer hold.
	more := t.TempDir()
	rankCorpus(t, more, 30, 2)
	b := NewBatch(cfg)
	loader := NewLoader(more, cfg)
	for _, fi := range mustWalk(t, more, cfg) {
		fi.Path = "new/" + fi.Path
		b.Upserts = append(b.Upserts, loader.FromContent(fi, mustRead(t, filepath.Join(more, strings.TrimPrefix(fi.Path, "new/")))))
	}
	b.Deletes = []string{"d/000.md", "d/001.md", "d/002.md"}
	if _, err := st.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	compare("after an update")

	// A full build puts a new file in place: the counts go with the old.
	other := t.TempDir()
	rankCorpus(t, other, 120, 3)
	if _, err := st.Rebuild(ctx, NewLoader(other, cfg), mustWalk(t, other, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	compare("after a full build")
}

// A query with more phrases than SQLite takes arguments to a function is
// ranked all the same: canon_bm25 counts for itself then. index/search's
// FTSQuery makes none (its MaxQueryWords): the query is made here.
func TestCanonBM25ManyPhrases(t *testing.T) {
	t.Parallel()
	st := tokensIndex(t, 1, true)
	if err := st.KeepPages(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	q := strings.TrimSpace(strings.Repeat(`"session" "tokens" `, 600))
	rank, err := st.rankExpr(ctx, st.db, q, 0)
	if err != nil || strings.Count(rank, ",") != 4 {
		t.Fatalf("rank %s, %v: want canon_bm25 counting for itself", rank, err)
	}
	want := scores(t, st.db, `bm25(chunks_fts, 10.0, 4.0, 1.0)`, q)
	for id, got := range scores(t, st.db, rank, q) {
		if got != want[id] {
			t.Fatalf("section %d: %v, bm25 %v", id, got, want[id])
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFTSPhrases: the phrases of queries as index/search's FTSQuery
// writes them (for "webhook retry", "session token" web*, alpha OR beta
// NOT gamma, webhook).
func TestFTSPhrases(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]string{
		`"webhook" "retry"`:             `"webhook" | "retry"`,
		`"session token" "web"*`:        `"session token" | "web"*`,
		`"alpha" OR "beta" NOT "gamma"`: `"alpha" | "beta" | "gamma"`,
		`"webhook"`:                     `"webhook"`,
	} {
		if got := strings.Join(FTSPhrases(q), " | "); got != want {
			t.Errorf("%s: phrases %s, want %s", q, got, want)
		}
	}
}
