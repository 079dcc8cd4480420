package gitfile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRefsAsGit reads packed and loose branches, a loose ref newer than
// its packed line, a symbolic ref and a linked worktree's detached HEAD,
// and compares them with git for-each-ref and git rev-parse.
func TestRefsAsGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "a\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	git(t, dir, "branch", "packed")
	git(t, dir, "branch", "topic/moved")
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	git(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	git(t, dir, "pack-refs", "--all")
	write(t, dir, "b.md", "b\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")
	git(t, dir, "branch", "-f", "topic/moved") // loose now, newer than its packed line
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "--detach", wt, "HEAD~")
	got, err := Refs(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(git(t, dir, "for-each-ref", "--format=%(objectname) %(symref) %(refname)", "refs/heads/", "refs/remotes/"), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 { // not symbolic
			want[f[1]] = f[0]
		}
	}
	want["worktrees/wt/HEAD"] = git(t, dir, "rev-parse", "HEAD~")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Refs:\n%v\ngit:\n%v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "packed")); err == nil {
		t.Fatal("the branch packed is loose: the test does not read packed-refs")
	}
}
