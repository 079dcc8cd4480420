package config

import (
	"errors"
	"strings"
)

// States says which `state` values count as open work and which as done.
// ready/blocked and context ranking use it; a state in neither list is
// treated as open. An open item in a Blocked state is blocked whether or
// not anything it waits for is recorded.
type States struct {
	Open    []string `yaml:"open" json:"open"`
	Done    []string `yaml:"done" json:"done"`
	Blocked []string `yaml:"blocked" json:"blocked"`
}

// DefaultStates fit a Kano-style backlog and ADR statuses.
func DefaultStates() States {
	return States{
		Open:    []string{"Proposed", "Planned", "Ready", "InProgress", "Review", "Blocked"},
		Done:    []string{"Done", "Dropped", "Closed", "Resolved", "Cancelled", "Accepted", "Superseded", "Rejected"},
		Blocked: []string{"Blocked"},
	}
}

func (s *States) merge(f *States) error {
	if f.Open != nil {
		s.Open = f.Open
	}
	if f.Done != nil {
		s.Done = f.Done
	}
	if f.Blocked != nil {
		s.Blocked = f.Blocked
	}
	for _, o := range s.Open {
		if s.IsDone(o) {
			return errors.New("states: " + o + " is listed as both open and done")
		}
	}
	return nil
}

// IsDone reports whether a state counts as done (without case).
func (s *States) IsDone(state string) bool { return inFold(s.Done, state) }

// IsBlocked reports whether a state says the item is blocked (without
// case).
func (s *States) IsBlocked(state string) bool { return inFold(s.Blocked, state) }

func inFold(list []string, state string) bool {
	for _, d := range list {
		if strings.EqualFold(d, state) {
			return true
		}
	}
	return false
}

// templateStates does not show blocked: (its default, [Blocked], is in
// docs/configuration.md), so that what canon init writes
// stays byte for byte what it wrote before the setting existed: that file
// is committed in repositories.
const templateStates = `
# Which "state" values count as open work and which as done (canon ready,
# canon blocked, context ranking). A state in neither list counts as open.
states:
  open: [Proposed, Planned, Ready, InProgress, Review, Blocked]
  done: [Done, Dropped, Closed, Resolved, Cancelled, Accepted, Superseded, Rejected]
`
