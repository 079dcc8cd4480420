package edit

import (
	"slices"
	"testing"
)

func TestNoteSection(t *testing.T) {
	t.Parallel()
	marked := func(prev string) []byte {
		return []byte(j("---", "id: B-1", "---", "## Description", "", "d", "", "## "+prev, "", "p", "",
			"## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "n", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"))
	}
	bare := []byte(j("---", "id: B-9", "---", "## Description", "", "d"))
	read := 0
	samples := func(bs ...[]byte) func() [][]byte {
		return func() [][]byte { read++; return bs }
	}
	dflt := &Section{Title: "Implementation Notes", After: []string{"Acceptance Criteria"}}

	// Learned: the section most items have, where and how they write it.
	got := NoteSection(bare, samples(marked("Implementation Plan"), marked("Implementation Plan"), marked("Acceptance Criteria")), nil, dflt)
	if got.Title != "Implementation Notes" || got.Level != 2 || got.Begin != "<!-- SECTION:NOTES:BEGIN -->" || got.End != "<!-- SECTION:NOTES:END -->" ||
		!slices.Equal(got.After, []string{"Implementation Plan", "Acceptance Criteria"}) || !slices.Equal(got.Before, []string{"Final Summary"}) {
		t.Errorf("learned %+v", got)
	}
	// An item with sections of its own gets the section at their level
	// ("## Worklog" under its "# Title"), whatever the samples' level.
	titled := []byte(j("---", "id: B-8", "title: T", "---", "# T", "", "## Approach", "", "a"))
	kano := []byte(j("# Context", "", "c", "", "# Worklog", "", "w"))
	if got := NoteSection(titled, samples(kano, kano), nil, nil); got.Title != "Worklog" || got.Level != 2 {
		t.Errorf("a titled item among level-1 Worklogs: %+v", got)
	}
	// The item's own section needs no sample.
	read = 0
	own := []byte(j("# A", "", "# Worklog", "", "x"))
	if got := NoteSection(own, samples(marked("Plan")), nil, dflt); got.Title != "Worklog" || read != 0 {
		t.Errorf("an item with a Worklog: %+v, %d sample reads", got, read)
	}
	// Two of its own: the one most items have.
	both := []byte(j("# A", "", "# Worklog", "", "x", "", "# Implementation Notes", "", "y"))
	if got := NoteSection(both, samples(marked("Plan")), nil, nil); got.Title != "Implementation Notes" {
		t.Errorf("an item with two: %+v", got)
	}
	// A heading the configuration calls append-only comes first.
	journal := []byte(j("# A", "", "# Diary", "", "x"))
	if got := NoteSection(journal, samples(), []string{"Diary"}, nil); got.Title != "Diary" {
		t.Errorf("merge.append_only: %+v", got)
	}
	// None anywhere: the tool's, else a Worklog.
	if got := NoteSection(bare, samples(bare), nil, dflt); got.Title != "Implementation Notes" {
		t.Errorf("the tool's default: %+v", got)
	}
	if got := NoteSection(bare, samples(bare), nil, nil); got.Title != "Worklog" {
		t.Errorf("no default: %+v", got)
	}
}
