package markdown

import (
	"fmt"
	"strings"
	"testing"
)

func TestKind(t *testing.T) {
	t.Parallel()
	kinds := map[string]string{"adr": "adr", "task": "task"}
	for _, tt := range []struct {
		typ, id, path, want string
	}{
		{"", "ADR-0004", "docs/decisions/ADR-0004_tokens.md", "adr"},
		{"", "KABSD-ADR-0010", "decisions/x.md", "adr"},
		{"", "", "docs/decisions/ADR-0004_tokens.md", "adr"},
		{"", "", "decisions/ADR-12.md", "adr"},
		{"", "", "decisions/adr_0003 title.md", "adr"},
		{"", "", "decisions/README.md", "doc"},
		{"", "", "decisions/ADR-0003-appendix_x.md", "doc"},
		{"", "", "decisions/ADR-0003_annex-costs.md", "doc"},
		{"", "", "decisions/index.md", "doc"},
		{"", "ADR-0003-APPENDIX", "decisions/ADR-0003-appendix.md", "doc"},
		{"", "NOTE-1", "decisions/ADR-0001_x.md", "doc"}, // an id that is not an ADR's decides
		{"", "", "notes/adresses.md", "doc"},
		{"Task", "ADR-0001", "x.md", "task"},
		// an id's prefix that names a kind (Backlog.md: task-12, no type)
		{"", "task-12", "backlog/tasks/task-12 - x.md", "task"},
		{"", "TASK-355.01", "backlog/tasks/task-355.01 - x.md", "task"},
		{"", "task-epic-11.2", "backlog/tasks/x.md", "doc"}, // two prefixes: none names a kind
		{"", "adr-12", "notes/x.md", "adr"},                 // an ADR's id, as before
		{"", "draft-3", "backlog/drafts/x.md", "doc"},
		{"Playbook", "", "decisions/ADR-0001.md", "Playbook"},
		// numbered records in a decisions folder (adr-tools, MADR)
		{"", "", "doc/adr/0001-record-architecture-decisions.md", "adr"},
		{"", "", "docs/decisions/0004-use-markdown.md", "adr"},
		{"", "", "docs/Architecture-Decisions/12_use-go.md", "adr"},
		{"", "", "docs/decisions/0000-template.md", "doc"},
		{"", "", "docs/decisions/0003-use-x-diagram.md", "adr"}, // a record about a diagram
		{"", "", "docs/adr/20200101-use-x.md", "adr"},
		{"", "", "docs/adr/2024-03-01-use-postgres.md", "adr"},
		{"", "", "docs/adr/0001.md", "doc"},            // a number alone names no decision
		{"", "", "text/0001-private-fields.md", "doc"}, // RFCs: not a decisions folder
		{"", "", "docs/adr/notes/0001-x.md", "doc"},    // the folder itself, not an ancestor
		{"", "NOTE-1", "doc/adr/0001-x.md", "doc"},
	} {
		if got := Kind(tt.typ, tt.id, tt.path, kinds); got != tt.want {
			t.Errorf("Kind(%q, %q, %q) = %q, want %q", tt.typ, tt.id, tt.path, got, tt.want)
		}
	}
}

