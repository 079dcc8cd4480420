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
		name: "Backlog.md's Implementation Notes: both sides' notes, before the end marker",
		base: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "First.", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
		ours: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "First.", "", "2026-01-03 10:00 ours", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
		thrs: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "First.", "", "2026-01-02 10:00 theirs", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
		want: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "First.", "", "2026-01-02 10:00 theirs", "", "2026-01-03 10:00 ours", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
	}, {
		name: "Backlog.md's notes keep the blank line it parts them by",
		base: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-01 10:00 one", "", "2026-01-01 11:00 two", "<!-- SECTION:NOTES:END -->"),
		ours: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-01 10:00 one", "", "2026-01-01 11:00 two", "", "2026-01-03 10:00 ours", "<!-- SECTION:NOTES:END -->"),
		thrs: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-01 10:00 one", "", "2026-01-01 11:00 two", "", "2026-01-02 10:00 theirs", "", "2026-01-04 10:00 theirs", "<!-- SECTION:NOTES:END -->"),
		want: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-01 10:00 one", "", "2026-01-01 11:00 two", "", "2026-01-02 10:00 theirs", "", "2026-01-03 10:00 ours", "", "2026-01-04 10:00 theirs", "<!-- SECTION:NOTES:END -->"),
	}, {
		name: "a Worklog's dated lines stay tight, both sides' last ones too",
		base: j("## Worklog", "", "2026-01-01 10:00 one", "2026-01-01 11:00 two"),
		ours: j("## Worklog", "", "2026-01-01 10:00 one", "2026-01-01 11:00 two", "2026-01-03 10:00 ours"),
		thrs: j("## Worklog", "", "2026-01-01 10:00 one", "2026-01-01 11:00 two", "2026-01-02 10:00 theirs"),
		want: j("## Worklog", "", "2026-01-01 10:00 one", "2026-01-01 11:00 two", "2026-01-02 10:00 theirs", "2026-01-03 10:00 ours"),
	}, {
		name: "an empty marked section filled on both sides",
		base: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "<!-- SECTION:NOTES:END -->"),
		ours: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-03 10:00 ours", "<!-- SECTION:NOTES:END -->"),
		thrs: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-02 10:00 theirs", "<!-- SECTION:NOTES:END -->"),
		want: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "2026-01-02 10:00 theirs", "", "2026-01-03 10:00 ours", "<!-- SECTION:NOTES:END -->"),
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

