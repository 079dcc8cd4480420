package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index/indextest/damage"
)

// TestStagedInProcessAnswersAsGit stages one kind of change at a time and
// compares the diff worked out in process with git's: a change in a folder
// the cache tree still covers and in one it does not, additions and
// deletions of files and folders, a mode and a type change, submodules,
// names that sort differently as files and as folders, an index with no
// cache tree, an index of version 4. What it leaves to git (a conflict, an
// entry added with intent, a split index, no HEAD) it must leave; a file
// where HEAD has a folder is listed as git lists it. A file where HEAD has a folder is listed as git
// lists it.
func TestStagedInProcessAnswersAsGit(t *testing.T) {
	t.Parallel()
	sub := strings.Repeat("1", 40)
	cases := []struct {
		name   string
		stage  func(t *testing.T, dir string)
		toGit  bool
		noTree bool
		noAdd  bool
	}{
		{name: "nothing", stage: func(*testing.T, string) {}},
		{name: "modify", stage: func(t *testing.T, dir string) { appendTo(t, dir, "docs/adr/a-001.md") }},
		{name: "modify twice", stage: func(t *testing.T, dir string) {
			appendTo(t, dir, "docs/adr/a-001.md")
			appendTo(t, dir, "a.md")
			appendTo(t, dir, "big/n0500.md")
		}},
		{name: "add in new folders", stage: func(t *testing.T, dir string) {
			write(t, dir, "new/deep/x.md", "x\n")
			write(t, dir, "a0.md", "x\n")
			write(t, dir, "a.b/c.md", "x\n")
		}},
		{name: "delete file", stage: func(t *testing.T, dir string) { git(t, dir, "rm", "-q", "a-b.md") }},
		{name: "delete folder", stage: func(t *testing.T, dir string) { git(t, dir, "rm", "-qr", "docs") }},
		{name: "mode", stage: func(t *testing.T, dir string) { git(t, dir, "update-index", "--chmod=+x", "a/x.md") }},
		{name: "type", stage: func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "a-b.md")
			if err := os.Symlink("a.md", filepath.Join(dir, "a-b.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "submodules", stage: func(t *testing.T, dir string) {
			git(t, dir, "update-index", "--cacheinfo", "160000,"+strings.Repeat("2", 40)+",sub")
			git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sub+",sub2")
			git(t, dir, "rm", "-q", "--cached", "a/x.md")
			git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sub+",a/x.md")
		}},
		{name: "folder for file", stage: func(t *testing.T, dir string) {
			git(t, dir, "rm", "-q", "a-b.md", "docs/x.md")
			write(t, dir, "a-b.md/x.md", "x\n")
			write(t, dir, "docs/x.md/y/z.md", "x\n")
		}},
		{name: "no cache tree", noTree: true, stage: func(t *testing.T, dir string) { appendTo(t, dir, "b/c/d.md") }},
		{name: "version 4", stage: func(t *testing.T, dir string) {
			git(t, dir, "update-index", "--index-version", "4")
			appendTo(t, dir, "é/ü.md")
			write(t, dir, "big/n0500.mdx", "x\n")
		}},
		{name: "intent", toGit: true, noAdd: true, stage: func(t *testing.T, dir string) {
			write(t, dir, "ita.md", "x\n")
			git(t, dir, "add", "-N", "ita.md")
		}},
		{name: "split index", toGit: true, stage: func(t *testing.T, dir string) {
			appendTo(t, dir, "a.md")
			git(t, dir, "update-index", "--split-index")
		}},
		{name: "file for folder", stage: func(t *testing.T, dir string) {
			git(t, dir, "rm", "-qr", "b")
			write(t, dir, "b", "x\n")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := stagedRepo(t, sub)
			if tc.noTree {
				git(t, dir, "read-tree", "--empty")
			}
			tc.stage(t, dir)
			switch {
			case tc.noAdd:
			case tc.noTree:
				git(t, dir, "add", "-A") // every entry again, no cache tree
			default:
				git(t, dir, "add", "-A", "--", ".", ":!sub", ":!sub2", ":!a/x.md")
			}
			compareStaged(t, dir, tc.toGit)
		})
	}
	t.Run("conflict", func(t *testing.T) {
		t.Parallel()
		dir := stagedRepo(t, sub)
		blob := strings.TrimSpace(gitIn(t, dir, "x\n", "hash-object", "-w", "--stdin"))
		gitIn(t, dir, fmt.Sprintf("100644 %s 1\ta.md\n100644 %s 2\ta.md\n", blob, blob), "update-index", "--index-info")
		compareStaged(t, dir, true)
	})
	t.Run("no HEAD", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		git(t, dir, "init", "-q", "-b", "main")
		write(t, dir, "a.md", "x\n")
		git(t, dir, "add", "-A")
		compareStaged(t, dir, true)
	})
}

// stagedRepo is a repository with one commit, packed, its index's cache
// tree whole.
func stagedRepo(t *testing.T, sub string) string {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{"a.md", "a-b.md", "a/x.md", "b/c/d.md", "é/ü.md", "docs/adr/a-001.md", "docs/adr/a-002.md", "docs/x.md"} {
		write(t, dir, p, "# "+p+"\n")
	}
	for i := range 1000 {
		write(t, dir, fmt.Sprintf("big/n%04d.md", i), "n\n")
	}
	git(t, dir, "add", "-A")
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sub+",sub")
	git(t, dir, "commit", "-qm", "one")
	git(t, dir, "gc", "-q")
	return dir
}

func appendTo(t *testing.T, dir, p string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, p), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("more\n"); err != nil {
		t.Fatal(err)
	}
}

func compareStaged(t *testing.T, dir string, toGit bool) {
	t.Helper()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := r.Staged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rt := newRevTrees(r)
	defer rt.Close()
	got, ok := r.stagedInProcess(rt)
	switch {
	case toGit && ok:
		t.Fatalf("answered in process (%v); git should be asked (%v)", got, want)
	case !toGit && !ok:
		t.Fatalf("left to git; git says %v", want)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("in process:\n%v\ngit:\n%v", got, want)
	}
	// What the check is handed, in process or not.
	a := r.askStaged(context.Background())
	a.Close()
	if a.err != nil || !reflect.DeepEqual(a.changes, want) {
		t.Fatalf("askStaged: %v, %v; git: %v", a.changes, a.err, want)
	}
}

// TestStagedIndexDamaged reads an index file cut short and with bytes
// changed: each is read as git would read it or left to git, never a
// panic (the pre-commit hook must not fail a commit on a file it misreads).
func TestStagedIndexDamaged(t *testing.T) {
	t.Parallel()
	dir := stagedRepo(t, strings.Repeat("1", 40))
	appendTo(t, dir, "docs/adr/a-001.md")
	git(t, dir, "add", "-A", "--", ".", ":!sub")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gitfile.ParseIndex(data); err != nil {
		t.Fatalf("the index does not read: %v", err)
	}
	damage.Each(t, data, 400, func(bad []byte) {
		if ix, err := gitfile.ParseIndex(bad); err == nil {
			r, _ := Discover(dir)
			rt := newRevTrees(r)
			defer rt.Close()
			root, _ := rt.root("HEAD")
			w := &stagedWalk{ix: ix, rt: rt}
			w.dir(nil, 0, ix.Len(), ix.Tree(), root)
		}
	})
}
