package safepath

import (
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{repo + "/docs", repo + "/.git/hooks", outside + "/x"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(repo, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(outside, ".cache")                  // absolute link out
	link("../outside/x", "rel-out")          // relative link out
	link("docs", "docs-link")                // a link that stays inside
	link(filepath.Join(repo, "a", "b"), "c") // a chain...
	if err := os.MkdirAll(filepath.Join(repo, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(outside, "a/b")                            // ...that ends outside
	link(filepath.Join(base, "nowhere"), "dangles") // a dangling link out
	for _, tt := range []struct {
		path    string
		outside bool
		link    string
	}{
		{"docs/new.md", false, ""},
		{"docs/deep/not/yet.md", false, ""},
		{"docs-link/a.md", false, ""},
		{".git/hooks/pre-commit", false, ""},
		{".cache/worksets/w", true, ".cache"},
		{"rel-out/file", true, "rel-out"},
		{"c/file", true, "c"},
		{"dangles/file", true, "dangles"},
		{"../outside/x", true, ""},
		{"docs/../../outside/y", true, ""},
		{".", false, ""},
	} {
		err := Inside(filepath.Join(repo, tt.path), repo)
		var oe *OutsideError
		if got := errors.As(err, &oe); got != tt.outside {
			t.Errorf("%s: outside = %v (%v), want %v", tt.path, got, err, tt.outside)
			continue
		}
		if tt.link != "" && oe.Link != filepath.Join(repo, tt.link) {
			t.Errorf("%s: the link named is %q, want %s", tt.path, oe.Link, tt.link)
		}
	}
	// A second root: the git folder of a linked worktree may lie elsewhere.
	if err := Inside(filepath.Join(outside, "x", "hooks"), repo, outside); err != nil {
		t.Errorf("a path in the second root: %v", err)
	}
	// Writable refuses a link at the end, even one that stays inside.
	if err := Writable(filepath.Join(repo, "docs-link"), repo); !errors.Is(err, ErrLink) {
		t.Errorf("Writable on a link: %v", err)
	}
}

func TestRemoveAll(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	must.OK(t, os.MkdirAll(filepath.Join(repo, "w", "sub"), 0o755))
	must.OK(t, os.MkdirAll(outside, 0o755))
	must.OK(t, os.WriteFile(filepath.Join(outside, "keep"), []byte("x"), 0o644))
	must.OK(t, os.Symlink(outside, filepath.Join(repo, "w", "sub", "out"))) // a link inside the folder removed
	must.OK(t, os.Symlink(outside, filepath.Join(repo, "link")))            // a link as the thing removed
	if err := RemoveAll(filepath.Join(repo, "w"), repo); err != nil {
		t.Fatal(err)
	}
	if err := RemoveAll(filepath.Join(repo, "link"), repo); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
		t.Fatalf("a file outside went: %v", err)
	}
	// Through a link in the path: refused.
	must.OK(t, os.Symlink(outside, filepath.Join(repo, ".cache")))
	err := RemoveAll(filepath.Join(repo, ".cache", "keep"), repo)
	if err == nil || !strings.Contains(err.Error(), "leads outside the repository through the symbolic link") {
		t.Fatalf("removing through a link out: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
		t.Fatal("removed through a link")
	}
}
