package gitfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestTreeFindsAsGit looks names up in a packed folder past
// streamTreeOver, read as a stream, and in a small one read whole: each
// answer is ls-tree's, and a name near the start of the large folder
// inflates only the start of its tree.
func TestTreeFindsAsGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i := range 3000 {
		write(t, dir, fmt.Sprintf("big/n%04d.md", i), "n\n")
	}
	write(t, dir, "small/a.md", "a\n")
	write(t, dir, "small/a/b.md", "b\n")
	write(t, dir, "small/a-b.md", "c\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	git(t, dir, "gc", "-q")
	s := OpenStore(filepath.Join(dir, ".git", "objects"))
	if s == nil {
		t.Fatal("OpenStore refused the pack")
	}
	defer s.Close()
	tree := func(p string) *Tree {
		t.Helper()
		tr := s.Tree(plumbing.NewHash(git(t, dir, "rev-parse", "HEAD:"+p)))
		if tr == nil {
			t.Fatalf("%s: no tree", p)
		}
		return tr
	}
	big := tree("big")
	if e, hit, ok := big.Find("n0001.md"); !hit || !ok || string(e.Name) != "n0001.md" {
		t.Fatalf("n0001.md: %q, hit %v, ok %v", e.Name, hit, ok)
	}
	if big.left == 0 {
		t.Error("a name near the start inflated the whole tree")
	}
	for name, want := range map[string]bool{"n2999.md": true, "n1500.md": true, "n1500.mdx": false, "n9999.md": false, "m.md": false, "n0001.md/x": true} {
		if _, hit, ok := big.Find(name); hit != want || !ok {
			t.Errorf("big/%s: hit %v, ok %v; want %v", name, hit, ok, want)
		}
	}
	data, ok := big.All()
	if !ok || strings.Count(string(data), ".md\x00") != 3000 {
		t.Errorf("All: %d bytes, ok %v", len(data), ok)
	}
	small := tree("small")
	for name, want := range map[string]string{"a": "a", "a/b.md": "a", "a.md": "a.md", "a-b.md": "a-b.md", "b": ""} {
		e, hit, ok := small.Find(name)
		if !ok || hit != (want != "") || hit && string(e.Name) != want {
			t.Errorf("small/%s: %q, hit %v, ok %v; want %q", name, e.Name, hit, ok, want)
		}
	}
	if s.Tree(plumbing.NewHash(git(t, dir, "rev-parse", "HEAD:small/a.md"))) != nil {
		t.Error("a blob opened as a tree")
	}
}
