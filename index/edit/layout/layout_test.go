package layout

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func notDone(string) bool { return false }

// TestLearnName: a file name or heading read as its id (or number) and
// title, then written for another.
func TestLearnName(t *testing.T) {
	forms := []titleForm{slugLower, slugUnderscore, slugCase, verbatim}
	for _, c := range []struct {
		stem, id, num, title          string
		newID, newNum, newTitle, want string
	}{
		{"back-636 - Fail-closed-on-ambiguous-draft-identities", "BACK-636", "636", "Fail closed on ambiguous draft identities",
			"BACK-700", "700", "Fix: the a/b <c> & more, 100% #1", "back-700 - Fix-the-a-b-c-more-100-1"},
		{"KB-TSK-0009_partial-refund-endpoint", "KB-TSK-0009", "9", "Partial refund endpoint in the payments API",
			"KB-TSK-0100", "100", "Retry webhooks", "KB-TSK-0100_retry-webhooks"},
		{"0001-record-architecture-decisions", "0001", "1", "Record architecture decisions",
			"0012", "12", "Use Go", "0012-use-go"},
		{"ADR-0007_use_sqlite", "ADR-0007", "7", "Use SQLite", "ADR-0010", "10", "Keep it small", "ADR-0010_keep_it_small"},
		{"KB-TSK-0001", "KB-TSK-0001", "1", "Something", "KB-TSK-0002", "2", "Other", "KB-TSK-0002"},
		// A slug cut short: the new one is cut at a word's end too.
		{"T-1_a-very-long-title-that", "T-1", "1", "A very long title that goes on", "T-2", "2", "Another rather long title here", "T-2_another-rather-long"},
	} {
		p, ok := learnName(c.stem, c.id, c.num, c.title, forms)
		if !ok {
			t.Errorf("%s: nothing learned", c.stem)
			continue
		}
		if got := p.write(c.newID, c.newNum, c.newTitle); got != c.want {
			t.Errorf("%s: wrote %q, want %q", c.stem, got, c.want)
		}
	}
	if _, ok := learnName("readme", "T-1", "1", "Other", forms); ok {
		t.Error("a name with neither id nor title was learned")
	}
}

func sampleOf(path, id, content string) Sample {
	return Sample{Path: path, ID: id, Content: []byte(content)}
}

// TestKanoBuckets: the folder of the number's bucket, the frontmatter in
// the newest's order and quotes, a shared value kept, references and
// varying values left out, lists emptied, dates of today.
func TestKanoBuckets(t *testing.T) {
	mk := func(id, num, state, prio, rel string) Sample {
		return sampleOf("items/task/0000/KB-TSK-"+num+"_x-"+num+".md", id, "---\nid: "+id+"\nuid: 0194\ntype: Task\ntitle: \"X "+num+"\"\nstate: "+state+
			"\npriority: "+prio+"\nparent: KB-FTR-0001\nowner: None\narea: payments\ntags: [a]\ncreated: 2025-01-13\nupdated: 2025-01-13\nlinks:\n  relates: ["+rel+"]\n  blocks: []\n---\n\n# Context\n\nText "+num+".\n\n# Worklog\n\n2025 created\n")
	}
	l, err := Learn([]Sample{mk("KB-TSK-0098", "0098", "Ready", "P1", "KB-TSK-0001"), mk("KB-TSK-0099", "0099", "Done", "P2", "")}, notDone)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Path("KB-TSK-0100", "Refunds by line"); got != "items/task/0100/KB-TSK-0100_refunds-by-line.md" {
		t.Errorf("path %s", got)
	}
	got, err := l.Compose(Item{ID: "KB-TSK-0100", Title: `Refunds: "by" line`, State: "Proposed", UID: "u-1", Now: now, Refs: map[string]bool{"relates": true, "parent": true}})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: KB-TSK-0100\nuid: u-1\ntype: Task\ntitle: \"Refunds: \\\"by\\\" line\"\nstate: Proposed\nowner: None\narea: payments\ntags: []\ncreated: 2026-11-28\nupdated: 2026-11-28\nlinks:\n  relates: []\n  blocks: []\n---\n\n# Context\n\n# Worklog\n"
	if string(got) != want {
		t.Errorf("composed:\n%s\nwant:\n%s", got, want)
	}
}

