package edit

import (
	"fmt"
	"strings"
	"testing"
)

// TestDiffHunksSayWhereTheyStart: Diff's hunks say where they start in
// both files, so a patch tool applies them where they say, with no
// offset: two edits near each other (the context between them one hunk)
// and a section appended at the end, as canon done --log writes them
// (go-udiff said +29 for a hunk on line 31, and git apply moved it).
func TestDiffHunksSayWhereTheyStart(t *testing.T) {
	var before []string
	for i := 1; i <= 33; i++ {
		before = append(before, "line "+strings.Repeat("x", i%5))
	}
	after := append([]string{}, before...)
	after[3], after[6] = "status: Done", "updated: today"
	after = append(after, "", "## Worklog", "", "2026-11-28 12:00 done")
	b, a := strings.Join(before, "\n")+"\n", strings.Join(after, "\n")+"\n"
	diff := Diff([]*File{{Path: "t.md", Before: []byte(b), After: []byte(a)}})
	if !strings.Contains(diff, "@@ -31,3 +31,7 @@") {
		t.Errorf("the second hunk's header:\n%s", diff)
	}
	got, err := applyStrictly(before, diff)
	if err != nil {
		t.Fatalf("%v\n%s", err, diff)
	}
	if got != a {
		t.Fatalf("applied:\n%s\nwant:\n%s", got, a)
	}
}

// applyStrictly applies a unified diff of one file to its lines, each
// hunk exactly at the lines its header names in both files.
func applyStrictly(before []string, diff string) (string, error) {
	var out []string
	at := 0 // lines of before copied or consumed
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		var from, to int
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "):
		case strings.HasPrefix(l, "@@ "):
			_, plus, _ := strings.Cut(l, " +")
			if _, err := fmt.Sscanf(l, "@@ -%d", &from); err != nil {
				return "", err
			}
			if _, err := fmt.Sscanf(plus, "%d", &to); err != nil {
				return "", err
			}
			for at < from-1 {
				out = append(out, before[at])
				at++
			}
			if len(out) != to-1 {
				return "", fmt.Errorf("hunk %q starts on new line %d, not %d", l, len(out)+1, to)
			}
		case strings.HasPrefix(l, " "), strings.HasPrefix(l, "-"):
			if at >= len(before) || before[at] != l[1:] {
				return "", fmt.Errorf("line %d is not %q", at+1, l[1:])
			}
			if l[0] == ' ' {
				out = append(out, l[1:])
			}
			at++
		case strings.HasPrefix(l, "+"):
			out = append(out, l[1:])
		}
	}
	out = append(out, before[at:]...)
	return strings.Join(out, "\n") + "\n", nil
}
