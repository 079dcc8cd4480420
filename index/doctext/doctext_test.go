package doctext

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/resolve"
)

// TestWriteShowsADocument: the frontmatter as YAML-like lines in source
// order (nested mappings indented, lists inline), each edge out with where
// it points or why it points nowhere, and the view's JSON is DocView's own.
func TestWriteShowsADocument(t *testing.T) {
	other := &index.DocRef{Key: "B-2", ID: "B-2", Title: "Second"}
	v := &index.DocView{
		DocRef:      index.DocRef{Key: "A-1", ID: "A-1", Path: "items/a.md", Kind: "task", Title: "First", State: "open"},
		Frontmatter: json.RawMessage(`{"id":"A-1","links":{"relates":["B-2","C-3"]},"n":3}`),
		Outgoing: []index.Edge{
			{Type: "relates", Field: "links.relates", Form: "ref", Raw: "B-2", Line: 3, Status: resolve.StatusOK, Other: other},
			{Type: "relates", Field: "links.relates", Form: "ref", Raw: "C-3", Line: 3, Status: "dangling"},
		},
	}
	var b strings.Builder
	if err := (View{v}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"A-1  First\n",
		"kind   task   state open\n",
		"  id: A-1\n  links:\n    relates: [B-2, C-3]\n  n: 3\n",
		"→ B-2  Second  (links.relates, line 3)",
		"✗ C-3  (dangling, links.relates, line 3)",
		"incoming\n  (none)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the text lacks %q:\n%s", want, got)
		}
	}
	j1, err := json.Marshal(View{v})
	if err != nil {
		t.Fatal(err)
	}
	j2, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(j1) != string(j2) {
		t.Errorf("View's JSON differs from DocView's:\n%s\n%s", j1, j2)
	}
}
