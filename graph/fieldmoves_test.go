package graph

import (
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

func TestFieldMoves(t *testing.T) {
	here := `{"id":"T-1","priority":"low","labels":["a"],"estimate":3,"x":{"b":1}}`
	ref := `{"id":"T-1","sprint":"12","priority":"high","labels":["a"],"x":{"b":2}}`
	got := fieldMoves(here, ref)
	var lines []string
	for _, m := range got {
		lines = append(lines, m.Field+": "+shownOr(m.Here)+" → "+shownOr(m.Ref))
	}
	want := `sprint: (none) → 12|priority: low → high|x.b: 1 → 2|estimate: 3 → (none)`
	if s := strings.Join(lines, "|"); s != want {
		t.Errorf("moves %s, want %s", s, want)
	}
	if m := fieldMoves(here, here); m != nil {
		t.Errorf("same frontmatter moved %v", m)
	}
	if m := fieldMoves("", ref); m != nil {
		t.Errorf("a frontmatter not read moved %v", m)
	}
	if m := fieldMoves("null", `{"a":"b"}`); len(m) != 1 || m[0].Here != nil {
		t.Errorf("a frontmatter added: %v", m)
	}
}

// TestFieldMovesInAMapping: a field added inside a mapping (emberjs/rfcs'
// prs: {accepted: …, released: …}) is shown by its path, not as the whole
// mapping twice.
func TestFieldMovesInAMapping(t *testing.T) {
	here := `{"stage":"accepted","prs":{"accepted":"https://x/1"},"deep":{"a":{"b":{"c":1}}},"e":{}}`
	ref := `{"stage":"accepted","prs":{"accepted":"https://x/1","released":"https://x/2"},"deep":{"a":{"b":{"c":2}}},"e":{"f":1}}`
	var got []string
	for _, m := range fieldMoves(here, ref) {
		got = append(got, m.Field+": "+shownOr(m.Here)+" → "+shownOr(m.Ref))
	}
	want := `prs.released: (none) → https://x/2|deep.a.b: {"c":1} → {"c":2}|e.f: (none) → 1|e: {} → (none)`
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("moves %s, want %s", s, want)
	}
}

func TestFieldMovesShownSafely(t *testing.T) {
	long := strings.Repeat("é", 200)
	m := fieldMoves(`{"a":"x"}`, `{"a":"`+long+`","b":"one\ntwo\u001b]52"}`)
	if len(m) != 2 {
		t.Fatalf("moves %v", m)
	}
	if n := len([]rune(*m[0].Ref)); n != maxShownValue {
		t.Errorf("a long value is shown in %d characters", n)
	}
	b := BranchMove{Fields: []string{"frontmatter"}, FieldMoves: m[1:]}
	if w := b.what(); strings.ContainsAny(w, "\n\x1b") {
		t.Errorf("a value reaches the terminal raw: %q", w)
	}
}

func TestFrontmatterMovesSayNothingTwice(t *testing.T) {
	o := index.OverlayDoc{RefDoc: index.RefDoc{State: "Done", FMJSON: `{"status":"Done","owner":"ann","title":"B","p":"2"}`},
		Here: &index.HereDoc{DocRef: index.DocRef{State: "Open"}, FMJSON: `{"status":"Open","owner":"bob","title":"A","p":"1"}`}}
	got := frontmatterMoves(o, []string{"state", "assignee", "title"})
	if len(got) != 1 || got[0].Field != "p" {
		t.Errorf("moves %v, want p alone", got)
	}
}
