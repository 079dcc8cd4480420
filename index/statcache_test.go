package index

import (
	"slices"
	"testing"

	"github.com/canon-md/canon/index/scan"
)

// TestStatChangesMerges checks the one-pass comparison of a walk with the
// stored stats: changed, new, gone and racy files.
func TestStatChangesMerges(t *testing.T) {
	t.Parallel()
	stored := []statRow{{Path: "a.md", Size: 1, Mtime: 10, Doc: true}, {Path: "b.md", Size: 2, Mtime: 20, Doc: true},
		{Path: "c.md", Size: 3, Mtime: 30}, {Path: "e.md", Size: 5, Mtime: 50, Doc: true}}
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
	var racy []scan.FileInfo // Unread's: the racy apart
	changed, gone = statDiff(files, stored, 50, &racy)
	if len(changed) != 2 || changed[0].Path != "b.md" || changed[1].Path != "d.md" || len(racy) != 1 || racy[0].Path != "e.md" || !slices.Equal(gone, []string{"c.md"}) {
		t.Errorf("racy apart: changed %v, racy %v, gone %v", changed, racy, gone)
	}
	slices.Reverse(files) // a list out of order is compared as well
	changed, gone = statChanges(files, stored, 50)
	if len(changed) != 3 || !slices.Equal(gone, []string{"c.md"}) {
		t.Errorf("out of order: changed %v, gone %v", changed, gone)
	}
}
