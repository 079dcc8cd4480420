package edit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// j joins lines with LF and ends the text with one.
func j(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// crlf turns LF text into CRLF text.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

const bom = "\xEF\xBB\xBF"

var editNow = time.Date(2025, 3, 1, 12, 30, 0, 0, time.UTC)

func TestSetUpdated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
		err            error // the reason it is left alone
	}{
		{name: "block date",
			in:   j("---", "id: A-1", "updated: 2025-01-06", "tags: [a, b]", "---", "# A"),
			want: j("---", "id: A-1", "updated: 2025-03-01", "tags: [a, b]", "---", "# A")},
		{name: "quotes and comment kept",
			in:   j("---", "updated: '2025-01-06'   # by hand", "---"),
			want: j("---", "updated: '2025-03-01'   # by hand", "---")},
		{name: "double quotes",
			in:   j("---", `updated: "2025-01-06"`, "---"),
			want: j("---", `updated: "2025-03-01"`, "---")},
		{name: "date-time keeps its layout",
			in:   j("---", "updated: 2025-01-06T08:00:00Z", "---"),
			want: j("---", "updated: 2025-03-01T12:30:00Z", "---")},
		{name: "empty value",
			in:   j("---", "id: A-1", "updated:", "---"),
			want: j("---", "id: A-1", "updated: 2025-03-01", "---")},
		{name: "the repository's own field (Backlog.md's updated_date, date and minutes)",
			in:   j("---", "id: BACK-1", "created_date: '2025-07-23'", "updated_date: '2025-09-06 21:22'", "---"),
			want: j("---", "id: BACK-1", "created_date: '2025-07-23'", "updated_date: '2025-03-01 12:30'", "---")},
		{name: "absent, beside Backlog.md's created_date: its updated_date, as created_date is written",
			in:   j("---", "id: BACK-1", "created_date: '2025-07-23 10:05'", "---"),
			want: j("---", "id: BACK-1", "created_date: '2025-07-23 10:05'", "updated_date: '2025-03-01 12:30'", "---")},
		{name: "absent, beside created_at",
			in:   j("---", "id: A-1", "created_at: 2025-01-06", "---"),
			want: j("---", "id: A-1", "created_at: 2025-01-06", "updated_at: 2025-03-01", "---")},
		{name: "a modified: that is no date is left alone",
			in:   j("---", "title: T", "modified: false", "---"),
			want: j("---", "title: T", "modified: false", "updated: 2025-03-01", "---")},
		{name: "Hugo's lastmod",
			in:   j("---", "title: T", "lastmod: 2025-01-06", "---"),
			want: j("---", "title: T", "lastmod: 2025-03-01", "---")},
		{name: "already today",
			in:   j("---", "updated: 2025-03-01", "---"),
			want: j("---", "updated: 2025-03-01", "---")},
		{name: "absent: after the last field",
			in:   j("---", "id: A-1", "links:", "  blocks:", "    - B-1", "", "---", "body"),
			want: j("---", "id: A-1", "links:", "  blocks:", "    - B-1", "updated: 2025-03-01", "", "---", "body")},
		{name: "CRLF and BOM",
			in:   bom + crlf(j("---", "id: A-1", "updated: 2025-01-06", "---", "body")),
			want: bom + crlf(j("---", "id: A-1", "updated: 2025-03-01", "---", "body"))},
		{name: "CRLF absent",
			in:   crlf(j("---", "id: A-1", "---")),
			want: crlf(j("---", "id: A-1", "updated: 2025-03-01", "---"))},
		{name: "TOML",
			in:   j("+++", "id = \"A-1\"", "updated = 2025-01-06", "+++"),
			want: j("+++", "id = \"A-1\"", "updated = 2025-03-01", "+++")},
		{name: "TOML absent goes before the first table",
			in:   j("+++", "id = \"A-1\"", "", "[links]", "blocks = [\"B-1\"]", "+++"),
			want: j("+++", "id = \"A-1\"", "updated = 2025-03-01", "", "[links]", "blocks = [\"B-1\"]", "+++")},
		{name: "no frontmatter", in: j("# A", "text"), want: j("# A", "text"), err: ErrNoFrontmatter},
		{name: "broken YAML", in: j("---", "id: [A", "updated: 2025-01-06", "---"), want: j("---", "id: [A", "updated: 2025-01-06", "---"), err: ErrBrokenFrontmatter},
		{name: "flow mapping", in: j("---", "{id: A-1, updated: 2025-01-06}", "---"), want: j("---", "{id: A-1, updated: 2025-01-06}", "---"), err: ErrFlowFrontmatter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := SetUpdated([]byte(tc.in), editNow)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
			if changed != (tc.in != tc.want) {
				t.Errorf("changed = %v", changed)
			}
		})
	}
}

