package workset

import (
	"reflect"
	"strings"
	"testing"
)

func TestSectionChanges(t *testing.T) {
	t.Parallel()
	old := "---\nid: A\n---\nIntro.\n\n# Goal\n\nShip it.\n\n## Risks\n\nNone.\n\n## Gone\n\nBye.\n"
	now := "---\nid: A\n---\nIntro, edited.\n\n# Goal\n\nShip it.\n\n## Risks\n\nSome.\n\n## New\n\nHello.\n"
	got := sectionChanges("a.md", []byte(old), "a.md", []byte(now))
	want := []SectionChange{
		{Slug: "", Heading: "", How: "changed"},
		{Slug: "risks", Heading: "Risks", How: "changed"},
		{Slug: "new", Heading: "New", How: "added"},
		{Slug: "gone", Heading: "Gone", How: "removed"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got := sectionChanges("a.md", []byte(now), "a.md", []byte(now)); len(got) != 0 {
		t.Errorf("no change reported %+v", got)
	}
}

func TestHandoffRoundTrip(t *testing.T) {
	t.Parallel()
	notes := "# Notes\n\n```go\nfmt.Println(\"a fence inside\")\n```\n\n- [T-1] decision: keep it\n"
	fence := strings.Repeat("`", longestRun(notes, '`')+1)
	doc := "---\ncanon_workset: 1\nname: login\nhead: 0123456789abcdef0123456789abcdef01234567\nexported_at: 2025-03-02T09:00:00Z\nseeds: [T-1]\ncheckpoints: []\n---\n# Hand-off: login\n\n" +
		"## notes.md\n\n" + fileMarker + "notes.md" + fileEnd + "\n" + fence + "markdown\n" + notes + fence + "\n"
	ho, files, err := ParseHandoff([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if ho.Name != "login" || !reflect.DeepEqual(ho.Seeds, []string{"T-1"}) {
		t.Errorf("frontmatter read as %+v", ho)
	}
	if files[NotesFile] != notes {
		t.Errorf("notes.md read as %q, want %q", files[NotesFile], notes)
	}
	for _, bad := range []struct{ doc, want string }{
		{"# no frontmatter\n", "does not start with --- frontmatter"},
		{"---\nname: x\n", "no closing ---"},
		{"---\ncanon_workset: 7\nname: x\n---\n", "canon_workset: 7"},
		{"---\ncanon_workset: 1\nname: ../x\n---\n", "names the workset"},
		{strings.Replace(doc, fence+"\n", "", 1)[:len(doc)-len(fence)-1], "cut short"},
	} {
		if _, _, err := ParseHandoff([]byte(bad.doc)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseHandoff(%q) = %v, want an error saying %q", bad.doc, err, bad.want)
		}
	}
}
