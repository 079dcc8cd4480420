package merge

import (
	"strings"
	"testing"
)

// FuzzMerge: on any three inputs the driver never crashes, and never
// loses a line silently: a result without conflicts holds every line
// either side added (else it falls back to git merge-file, which keeps
// them), and a result it merged field by field keeps every value and
// comment either side wrote (checkKept, the tests' own oracle). The
// hostile sweep's inputs of issue 41 are seeds in testdata/fuzz. Run it
// with go test -fuzz FuzzMerge ./workset/merge.
func FuzzMerge(f *testing.F) {
	seeds := [][3]string{
		{j("---", "id: T-1", "tags: [a]", "---", "## Worklog", "- a"), j("---", "id: T-1", "tags: [a, b]", "---", "## Worklog", "- a", "- b"), j("---", "id: T-1", "tags: [c]", "---", "## Worklog", "- a", "- ```", "- c", "```")},
		{"---\r\nupdated: 2026-01-01\r\n---\r\nx\r\n", "---\r\nupdated: 2026-01-02\r\n---\r\nx\r\n", "\ufeff---\r\nupdated: 2026-01-03\r\n---\r\ny\r\n"},
		{j("---", "a:", "  b: [1]", "---"), j("---", "a:", "  b: [1, 2]", "---"), j("---", "a: {b: [3]}", "---")},
		{j("# W", "## Worklog", "", "para", "", "- x"), j("## Worklog", "para", "- y"), j("---", "id: [", "---")},
		{"", "---\n", "+++\na = 1\n+++\n"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2])
	}
	lm := gitLines(f)
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		if len(base)+len(ours)+len(theirs) > 1<<16 || strings.Contains(base+ours+theirs, "\x00") {
			return // git merge-file refuses a NUL: binary, an error of git's
		}
		res, err := Merge([]byte(base), []byte(ours), []byte(theirs), Options{Lines: lm, AppendOnly: []string{"Log"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Conflict {
			return
		}
		var sides [3]*side
		m := newMerger(Options{})
		for i, x := range []string{base, ours, theirs} {
			if sides[i], _ = m.read([]byte(x)); sides[i] == nil {
				return // unreadable: git merge-file merged it, which is git's own word
			}
		}
		if l := lostLine(sides, string(res.Merged)); l != "" {
			t.Fatalf("lost %q (fallback %q):\n%s", l, res.Fallback, res.Merged)
		}
		if res.Fallback != "" {
			return // git merge-file's own merge
		}
		if why := checkKept(base, ours, theirs, string(res.Merged)); why != "" {
			t.Fatalf("%s:\n%s", why, res.Merged)
		}
	})
}
