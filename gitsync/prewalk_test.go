package gitsync

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"
)

// TestPrewalk: a hook's walk started before the session opened serves the
// catch-up when it diffed the indexed commit with HEAD (filtered as the
// catch-up's own walk would be: the excluded folder's change is not
// taken), and is left when the guess was wrong; either way the index ends
// equal to a rebuild.
func TestPrewalk(t *testing.T) {
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"notes/a.md": "# A\n", "notes/b.md": "# B\n[a](a.md)\n"})
	first := git(t, dir, "rev-parse", "HEAD")
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "notes/a.md", "# A, again\n")
	write(t, dir, "notes/c.md", "# C\n")
	write(t, dir, "node_modules/x.md", "# excluded by the default configuration\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")
	second := git(t, dir, "rev-parse", "HEAD")

	// The commit's parent is where the index stands: the prewalk serves.
	p := StartPrewalk(s.Repo, "", true, 0)
	all, ok, err := p.result(first, second)
	if !ok || err != nil || len(all) != 3 {
		t.Fatalf("prewalk of %s..%s: %v, %v, %v; want three changes", first, second, all, err, ok)
	}
	s.UsePrewalk(StartPrewalk(s.Repo, "", true, 0))
	var found []string
	got, ok, err := s.takePrewalk(first, second, func(c TreeChange) { found = append(found, c.Path) })
	sort.Strings(found)
	if !ok || err != nil || len(got) != 2 || !reflect.DeepEqual(found, []string{"notes/a.md", "notes/c.md"}) {
		t.Fatalf("takePrewalk = %v, %v (found %v); want the two notes, node_modules left out", got, ok, found)
	}
	s.UsePrewalk(StartPrewalk(s.Repo, "", true, 0))
	res, err := s.CatchUp(ctx)
	if err != nil || res.Action != ActionDiff || s.prewalk != nil {
		t.Fatalf("CatchUp = %+v, %v (prewalk left: %v)", res, err, s.prewalk != nil)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}

	// A wrong guess (from HEAD itself) is not taken.
	write(t, dir, "notes/b.md", "# B\n")
	git(t, dir, "commit", "-qam", "three")
	third := git(t, dir, "rev-parse", "HEAD")
	wrong := StartPrewalk(s.Repo, third, false, 0)
	if _, ok, _ := wrong.result(second, third); ok {
		t.Fatal("a prewalk from another commit was taken")
	}
	s.UsePrewalk(StartPrewalk(s.Repo, third, false, 0))
	if res, err := s.CatchUp(ctx); err != nil || res.Action != ActionDiff || len(res.Changes.Modified) != 1 {
		t.Fatalf("CatchUp after a wrong guess = %+v, %v", res, err)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}

	// A prewalk that passed the walk's budget sends the catch-up to git
	// diff-tree at once.
	s.maxTrees = 1
	write(t, dir, "notes/deeper/d.md", "# D\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "four")
	four := git(t, dir, "rev-parse", "HEAD")
	large := StartPrewalk(s.Repo, "", true, 1)
	if _, ok, err := large.result(third, four); !ok || !errors.Is(err, ErrLargeDiff) {
		t.Fatalf("a prewalk past the budget: %v, %v", ok, err)
	}
	s.UsePrewalk(StartPrewalk(s.Repo, "", true, 1))
	before := s.gitDiffs
	if res, err := s.CatchUp(ctx); err != nil || res.Action != ActionDiff || len(res.Changes.Added) != 1 {
		t.Fatalf("CatchUp after a large prewalk = %+v, %v", res, err)
	}
	if s.gitDiffs != before+1 {
		t.Fatal("git diff-tree was not asked")
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}
