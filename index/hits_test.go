package index

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/internal/fulltext"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// TestHitsHighlightAsChunksFTS: the scratch table (eachHit) marks the same
// words, in the same snippet windows, as chunks_fts's own highlight() and
// snippet() for the same rows, on an index of many segments (one per
// update, as syncs leave it) and long texts whose windows must be chosen;
// rows that do not match are not returned.
func TestHitsHighlightAsChunksFTS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := tokensIndex(t, 3, true)
	words := strings.Fields("tokens token refresh refreshing session sessions expire expiry café cafe naïve rotation keys key running runs ran über uber the a of and")
	rnd := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString([]string{" ", " ", " ", ", ", ". ", "\n"}[rnd.IntN(6)])
			}
			b.WriteString(words[rnd.IntN(len(words))])
		}
		return b.String()
	}
	var ids []int64
	rows, err := st.h.DB.QueryContext(ctx, `SELECT rowid FROM chunks_fts ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var id int64
		ids = append(ids, id)
		return r.Scan(&ids[len(ids)-1])
	}); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids { // one autocommit each: a segment each
		if i%2 == 1 {
			continue
		}
		if _, err := st.h.DB.ExecContext(ctx, `UPDATE chunks_fts SET title = ?, heading = ?, body = ? WHERE rowid = ?`, text(4), text(3), text(40+rnd.IntN(400)), id); err != nil {
			t.Fatal(err)
		}
	}
	if n := fulltext.Segments(ctx, st.h.DB); n < 8 {
		t.Fatalf("the test needs an index of many segments, got %d", n)
	}
	own := fulltext.MarkCols("chunks_fts") + ", " + fulltext.SnippetCol("chunks_fts")
	scratch := fulltext.MarkCols("canon_hits") + ", " + fulltext.SnippetCol("canon_hits")
	type marks [4]string
	for _, q := range []string{`"tokens"`, `"refresh" "tokens"`, `"cafe"`, `"naive" OR "uber"`, `"refresh" NOT "running"`, `tok*`, `"session expire"`, `NEAR("keys" "rotation", 3)`, `title:"refresh"`, `{heading title}:"session"`, `"nothingmatches"`} {
		want := map[int64]marks{}
		rows, err := st.h.DB.QueryContext(ctx, `SELECT rowid, `+own+` FROM chunks_fts WHERE chunks_fts MATCH ?`, q)
		if err != nil {
			t.Fatal(err)
		}
		if err := sqlstore.EachRow(rows, func(r *sql.Rows) error {
			var id int64
			var m marks
			if err := r.Scan(&id, &m[0], &m[1], &m[2], &m[3]); err != nil {
				return err
			}
			want[id] = m
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, every := range []int{1, 3, -1} { // all rows (matching or not), every third, all and 600 that are not there (two batches)
			var asked []int64
			for i, id := range ids {
				if every < 0 || i%every == 0 {
					asked = append(asked, id)
				}
			}
			for i := range 600 * max(0, -every) {
				asked = append(asked, 1_000_000+int64(i))
			}
			got := map[int64]marks{}
			err := st.fts.ReadConn(ctx, func(tx *sql.Conn) error {
				return fulltext.EachHit(ctx, tx, q, sqlstore.IDArgs(asked), scratch, func(r *sql.Rows) error {
					var id int64
					var m marks
					if err := r.Scan(&id, &m[0], &m[1], &m[2], &m[3]); err != nil {
						return err
					}
					got[id] = m
					return nil
				})
			})
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			wantAsked := map[int64]marks{}
			for _, id := range asked {
				if m, ok := want[id]; ok {
					wantAsked[id] = m
				}
			}
			if len(wantAsked) == 0 && q != `"nothingmatches"` {
				t.Fatalf("%s: the query matches none of the rows asked", q)
			}
			if !reflect.DeepEqual(got, wantAsked) {
				for id, m := range wantAsked {
					if got[id] != m {
						t.Errorf("%s, row %d:\n got  %q\n want %q", q, id, got[id], m)
					}
				}
				t.Fatalf("%s: %d rows, want %d", q, len(got), len(wantAsked))
			}
		}
	}
}

// segmented writes rows of st's full-text index again, unchanged, one
// statement each, until FTS5 holds n segments (a sync adds one each).
func segmented(t *testing.T, st *Store, n int) *Store {
	t.Helper()
	ctx := context.Background()
	for id := int64(1); fulltext.Segments(ctx, st.h.DB) < n; id++ {
		if _, err := st.h.DB.ExecContext(ctx, `UPDATE chunks_fts SET body = body WHERE rowid = ?`, id); err != nil {
			t.Fatal(err)
		}
		if id > 100 {
			t.Fatalf("%d updates made %d segments, not %d", id, fulltext.Segments(ctx, st.h.DB), n)
		}
	}
	return st
}

// TestFullTextSegments: the count read from FTS5's structure record is one
// after a full build (which merges) and grows by one with each write.
func TestFullTextSegments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := tokensIndex(t, 1, false)
	for i := range 5 {
		if got := fulltext.Segments(ctx, st.h.DB); got != 1+i {
			t.Fatalf("after %d writes: %d segments, want %d", i, got, 1+i)
		}
		if _, err := st.h.DB.ExecContext(ctx, `UPDATE chunks_fts SET body = body WHERE rowid = ?`, 1+i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.h.DB.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`); err != nil {
		t.Fatal(err)
	}
	if got := fulltext.Segments(ctx, st.h.DB); got != 1 {
		t.Fatalf("after optimize: %d segments, want 1", got)
	}
}
