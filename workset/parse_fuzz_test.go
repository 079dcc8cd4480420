package workset

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseNotes: whatever notes.md holds, the parser answers (no panic),
// each finding is one line of text on a line of the file, what it hides
// is counted by HiddenFindings, and a note the note tool appends after it
// is read back as it reads alone: no text before a note hides it
// (ADR-0033).
func FuzzParseNotes(f *testing.F) {
	for _, s := range [][2]string{
		{NotesHeader("w", nil), "the retries never reset"},
		{"- [A-1] one <!-- two\n", "decision: three"},
		{"<!--\n- [A-1] hidden\n-->\n", "x --> y <!-- z"},
		{"```\n- [A-1] code\n", "after a fence"},
		{"## A-1\n\nparagraph\n  - nested\n", "risk: <!-->"},
		{"- [[glossary|G]] term\n\terror: broke\n", "\x1b]52;c;eA==\a"},
		{"<!-- a -->\n~~~~\n```\n<!--\n", "-\u2028[B-2] forged"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, notes, note string) {
		lines := strings.Count(notes, "\n") + 1
		shown := ParseNotes(notes)
		starts := map[int]bool{}
		for _, fd := range shown {
			switch {
			case fd.Line < 1 || fd.Line > lines:
				t.Fatalf("finding on line %d of %d", fd.Line, lines)
			case fd.Text == "" || strings.ContainsAny(fd.Text, "\r\n"):
				t.Fatalf("finding text %q", fd.Text)
			case fd.Hash != FindingHash(fd.Target, fd.Kind, fd.Text):
				t.Fatalf("finding %+v: hash of something else", fd)
			}
			starts[fd.Line] = true
		}
		for _, fd := range HiddenFindings(notes, shown) {
			if starts[fd.Line] {
				t.Fatalf("hidden finding on line %d is also shown", fd.Line)
			}
		}
		text := uncommentable(flatten(note))
		if len(note) > MaxNote || text == "" {
			return
		}
		line := noteLine("A-1", "", text)
		alone := ParseNotes(line)
		if len(alone) != 1 {
			return // AppendNote refuses it: "a note needs text"
		}
		doc := notes
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		after := ParseNotes(doc + line + "\n")
		last := Finding{}
		if len(after) > 0 {
			last = after[len(after)-1]
		}
		want := alone[0]
		want.Line = strings.Count(doc, "\n") + 1
		if last != want {
			t.Fatalf("after %q the note %q reads as %+v, want %+v", notes, line, last, want)
		}
	})
}

// FuzzParseHandoff: whatever a hand-off file holds, ParseHandoff answers
// (no panic) with a valid name, and the files it carries come back the
// same when written into a hand-off file again.
func FuzzParseHandoff(f *testing.F) {
	var b bytes.Buffer
	b.WriteString("---\ncanon_workset: 1\nname: w\nhead: abc\nseeds: [A-1]\ncheckpoints: []\n---\n# Hand-off: w\n")
	carry(&b, PlanFile, []byte("# Plan\n- [ ] one\n"))
	carry(&b, NotesFile, []byte("- [A-1] ```` four\n```\n"))
	f.Add(b.Bytes())
	f.Add([]byte("---\ncanon_workset: 1\nname: w\n---\n<!-- canon:file notes.md -->\n```markdown\nnever closed\n"))
	f.Add([]byte("---\r\ncanon_workset: 1\r\nname: ../x\r\n---\r\n"))
	f.Add([]byte("---\ncanon_workset: 1\nname: w\ncheckpoints: [{seq: 1, head: '--output=x', members: [{key: k}]}]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ho, files, err := ParseHandoff(data)
		if err != nil {
			return
		}
		if err := ValidateName(ho.Name); err != nil {
			t.Fatalf("parsed a hand-off named %q: %v", ho.Name, err)
		}
		var again bytes.Buffer
		again.WriteString("---\ncanon_workset: 1\nname: w\n---\n")
		for _, name := range []string{PlanFile, NotesFile} {
			if body, ok := files[name]; ok {
				carry(&again, name, []byte(body))
			}
		}
		_, back, err := ParseHandoff(again.Bytes())
		if err != nil {
			t.Fatalf("the carried files do not read back: %v", err)
		}
		for name, body := range files {
			if back[name] != body {
				t.Fatalf("%s: carried %q, read back %q", name, body, back[name])
			}
		}
	})
}
