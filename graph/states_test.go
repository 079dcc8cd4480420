package graph

import (
	"slices"
	"testing"
)

// One list says which states are in progress: claim writes the first the
// repository uses, a claim refuses an item in one under another name,
// and ready puts such items last, with those in review.
func TestInProgress(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"In Progress", "in-progress", "InProgress", "Doing", "WIP", "implementing"} {
		if !InProgress(s) || !UnderWay(s) {
			t.Errorf("%q: InProgress %v, UnderWay %v; want both", s, InProgress(s), UnderWay(s))
		}
	}
	for _, s := range []string{"In Review", "review"} {
		if InProgress(s) || !UnderWay(s) {
			t.Errorf("%q: InProgress %v, UnderWay %v; want under way, not in progress", s, InProgress(s), UnderWay(s))
		}
	}
	for _, s := range []string{"To Do", "Done", "", "progress"} {
		if UnderWay(s) {
			t.Errorf("%q is under way; want not", s)
		}
	}
	w := InProgressWords()
	if w[0] != "inprogress" {
		t.Errorf("InProgressWords()[0] = %q; want inprogress, claim's first choice", w[0])
	}
	w[0] = "changed"
	if !slices.Contains(InProgressWords(), "inprogress") {
		t.Errorf("InProgressWords hands out the list itself")
	}
}
