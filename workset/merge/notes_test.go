package merge

import "testing"

// The sections canon log may write an item's dated lines in
// (edit.NoteHeading) merge as append-only without a word of
// configuration: a "Notes" section only while its entries are dated
// lines, since people write prose there too.
func TestMergeNoteSections(t *testing.T) {
	lm := gitLines(t)
	for _, tc := range []struct {
		heading    string
		base, ours string
		thrs, want string
		appendOnly bool
	}{
		{heading: "## Progress Log", appendOnly: true},
		{heading: "## Progress", appendOnly: true},
		{heading: "## Log", appendOnly: true},
		{heading: "## Journal:", appendOnly: true},
		{heading: "## Notes", appendOnly: true},
		{heading: "## Implementation Notes", appendOnly: true},
		{heading: "## Worklog", appendOnly: true},
		{heading: "## Notes", base: "- no date on this one", appendOnly: false},
		{heading: "## Summary", appendOnly: false},
	} {
		base := tc.base
		if base == "" {
			base = "- 2026-01-01 10:00 opened"
		}
		b := j("# T", "", tc.heading, "", base, "", "## Other", "", "text")
		o := j("# T", "", tc.heading, "", base, "- 2026-01-03 10:00 ours", "", "## Other", "", "text")
		th := j("# T", "", tc.heading, "", base, "- 2026-01-02 10:00 theirs", "", "## Other", "", "text")
		res, err := Merge([]byte(b), []byte(o), []byte(th), Options{Lines: lm})
		if err != nil {
			t.Fatal(err)
		}
		merged := len(res.Sections) > 0
		if merged != tc.appendOnly {
			t.Errorf("%s over %q: merged as append-only %v (%v), want %v", tc.heading, base, merged, res.Sections, tc.appendOnly)
			continue
		}
		if !tc.appendOnly {
			continue
		}
		want := j("# T", "", tc.heading, "", base, "- 2026-01-02 10:00 theirs", "- 2026-01-03 10:00 ours", "", "## Other", "", "text")
		if res.Conflict || string(res.Merged) != want {
			t.Errorf("%s: conflict %v, merged:\n%s\nwant:\n%s", tc.heading, res.Conflict, res.Merged, want)
		}
	}
}
