package index

import (
	"context"
	"fmt"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// TestFindPathNoDocumentIsAt: a path no document is at names the one
// document of that file name (a file moved), never every document of it
// ("locales/en/index.md" named 219 index.md files).
func TestFindPathNoDocumentIsAt(t *testing.T) {
	t.Parallel()
	st, _ := corpusIndex(t, map[string]string{
		"a/index.md":     "# A\n",
		"b/index.md":     "# B\n",
		"old/T-1.md":     "# Moved\n",
		"notes/other.md": "# Other\n",
	})
	ctx := context.Background()
	for ref, want := range map[string]int{"x/index.md": 0, "index": 2, "gone/T-1.md": 1, "a/index.md": 1} {
		got, err := st.Find(ctx, ref)
		must.OK(t, err)
		if len(got) != want {
			t.Errorf("Find(%q): %d documents, want %d", ref, len(got), want)
		}
	}
}

// TestHasTitleAmongMany: the document titled exactly so is found however
// many longer titles hold the same word (it was cut at the first 200).
func TestHasTitleAmongMany(t *testing.T) {
	t.Parallel()
	files := map[string]string{"zz.md": "---\ntitle: Guides\n---\n# Guides\n"}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("g/%02d.md", i)] = fmt.Sprintf("---\ntitle: Guides for topic %d\n---\n# Guides\n", i)
	}
	st, _ := corpusIndex(t, files)
	for title, want := range map[string]bool{"guides": true, "Guides for topic 7": true, "Guide": false, "Topics": false} {
		got, err := checkreads.HasTitle(context.Background(), sqlstore.QuerierOf(st.h.DB), title)
		must.OK(t, err)
		if got != want {
			t.Errorf("checkreads.HasTitle(%q) = %v, want %v", title, got, want)
		}
	}
}

// TestFindTitleWithSlash: canon show "Client/server split" names the
// document of that title (a title with a slash was no name, issue 43);
// a path that names a file wins over a title that reads as it, and a
// title two documents share is ambiguous.
func TestFindTitleWithSlash(t *testing.T) {
	t.Parallel()
	st, _ := corpusIndex(t, map[string]string{
		"rfcs/0007-split.md":    "---\ntitle: Client/server split\n---\n# Client/server split\n",
		"docs/guide.md":         "---\ntitle: docs/notes.md\n---\n# Guide\n",
		"docs/notes.md":         "# Notes\n",
		"a/one.md":              "---\ntitle: Read/write path\n---\n",
		"b/two.md":              "---\ntitle: Read/write Path\n---\n",
		"plain/title-things.md": "---\ntitle: Plain title\n---\n",
	})
	ctx := context.Background()
	for ref, want := range map[string]string{
		"Client/server split":   "rfcs/0007-split.md",
		" client/SERVER  split": "rfcs/0007-split.md",
		"docs/notes.md":         "docs/notes.md", // the path, not the page titled so
		"Plain title":           "plain/title-things.md",
	} {
		got, err := st.Find(ctx, ref)
		must.OK(t, err)
		if len(got) != 1 || got[0].Path != want {
			t.Errorf("Find(%q) = %v, want %s", ref, got, want)
		}
	}
	got, err := st.Find(ctx, "read/write path")
	must.OK(t, err)
	if len(got) != 2 {
		t.Errorf("a title two documents share names %v", got)
	}
}
