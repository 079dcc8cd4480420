package gitsync

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
	changes := []TreeChange{{Path: "docs/x.md", From: a, To: b}, {Path: "docs/é.md", To: c}, {Path: "y.md", From: c}}
	roots := []string{"docs", "."}
	w := newDiffCache(dir, roots)
	if _, ok := w.get(a, b); ok {
		t.Fatal("an empty cache answered")
	}
	w.put(a, b, changes)
	w.put(b, c, nil) // no change at all is a diff too
	w.put("", b, changes)
	w.put(a, c, []TreeChange{{Path: "z.md", From: "short"}})
	w.save()
	r := newDiffCache(dir, roots)
	if got, ok := r.get(a, b); !ok || !reflect.DeepEqual(got, changes) {
		t.Fatalf("read back %v, %v; want %v", got, ok, changes)
	}
	if got, ok := r.get(b, c); !ok || len(got) != 0 {
		t.Fatalf("an empty diff read back as %v, %v", got, ok)
	}
	if r.has("", b) || r.has(a, c) {
		t.Fatal("kept a diff from no commit, or one with a bad blob id")
	}
	if other := newDiffCache(dir, []string{"docs"}); other.has(a, b) {
		t.Fatal("a cache of other roots was read")
	}
	path := filepath.Join(dir, diffCacheName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(diffCacheMagic)+30] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if damaged := newDiffCache(dir, roots); damaged.has(a, b) {
		t.Fatal("a damaged file was read")
	}
	// Past diffCachePairs, the least recently used go.
	full := newDiffCache(dir, roots)
	hex := func(i int) string { return strings.Repeat("0", 40-len(strconv.Itoa(i))) + strconv.Itoa(i) }
	for i := range diffCachePairs + 10 {
		full.put(hex(i), c, nil)
	}
	full.get(hex(0), c) // used last: stays
	full.save()
	back := newDiffCache(dir, roots)
	if !back.has(hex(0), c) || back.has(hex(1), c) || !back.has(hex(diffCachePairs+9), c) {
		t.Fatal("the bounds did not keep the most recently used pairs")
	}
}
