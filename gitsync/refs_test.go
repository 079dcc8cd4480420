package gitsync

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// historyRepo is a new repository and a func that commits one new file,
// a minute after the last (author time; the committer's is now).
func historyRepo(t *testing.T) (string, func()) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	n := 0
	return dir, func() {
		n++
		write(t, dir, fmt.Sprintf("f%d.md", n), "x\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", fmt.Sprint(n), "--date", fmt.Sprintf("2025-01-01T00:%02d:00Z", n))
	}
}

// TestMergeBaseAgreesWithGit: the in-process merge base is git's on a
// history with forks, a merge and an unrelated root, committed within a
// second or two (equal commit times: the hard case for a walk in time
// order).
func TestMergeBaseAgreesWithGit(t *testing.T) {
	dir, commit := historyRepo(t)
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
	tips := make([]string, len(refs))
	for i, y := range refs {
		tips[i] = git(t, dir, "rev-parse", y)
	}
	for _, x := range refs {
		hx := git(t, dir, "rev-parse", x)
		got, err := objs.mergeBases(hx, tips) // every ref in one walk
		if err != nil {
			t.Fatal(err)
		}
		for i, y := range refs {
			want := ""
			if x != "alone" && y != "alone" || x == y {
				want = git(t, dir, "merge-base", hx, tips[i])
			}
			if got[i] != want {
				t.Errorf("merge base of %s and %s: %q, git says %q", x, y, got[i], want)
			}
			one, err := objs.mergeBases(hx, tips[i:i+1]) // and alone
			if err != nil || one[0] != got[i] {
				t.Errorf("merge base of %s and %s alone: %q (%v), in one walk with the others %q", x, y, one[0], err, got[i])
			}
		}
	}
}

// TestMergeBasesCrissCross: where two commits have two best common
// ancestors, the walk picks the newer one whichever side it starts from
// and however many refs walk with it, and it is one git lists.
func TestMergeBasesCrissCross(t *testing.T) {
	dir, commit := historyRepo(t)
	commit()
	git(t, dir, "branch", "x")
	commit() // main: 2
	git(t, dir, "switch", "-q", "x")
	commit() // x: 3
	git(t, dir, "branch", "x3")
	git(t, dir, "merge", "-q", "--no-edit", "main~0")
	git(t, dir, "switch", "-q", "main")
	git(t, dir, "merge", "-q", "--no-edit", "x3")
	commit()
	git(t, dir, "switch", "-q", "x")
	commit()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs := OpenObjects(r)
	defer objs.Close()
	m, x := git(t, dir, "rev-parse", "main"), git(t, dir, "rev-parse", "x")
	all := strings.Fields(git(t, dir, "merge-base", "--all", m, x))
	if len(all) != 2 {
		t.Fatalf("the history should have two merge bases, git lists %v", all)
	}
	a, err := objs.mergeBases(m, []string{x, m})
	if err != nil {
		t.Fatal(err)
	}
	b, err := objs.mergeBases(x, []string{m})
	if err != nil {
		t.Fatal(err)
	}
	if a[0] != b[0] || a[1] != m || (a[0] != all[0] && a[0] != all[1]) {
		t.Fatalf("merge bases: %v from main, %v from x; git lists %v", a, b, all)
	}
	newer := all[0] // the newer commit time, then the smaller id
	t0, t1 := git(t, dir, "log", "-1", "--format=%ct", all[0]), git(t, dir, "log", "-1", "--format=%ct", all[1])
	if t1 > t0 || t1 == t0 && all[1] < all[0] {
		newer = all[1]
	}
	if a[0] != newer {
		t.Fatalf("merge base %s, want the newer of %v: %s", a[0], all, newer)
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

// TestReftableRefs: a repository that keeps its refs in a reftable is not
// read from ref files (which it does not keep up to date): its branches
// come from git for-each-ref, or, when this git cannot read it, the
// overlays say they are off.
func TestReftableRefs(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("git", "init", "-q", "-b", "main", "--ref-format=reftable", dir)
	if cmd.Run() == nil { // git 2.45 or later
		write(t, dir, "a.md", "# a\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "one")
		git(t, dir, "branch", "other")
		r, err := Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		tips, _, note, err := r.FollowedRefs(config.Default().Branches, nil)
		if err != nil || len(tips) != 1 || tips[0].Name != "refs/heads/other" || !strings.Contains(note, "reftable") {
			t.Fatalf("FollowedRefs = %v, %q, %v; want refs/heads/other and a note", tips, note, err)
		}
		return
	}
	// An older git: a repository that says it uses a reftable, with stale
	// ref files beside it.
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "# a\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "one")
	git(t, dir, "branch", "stale")
	git(t, dir, "config", "core.repositoryformatversion", "1")
	git(t, dir, "config", "extensions.refStorage", "reftable")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tips, _, _, err := r.FollowedRefs(config.Default().Branches, nil); err == nil || !strings.Contains(err.Error(), "reftable") {
		t.Fatalf("FollowedRefs = %v, %v; want an error that names the reftable", tips, err)
	}
}

// TestOverlaysOfManyRefs: refs that moved together (a git fetch) are
// brought up to date in one call, and the overlay is the one a rebuild
// from nothing gives, each ref with its own document.
func TestOverlaysOfManyRefs(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	const n = 24
	for i := 0; i < n; i++ {
		write(t, dir, fmt.Sprintf("backlog/t%d.md", i), fmt.Sprintf("---\nid: T-%d\ntitle: Task %d\nstate: To Do\n---\n", i, i))
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "base")
	var refs strings.Builder
	for i := 0; i < n; i++ {
		blob := strings.TrimSpace(gitIn(t, dir, fmt.Sprintf("---\nid: T-%d\ntitle: Task %d\nstate: In Progress\n---\n", i, i), "hash-object", "-w", "--stdin"))
		git(t, dir, "read-tree", "HEAD")
		git(t, dir, "update-index", "--cacheinfo", "100644,"+blob+",backlog/t"+fmt.Sprint(i)+".md")
		tr := git(t, dir, "write-tree")
		c := git(t, dir, "commit-tree", tr, "-p", "HEAD", "-m", "take")
		fmt.Fprintf(&refs, "create refs/heads/b%02d %s\n", i, c)
	}
	git(t, dir, "read-tree", "HEAD")
	gitIn(t, dir, refs.String(), "update-ref", "--stdin")
	ctx := context.Background()
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := s.Overlays(ctx)
	if err != nil || st.Updated != n {
		t.Fatalf("Overlays = %+v, %v; want %d refs brought up to date", st, err, n)
	}
	over, err := s.Store.Overlay(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(over) != n {
		t.Fatalf("%d overlay rows, want %d", len(over), n)
	}
	for i, o := range over {
		if want := fmt.Sprintf("backlog/t%d.md", i); o.Ref != fmt.Sprintf("refs/heads/b%02d", i) || o.State != "In Progress" {
			t.Errorf("row %d: %s %s %s, want refs/heads/b%02d %s In Progress", i, o.Ref, o.Path, o.State, i, want)
		}
	}
	diff, _, err := s.verifyOverlays(ctx)
	if err != nil || len(diff) > 0 {
		t.Fatalf("the overlay differs from a rebuild (%v):\n%s", err, strings.Join(diff, "\n"))
	}
}

// gitIn runs git in dir with stdin.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
