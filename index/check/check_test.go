package check

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestBadDate(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"2025-01-12":           "",
		"2025-01-12T10:00:00Z": "",
		"2024-02-29":           "",
		"2025-02-29":           "day 29 does not exist in that month",
		"2025-13-45":           "there is no month 13",
		"12.01.2025":           "the form is not YYYY-MM-DD",
		"2025-1-2":             "the form is not YYYY-MM-DD",
		// the times YAML, Jekyll and Hugo write after a date
		"2024-01-15 10:30:00 +0100": "",
		"2023-01-15 10:30:00":       "",
		"2023-01-15T10:30:00":       "",
		"2023-01-15 9:05":           "",
		"2023-01-15t10:30:00.25Z":   "",
		"2023-01-15 10:30:00 -7":    "",
		"2023-01-15 10:30:00-07:00": "",
		"2023-01-15 24:00":          "there is no time 24:00",
		"2023-01-15 10:61":          "there is no time 10:61",
		"2023-01-15 noon":           "the time after the date is not HH:MM[:SS] with an optional zone",
		"2023-02-30 10:00":          "day 30 does not exist in that month",
		"2023-01-15x10:00":          "the form is not YYYY-MM-DD",
		"2023-01-15T":               "the time after the date is not HH:MM[:SS] with an optional zone",
	}
	for in, want := range tests {
		if got := badDate(in); got != want {
			t.Errorf("badDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNearest(t *testing.T) {
	t.Parallel()
	allowed := []string{"Proposed", "InProgress", "Done"}
	for in, want := range map[string]string{"in progress": "InProgress", "in-progress": "InProgress", "DONE": "Done", "Doing": ""} {
		if got := nearest(in, allowed); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRelTo(t *testing.T) {
	t.Parallel()
	for _, tt := range [][3]string{
		{"notes/a.md", "items/task/B.md", "../items/task/B.md"},
		{"items/task/a.md", "items/task/B.md", "B.md"},
		{"a.md", "docs/x.md", "docs/x.md"},
		{"items/story/a.md", "items/task/B.md", "../task/B.md"},
	} {
		if got := relTo(tt[0], tt[1]); got != tt[2] {
			t.Errorf("relTo(%q, %q) = %q, want %q", tt[0], tt[1], got, tt[2])
		}
	}
}

func TestLineAnchors(t *testing.T) {
	t.Parallel()
	for a, want := range map[string]bool{"L10": true, "L10-L20": true, "L3C4": true, "Links": false, "L": false, "echo": false} {
		if isLineAnchor(a) != want {
			t.Errorf("isLineAnchor(%q) != %v", a, want)
		}
	}
}

func TestFormats(t *testing.T) {
	t.Parallel()
	fs := []Finding{{Path: "a,b.md", Line: 3, Col: 2, Severity: "error", Rule: "broken-link", Message: "50% done\nnext"}}
	var b strings.Builder
	WriteGitHub(&b, fs)
	if got := b.String(); got != "::error file=a%2Cb.md,line=3,col=2,title=canon broken-link::50%25 done%0Anext\n" {
		t.Errorf("github annotation = %q", got)
	}
	b.Reset()
	WriteText(&b, fs, 4)
	if !strings.HasSuffix(b.String(), "1 error, 0 warnings in 1 file (4 files checked)\n") {
		t.Errorf("summary = %q", b.String())
	}
	for id := range RuleHelp {
		if strings.TrimSpace(RuleHelp[id]) == "" {
			t.Errorf("rule %s has no description", id)
		}
	}
}

func TestIntroduced(t *testing.T) {
	t.Parallel()
	f := func(rule, doc, target string, line int) Finding {
		return Finding{Rule: rule, Doc: doc, Target: target, Line: line, Path: doc + ".md", Message: rule + " " + target}
	}
	before := []Finding{
		f("broken-link", "A", "x.md", 3),
		f("broken-link", "A", "x.md", 9),
		f("parent-kind", "A", "E-1 epic", 2),
		f("required-field", "B", "state", 1),
	}
	after := []Finding{
		f("broken-link", "A", "x.md", 5),     // moved down two lines: old
		f("broken-link", "A", "x.md", 11),    // old
		f("broken-link", "A", "x.md", 12),    // a third one: new
		f("parent-kind", "A", "E-1 epic", 4), // old
		f("broken-link", "A", "y.md", 6),     // another target: new
		f("required-field", "C", "state", 1), // another document: new
	}
	fresh, old := Introduced(before, after)
	var got []string
	for _, x := range fresh {
		got = append(got, fmt.Sprintf("%s %s %s %d", x.Doc, x.Rule, x.Target, x.Line))
	}
	want := []string{"A broken-link x.md 12", "A broken-link y.md 6", "C required-field state 1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("new %q, want %q", got, want)
	}
	if len(old) != 3 {
		t.Fatalf("%d old, want 3", len(old))
	}
}

func TestIDShaped(t *testing.T) {
	t.Parallel()
	for target, want := range map[string]bool{
		" B-1#":              true,
		" KB-TSK-0001#goal":  true,
		" kabsd-epic-0007#":  true,
		" nowhere#":          false,
		" 全文#":               false,
		" Design Notes#":     false,
		" v1.2-3#":           false,
		" KB-TSK-#":          false,
		" 2024-05-01 notes#": false,
	} {
		if got := idShaped(target); got != want {
			t.Errorf("idShaped(%q) = %v, want %v", target, got, want)
		}
	}
}
