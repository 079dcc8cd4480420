package scan

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestScopeIgnored checks nested .gitignore files: a folder without one
// inherits its parent's patterns, and no further.
func TestScopeIgnored(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, content := range map[string]string{
		".gitignore":             "*.tmp.md\n",
		"sub/.gitignore":         "secret.md\n",
		"sub/deep/er/.gitignore": "!keep.tmp.md\n",
	} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := NewScope(root, config.Default(), "")
	tests := []struct {
		path    string
		ignored bool
	}{
		{"a.md", false},
		{"x.tmp.md", true},
		{"sub/secret.md", true},
		{"sub/deep/secret.md", true}, // sub/deep has no .gitignore of its own
		{"sub/deep/x.tmp.md", true},
		{"sub/deep/er/keep.tmp.md", false},
		{"sub/deep/er/secret.md", true},
		{"other/secret.md", false}, // sub's patterns stay in sub
		{"other/deep/y.tmp.md", true},
		{".git/x.md", true},
	}
	for _, tt := range tests {
		if got := s.Ignored(tt.path, false); got != tt.ignored {
			t.Errorf("Ignored(%q) = %v, want %v", tt.path, got, tt.ignored)
		}
	}
}

// TestWalkListsAsWalkDir holds Walk to a plain filepath.WalkDir of the
// same tree with the same ignore checks, sorted: the same files, in byte
// order of their paths, whatever the names sort like as folders ("a",
// "a-b", "a.md", "a0"), with ignored folders, nested repositories,
// symbolic links and canon's debris.
func TestWalkListsAsWalkDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		".gitignore": "ignored/\n*.tmp.md\n/anchored.md\n!keep.tmp.md\n",
		"a.md":       "x", "a/x.md": "x", "a-b.md": "x", "a-b/y.md": "x", "a0.md": "x", "a0/z.md": "x",
		"a.md.d/in.md": "x", "a/b/c/deep.md": "x", "a/x.tmp.md": "x", "a/keep.tmp.md": "x",
		"anchored.md": "x", "a/anchored.md": "x", "ignored/no.md": "x", "b/ignored/no.md": "x",
		"nested/.git/HEAD": "x", "nested/n.md": "x", "notes.txt": "x", "UPPER.MD": "x",
		"b/.gitignore": "!*.tmp.md\nsecret.md\n", "b/s.tmp.md": "x", "b/secret.md": "x", "b/c/secret.md": "x",
		"c/d/.gitignore": "**/gen/\n", "c/d/gen/g.md": "x", "c/d/e/gen/g.md": "x", "c/gen/g.md": "x",
		".cache/cached.md": "x", "sp ace/é.md": "x",
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	got, err := NewScope(root, config.Default(), "").Walk()
	if err != nil {
		t.Fatal(err)
	}
	ref := NewScope(root, config.Default(), "")
	var want []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (ref.dirMatcher(parentDir(rel)).Match(strings.Split(rel, "/"), true) || ref.folderIgnored(parentDir(rel)) || isNestedRepo(p)) {
				return filepath.SkipDir
			}
			return nil
		}
		if IsMarkdown(rel) && !ref.dirMatcher(parentDir(rel)).Match(strings.Split(rel, "/"), false) {
			want = append(want, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(want)
	var paths []string
	for _, fi := range got {
		paths = append(paths, fi.Path)
		if fi.Symlink != (fi.Path == "link.md") {
			t.Errorf("%s: Symlink %v", fi.Path, fi.Symlink)
		}
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("Walk listed\n%q\nwant (WalkDir, go-git's matcher, sorted)\n%q", paths, want)
	}
	for _, must := range []string{"a/keep.tmp.md", "b/s.tmp.md", "a.md.d/in.md", "link.md"} {
		if !slices.Contains(paths, must) {
			t.Errorf("%s is not listed", must)
		}
	}
}

// TestWalkFolderGone: a folder removed between its parent's listing and
// its own (an edit in flight while a command walks) is passed over, where
// the root's absence is still an error.
func TestWalkFolderGone(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	s := NewScope(root, config.Default(), "")
	var out []FileInfo
	if err := s.walkDir("gone/deeper", &out); err != nil || len(out) != 0 {
		t.Fatalf("a vanished folder: %v, %v", err, out)
	}
	if err := NewScope(filepath.Join(root, "none"), config.Default(), "").walkDir("", &out); err == nil {
		t.Fatal("a root that does not exist walked as empty")
	}
}

// TestSidecarsOfReadmeOnly: the sidecar belongs to README.md exactly, the
// name every path that maps a sidecar's change to its README writes.
func TestSidecarsOfReadmeOnly(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Sidecars = []config.Sidecar{{File: "kep.yaml"}}
	if got := SidecarsOf(cfg, "keps/sig-x/1-a/README.md"); !slices.Equal(got, []string{"keps/sig-x/1-a/kep.yaml"}) {
		t.Errorf("README.md: %v", got)
	}
	if got := SidecarsOf(cfg, "keps/sig-x/1-a/Readme.md"); got != nil {
		t.Errorf("Readme.md takes a sidecar whose edits would go to README.md: %v", got)
	}
}
