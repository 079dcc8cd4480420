package graph

import (
	"slices"
	"testing"
)

// TestIDLess: ids are ordered as people number them where what comes
// before the number is the same, else as text.
func TestIDLess(t *testing.T) {
	t.Parallel()
	ids := []string{"KEP-1001", "T-10", "KEP-115", "T-9", "KEP-0115", "adr-2", "KEP-753", "x"}
	slices.SortFunc(ids, func(a, b string) int {
		switch {
		case idLess(a, b):
			return -1
		case idLess(b, a):
			return 1
		}
		return 0
	})
	want := []string{"KEP-0115", "KEP-115", "KEP-753", "KEP-1001", "T-9", "T-10", "adr-2", "x"}
	if !slices.Equal(ids, want) {
		t.Errorf("got %v, want %v", ids, want)
	}
}
