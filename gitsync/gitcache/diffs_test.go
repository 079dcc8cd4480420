package gitcache

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestDiffCacheKeepsWhatItWasGiven writes diffs, reads them back, and
// ignores a file that is damaged, of other roots, or not one at all; past
// its bounds it keeps the most recently used pairs.
func TestDiffCacheKeepsWhatItWasGiven(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	changes := []Change{{Path: "docs/x.md", From: a, To: b}, {Path: "docs/é.md", To: c}, {Path: "y.md", From: c}}
	roots := []string{"docs", "."}
	w := NewDiffs(dir, roots)
	if _, ok := w.Get(a, b); ok {
		t.Fatal("an empty cache answered")
	}
	w.Put(a, b, changes)
	w.Put(b, c, nil) // no change at all is a diff too
	w.Put("", b, changes)
	w.Put(a, c, []Change{{Path: "z.md", From: "short"}})
	w.Save()
	r := NewDiffs(dir, roots)
	if got, ok := r.Get(a, b); !ok || !reflect.DeepEqual(got, changes) {
		t.Fatalf("read back %v, %v; want %v", got, ok, changes)
	}
	if got, ok := r.Get(b, c); !ok || len(got) != 0 {
		t.Fatalf("an empty diff read back as %v, %v", got, ok)
	}
	if r.Has("", b) || r.Has(a, c) {
		t.Fatal("kept a diff from no commit, or one with a bad blob id")
	}
	if other := NewDiffs(dir, []string{"docs"}); other.Has(a, b) {
		t.Fatal("a cache of other roots was read")
	}
	path := filepath.Join(dir, DiffsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(diffCacheMagic)+30] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if damaged := NewDiffs(dir, roots); damaged.Has(a, b) {
		t.Fatal("a damaged file was read")
	}
	// Past diffCachePairs, the least recently used go.
	full := NewDiffs(dir, roots)
	hex := func(i int) string { return strings.Repeat("0", 40-len(strconv.Itoa(i))) + strconv.Itoa(i) }
	for i := range diffCachePairs + 10 {
		full.Put(hex(i), c, nil)
	}
	full.Get(hex(0), c) // used last: stays
	full.Save()
	back := NewDiffs(dir, roots)
	if !back.Has(hex(0), c) || back.Has(hex(1), c) || !back.Has(hex(diffCachePairs+9), c) {
		t.Fatal("the bounds did not keep the most recently used pairs")
	}
}
