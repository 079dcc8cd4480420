package usecase

import (
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

// TestFixRefusesIDsReadAsOthers: check --fix does not write an id that
// canon would read back as other references, quoted or not (issue 41:
// "X-1, T-9" made an edge to T-9); an id YAML alone would misread is
// written quoted.
func TestFixRefusesIDsReadAsOthers(t *testing.T) {
	t.Parallel()
	doc := []byte("---\nid: B-1\nblocked_by: [C-1]\n---\n# B\n")
	for id, why := range map[string]string{
		"X-1, T-9":     "would be read as 2 references (X-1, T-9)",
		"X-1 #c":       `would be read as "X-1 " and an anchor`,
		"X-1@0190":     `would be read as the id "X-1" of a document whose uid starts with "0190"`,
		"[[X-1]]":      `would be read as a wiki-link to "X-1"`,
		"urn:x-1":      "would be read as a web address",
		"docs/x-1.png": "would be read as the path of a file that is not Markdown",
		// Read back by the index's reference reader: no reference at all.
		"null": "would be read as no reference",
		"~":    "would be read as no reference",
		"NULL": "would be read as no reference",
		"None": "would be read as no reference",
		"-":    "would be read as no reference",
		" X-1": `would be read as "X-1"`,
	} {
		f := index.Problem{Path: "items/a.md", Line: 4, Col: 10, Rule: "asymmetric-block", Fix: &index.Fix{Path: "items/b.md", Field: "blocked_by", Item: id}}
		out, fixed, skipped := applyFixes(doc, []index.Problem{f})
		if string(out) != string(doc) || len(fixed) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Why, why) || !strings.Contains(skipped[0].Why, "canon id rename") {
			t.Errorf("the id %q: %q, fixed %d, skipped %+v; want it refused: %s", id, out, len(fixed), skipped, why)
		}
	}
	f := index.Problem{Path: "items/a.md", Fix: &index.Fix{Path: "items/b.md", Field: "blocked_by", Item: "X-1]"}}
	if out, fixed, _ := applyFixes(doc, []index.Problem{f}); len(fixed) != 1 || !strings.Contains(string(out), `blocked_by: [C-1, "X-1]"]`) {
		t.Errorf("X-1]: %s", out)
	}
}