func TestAddToList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{name: "flow",
			in:   j("---", "id: A-1", "decisions: [ADR-0001, ADR-0004]", "related: x", "---"),
			want: j("---", "id: A-1", "decisions: [ADR-0001, ADR-0004, ADR-0010]", "related: x", "---")},
		{name: "flow empty",
			in:   j("---", "decisions: []", "---"),
			want: j("---", "decisions: [ADR-0010]", "---")},
		{name: "flow empty with a space",
			in:   j("---", "decisions: [ ]  # none yet", "---"),
			want: j("---", "decisions: [ADR-0010]  # none yet", "---")},
		{name: "flow quoted",
			in:   j("---", `decisions: ["ADR-0001"]`, "---"),
			want: j("---", `decisions: ["ADR-0001", "ADR-0010"]`, "---")},
		{name: "flow over lines",
			in:   j("---", "decisions: [", "  ADR-0001,", "  ADR-0002", "]", "---"),
			want: j("---", "decisions: [", "  ADR-0001,", "  ADR-0002, ADR-0010", "]", "---")},
		{name: "flow trailing comma",
			in:   j("---", "decisions: [ADR-0001,]", "---"),
			want: j("---", "decisions: [ADR-0001, ADR-0010,]", "---")},
		{name: "block",
			in:   j("---", "decisions:", "  - ADR-0005", "links: {}", "---"),
			want: j("---", "decisions:", "  - ADR-0005", "  - ADR-0010", "links: {}", "---")},
		{name: "block unindented, last field",
			in:   j("---", "decisions:", "- ADR-0005", "---"),
			want: j("---", "decisions:", "- ADR-0005", "- ADR-0010", "---")},
		{name: "block quoted",
			in:   j("---", "decisions:", "  - 'ADR-0005'", "---"),
			want: j("---", "decisions:", "  - 'ADR-0005'", "  - 'ADR-0010'", "---")},
		{name: "null",
			in:   j("---", "decisions:", "owner: x", "---"),
			want: j("---", "decisions: [ADR-0010]", "owner: x", "---")},
		{name: "tilde",
			in:   j("---", "decisions: ~", "---"),
			want: j("---", "decisions: [ADR-0010]", "---")},
		{name: "scalar",
			in:   j("---", "decisions: ADR-0001", "---"),
			want: j("---", "decisions: [ADR-0001, ADR-0010]", "---")},
		{name: "absent",
			in:   j("---", "id: A-1", "---", "body"),
			want: j("---", "id: A-1", "decisions: [ADR-0010]", "---", "body")},
		{name: "already there",
			in:   j("---", "decisions: [adr-0010]", "---"),
			want: j("---", "decisions: [adr-0010]", "---")},
		{name: "TOML",
			in:   j("+++", `decisions = ["ADR-0001"]`, "+++"),
			want: j("+++", `decisions = ["ADR-0001", "ADR-0010"]`, "+++")},
		{name: "TOML absent",
			in:   j("+++", `id = "A-1"`, "+++"),
			want: j("+++", `id = "A-1"`, `decisions = ["ADR-0010"]`, "+++")},
		{name: "CRLF block with BOM",
			in:   bom + crlf(j("---", "decisions:", "  - ADR-0005", "---", "x")),
			want: bom + crlf(j("---", "decisions:", "  - ADR-0005", "  - ADR-0010", "---", "x"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := AddToList([]byte(tc.in), "decisions", "ADR-0010")
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
			if changed != (tc.in != tc.want) {
				t.Errorf("changed = %v", changed)
			}
		})
	}
	if _, _, err := AddToList([]byte(j("---", "decisions: {a: b}", "---")), "decisions", "ADR-0010"); err == nil {
		t.Error("a mapping was taken for a list")
	}
}

// A nested field (links.blocked_by) is edited where it is; one that is not
// there is not created, since where it belongs would be a guess.
func TestAddToListNested(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{name: "block mapping, empty flow list",
			in:   j("---", "id: B-1", "links:", "  relates: []", "  blocked_by: []", "  blocks: [C-1]", "---"),
			want: j("---", "id: B-1", "links:", "  relates: []", "  blocked_by: [A-1]", "  blocks: [C-1]", "---")},
		{name: "block mapping, block list",
			in:   j("---", "links:", "  blocked_by:", "    - X-1", "  blocks: []", "---"),
			want: j("---", "links:", "  blocked_by:", "    - X-1", "    - A-1", "  blocks: []", "---")},
		{name: "null nested field",
			in:   j("---", "links:", "  blocked_by:", "  blocks: []", "---"),
			want: j("---", "links:", "  blocked_by: [A-1]", "  blocks: []", "---")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := AddToList([]byte(tc.in), "links.blocked_by", "A-1")
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
		})
	}
	for _, in := range []string{
		j("---", "links:", "  relates: []", "---"),
		j("---", "id: B-1", "---"),
		j("---", "links: {blocked_by: [X-1]}", "---"),
	} {
		if out, _, err := AddToList([]byte(in), "links.blocked_by", "A-1"); err == nil && string(out) != in {
			t.Errorf("%q became %q; an absent or inline nested field is left alone", in, out)
		}
	}
}

