package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestOverlaysStepLikeARebuild: an overlay kept commit by commit (a
// change, a change back to the merge base's text, a deletion, an addition,
// HEAD moving, a branch going) equals one computed from nothing after each
// step; a ref over the load limit is summarised and stays so when only
// HEAD moves.
func TestOverlaysStepLikeARebuild(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, id := range []string{"1", "2", "3", "4"} {
		write(t, dir, "t"+id+".md", "---\nid: T-"+id+"\ntitle: Task "+id+"\nstate: To Do\n---\n")
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "base")
	git(t, dir, "branch", "side")
	git(t, dir, "branch", "wide")
	ctx := context.Background()
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.overlayLimit = 2
	check := func(step string) {
		t.Helper()
		if _, err := s.Fresh(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Overlays(ctx); err != nil {
			t.Fatal(err)
		}
		diff, _, err := s.verifyOverlays(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(diff) > 0 {
			t.Fatalf("%s: the overlay differs from a rebuild:\n%s", step, strings.Join(diff, "\n"))
		}
	}
	onBranch := func(branch, msg string, edit func()) {
		git(t, dir, "switch", "-q", branch)
		edit()
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", msg)
		git(t, dir, "switch", "-q", "main")
	}
	check("start")
	onBranch("side", "take T-1", func() { write(t, dir, "t1.md", "---\nid: T-1\ntitle: Task 1\nstate: In Progress\n---\n") })
	check("a change")
	onBranch("side", "T-1 back, T-2 gone, T-5 new", func() {
		write(t, dir, "t1.md", "---\nid: T-1\ntitle: Task 1\nstate: To Do\n---\n")
		os.Remove(filepath.Join(dir, "t2.md"))
		write(t, dir, "t5.md", "---\nid: T-5\ntitle: Task 5\nstate: To Do\n---\n")
	})
	check("back, deleted, added")
	onBranch("wide", "three", func() {
		for _, id := range []string{"1", "2", "3"} {
			write(t, dir, "t"+id+".md", "---\nid: T-"+id+"\ntitle: Wide\nstate: Done\n---\n")
		}
	})
	check("over the limit")
	write(t, dir, "t4.md", "---\nid: T-4\ntitle: Task 4, here\nstate: To Do\n---\n")
	git(t, dir, "commit", "-qam", "HEAD moves")
	check("HEAD moved")
	refs, err := s.Store.Refs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 2 || refs[1].Name != "refs/heads/wide" || !refs[1].Summarised || refs[1].Changed != 3 || refs[0].Changed != 2 {
		t.Fatalf("refs: %+v", refs)
	}
	git(t, dir, "branch", "-q", "-D", "side")
	check("a branch gone")
	if refs, _ := s.Store.Refs(ctx); len(refs) != 1 {
		t.Fatalf("refs after the deletion: %+v", refs)
	}
}
