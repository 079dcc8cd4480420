package graph

import (
	"slices"
	"strings"
)

// inProgressWords are the states that say the work is under way, by
// preference (canon claim writes the first one the repository uses), as
// StateWord folds them; reviewWords say it is under way too, in review.
var (
	inProgressWords = []string{"inprogress", "doing", "active", "started", "wip", "ongoing", "working", "implementing"}
	reviewWords     = []string{"review", "inreview"}
)

// InProgressWords are the folded states that say the work is in
// progress, by preference: a copy.
func InProgressWords() []string { return slices.Clone(inProgressWords) }

// InProgress reports whether a state says the work is in progress (In
// Progress, in-progress, Doing, WIP, ...).
func InProgress(state string) bool { return slices.Contains(inProgressWords, StateWord(state)) }

// UnderWay reports whether a state says someone has the work: in
// progress, or in review.
func UnderWay(state string) bool {
	return InProgress(state) || slices.Contains(reviewWords, StateWord(state))
}

// StateWord folds a state to its letters in lower case: In Progress,
// in-progress and InProgress are inprogress.
func StateWord(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
