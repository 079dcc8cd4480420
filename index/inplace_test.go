package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/scan"
)

// TestInPlaceEdits edits one document step by step. While its id and uid
// stay, each step must keep its row (the in-place path), leave an index equal
// to a fresh build, keep the full-text index sound and searchable for the new
// words only, and report the edges that changed.
func TestInPlaceEdits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	cfg := config.Default()
	mtime := time.Now().Add(-time.Hour)
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mtime = mtime.Add(time.Second) // a stat walk must see every step
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("items/b.md", "---\nid: B-1\ntitle: Bee\nparent: A-1\n---\n# Bee\nPoints at [a](a.md).\n")
	write("items/c.md", "---\nid: C-1\ntitle: Sea\n---\n# Sea\nalone\n")
	a := func(title, fm, body string) string {
		return "---\nid: A-1\ntitle: " + title + "\n" + fm + "---\n" + body
	}
	body := "# Alpha\nintro words\n\n## Plan\nplanning words\n\n## Worklog\n- started\n"
	write("items/a.md", a("Alpha", "relates: [C-1]\n", body))

	st, _, err := Open(filepath.Join(t.TempDir(), "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ld := NewLoader(root, cfg)
	if _, err := st.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	rowID := func() int64 {
		t.Helper()
		var id int64
		if err := st.h.DB.QueryRow(`SELECT id FROM docs WHERE path = 'items/a.md'`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	hits := func(q string) int {
		t.Helper()
		var n int
		if err := st.h.DB.QueryRow(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := rowID()

	steps := []struct {
		name, content  string
		inPlace        bool
		found, gone    []string // words searchable now, and no longer
		added, removed int      // edges
		problems       int      // of a.md
	}{
		{name: "worklog line", content: a("Alpha", "relates: [C-1]\n", body+"- went on\n"), inPlace: true,
			found: []string{"went"}},
		{name: "line above every section", content: a("Alpha", "relates: [C-1]\n", "\n"+body+"- went on\n"), inPlace: true},
		{name: "section added and text changed", content: a("Alpha", "relates: [C-1]\n",
			"# Alpha\nopening words\n\n## Risks\nrisky words\n\n## Plan\nplanning words\n"), inPlace: true,
			found: []string{"opening", "risky"}, gone: []string{"intro", "went", "started"}},
		{name: "section removed", content: a("Alpha", "relates: [C-1]\n", "# Alpha\nopening words\n"), inPlace: true,
			gone: []string{"risky", "planning"}},
		{name: "title", content: a("Omega", "relates: [C-1]\n", "# Alpha\nopening words\n"), inPlace: true,
			found: []string{"omega"}, gone: []string{"alpha AND title:alpha"}},
		{name: "edge retargeted", content: a("Omega", "relates: [B-1]\n", "# Alpha\nopening words\n"), inPlace: true,
			added: 1, removed: 1},
		{name: "body link added", content: a("Omega", "relates: [B-1]\n", "# Alpha\nopening words, see [sea](c.md)\n"),
			inPlace: true, added: 1},
		{name: "problem", content: a("Omega", "relates: [B-1]\nparent: {x: 1}\n", "# Alpha\nopening words\n"), inPlace: true,
			removed: 1, problems: 1},
		{name: "problem fixed", content: a("Omega", "relates: [B-1]\n", "# Alpha\nopening words\n"), inPlace: true},
		// No longer in place: b.md's parent A-1 dangles, its link to a.md
		// now reaches A-2, and a.md's own relates edge goes with its key.
		{name: "id changed", content: "---\nid: A-2\ntitle: Omega\n---\n# Alpha\nopening words\n", added: 1, removed: 3},
	}
	for _, s := range steps {
		write("items/a.md", s.content)
		ch, err := st.Reconcile(ctx, ld, scan.NewScope(root, cfg, ""), nil)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := rowID() == first; got != s.inPlace {
			t.Errorf("%s: updated in place = %v, want %v", s.name, got, s.inPlace)
		}
		if !slices.Equal(ch.Modified, []string{"items/a.md"}) || ch.EdgesAdded != s.added || ch.EdgesRemoved != s.removed {
			t.Errorf("%s: modified %v, edges +%d -%d; want [items/a.md] +%d -%d", s.name, ch.Modified,
				ch.EdgesAdded, ch.EdgesRemoved, s.added, s.removed)
		}
		if s.inPlace && !slices.Contains(ch.Keys, "A-1") {
			t.Errorf("%s: changed keys %v miss A-1", s.name, ch.Keys)
		}
		var probs int
		if err := st.h.DB.QueryRow(`SELECT count(*) FROM problems WHERE path = 'items/a.md'`).Scan(&probs); err != nil {
			t.Fatal(err)
		}
		if probs != s.problems {
			t.Errorf("%s: %d problems of a.md, want %d", s.name, probs, s.problems)
		}
		for _, w := range s.found {
			if hits(w) == 0 {
				t.Errorf("%s: %q not found", s.name, w)
			}
		}
		for _, w := range s.gone {
			if n := hits(w); n != 0 {
				t.Errorf("%s: %q still found %d times", s.name, w, n)
			}
		}
		if _, err := st.h.DB.Exec(`INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')`); err != nil {
			t.Errorf("%s: full-text index: %v", s.name, err)
		}
		if diff := diffFromRebuild(t, st, ld, root, cfg); len(diff) > 0 {
			t.Fatalf("%s: index differs from a rebuild:\n%s", s.name, strings.Join(diff, "\n"))
		}
	}
}

// TestRenameUntitled moves a document with no title and no heading: its
// first section is titled by its file name, as a full build titles it.
func TestRenameUntitled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	cfg := config.Default()
	p := filepath.Join(root, "docs", "old-name.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("Just text, no heading.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, err := Open(filepath.Join(t.TempDir(), "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ld := NewLoader(root, cfg)
	if _, err := st.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, filepath.Join(root, "docs", "new-name.md")); err != nil {
		t.Fatal(err)
	}
	ch, err := st.Reconcile(ctx, ld, scan.NewScope(root, cfg, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Renamed) != 1 {
		t.Fatalf("renamed %v, want the one document", ch.Renamed)
	}
	if diff := diffFromRebuild(t, st, ld, root, cfg); len(diff) > 0 {
		t.Fatalf("differs from a rebuild:\n%s", strings.Join(diff, "\n"))
	}
}
