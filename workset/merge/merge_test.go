package merge

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// gitLines is the LineMerge canon gives the driver: git merge-file on
// three files, here in a test folder.
func gitLines(t testing.TB) LineMerge {
	dir := t.TempDir()
	return func(base, ours, theirs []byte) ([]byte, bool, error) {
		names := []string{"ours", "base", "theirs"}
		for i, b := range [][]byte{ours, base, theirs} {
			if err := os.WriteFile(filepath.Join(dir, names[i]), b, 0o600); err != nil {
				return nil, false, err
			}
		}
		cmd := exec.Command("git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
		cmd.Dir = dir
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128 {
			return out, true, nil
		}
		return out, false, err
	}
}

func j(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestMerge(t *testing.T) {
	lm := gitLines(t)
	for _, tc := range []struct {
		name             string
		base, ours, thrs string
		want             string
		conflict         bool
		fallback         bool
	}{{
		name: "worklog appends on both sides, identical lines and a fence",
		base: j("---", "id: T-1", "---", "# T", "", "## Worklog", "", "- a", ""),
		ours: j("---", "id: T-1", "---", "# T", "", "## Worklog", "", "- a", "- same", "- ```sh", "  make", "  ```", ""),
		thrs: j("---", "id: T-1", "---", "# T", "", "## Worklog", "", "- a", "- same", "- ```sh", "  make", "  ```", ""),
		want: j("---", "id: T-1", "---", "# T", "", "## Worklog", "", "- a", "- same", "- ```sh", "  make", "  ```", "- same", "- ```sh", "  make", "  ```", ""),
	}, {
		name: "worklog in time order",
		base: j("## Worklog", "- 2026-01-01 a"),
		ours: j("## Worklog", "- 2026-01-01 a", "- 2026-01-03 ours"),
		thrs: j("## Worklog", "- 2026-01-01 a", "- 2026-01-02 theirs", "- 2026-01-04 theirs"),
		want: j("## Worklog", "- 2026-01-01 a", "- 2026-01-02 theirs", "- 2026-01-03 ours", "- 2026-01-04 theirs"),
	}, {
		name: "Kano's worklog lines, one entry each",
		base: j("# Worklog", "", "2023-01-15 15:44 [agent=a] opened."),
		ours: j("# Worklog", "", "2023-01-15 15:44 [agent=a] opened.", "2023-01-16 10:00 [agent=b] ours."),
		thrs: j("# Worklog", "", "2023-01-15 15:44 [agent=a] opened.", "2023-01-15 18:00 [agent=c] theirs."),
		want: j("# Worklog", "", "2023-01-15 15:44 [agent=a] opened.", "2023-01-15 18:00 [agent=c] theirs.", "2023-01-16 10:00 [agent=b] ours."),
	}, {
		name: "an append-only section inside another is left to the line merge",
		base: j("## Worklog", "- a", "### Log", "- b", "## End"),
		ours: j("## Worklog", "- a", "- a2", "### Log", "- b", "## End"),
		thrs: j("## Worklog", "- a", "### Log", "- b", "- b2", "## End"),
		want: j("## Worklog", "- a", "- a2", "### Log", "- b", "- b2", "## End"),
	}, {
		name: "paragraph entries and a table",
		base: j("## Worklog", "", "First."),
		ours: j("## Worklog", "", "First.", "", "| a | b |", "|---|---|", "| 1 | 2 |"),
		thrs: j("## Worklog", "", "First.", "", "Theirs", "goes on."),
		want: j("## Worklog", "", "First.", "", "| a | b |", "|---|---|", "| 1 | 2 |", "", "Theirs", "goes on."),
	}, {
		name: "blocks and decisions, both sides",
		base: j("---", "id: T-1", "blocks: [T-2]", "decisions:", "  - ADR-1", "---", "body"),
		ours: j("---", "id: T-1", "blocks: [T-2, T-3]", "decisions:", "  - ADR-1", "---", "body"),
		thrs: j("---", "id: T-1", "blocks: [T-2, 'T-4']", "decisions:", "  - ADR-1", "  - ADR-2", "---", "body"),
		want: j("---", "id: T-1", "blocks: [T-2, T-3, 'T-4']", "decisions:", "  - ADR-1", "  - ADR-2", "---", "body"),
	}, {
		name: "a set with a removal",
		base: j("---", "tags:", "  - a", "  - b", "---"),
		ours: j("---", "tags:", "  - a", "  - b", "  - c", "---"),
		thrs: j("---", "tags:", "  - b", "  - d", "---"),
		want: j("---", "tags:", "  - b", "  - c", "  - d", "---"),
	}, {
		name: "updated on both sides: the later date",
		base: j("---", "id: T-1", "updated: 2026-01-01", "---"),
		ours: j("---", "id: T-1", "updated: 2026-01-05", "---"),
		thrs: j("---", "id: T-1", "updated: 2026-01-03", "---"),
		want: j("---", "id: T-1", "updated: 2026-01-05", "---"),
	}, {
		name: "updated_date, quoted",
		base: j("---", "updated_date: '2026-01-01 10:00'", "---"),
		ours: j("---", "updated_date: '2026-01-01 11:00'", "---"),
		thrs: j("---", "updated_date: '2026-01-01 12:00'", "---"),
		want: j("---", "updated_date: '2026-01-01 12:00'", "---"),
	}, {
		name: "title one side, body the other",
		base: j("---", "title: A", "---", "text"),
		ours: j("---", "title: B", "---", "text"),
		thrs: j("---", "title: A", "---", "new text"),
		want: j("---", "title: B", "---", "new text"),
	}, {
		name: "a field each side adds",
		base: j("---", "id: T-1", "---"),
		ours: j("---", "id: T-1", "owner: me", "---"),
		thrs: j("---", "id: T-1", "status: done", "---"),
		want: j("---", "id: T-1", "owner: me", "status: done", "---"),
	}, {
		name:     "a scalar changed differently on both sides",
		base:     j("---", "status: open", "---"),
		ours:     j("---", "status: done", "---"),
		thrs:     j("---", "status: blocked", "---"),
		want:     j("---", "<<<<<<< ours", "status: done", "=======", "status: blocked", ">>>>>>> theirs", "---"),
		conflict: true,
	}, {
		name: "nested links",
		base: j("---", "links:", "  blocks: [A]", "  relates: [B]", "---"),
		ours: j("---", "links:", "  blocks: [A, C]", "  relates: [B]", "---"),
		thrs: j("---", "links:", "  blocks: [A, D]", "  relates: [B, E]", "---"),
		want: j("---", "links:", "  blocks: [A, C, D]", "  relates: [B, E]", "---"),
	}, {
		name:     "a frontmatter that does not parse falls back",
		base:     j("---", "id: T-1", "---", "a"),
		ours:     j("---", "id: [T-1", "---", "a"),
		thrs:     j("---", "id: T-1", "---", "b"),
		want:     j("---", "id: [T-1", "---", "b"),
		fallback: true,
	}, {
		name: "CRLF and a BOM kept",
		base: "\ufeff---\r\nid: T-1\r\n---\r\n## Worklog\r\n- a\r\n",
		ours: "\ufeff---\r\nid: T-1\r\n---\r\n## Worklog\r\n- a\r\n- b\r\n",
		thrs: "\ufeff---\r\nid: T-1\r\n---\r\n## Worklog\r\n- a\r\n- c\r\n",
		want: "\ufeff---\r\nid: T-1\r\n---\r\n## Worklog\r\n- a\r\n- b\r\n- c\r\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Merge([]byte(tc.base), []byte(tc.ours), []byte(tc.thrs), Options{Lines: lm, AppendOnly: []string{"Log"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Merged); got != tc.want {
				t.Errorf("merged:\n%s\nwant:\n%s", got, tc.want)
			}
			if res.Conflict != tc.conflict {
				t.Errorf("conflict = %v, want %v", res.Conflict, tc.conflict)
			}
			if (res.Fallback != "") != tc.fallback {
				t.Errorf("fallback = %q", res.Fallback)
			}
			// Either way round, the same document up to the order of
			// appended entries.
			if !tc.conflict && !tc.fallback {
				rev, err := Merge([]byte(tc.base), []byte(tc.thrs), []byte(tc.ours), Options{Lines: lm})
				if err != nil {
					t.Fatal(err)
				}
				if !sameLines(rev.Merged, res.Merged) {
					t.Errorf("theirs into ours differs:\n%s", rev.Merged)
				}
			}
		})
	}
}

var flowRE = regexp.MustCompile(`\[(.*)\]`)

// sameLines compares two texts as multisets of lines, the items of a flow
// list as a set.
func sameLines(a, b []byte) bool {
	count := map[string]int{}
	norm := func(l []byte) string {
		return flowRE.ReplaceAllStringFunc(string(l), func(s string) string {
			toks := strings.Split(s[1:len(s)-1], ",")
			for i := range toks {
				toks[i] = strings.Trim(strings.TrimSpace(toks[i]), `'"`)
			}
			sort.Strings(toks)
			return "[" + strings.Join(toks, ",") + "]"
		})
	}
	for _, l := range bytes.SplitAfter(a, []byte("\n")) {
		count[norm(l)]++
	}
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		count[norm(l)]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
