package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/canon-md/canon/index/scan"
)

// TestStatCacheStamped checks the stat cache reads back what was written
// under the same sync id, and nothing under another id, nor from a
// damaged or unsorted file.
func TestStatCacheStamped(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.db.stat")
	rows := []statRow{{"a b.md", 1, 10, true}, {"a/x.md", 0, -5, false}, {"a\nnewline.md", 7, 1 << 40, true}}
	rows = sortedStats(rows)
	if err := writeStatCache(path, "id1", rows); err != nil {
		t.Fatal(err)
	}
	got, ok := readStatCache(path, "id1")
	if !ok || !slices.Equal(got, rows) {
		t.Fatalf("read back %v, %v; want %v", got, ok, rows)
	}
	if _, ok := readStatCache(path, "id2"); ok {
		t.Fatal("a cache of another sync id was read")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"truncated":    data[:len(data)-3],
		"unsorted":     []byte(statCacheMagic + "id1\nb.md\x001\x002\x001\x00a.md\x001\x002\x001\x00"),
		"not a number": []byte(statCacheMagic + "id1\na.md\x00one\x002\x001\x00"),
		"bad kind":     []byte(statCacheMagic + "id1\na.md\x001\x002\x002\x00"),
	} {
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := readStatCache(path, "id1"); ok {
			t.Errorf("%s: read as a cache", name)
		}
	}
}

// TestStatChangesMerges checks the one-pass comparison of a walk with the
// stored stats: changed, new, gone and racy files.
func TestStatChangesMerges(t *testing.T) {
	t.Parallel()
	stored := []statRow{{"a.md", 1, 10, true}, {"b.md", 2, 20, true}, {"c.md", 3, 30, false}, {"e.md", 5, 50, true}}
	files := []scan.FileInfo{{Path: "a.md", Size: 1, MtimeNs: 10}, {Path: "b.md", Size: 2, MtimeNs: 21},
		{Path: "d.md", Size: 4, MtimeNs: 40}, {Path: "e.md", Size: 5, MtimeNs: 50}}
	changed, gone := statChanges(files, stored, 50)
	var paths []string
	for _, fi := range changed {
		paths = append(paths, fi.Path)
	}
	if want := []string{"b.md", "d.md", "e.md"}; !slices.Equal(paths, want) {
		t.Errorf("changed %v, want %v (e.md racy)", paths, want)
	}
	if want := []string{"c.md"}; !slices.Equal(gone, want) {
		t.Errorf("gone %v, want %v", gone, want)
	}
	slices.Reverse(files) // a list out of order is compared as well
	changed, gone = statChanges(files, stored, 50)
	if len(changed) != 3 || !slices.Equal(gone, []string{"c.md"}) {
		t.Errorf("out of order: changed %v, gone %v", changed, gone)
	}
}
