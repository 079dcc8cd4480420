package gitfile

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/damage"
	"github.com/go-git/go-git/v5/plumbing"
)

// indexRepo makes a repository with files in nested folders, committed,
// and one change staged on top.
func indexRepo(t *testing.T) string {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{"a.md", "a-b.md", "a/x.md", "b/c/d.md", "b/c/e.md", "é/ü.md", "z.md"} {
		write(t, dir, p, "# "+p+"\n")
	}
	seg := strings.Repeat("n", 200)
	write(t, dir, "long/"+seg+"/"+seg+"/"+seg+".md", "long\n") // 600 bytes of path: version 4 keeps what it shares
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	write(t, dir, "b/c/d.md", "changed\n")
	git(t, dir, "add", "b/c/d.md")
	return dir
}

// TestIndexReadsAsGit reads index files of versions 2, 3 and 4 and
// compares every entry with git ls-files --stage, and the cache tree with
// the trees git writes.
func TestIndexReadsAsGit(t *testing.T) {
	t.Parallel()
	dir := indexRepo(t)
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			git(t, dir, "update-index", "--index-version", version)
			ix, err := ReadIndex(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			lines := strings.Split(git(t, dir, "-c", "core.quotePath=false", "ls-files", "--stage"), "\n")
			if ix.Len() != len(lines) {
				t.Fatalf("%d entries, git lists %d", ix.Len(), len(lines))
			}
			for i, line := range lines {
				meta, p, _ := strings.Cut(line, "\t")
				got := fmt.Sprintf("%o %s 0", ix.Mode(i), hex.EncodeToString(ix.OID(i)))
				if got != meta || string(ix.Path(i)) != p {
					t.Errorf("entry %d: %s %q, git %s %q", i, got, ix.Path(i), meta, p)
				}
			}
			// The staged change made b and b/c invalid in the cache tree;
			// a, é and long are HEAD's.
			head := func(p string) plumbing.Hash { return plumbing.NewHash(git(t, dir, "rev-parse", "HEAD:"+p)) }
			if a := ix.Tree().Child([]byte("a")); !a.Covers(1, head("a")) {
				t.Errorf("the cache tree of a does not cover HEAD's a: %+v", a)
			}
			if ix.Tree().Child([]byte("b")).Covers(2, head("b")) {
				t.Error("the cache tree of b covers HEAD's b after b/c/d.md was staged")
			}
			if ix.Tree().Child([]byte("nope")) != nil {
				t.Error("a folder the cache tree lacks was found")
			}
		})
	}
}

// TestIndexDamaged reads an index file cut short and with bytes changed:
// each is read or refused, never a panic, and what reads can be walked.
func TestIndexDamaged(t *testing.T) {
	t.Parallel()
	dir := indexRepo(t)
	for _, version := range []string{"2", "4"} {
		git(t, dir, "update-index", "--index-version", version)
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseIndex(data); err != nil {
			t.Fatalf("v%s: the index does not read: %v", version, err)
		}
		if _, err := ParseIndex(data[:len(data)/2]); err == nil {
			t.Fatalf("v%s: half an index read", version)
		}
		t.Run("v"+version, func(t *testing.T) {
			damage.Each(t, data, 400, func(bad []byte) {
				ix, err := ParseIndex(bad)
				if err != nil {
					return
				}
				for k := range ix.Len() {
					_, _, _ = ix.Path(k), ix.Mode(k), ix.OID(k)
				}
				ix.Tree().Child([]byte("b")).Child([]byte("c")).Covers(2, plumbing.Hash{1})
			})
		})
	}
}
