package workset

import (
	"context"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/canon-md/canon/index"
)

func TestParseNotes(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"# Notes: fix",     // 1
		"",                 // 2
		"<!-- canon:notes", // 3
		"- [KB-TSK-0001] inside the header: ignored", // 4
		"## KB-TSK-0002", // 5
		"-->",            // 6
		"",               // 7
		"- [KB-TSK-0042] the retries never reset",                        // 8
		"  attempts after a success",                                     // 9
		"- [[ADR-0007|the ADR]] decision: keep the inbox table",          // 10
		"- [01JD3Q8Z6M2V9K4T7R5N1B0C8X]: RISK: alert during maintenance", // 11
		"- [ ] a checkbox of mine",                                       // 12
		"- [x] another",                                                  // 13
		"- [a link](x.md) is not a tag",                                  // 14
		"- plain item",                                                   // 15
		"A paragraph of my own.",                                         // 16
		"",                                                               // 17
		"## KB-TSK-0007 Retry webhooks",                                  // 18
		"- finding: the retry column is never reset",                     // 19
		"- the worker restarts cleanly",                                  // 20
		"  - nested detail joins it",                                     // 21
		"",                                                               // 22
		"A paragraph finding",                                            // 23
		"over two lines.",                                                // 24
		"- [KB-TSK-0005] tagged inside a section goes to its tag", // 25
		"```",                                 // 26
		"- [KB-TSK-0009] in a fence: ignored", // 27
		"```",                                 // 28
		"### Open questions",                  // 29
		"- not a finding",                     // 30
		"## 2025-03-01",                       // 31
		"- dates are not targets",             // 32
		"## [[checkout-runbook]]",             // 33
		"risk: the replay step is wrong",      // 34
		"#### items/task/a.md",                // 35
		"- by path",                           // 36
		"- [ ] my own checkbox, even in a section", // 37
	}, "\n")
	got := ParseNotes(in)
	want := []Finding{
		{Target: "KB-TSK-0042", Kind: KindWorklog, Text: "the retries never reset attempts after a success", Line: 8},
		{Target: "ADR-0007", Wiki: true, Kind: KindDecision, Text: "keep the inbox table", Line: 10},
		{Target: "01JD3Q8Z6M2V9K4T7R5N1B0C8X", Kind: KindRisk, Text: "alert during maintenance", Line: 11},
		{Target: "KB-TSK-0007", Kind: KindFinding, Text: "the retry column is never reset", Line: 19, Section: true},
		{Target: "KB-TSK-0007", Kind: KindWorklog, Text: "the worker restarts cleanly nested detail joins it", Line: 20, Section: true},
		{Target: "KB-TSK-0007", Kind: KindWorklog, Text: "A paragraph finding over two lines.", Line: 23, Section: true},
		{Target: "KB-TSK-0005", Kind: KindWorklog, Text: "tagged inside a section goes to its tag", Line: 25},
		{Target: "checkout-runbook", Wiki: true, Kind: KindRisk, Text: "the replay step is wrong", Line: 34, Section: true},
		{Target: "items/task/a.md", Kind: KindWorklog, Text: "by path", Line: 36, Section: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		want[i].Hash = FindingHash(want[i].Target, want[i].Kind, want[i].Text)
		if got[i] != want[i] {
			t.Errorf("finding %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestFindingHash(t *testing.T) {
	t.Parallel()
	a := FindingHash("KB-TSK-0042", KindWorklog, "the retries  never\nreset")
	if b := FindingHash("kb-tsk-0042 ", KindWorklog, "the retries never reset"); a != b {
		t.Error("case and whitespace changed the hash")
	}
	if b := FindingHash("KB-TSK-0042", KindRisk, "the retries never reset"); a == b {
		t.Error("the kind did not change the hash")
	}
	if b := FindingHash("KB-TSK-0042", KindWorklog, "the retries never reset!"); a == b {
		t.Error("the text did not change the hash")
	}
	// Moving a finding keeps its hash.
	one := ParseNotes("- [KB-TSK-0042] x y\n")
	two := ParseNotes("# Mine\n\nsome words\n\n## KB-TSK-0042\n\nx\ny\n")
	if len(one) != 1 || len(two) != 1 || one[0].Hash != two[0].Hash {
		t.Fatalf("moved finding changed hash: %+v %+v", one, two)
	}
}

func TestNotesHeaderHasNoFindings(t *testing.T) {
	t.Parallel()
	h := NotesHeader("fix", []index.DocRef{{ID: "KB-TSK-0007", Title: "Retry", Kind: "task"}, {ID: "ADR-0005", Kind: "adr"}})
	if !strings.HasPrefix(h, "# Notes: fix\n\n"+NotesMarker) {
		t.Fatalf("header starts %q", h[:40])
	}
	for _, want := range []string{"- [KB-TSK-0007] ", "- [[ADR-0005]] decision:", "## KB-TSK-0007\n"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks the example %q", want)
		}
	}
	if f := ParseNotes(h); len(f) != 0 {
		t.Fatalf("the header itself holds findings: %+v", f)
	}
	// Appending after the header works.
	if f := ParseNotes(h + "- [KB-TSK-0007] done\n"); len(f) != 1 || f[0].Line != strings.Count(h, "\n")+1 {
		t.Fatalf("findings after the header: %+v", f)
	}
}

// TestAppendNoteConcurrent: agents appending at once take turns; every
// note lands, and none is reported written that is not there.
func TestAppendNoteConcurrent(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir, err := Folder(root, "w")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DBFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e := &Env{Root: root}
	const writers, each = 6, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := AppendNote(context.Background(), e, "w", NoteArgs{Target: "KB-TSK-0001", Text: fmt.Sprintf("note %d-%d", w, i)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("append refused: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, NotesFile))
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		for i := range each {
			if line := fmt.Sprintf("- [KB-TSK-0001] note %d-%d\n", w, i); !strings.Contains(string(data), line) {
				t.Errorf("lost %q", line)
			}
		}
	}
}

// TestNoteTargetsReadBack: what the note tool appends is what promote
// reads, whatever the target (an id, a stem without digits, a path); by
// hand, a bracketed word ([follow-up], [n/a]) is no target.
func TestNoteTargetsReadBack(t *testing.T) {
	t.Parallel()
	dir, e := noteWorkset(t)
	targets := []string{"KB-TSK-0001", "glossary", "docs/notes/glossary.md", "checkout-runbook", "Runbook"}
	for _, tg := range targets {
		if _, err := AppendNote(context.Background(), e, "w", NoteArgs{Target: tg, Kind: "finding", Text: "about " + tg}); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, NotesFile))
	got := ParseNotes(string(data))
	if len(got) != len(targets) {
		t.Fatalf("%d findings read back from\n%s", len(got), data)
	}
	for i, f := range got {
		if f.Target != targets[i] || f.Kind != "finding" || f.Text != "about "+targets[i] {
			t.Errorf("finding %d = %+v, want target %q", i, f, targets[i])
		}
	}
	for tok, want := range map[string]bool{"checkout-runbook": false, "follow-up": false, "n/a": false, "KB-1": true, "WIP": false, "TODO": false, "-": false, "2025-01-02": false, "docs/a.md": true} {
		if refLike(tok) != want {
			t.Errorf("refLike(%q) = %v, want %v", tok, !want, want)
		}
	}
}

// TestErrorLineEndsAFinding: an error line appended under a finding is not
// part of its text (promote would write it, and the finding would count
// as new); resume reads it as an error line.
func TestErrorLineEndsAFinding(t *testing.T) {
	t.Parallel()
	got := ParseNotes("- [KB-TSK-0009] risk: sneaky kind in text\nerror: build broke\n- [KB-TSK-0009] finding: wrapped\n  over two lines\n")
	if len(got) != 2 || got[0].Text != "sneaky kind in text" || got[1].Text != "wrapped over two lines" {
		t.Fatalf("findings = %+v", got)
	}
	// Under a ## TARGET heading a paragraph reads as Markdown reads it:
	// nothing after a Failed: line is dropped.
	got = ParseNotes("## KB-TSK-0001\n\nFailed: first attempt\nThe root cause was the cache.\n")
	if len(got) != 1 || got[0].Text != "Failed: first attempt The root cause was the cache." {
		t.Fatalf("findings = %+v", got)
	}
}

// noteWorkset makes the folder of a workset "w" that the note tool writes
// to (an empty workset.db marks it one), and an Env on its repository.
func noteWorkset(t *testing.T) (string, *Env) {
	t.Helper()
	root := t.TempDir()
	dir, _ := Folder(root, "w")
	must.OK(t, os.MkdirAll(dir, 0o755))
	must.OK(t, os.WriteFile(filepath.Join(dir, DBFile), nil, 0o644))
	return dir, &Env{Root: root}
}