// TestBacklogMarkers: the description between its tool's markers, a
// shared definition of done unticked, a parent in the field the samples
// use, a block list as they write lists, the folder of the open items.
func TestBacklogMarkers(t *testing.T) {
	dod := "## Definition of Done\n<!-- DOD:BEGIN -->\n- [%s] #1 tests pass\n<!-- DOD:END -->\n"
	mk := func(path, id, status, tick, labels string) Sample {
		return sampleOf(path, id, "---\nid: "+id+"\ntitle: Title "+id+"\nstatus: "+status+"\nassignee: []\ncreated_date: '2026-11-01 10:00'\nlabels:"+labels+
			"\nparent_task_id: task-1\n---\n\n## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nD.\n<!-- SECTION:DESCRIPTION:END -->\n\n"+strings.Replace(dod, "%s", tick, 1))
	}
	done := func(s string) bool { return s == "Done" }
	l, err := Learn([]Sample{
		mk("backlog/tasks/task-2 - Title-task-2.md", "task-2", "To Do", " ", " []"),
		mk("backlog/tasks/task-3 - Title-task-3.md", "task-3", "To Do", " ", "\n  - api"),
		mk("backlog/completed/task-4 - T.md", "task-4", "Done", "x", " []"),
		mk("backlog/completed/task-5 - T.md", "task-5", "Done", "x", " []"),
		mk("backlog/completed/task-6 - T.md", "task-6", "Done", "x", " []"),
	}, done)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Path("task-7", "Retry it"); got != "backlog/tasks/task-7 - Retry-it.md" {
		t.Errorf("path %s", got)
	}
	got, err := l.Compose(Item{ID: "task-7", Title: "Retry: it", State: "To Do", Parent: "task-3", Body: "Why.\n", Now: now,
		Set: []Field{{"labels", "a"}, {"labels", "b: c"}}, ParentFields: map[string]bool{"parent_task_id": true}})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: task-7\ntitle: \"Retry: it\"\nstatus: To Do\nassignee: []\ncreated_date: '2026-11-28 12:00'\nlabels:\n  - a\n  - \"b: c\"\nparent_task_id: task-3\n---\n\n" +
		"## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nWhy.\n<!-- SECTION:DESCRIPTION:END -->\n\n" + strings.Replace(dod, "%s", " ", 1)
	if string(got) != want {
		t.Errorf("composed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRecordsWithoutFrontmatter: adr-tools' numbered heading and date
// line.
func TestRecordsWithoutFrontmatter(t *testing.T) {
	mk := func(n, title string) Sample {
		return sampleOf("doc/adr/000"+n+"-x.md", "000"+n, "# "+n+". "+title+"\n\nDate: 2018-02-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy "+n+".\n")
	}
	l, err := Learn([]Sample{mk("1", "X"), mk("2", "X")}, notDone)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Compose(Item{ID: "0003", Title: "Use Go", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if want := "# 3. Use Go\n\nDate: 2026-11-28\n\n## Status\n\nAccepted\n\n## Context\n"; string(got) != want {
		t.Errorf("composed:\n%q\nwant:\n%q", got, want)
	}
}

func TestTOMLRefused(t *testing.T) {
	_, err := Learn([]Sample{sampleOf("a/T-1.md", "T-1", "+++\nid = \"T-1\"\n+++\n")}, notDone)
	if !errors.Is(err, ErrFormat) {
		t.Errorf("err %v, want ErrFormat", err)
	}
	if _, err := Learn(nil, notDone); !errors.Is(err, ErrNoSample) {
		t.Errorf("err %v, want ErrNoSample", err)
	}
}

// TestFromTemplate: a placeholder in the frontmatter is a whole value,
// quoted as YAML needs; in the body it is the text; anything else is
// refused.
func TestFromTemplate(t *testing.T) {
	got, err := FromTemplate([]byte("---\nid: {{id}}\ntitle: '{{title}}'\nparent: {{parent}}\n---\n# {{id}}: {{title}}\n\n{{body}}\n"),
		Item{ID: "T-9", Title: "it's: here", Body: "B", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if want := "---\nid: T-9\ntitle: 'it''s: here'\nparent:\n---\n# T-9: it's: here\n\nB\n"; string(got) != want {
		t.Errorf("filled:\n%q\nwant:\n%q", got, want)
	}
	for _, bad := range []string{"---\ntitle: x {{title}}\n---\n", "---\nid: {{nope}}\n---\n", "{{nope}}\n"} {
		if _, err := FromTemplate([]byte(bad), Item{ID: "T-9", Title: "t", Now: now}); !errors.Is(err, ErrTemplate) {
			t.Errorf("%q: err %v, want ErrTemplate", bad, err)
		}
	}
}

// TestParentFieldAndState: with no sample writing a parent, the parent
// goes in the field the tool reads (Backlog.md's parent_task_id), a state
// left empty is never copied from the samples, though all share it, and
// with NoUpdated the date of the last change is left out (Backlog.md
// writes it at the first edit).
func TestParentFieldAndState(t *testing.T) {
	mk := func(n string) Sample {
		return sampleOf("backlog/tasks/back-"+n+" - Seed-"+n+".md", "BACK-"+n, "---\nid: BACK-"+n+"\ntitle: Seed "+n+"\nstatus: Done\nassignee: []\ncreated_date: '2026-11-01 10:00'\nupdated_date: '2026-11-02 10:00'\nlabels: []\n---\n")
	}
	l, err := Learn([]Sample{mk("1"), mk("2"), mk("3")}, notDone)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, want string }{{"parent_task_id", "parent_task_id: BACK-1\n"}, {"", "parent: BACK-1\n"}} {
		b, err := l.Compose(Item{ID: "BACK-4", Title: "New", Parent: "BACK-1", Now: now, ParentField: c.field, NoUpdated: c.field != ""})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "\n"+c.want) || strings.Contains(string(b), "status: Done") ||
			!strings.Contains(string(b), "created_date: '2026-11-28 12:00'\n") || strings.Contains(string(b), "updated_date") != (c.field == "") {
			t.Errorf("ParentField %q: want %q and no copied status:\n%s", c.field, c.want, b)
		}
	}
}

// TestNameOfOneFile: a name with the id and text that is not the title,
// different in each sample, is not copied to the new item; one the
// samples share (KB-USR-0001.md, ADR-0001-decision.md) is.
func TestNameOfOneFile(t *testing.T) {
	mk := func(n, name string) Sample {
		return sampleOf("stories/"+name+".md", "S-"+n, "---\nid: S-"+n+"\ntitle: Story "+n+"\n---\n")
	}
	for _, c := range []struct {
		samples []Sample
		want    string
	}{
		{[]Sample{mk("1", "S-1_seed-1"), mk("2", "S-2_seed-2"), mk("3", "S-3_seed-3")}, "stories/S-9.md"},
		{[]Sample{mk("1", "S-1"), mk("2", "S-2")}, "stories/S-9.md"},
		{[]Sample{mk("1", "S-1_decision"), mk("2", "S-2_decision")}, "stories/S-9_decision.md"},
		{[]Sample{mk("1", "S-1_story-1"), mk("2", "S-2_story-2")}, "stories/S-9_new-one.md"},
	} {
		l, err := Learn(c.samples, notDone)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Path("S-9", "New one"); got != c.want {
			t.Errorf("%s ...: %s, want %s", c.samples[0].Path, got, c.want)
		}
	}
}

// TestFileSafe: a title written verbatim into a file name makes one file
// name: no folder, no control character, no leading dot.
func TestFileSafe(t *testing.T) {
	for in, want := range map[string]string{
		"T-1 - ../../etc/passwd":     "T-1 - ..-..-etc-passwd",
		"T-2 - a/b\\c":               "T-2 - a-b-c",
		"..hidden":                   "hidden",
		"T-3 - tab\there":            "T-3 - tab-here",
		"task-4 - ":                  "task-4",
		"T-5 - what? \"quoted\" <x>": "T-5 - what- -quoted- -x",
	} {
		if got := fileSafe(in); got != want {
			t.Errorf("fileSafe(%q) = %q, want %q", in, got, want)
		}
	}
	l, err := Learn([]Sample{sampleOf("b/task-1 - One two.md", "task-1", "---\nid: task-1\ntitle: One two\n---\n")}, notDone)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Path("task-2", "a/../../b: c"); got != "b/task-2 - a-..-..-b- c.md" {
		t.Errorf("verbatim title path %q", got)
	}
}

// TestSetMatchesFieldsWithoutCase: --set Area=x on items that write
// area: sets that field, not a second one.
func TestSetMatchesFieldsWithoutCase(t *testing.T) {
	l, err := Learn([]Sample{sampleOf("b/T-1.md", "T-1", "---\nid: T-1\ntitle: One\narea: y\n---\n")}, notDone)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Compose(Item{ID: "T-2", Title: "Two", Now: now, Set: []Field{{"Area", "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "---\nid: T-2\ntitle: Two\narea: x\n---\n"; string(got) != want {
		t.Errorf("composed %q, want %q", got, want)
	}
}
