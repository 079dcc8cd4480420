package learn

import (
	"slices"
	"testing"
)

// TestStateField: a stage field more documents write than state: or
// status: is learned, its values ordered as work moves (open until it
// ships); a field most of whose values are no lifecycle, or one fewer
// documents write than state:, is not.
func TestStateField(t *testing.T) {
	f := newFacts()
	f.stateFields = map[string]map[string]int{"stage": {"recommended": 164, "accepted": 56, "released": 31, "discontinued": 10, "ready-for-release": 1}}
	r := decide(f)
	s := r.Learned.States
	if s == nil || s.Field != "stage" || !slices.Equal(s.Open, []string{"accepted", "ready-for-release"}) || !slices.Equal(s.Done, []string{"released", "recommended", "discontinued"}) {
		t.Fatalf("states = %+v", s)
	}
	f = newFacts()
	f.stateFields = map[string]map[string]int{"phase": {"alpha": 10, "beta": 12}}
	if r := decide(f); r.Learned.States != nil {
		t.Fatalf("a phase of alpha and beta learned as states: %+v", r.Learned.States)
	}
	f = newFacts()
	f.stateDocs = 40
	f.stateFields = map[string]map[string]int{"stage": {"accepted": 3, "released": 3}}
	if r := decide(f); r.Learned.States != nil && r.Learned.States.Field != "" {
		t.Fatalf("stage learned where state: is written more: %+v", r.Learned.States)
	}
}
