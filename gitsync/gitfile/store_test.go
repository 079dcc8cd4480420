package gitfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestObjectSizeWithoutReading: a blob's size comes from the loose
// object's header, the pack's object header, or the head of a delta, and
// is git's.
func TestObjectSizeWithoutReading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	big := strings.Repeat("lorem ipsum dolor sit amet\n", 40000)
	write(t, dir, "a.md", big)
	write(t, dir, "small.md", "# small\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "one")
	objects := filepath.Join(dir, ".git", "objects")
	check := func(when string, paths ...string) {
		t.Helper()
		s := OpenStore(objects)
		defer s.Close()
		for _, p := range paths {
			oid := git(t, dir, "rev-parse", "HEAD:"+p)
			want := git(t, dir, "cat-file", "-s", oid)
			got, err := s.Size(plumbing.NewHash(oid))
			if err != nil || fmt.Sprint(got) != want {
				t.Errorf("%s: size of %s = %d, %v; git says %s", when, p, got, err, want)
			}
		}
	}
	check("loose", "a.md", "small.md")
	write(t, dir, "b.md", big+"one more line\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "two")
	git(t, dir, "gc", "-q", "--aggressive")
	s := OpenStore(objects)
	defer s.Close()
	delta := false
	for _, p := range []string{"a.md", "b.md"} {
		off, err := s.packs[0].idx.FindOffset(plumbing.NewHash(git(t, dir, "rev-parse", "HEAD:"+p)))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := s.packs[0].packData()
		h, _ := d.header(off)
		delta = delta || h.typ == packOfsDelta || h.typ == packRefDelta
	}
	if !delta {
		t.Fatal("git stored neither copy as a delta: the test does not try the delta's size")
	}
	check("packed", "a.md", "b.md", "small.md")
}
