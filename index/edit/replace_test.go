package edit

import (
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	doc := j("---", "id: A-1", "relates: [A-1, B-1, A-1@0190]", "parent: \"[[A-1]]\"", "title: About A-1", "---", "# A", "", "See [A-1](items/A-1.md) and [[A-1]].")
	out, errs := Replace([]byte(doc), []Replacement{
		{Line: 2, Col: 1, Old: "A-1", New: "A-2"},
		{Line: 3, Col: 11, Old: "A-1", New: "A-2"},
		{Line: 3, Col: 21, Old: "A-1", New: "A-2"},
		{Line: 4, Col: 9, Old: "A-1", New: "A-2"},
		{Line: 9, Col: 5, Old: "[A-1]", New: "[A-2]"},
		{Line: 9, Col: 10, Old: "A-1.md", New: "A-2.md"},
		{Line: 9, Col: 30, Old: "A-1", New: "A-2"},
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("replacement %d: %v", i, err)
		}
	}
	want := j("---", "id: A-2", "relates: [A-2, B-1, A-2@0190]", "parent: \"[[A-2]]\"", "title: About A-1", "---", "# A", "", "See [A-2](items/A-2.md) and [[A-2]].")
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// A replacement that would break the frontmatter or change a value it
// does not land in is left out with the reason; the others are made.
func TestReplaceRefuses(t *testing.T) {
	t.Parallel()
	doc := j("---", "id: A-1", "relates: [A-1, B-1]", "---", "body A-1")
	out, errs := Replace([]byte(doc), []Replacement{
		{Line: 2, Col: 1, Old: "A-1", New: "A-2"},
		{Line: 3, Col: 11, Old: "A-1, B-1", New: "A-1, C-1"},      // lands in A-1, changes B-1
		{Line: 3, Col: 11, Old: "A-1, B-1", New: "A-1], x: [B-1"}, // breaks the list
		{Line: 3, Col: 1, Old: "relates", New: "blocks"},          // a key
		{Line: 5, Col: 1, Old: "A-1", New: "A-2\nid: X"},          // a newline
		{Line: 9, Col: 1, Old: "A-1", New: "A-2"},                 // no such line
		{Line: 5, Col: 1, Old: "B-9", New: "B-2"},                 // not on the line
	})
	if want := j("---", "id: A-2", "relates: [A-1, B-1]", "---", "body A-1"); string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	for i, why := range []string{"", "would change", "would not parse", "would change", "control character", "not in the file", "no longer holds"} {
		switch err := errs[i]; {
		case why == "" && err != nil:
			t.Errorf("replacement %d: %v", i, err)
		case why != "" && (err == nil || !strings.Contains(err.Error(), why)):
			t.Errorf("replacement %d: %v; want %q", i, err, why)
		}
	}
}

// In TOML a bare value (id = 12) becomes a string as TOML writes one.
func TestReplaceTOMLBare(t *testing.T) {
	t.Parallel()
	doc := j("+++", "id = 12", `parent = "12"`, "+++", "id = 12 in the body")
	out, errs := Replace([]byte(doc), []Replacement{
		{Line: 2, Col: 1, Old: "12", New: "N-12"},
		{Line: 3, Col: 1, Old: "12", New: "N-12"},
		{Line: 5, Col: 1, Old: "12", New: "N-12"},
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("replacement %d: %v", i, err)
		}
	}
	if want := j("+++", `id = "N-12"`, `parent = "N-12"`, "+++", "id = N-12 in the body"); string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
