package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRevTreesAnswerAsGit looks paths up in commits' trees in process and
// with git cat-file --batch-check: packed and loose trees, names that sort
// differently as files and as folders, a file where a folder is wanted, a
// symbolic link, a non-ASCII name, case. What revTrees leaves to git (a
// submodule, a path that is not plain) it must leave, not answer.
func TestRevTreesAnswerAsGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{"a.md", "a-b.md", "a/x.md", "b/c/d.md", "é/ü.md", "Docs/A.md"} {
		write(t, dir, p, "# "+p+"\n")
	}
	// A folder whose tree is read in parts (past gitfile's streamTreeOver).
	for i := range 3000 {
		write(t, dir, fmt.Sprintf("big/n%04d.md", i), "n\n")
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",sub")
	git(t, dir, "commit", "-qm", "one")
	packed := git(t, dir, "rev-parse", "HEAD")
	git(t, dir, "gc", "-q")
	write(t, dir, "b/c/e.md", "loose\n")
	write(t, dir, "new/f.md", "loose\n")
	git(t, dir, "add", "b/c/e.md", "new/f.md") // not -A: the submodule stays
	git(t, dir, "commit", "-qm", "two")
	loose := git(t, dir, "rev-parse", "HEAD")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	plain := []string{"a.md", "a", "a-b.md", "a/x.md", "a/x.md/y", "a.md/x", "b", "b/c", "b/c/d.md", "b/c/e.md",
		"b/nope/d.md", "new", "new/f.md", "nope.md", "link.md", "link.md/x", "é/ü.md", "é", "docs/a.md", "Docs/A.md", "Docs/a.md", "sub/x.md",
		"big/n2999.md", "big/n0001.md", "big/n1500.md", "big/n1500.mdx", "big/n9999.md", "big/m.md", "big/n0001.md/x", "big"}
	unplain := []string{"sub", "./a.md", "a//x.md", "b/c/", "/a.md", "b/../a.md"}
	rt := newRevTrees(r)
	defer rt.Close()
	for _, rev := range []string{packed, loose, "HEAD"} {
		var in strings.Builder
		all := append(append([]string{}, plain...), unplain...)
		for _, p := range all {
			in.WriteString(rev + ":" + p + "\n")
		}
		out := gitIn(t, dir, in.String(), "cat-file", "--batch-check")
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != len(all) {
			t.Fatalf("git answered %d lines for %d paths", len(lines), len(all))
		}
		for i, p := range all {
			want := !strings.HasSuffix(lines[i], " missing")
			found, ok := rt.has(rev, p)
			isPlain := i < len(plain)
			switch {
			case isPlain && !ok:
				t.Errorf("%s:%s: not answered in process", rev, p)
			case !isPlain && ok:
				t.Errorf("%s:%s: answered in process (%v), git should be asked", rev, p, found)
			case ok && found != want:
				t.Errorf("%s:%s: found = %v, git says %q", rev, p, found, lines[i])
			}
		}
	}
	// Lookup gives the same answers with and without the objects read in
	// process.
	for _, rev := range []string{packed, "HEAD"} {
		paths := append(append([]string{}, plain...), unplain...)
		with, _, err := (&GitTree{Repo: r, Rev: rev, trees: rt, NoSuggest: true}).Lookup(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		without, _, err := (&GitTree{Repo: r, Rev: rev, NoSuggest: true}).Lookup(context.Background(), paths)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if with[p] != without[p] {
				t.Errorf("%s:%s: %v in process, %v through git", rev, p, with[p], without[p])
			}
		}
	}
}
