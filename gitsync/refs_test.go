package gitsync

import (
	"fmt"
	"testing"
)

// TestMergeBaseAgreesWithGit: the in-process merge base is git's on a
// history with forks, a merge and an unrelated root, committed within a
// second or two (equal commit times: the hard case for a walk in time
// order).
func TestMergeBaseAgreesWithGit(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	n := 0
	commit := func() {
		n++
		write(t, dir, fmt.Sprintf("f%d.md", n), "x\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", fmt.Sprint(n), "--date", fmt.Sprintf("2025-01-01T00:%02d:00Z", n))
	}
	commit()
	commit()
	git(t, dir, "switch", "-q", "-c", "a")
	commit()
	commit()
	git(t, dir, "switch", "-q", "main")
	commit()
	git(t, dir, "switch", "-q", "-c", "b")
	commit()
	git(t, dir, "merge", "-q", "--no-edit", "a")
	commit()
	git(t, dir, "switch", "-q", "main")
	commit()
	git(t, dir, "switch", "-q", "--orphan", "alone")
	commit()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs := OpenObjects(r)
	defer objs.Close()
	refs := []string{"main", "a", "b", "alone", "a~1", "b~1", "main~2"}
	for _, x := range refs {
		for _, y := range refs {
			hx, hy := git(t, dir, "rev-parse", x), git(t, dir, "rev-parse", y)
			got, err := objs.mergeBase(hx, hy)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			cmd := []string{"merge-base", hx, hy}
			if x != "alone" && y != "alone" || x == y {
				want = git(t, dir, cmd...)
			}
			if got != want {
				t.Errorf("merge base of %s and %s: %q, git says %q", x, y, got, want)
			}
		}
	}
}
