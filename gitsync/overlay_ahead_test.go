package gitsync

import (
	"reflect"
	"strings"
	"testing"
)

// TestDiffAheadAnswersAsTheFilteredDiff diffs two commits on the worker,
// with no filter, and keeps what a filter lets through: the same changes,
// in the same order, as DiffTrees with the filter; a diff the caller gets
// to first, or asks for twice, it works out itself.
func TestDiffAheadAnswersAsTheFilteredDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{"docs/a.md", "docs/b.txt", "deep/x/y/c.md", "skip/d.md", "skip/in/e.md", "top.md", "deep/skip/f.md"} {
		write(t, dir, p, "one "+p)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	first := git(t, dir, "rev-parse", "HEAD")
	for _, p := range []string{"docs/a.md", "docs/b.txt", "deep/x/y/c.md", "skip/d.md", "skip/in/e.md", "top.md", "deep/skip/f.md", "deep/x/new.md"} {
		write(t, dir, p, "two "+p)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")
	second := git(t, dir, "rev-parse", "HEAD")
	r, _ := Discover(dir)
	f := Filter{
		Dir:  func(d string) bool { return d != "skip" && !strings.HasSuffix(d, "/skip") },
		File: func(p string) bool { return strings.HasSuffix(p, ".md") },
	}
	o := OpenObjects(r)
	defer o.Close()
	a, _ := o.CommitTree(first)
	b, _ := o.CommitTree(second)
	want, err := o.DiffTrees(a, b, f)
	if err != nil || len(want) != 4 {
		t.Fatalf("DiffTrees = %v, %v; want four changes", want, err)
	}
	// The worker's filter prunes less than the whole one (here: no
	// roots but docs, which the whole one lets through).
	f.Dir = func(d string) bool { return d != "docs" && d != "skip" && !strings.HasSuffix(d, "/skip") }
	if want, err = o.DiffTrees(a, b, f); err != nil || len(want) != 3 {
		t.Fatalf("DiffTrees = %v, %v; want three changes", want, err)
	}
	d := newDiffAhead(r, Filter{Dir: func(dir string) bool { return dir != "docs" }})
	defer d.close()
	d.want(first, second)
	d.want(second, first)
	var got *aheadDiff
	for got == nil { // the worker starts on it soon; until then the caller would diff
		d.mu.Lock()
		started := d.by[[2]string{first, second}].started
		d.mu.Unlock()
		if started {
			got = d.take(first, second)
		}
	}
	if got.err != nil || !reflect.DeepEqual(filtered(got.changes, f), want) {
		t.Fatalf("ahead: %v, %v; DiffTrees: %v", filtered(got.changes, f), got.err, want)
	}
	if again := d.take(first, second); again != nil {
		t.Fatal("a diff taken twice: the second ask should diff itself")
	}
	if other := d.take("x", "y"); other != nil {
		t.Fatal("a diff never wanted was answered")
	}
}
