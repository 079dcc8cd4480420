package config

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// States says which `state` values count as open work and which as done.
// ready/blocked use it: an item is open when its state is an open or a
// blocked state; a state in no list is neither open nor done, and ready
// and blocked report it (ADR-0040). An open item in a Blocked state is
// blocked whether or not anything it waits for is recorded.
type States struct {
	// Field is the frontmatter field a work item's state is read from
	// before state and status (emberjs/rfcs: stage); "" for none. It
	// shapes the index (IndexHash).
	Field   string   `yaml:"field" json:"field,omitempty"`
	Open    []string `yaml:"open" json:"open"`
	Done    []string `yaml:"done" json:"done"`
	Blocked []string `yaml:"blocked" json:"blocked"`
}

// DefaultStates fit a Kano-style backlog, Backlog.md's statuses, the
// common spellings of issue trackers and ADR statuses.
func DefaultStates() States {
	return States{
		Open:    []string{"Proposed", "Planned", "Ready", "InProgress", "Review", "Blocked", "To Do", "Todo", "Backlog", "Open", "In Progress", "Doing", "In Review"},
		Done:    []string{"Done", "Dropped", "Closed", "Resolved", "Cancelled", "Canceled", "Completed", "Won't Do", "Won't Fix", "Accepted", "Superseded", "Rejected"},
		Blocked: []string{"Blocked"},
	}
}

func (s *States) merge(f *States) error {
	if f.Field != "" {
		if err := checkStateField("states.field", f.Field); err != nil {
			return err
		}
		s.Field = f.Field
	}
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

// stateFieldRE is a frontmatter field's name as states.field takes it.
var stateFieldRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

func checkStateField(key, f string) error {
	if !stateFieldRE.MatchString(f) {
		return fmt.Errorf("%s: %q is not a frontmatter field's name; write one such as stage", key, f)
	}
	return nil
}

// IsOpen reports whether a state counts as open work: an open or a
// blocked state that is not a done state (without case).
func (s *States) IsOpen(state string) bool {
	return (inFold(s.Open, state) || s.IsBlocked(state)) && !s.IsDone(state)
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
# canon blocked). A state in neither list is not open: ready and blocked
# count such items and name their states.
states:
  open: [Proposed, Planned, Ready, InProgress, Review, Blocked, To Do, Todo, Backlog, Open, In Progress, Doing, In Review]
  done: [Done, Dropped, Closed, Resolved, Cancelled, Canceled, Completed, "Won't Do", "Won't Fix", Accepted, Superseded, Rejected]
`
