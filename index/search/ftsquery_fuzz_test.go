package search

import (
	"context"
	"errors"
	"testing"

	"github.com/canon-md/canon/index"
)

// FuzzFTSQuery: whatever a person types, FTSQuery gives a query FTS5
// accepts, or says there are no words in it; never FTS5's syntax error.
// FTS5 is asked through an index of one document (index's FullText.Holds
// runs the query as every full-text read does).
func FuzzFTSQuery(f *testing.F) {
	for _, s := range []string{"token refresh", `"a b" OR c`, "unsafe AND NOT trait", "NOT", "OR OR", `"`, "a*", "NEAR(a b)", "title:x", "a - b", "(a OR b) AND c", "^a", "a + b", "ÄÖ ü*", "AND AND a NOT NOT b OR"} {
		f.Add(s)
	}
	st := corpusIndex(f, map[string]string{"a.md": "---\ntitle: a\n---\n# b\n\ntoken refresh not or and\n"})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, text string) {
		q, err := FTSQuery(text)
		if err != nil {
			if !errors.Is(err, index.ErrBadQuery) {
				t.Fatalf("FTSQuery(%q): %v", text, err)
			}
			return
		}
		err = st.ReadFullText(ctx, text, index.DocFilter{}, func(ft *index.FullText) error {
			_, err := ft.Holds(ctx, q)
			return err
		})
		if err != nil {
			t.Fatalf("FTSQuery(%q) = %q, which FTS5 refuses: %v", text, q, err)
		}
	})
}
