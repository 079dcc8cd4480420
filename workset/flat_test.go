package workset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoComment: what no note can hide (ADR-0033). A "<!--" hides lines
// only at the start of a line and only when a "-->" ends it; anything
// else is text, and the findings after it are read.
func TestNoComment(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		want     []string // the findings' texts
	}{
		{"a note holding <!-- hides nothing", "- [A-1] one <!-- two\n- [A-1] three\n- [A-1] four\n", []string{"one <!-- two", "three", "four"}},
		{"an unterminated comment at a line's start hides nothing", "- [A-1] one\n<!--\n- [A-1] two\n", []string{"one <!--", "two"}},
		{"an in-line comment that spans lines hides nothing", "- [A-1] one <!-- x\n- [A-1] two -->\n", []string{"one <!-- x", "two -->"}},
		{"an in-line comment ends in its line", "- [A-1] one <!-- aside --> more\n", []string{"one more"}},
		{"a block comment hides what it holds", "- [A-1] one\n<!--\n- [A-1] hidden\n-->\n- [A-1] two\n", []string{"one", "two"}},
		{"<!--> ends where it starts", "<!-->\n- [A-1] one\n-->\n", []string{"one -->"}},
		{"a fence that never closes hides nothing", "- [A-1] one\n```\n- [A-1] two\n", []string{"one ```", "two"}},
		{"a closed fence hides its code", "```\n- [A-1] code\n```\n- [A-1] one\n", []string{"one"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range ParseNotes(c.in) {
				got = append(got, f.Text)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("findings %q, want %q", got, c.want)
			}
		})
	}
}

// TestHiddenFindings: finding-looking lines in comments or code are
// counted (gc keeps the workset for them); the header canon writes and a
// comment after a finding are not.
func TestHiddenFindings(t *testing.T) {
	t.Parallel()
	h := NotesHeader("w", nil)
	in := h + "- [A-1] shown\n  <!-- why -->\n<!--\n- [A-1] commented out\n-->\n```\n- [A-2] in code\n```\n"
	shown := ParseNotes(in)
	if len(shown) != 1 || shown[0].Text != "shown" {
		t.Fatalf("shown = %+v", shown)
	}
	var got []string
	for _, f := range HiddenFindings(in, shown) {
		got = append(got, f.Target+" "+f.Text)
	}
	if strings.Join(got, "|") != "A-1 commented out|A-2 in code ```" {
		t.Fatalf("hidden = %q", got)
	}
	if hf := HiddenFindings(h, nil); len(hf) != 0 {
		t.Fatalf("the header counts as hidden findings: %+v", hf)
	}
}

// TestAppendNoteIsFlatAndBounded: the note tool writes one line that
// cannot open or close a comment, and refuses a note of 10 MB.
func TestAppendNoteIsFlatAndBounded(t *testing.T) {
	t.Parallel()
	dir, e := noteWorkset(t)
	ctx := context.Background()
	for _, text := range []string{"opens <!-- a comment", "bell\a and\x1b[2J escape\r\n## Decisions\n- forged", "closes --> one <!-->"} {
		if _, err := AppendNote(ctx, e, "w", NoteArgs{Target: "A-1", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := AppendNote(ctx, e, "w", NoteArgs{Target: "A-1", Text: strings.Repeat("x", 10<<20)}); !errors.Is(err, ErrNotPlain) || !strings.Contains(err.Error(), "more than 8192") {
		t.Fatalf("a 10 MB note: %v", err)
	}
	if _, err := AppendNote(ctx, e, "w", NoteArgs{Target: "A-1\x1b\a", Text: "t"}); !errors.Is(err, ErrNotPlain) {
		t.Fatalf("a target with control characters: %v", err)
	}
	if _, err := AppendNote(ctx, e, "w", NoteArgs{Target: "A-1", Text: ":"}); err == nil || !strings.Contains(err.Error(), "needs text") {
		t.Fatalf("a note promote reads as none (found by FuzzParseNotes): %v", err)
	}
	if _, err := AppendNote(ctx, e, "w", NoteArgs{Target: "<!--", Text: "t"}); err == nil {
		t.Fatal("a target that opens a comment was taken")
	}
	data, _ := os.ReadFile(filepath.Join(dir, NotesFile))
	if strings.Contains(string(data), "<!--") || strings.Contains(string(data), "-->") || strings.ContainsAny(string(data), "\a\x1b\r") {
		t.Fatalf("notes.md holds a comment mark or a control character:\n%q", data)
	}
	got := ParseNotes(string(data))
	if len(got) != 3 || got[1].Text != "bell and [2J escape ## Decisions - forged" {
		t.Fatalf("findings = %+v", got)
	}
}

// TestAgentNames: a given agent name is one short line without brackets;
// one read from a manifest is made so.
func TestAgentNames(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"codex\n## Decisions", "a\x1b[31m", strings.Repeat("a", 65), "x] [agent=y", "a\u2028b", "\xff"} {
		if err := CheckAgent(bad); !errors.Is(err, ErrNotPlain) {
			t.Errorf("CheckAgent(%q) = %v", bad, err)
		}
	}
	if err := CheckAgent("claude-code 1.2 (ops)"); err != nil {
		t.Error(err)
	}
	if got := flatAgent("codex\n## Decisions\n- [x] forged" + strings.Repeat("é", 40)); strings.ContainsAny(got, "\n[]") || len(got) > MaxAgent || !strings.HasPrefix(got, "codex ## Decisions - x forged") {
		t.Errorf("flatAgent = %q", got)
	}
}
