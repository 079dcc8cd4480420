package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/vectors"
)

// TestHitsListAddedWords: a hit found through words a bridge added lists
// them: "silently", asked for in place of "quietly" (no section holds it),
// and "callback", a neighbour of "webhook" (held) that only the
// whole-document bm25 asks for, also where a section found the document.
func TestHitsListAddedWords(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{
		"items/W-1.md": "---\nid: W-1\ntitle: Signing\n---\n# Context\nEach webhook is signed.\n## Approach\nThe callback is logged.\n",
		"items/C-1.md": "---\nid: C-1\ntitle: Retries\n---\n# Context\nA failed callback is tried again.\n",
		"items/S-1.md": "---\nid: S-1\ntitle: Lost edits\n---\n# Context\nEdits vanish silently.\n",
	})
	tb, err := vectors.Read([]byte("quietly 1 0 0\nsilently 0.95 0.1 0\nwebhook 0 1 0\ncallback 0 0.95 0.1\nboard 0 0 1\n"), 10)
	must.OK(t, err)
	root := t.TempDir()
	path := filepath.Join(root, "vectors.bin")
	must.OK(t, os.WriteFile(path, tb.Encode(), 0o644))
	st.UseVectors(path, root)
	f, err := Search(context.Background(), st, "webhook quietly", Options{Limit: 5})
	must.OK(t, err)
	got := map[string]string{}
	for _, h := range f.Hits {
		got[h.ID] = fmt.Sprint(h.Words, h.Added)
	}
	want := map[string]string{"W-1": "[webhook] [callback]", "C-1": "[] [callback]", "S-1": "[] [silently]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hits' words and added words %v, want %v (read %+v)", got, want, f.Read)
	}
}