// TestMergeHostileValues are the hostile sweep's inputs (issue 41): a
// value with # in it, quotes, colons, comments between items and fields.
// A clean merge keeps each as its side wrote it; what no rule can place
// is a conflict or git merge-file's, never a silent change.
func TestMergeHostileValues(t *testing.T) {
	lm := gitLines(t)
	for _, tc := range []struct {
		name             string
		base, ours, thrs string
		want             string
		conflict         bool
	}{{
		name: "block items with # and the comment above them",
		base: j("---", "refs:", "  - a", "---"),
		ours: j("---", "refs:", "  - a", "  - b", "---"),
		thrs: j("---", "refs:", "  - a", "  # a comment theirs wrote", "  - https://example.com/spec#section-4.2", "  - issue#12", `  - "see # 3"`, "---"),
		want: j("---", "refs:", "  - a", "  - b", "  # a comment theirs wrote", "  - https://example.com/spec#section-4.2", "  - issue#12", `  - "see # 3"`, "---"),
	}, {
		name: "flow items with #, quotes and commas",
		base: j("---", "tags: [x]", "---"),
		ours: j("---", "tags: [x, y]", "---"),
		thrs: j("---", "tags: [x, 'd#e', \"b, c\", issue#12, \"see # 3\", 'it''s']", "---"),
		want: j("---", "tags: [x, y, 'd#e', \"b, c\", issue#12, \"see # 3\", 'it''s']", "---"),
	}, {
		name: "block items into a flow list",
		base: j("---", "tags: [x]", "---"),
		ours: j("---", "tags: [x, y]", "---"),
		thrs: j("---", "tags:", "  - x", "  - https://x.org/a#b", `  - "a: b"`, "---"),
		want: j("---", "tags: [x, y, https://x.org/a#b, \"a: b\"]", "---"),
	}, {
		name: "an escaped quote in a flow item",
		base: j("---", `tags: ["a\"", "b, c"]`, "---"),
		ours: j("---", `tags: ["a\"", "b, c", d]`, "---"),
		thrs: j("---", `tags: ["b, c"]`, "---"),
		want: j("---", `tags: ["b, c", d]`, "---"),
	}, {
		name: "an item's comment at the end of its line",
		base: j("---", "refs:", "  - a", "---"),
		ours: j("---", "refs:", "  - a", "  - b", "---"),
		thrs: j("---", "refs:", "  - a", "  - c # why c", "---"),
		want: j("---", "refs:", "  - a", "  - b", "  - c # why c", "---"),
	}, {
		name:     "an item's comment cannot go into a flow list",
		base:     j("---", "tags: [a]", "---"),
		ours:     j("---", "tags: [a, b]", "---"),
		thrs:     j("---", "tags:", "  - a", "  - c # why c", "---"),
		want:     j("---", "<<<<<<< ours", "tags: [a, b]", "=======", "tags:", "  - a", "  - c # why c", ">>>>>>> theirs", "---"),
		conflict: true,
	}, {
		name: "a comment line under the date both sides bumped",
		base: j("---", "updated: 2026-01-01", "status: open", "---"),
		ours: j("---", "updated: 2026-01-05", "status: open", "---"),
		thrs: j("---", "updated: 2026-01-03", "# bumped by the nightly job", "status: open", "---"),
		want: j("---", "updated: 2026-01-05", "# bumped by the nightly job", "status: open", "---"),
	}, {
		name: "a comment line under a field the other side changed",
		base: j("---", "status: open", "title: T", "---"),
		ours: j("---", "status: done", "title: T", "---"),
		thrs: j("---", "status: open", "# the title is provisional", "title: T", "---"),
		want: j("---", "status: done", "# the title is provisional", "title: T", "---"),
	}, {
		name: "a comment between items above an item ours removed stays",
		base: j("---", "refs:", "  - a", "  # about b", "  - b", "---"),
		ours: j("---", "refs:", "  - a", "  # about b", "  - b", "  - c", "---"),
		thrs: j("---", "refs:", "  - a", "  # about b", "---"),
		want: j("---", "refs:", "  - a", "  # about b", "  - c", "---"),
	}, {
		name:     "a comment theirs added above a base item has no place: git decides",
		base:     j("---", "refs:", "  - a", "  - b", "---"),
		ours:     j("---", "refs:", "  - a", "  - b", "  - c", "---"),
		thrs:     j("---", "refs:", "  - a", "  # b is the one", "  - b", "  - d", "---"),
		want:     j("---", "refs:", "  - a", "  # b is the one", "  - b", "<<<<<<< ours", "  - c", "=======", "  - d", ">>>>>>> theirs", "---"),
		conflict: true,
	}, {
		name: "a scalar with # and quotes on one side, a list on the other",
		base: j("---", "title: T", "tags: [a]", "---"),
		ours: j("---", `title: "T: the \"real\" one # 2"`, "tags: [a, b]", "---"),
		thrs: j("---", "title: T", "tags: [a, c#d]", "---"),
		want: j("---", `title: "T: the \"real\" one # 2"`, "tags: [a, b, c#d]", "---"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Merge([]byte(tc.base), []byte(tc.ours), []byte(tc.thrs), Options{Lines: lm})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Merged); got != tc.want {
				t.Errorf("merged:\n%s\nwant:\n%s", got, tc.want)
			}
			if res.Conflict != tc.conflict || res.Fallback != "" {
				t.Errorf("conflict = %v, fallback %q", res.Conflict, res.Fallback)
			}
			if !res.Conflict {
				if why := checkKept(tc.base, tc.ours, tc.thrs, string(res.Merged)); why != "" {
					t.Error(why)
				}
			}
		})
	}
}