// backlogNotes is Backlog.md's notes section as a tool writes it.
var backlogNotes = Section{Title: "Implementation Notes", Level: 2, Begin: "<!-- SECTION:NOTES:BEGIN -->", End: "<!-- SECTION:NOTES:END -->",
	After: []string{"Implementation Plan", "Definition of Done", "Acceptance Criteria", "Description"}, Before: []string{"Final Summary"}}

func TestAppendToSection(t *testing.T) {
	t.Parallel()
	const entry = "2025-03-01 12:30 [agent=codex] the retries never reset"
	const text = "the retries never reset"
	kano := j("---", "id: A-1", "---", "", "# Context", "", "Why.", "", "# Risks / Dependencies", "", "Blocks B-1.", "", "# Worklog", "", "2025-01-06 09:40 [agent=tom] Created.", "2025-01-24 13:00 [agent=codex] Merged.")
	for _, tc := range []struct {
		name, in, want string
		sec            Section
		edit           SectionEdit
	}{
		{name: "worklog: after the last line", sec: Worklog, in: kano,
			want: strings.TrimSuffix(kano, "\n") + "\n" + entry + "\n",
			edit: SectionEdit{Heading: "Worklog", Line: 17}},
		{name: "risks: a list item after the paragraph", sec: Risks, in: kano,
			want: strings.Replace(kano, "Blocks B-1.\n", "Blocks B-1.\n\n- "+entry+"\n", 1),
			edit: SectionEdit{Heading: "Risks / Dependencies", Line: 13}},
		{name: "decisions: created at the level of the sections, before the worklog that ends the item", sec: Decisions, in: kano,
			want: strings.Replace(kano, "# Worklog\n", "# Decisions\n\n- "+entry+"\n\n# Worklog\n", 1),
			edit: SectionEdit{Heading: "Decisions", Line: 15, Created: true}},
		{name: "a worklog that is not last is not passed", sec: Decisions,
			in:   j("# Context", "", "# Worklog", "", "old", "", "# Notes", "", "n"),
			want: j("# Context", "", "# Worklog", "", "old", "", "# Notes", "", "n", "", "# Decisions", "", "- "+entry),
			edit: SectionEdit{Heading: "Decisions", Line: 13, Created: true}},
		{name: "notes between a tool's markers: before the end marker, a paragraph of their own", sec: Section{Title: "Implementation Notes"},
			in:   j("## Description", "", "d", "", "## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "first note", "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
			want: j("## Description", "", "d", "", "## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "first note", "", entry, "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
			edit: SectionEdit{Heading: "Implementation Notes", Line: 10}},
		{name: "empty marked section", sec: Section{Title: "Implementation Notes"},
			in:   j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", "<!-- SECTION:NOTES:END -->"),
			want: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", entry, "<!-- SECTION:NOTES:END -->"),
			edit: SectionEdit{Heading: "Implementation Notes", Line: 4}},
		{name: "created after the section After names, with the markers", sec: backlogNotes,
			in:   j("---", "id: B-1", "---", "", "## Description", "", "d", "", "## Definition of Done", "<!-- DOD:BEGIN -->", "- [ ] #1 x", "<!-- DOD:END -->", "", "## Final Summary", "", "s"),
			want: j("---", "id: B-1", "---", "", "## Description", "", "d", "", "## Definition of Done", "<!-- DOD:BEGIN -->", "- [ ] #1 x", "<!-- DOD:END -->", "", "## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", entry, "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
			edit: SectionEdit{Heading: "Implementation Notes", Line: 17, Created: true}},
		{name: "created before the section Before names", sec: backlogNotes,
			in:   j("## Final Summary", "", "s"),
			want: j("## Implementation Notes", "", "<!-- SECTION:NOTES:BEGIN -->", entry, "<!-- SECTION:NOTES:END -->", "", "## Final Summary", "", "s"),
			edit: SectionEdit{Heading: "Implementation Notes", Line: 4, Created: true}},
		{name: "worklog created under a title", sec: Worklog,
			in:   j("# Title", "", "## Notes", "", "text"),
			want: j("# Title", "", "## Notes", "", "text", "", "## Worklog", "", entry),
			edit: SectionEdit{Heading: "Worklog", Line: 9, Created: true}},
		{name: "a lone Worklog heading is a section, not a title", sec: Risks,
			in:   j("# Worklog", "", "old"),
			want: j("# Risks", "", "- "+entry, "", "# Worklog", "", "old"),
			edit: SectionEdit{Heading: "Risks", Line: 3, Created: true}},
		{name: "a lone heading that is not the title is a section", sec: Worklog,
			in:   j("---", "title: Alpha", "---", "# Context", "", "text"),
			want: j("---", "title: Alpha", "---", "# Context", "", "text", "", "# Worklog", "", entry),
			edit: SectionEdit{Heading: "Worklog", Line: 10, Created: true}},
		{name: "the title heading", sec: Worklog,
			in:   j("---", "title: Alpha", "---", "# Alpha", "", "text"),
			want: j("---", "title: Alpha", "---", "# Alpha", "", "text", "", "## Worklog", "", entry),
			edit: SectionEdit{Heading: "Worklog", Line: 10, Created: true}},
		{name: "no headings, no final newline", sec: Worklog,
			in:   "---\nid: A-1\n---\ntext",
			want: j("---", "id: A-1", "---", "text", "", "# Worklog", "", entry),
			edit: SectionEdit{Heading: "Worklog", Line: 8, Created: true}},
		{name: "empty section followed by a heading", sec: Worklog,
			in:   j("# A", "## Worklog", "## Next"),
			want: j("# A", "## Worklog", "", entry, "", "## Next"),
			edit: SectionEdit{Heading: "Worklog", Line: 4}},
		{name: "empty section with a blank line", sec: Worklog,
			in:   j("# A", "## Worklog", "", "## Next"),
			want: j("# A", "## Worklog", "", entry, "", "## Next"),
			edit: SectionEdit{Heading: "Worklog", Line: 4}},
		{name: "a list worklog stays a list", sec: Worklog,
			in:   j("## Worklog", "", "* 2025-01-01 x", "  continued", "", "## Next", "y"),
			want: j("## Worklog", "", "* 2025-01-01 x", "  continued", "* "+entry, "", "## Next", "y"),
			edit: SectionEdit{Heading: "Worklog", Line: 5}},
		{name: "an ordered list counts on", sec: Findings,
			in:   j("## Findings", "1. one", "2. two"),
			want: j("## Findings", "1. one", "2. two", "3. "+entry),
			edit: SectionEdit{Heading: "Findings", Line: 4}},
		{name: "subsections belong to the section", sec: Worklog,
			in:   j("# A", "## Worklog", "### January", "x", "", "### February", "y", "", "## After", "z"),
			want: j("# A", "## Worklog", "### January", "x", "", "### February", "y", entry, "", "## After", "z"),
			edit: SectionEdit{Heading: "Worklog", Line: 8}},
		{name: "a table ends with a blank line first", sec: Worklog,
			in:   j("# Worklog", "| a | b |", "|---|---|", "| 1 | 2 |"),
			want: j("# Worklog", "| a | b |", "|---|---|", "| 1 | 2 |", "", entry),
			edit: SectionEdit{Heading: "Worklog", Line: 6}},
		{name: "setext heading", sec: Worklog,
			in:   j("Worklog", "=======", "", "old", "", "Other", "====="),
			want: j("Worklog", "=======", "", "old", entry, "", "Other", "====="),
			edit: SectionEdit{Heading: "Worklog", Line: 5}},
		{name: "already there", sec: Worklog,
			in:   j("# Worklog", "2025-02-01 10:00 [agent=x] the retries never   reset"),
			want: j("# Worklog", "2025-02-01 10:00 [agent=x] the retries never   reset"),
			edit: SectionEdit{Heading: "Worklog", Line: 2, Present: true}},
		{name: "CRLF and BOM", sec: Worklog,
			in:   bom + crlf(j("---", "id: A-1", "---", "# Worklog", "", "old line")),
			want: bom + crlf(j("---", "id: A-1", "---", "# Worklog", "", "old line", entry)),
			edit: SectionEdit{Heading: "Worklog", Line: 7}},
		{name: "CRLF without a final line ending, section created", sec: Risks,
			in:   bom + "# A\r\n\r\ntext",
			want: bom + "# A\r\n\r\ntext\r\n\r\n## Risks\r\n\r\n- " + entry + "\r\n",
			edit: SectionEdit{Heading: "Risks", Line: 7, Created: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, edit, err := AppendToSection([]byte(tc.in), tc.sec, entry, text)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
			if edit != tc.edit {
				t.Errorf("edit = %+v, want %+v", edit, tc.edit)
			}
		})
	}
}

func TestSplitLinesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "a\n", "a\r\nb", bom + "a\r\nb\r\n", "a\n\nb\r\n", "\n"} {
		if got := string(splitLines([]byte(s)).bytes()); got != s {
			t.Errorf("%q came back as %q", s, got)
		}
	}
}
