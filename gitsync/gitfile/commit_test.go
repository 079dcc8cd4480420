package gitfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestParseCommitAsGit reads a merge commit and a root commit as git log
// prints them: parents in order, the author's name, the committer time.
func TestParseCommitAsGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "a\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "root")
	git(t, dir, "checkout", "-qb", "side")
	write(t, dir, "b.md", "b\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "side")
	git(t, dir, "checkout", "-q", "main")
	write(t, dir, "c.md", "c\n")
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.name=Ann Other", "-c", "user.email=a@x", "commit", "-qm", "main",
		"--author", "Ann Other <a@x>", "--date", "@1700000000 +0100")
	git(t, dir, "-c", "user.name=Merger", "-c", "user.email=m@x", "merge", "-q", "--no-ff", "-m", "merge", "side")
	s := OpenStore(filepath.Join(dir, ".git", "objects"))
	defer s.Close()
	for _, rev := range []string{"HEAD", "HEAD^1", "HEAD^2", "HEAD^2^"} {
		h := plumbing.NewHash(git(t, dir, "rev-parse", rev))
		typ, data, err := s.Read(h)
		if err != nil || typ != plumbing.CommitObject {
			t.Fatalf("%s: %s, %v", rev, typ, err)
		}
		c := ParseCommit(data)
		var parents []string
		for _, p := range c.Parents {
			parents = append(parents, p.String())
		}
		got := fmt.Sprintf("%s|%s|%d", strings.Join(parents, " "), c.Author, c.When)
		if want := git(t, dir, "log", "-1", "--format=%P|%an|%ct", rev); got != want {
			t.Errorf("%s: %s, git %s", rev, got, want)
		}
		tree, ok := CommitTree(data)
		if want := git(t, dir, "rev-parse", rev+"^{tree}"); !ok || tree.String() != want {
			t.Errorf("%s: tree %s, %v; git %s", rev, tree, ok, want)
		}
	}
	for _, bad := range []string{"", "tree 123\n", "parent " + strings.Repeat("1", 40) + "\ntree " + strings.Repeat("2", 40) + "\n", "tree " + strings.Repeat("g", 40) + "\n"} {
		if _, ok := CommitTree([]byte(bad)); ok {
			t.Errorf("%q read as starting with its tree", bad)
		}
	}
}
