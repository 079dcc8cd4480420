package index

import (
	"fmt"
	"strings"
	"testing"
)

// TestWorktreeSet: each path once, the newest last, the oldest dropped
// past the bound.
func TestWorktreeSet(t *testing.T) {
	t.Parallel()
	if got := worktreeSet("a\nb\nc", []string{"b", "d"}); got != "a\nc\nb\nd" {
		t.Fatalf("got %q", got)
	}
	if got := worktreeSet("", []string{"x", "x"}); got != "x" {
		t.Fatalf("got %q", got)
	}
	var many []string
	for i := range maxWorktreePaths + 10 {
		many = append(many, fmt.Sprint("p", i))
	}
	got := strings.Split(worktreeSet("", many), "\n")
	if len(got) != maxWorktreePaths || got[0] != "p10" || got[len(got)-1] != fmt.Sprint("p", maxWorktreePaths+9) {
		t.Fatalf("%d paths, %s … %s", len(got), got[0], got[len(got)-1])
	}
}
