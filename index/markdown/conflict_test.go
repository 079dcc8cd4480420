package markdown

import "testing"

func TestConflictMarkers(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
	}{
		{"a merge's markers", "# A\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n", 2},
		{"diff3 style, CRLF", "x\r\n<<<<<<< HEAD\r\na\r\n||||||| base\r\nc\r\n=======\r\nb\r\n>>>>>>> main\r\n", 2},
		{"inside a fence: an example", "```\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n```\n", 0},
		{"an opening line alone", "<<<<<<< not a conflict\ntext\n", 0},
		{"in the frontmatter", "---\n<<<<<<< ours\nid: A\n=======\nid: B\n>>>>>>> theirs\n---\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := conflictMarkers([]byte(tc.src)); got != tc.line {
				t.Errorf("line %d, want %d", got, tc.line)
			}
			d := Parse("a.md", []byte(tc.src), &Options{})
			found := false
			for _, p := range d.Problems {
				found = found || p.Rule == RuleConflict
			}
			if found != (tc.line > 0) {
				t.Errorf("problem reported: %v", found)
			}
		})
	}
}
