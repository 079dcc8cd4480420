package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestSearchEqualsFullRanking: Search ranks inside FTS5 and joins only the
// hits at or above the limit's score; its answer must equal ranking every
// match with its document (the plain query), ties at the limit included.
func TestSearchEqualsFullRanking(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	for i := range 40 {
		// Sections of the same words in many documents tie on score; their
		// paths break the tie.
		body := "# Tokens\n\nsession tokens expire\n"
		if i%3 == 0 {
			body += "\n## Refresh\n\nrefresh tokens tokens before expiry, session by session\n"
		}
		p := filepath.Join(root, fmt.Sprintf("n/%02d/doc%02d.md", 39-i, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("---\ntitle: Doc %d\n---\n%s", i, body)), 0o644); err != nil {
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
	for _, text := range []string{"tokens", "session", "refresh tokens", "expire", "nothingmatches"} {
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