func TestStatusSectionState(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ path, src, want string }{
		{"doc/adr/0001-x.md", "# 1. X\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n\n## Context\n\nY\n", "Accepted"},
		{"doc/adr/0002-y.md", "# 2. Y\n\n## Status\n\nSuperseded by [3. Z](0003-z.md)\n", "Superseded"},
		{"doc/adr/0003-z.md", "# 3. Z\n\n## Status\n\n**Proposed**.\n", "Proposed"},
		{"doc/adr/0004-w.md", "# 4. W\n\n## Status\n\nThis was discussed at length.\n", ""},
		{"doc/adr/0005-v.md", "# 5. V\n\n### Status\n\nAccepted\n", ""},                                    // nested: not the record's
		{"doc/adr/0006-u.md", "---\nstatus: Rejected\n---\n# 6. U\n\n## Status\n\nAccepted\n", "Rejected"}, // frontmatter wins
		{"notes/0001-x.md", "# X\n\n## Status\n\nAccepted\n", ""},
		{"docs/adr/0007-t.md", "# 7. T\n\n**Date**: 2026-01-21\n**Status**: Superseded by ADR-0031 (simpler)\n\n## Context\n\nX\n", "Superseded"},
		{"docs/adr/0008-s.md", "# S\n\n* Status: accepted\n* Deciders: A, B\n\n## Context\n\nX\n", "accepted"},
		{"docs/adr/0009-r.md", "# R\n\n## Context\n\nStatus: Accepted\n", ""}, // in the record's text, not its header
		{"docs/adr/0010-q.md", "# Q\n\nStatus: under review\n", ""},
		{"docs/adr/0011-p.md", "# P\n\nStatus: draft of the overview page\n", ""}, // prose, not a state
		{"docs/adr/0012-o.md", "# O\n\n**Status**: Accepted (goga, 2026-07-16)\n", "Accepted"},
		{"docs/adr/0013-n.md", "# N\n\nText.\n\n# Context\n\nstatus: deprecated\n", ""}, // the record's own section, at level 1
		{"docs/adr/0014-m.md", "Status: Proposed\n\n# M\n\nX\n", "Proposed"},
		{"docs/adr/0015-l.md", "# L\n\n**Status**: Accepted — implemented (shipped 0.61.0)\n", "Accepted"},
		{"docs/adr/0016-k.md", "# K\n\nStatus: Accepted on 2020-01-01\n", "Accepted"},
		{"docs/adr/0017-j.md", "# J\n\nStatus: Accepted 2020-01-01\n", "Accepted"},
		{"docs/adr/0018-i.md", "# I\n\nStatus: Accepted/Implemented\n", "Accepted"},
		{"docs/adr/0019-h.md", "# H\n\nStatus: Deprecated since v2\n", "Deprecated"},
		{"docs/adr/0020-g.md", "# G\n\n## Status\n\nAccepted<br>\n", "Accepted"}, // the preamble           // not a record
	} {
		d := Parse(tt.path, []byte(tt.src), &Options{})
		if d.State != tt.want {
			t.Errorf("%s: state %q, want %q", tt.path, d.State, tt.want)
		}
	}
}

func TestSplitRefs(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2718, 2930":              "2718|2930",
		"ADR-1,ADR-2":             "ADR-1|ADR-2",
		"KB-TSK-1, KB-1@0190":     "KB-TSK-1|KB-1@0190",
		"13.1,13.2":               "13.1|13.2",
		"Getting Started, Part 2": "Getting Started, Part 2", // a title
		"Tools, Libraries":        "Tools, Libraries",        // a title (Just the Docs' parent:)
		"../a,b.md":               "../a,b.md",               // a path
		"docs/a.md, KB-1":         "docs/a.md, KB-1",
		"1, ":                     "1, ",
		"KB-1":                    "KB-1",
		"a,\nb":                   "a,\nb",
	} {
		if got := strings.Join(SplitRefs(in), "|"); got != want {
			t.Errorf("SplitRefs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitRefColumns(t *testing.T) {
	t.Parallel()
	src := "---\nrelates: Ärger-9, ADR-1\nrequires: \"1,11\"\n---\n# X\n"
	d := Parse("x.md", []byte(src), &Options{Edges: map[string]string{"relates": "relates", "requires": "depends_on"}})
	var got []string
	for _, r := range d.Refs {
		got = append(got, fmt.Sprintf("%s@%d:%d", r.Raw, r.Line, r.Col))
	}
	// columns count code points; a quoted value starts after its quote
	if want := "Ärger-9@2:10 ADR-1@2:19 1@3:12 11@3:14"; strings.Join(got, " ") != want {
		t.Errorf("refs %q, want %q", strings.Join(got, " "), want)
	}
}
