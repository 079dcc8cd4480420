package graph

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/generated"
)

// kanoGraph is a Kano-shaped backlog: a task with the usual sections, its
// feature, an ADR it names, a generated dashboard and an index stub that
// list the items, and a hand-written list of links with a marker.
func kanoGraph(t *testing.T) *fixture {
	task := "# Context\nWebhooks arrive twice.\n# Goal\nApply each webhook once.\n" +
		"# Approach\nKeep an inbox table keyed by event id.\n## Steps\nInsert, then apply.\n" +
		"# Acceptance Criteria\n- A replayed webhook changes nothing.\n" +
		"# Worklog\n" + strings.Repeat("2026-01-01 [agent=codex] worked on the inbox table.\n", 12)
	var list strings.Builder
	for _, id := range []string{"T1", "F1", "ADR-1"} {
		list.WriteString("- [[" + id + "|" + id + " title]] (state: Done)\n")
	}
	return newFixture(t, map[string]string{
		"f1.md":                            item("F1", "Feature", "InProgress", "", "# Goal\nExactly-once webhooks.\n# Worklog\nlong ago.\n"),
		"t1.md":                            item("T1", "Task", "InProgress", "parent: F1\ndecisions: [ADR-1]\n", task),
		"adr1.md":                          "---\nid: ADR-1\ntitle: Webhook inbox\nstatus: Accepted\n---\n# Context\nWebhooks repeat.\n# Decision\nAn inbox table.\n",
		"_kano/backlog/views/Dashboard.md": "# Active\n\n<!-- kano:build\nvcs.hash: 1\n-->\n\n" + list.String(),
		"f1.index.md":                      "---\ntype: Index\ntitle: F1 index\n---\n# MOC\n\n" + list.String(),
		"gen.md":                           "---\ngenerated: true\ntitle: Webhook report\n---\n# Webhooks\n\nSee [T1](t1.md).\n",
	})
}

func TestTaskPackQuotesEssentialSectionsFirst(t *testing.T) {
	t.Parallel()
	f := kanoGraph(t)
	opt := OptionsFrom(config.DefaultContext())
	opt.Budget = 240
	p, err := f.g.ScopedPack(context.Background(), ScopedArgs{For: "T1", Options: opt, Shares: config.DefaultContext().Scopes})
	if err != nil {
		t.Fatal(err)
	}
	if got := entryIDs(p); !reflect.DeepEqual(got, []string{"T1", "F1", "ADR-1"}) {
		t.Fatalf("entries = %v; the generated documents are no neighbours", got)
	}
	task := p.Entries[0]
	var heads []string
	for _, x := range task.Excerpts {
		heads = append(heads, x.Heading)
	}
	// Approach (with its Steps) and Acceptance Criteria, then the two
	// heaviest others (Goal, Context); the Worklog weighs least and did not
	// fit.
	if want := []string{"Context", "Goal", "Approach", "Acceptance Criteria"}; !reflect.DeepEqual(heads, want) {
		t.Fatalf("task quotes %v, want %v", heads, want)
	}
	if x := task.Excerpts[2]; !strings.Contains(x.Text, "## Steps\n\nInsert, then apply.") || x.EndLine != 16 {
		t.Fatalf("Approach quote = %+v; it takes in the sections under it", x)
	}
	// The ADR's decision came before the task's worklog.
	adr := p.Entries[2]
	if len(adr.Excerpts) == 0 || adr.Excerpts[len(adr.Excerpts)-1].Heading != "Decision" {
		t.Fatalf("ADR-1 quotes %+v", adr.Excerpts)
	}
	var reasons []string
	for _, o := range p.Omitted {
		reasons = append(reasons, o.Reason+":"+o.ID+":"+o.Section+o.Generated)
	}
	want := []string{"section_budget:T1:Worklog", "generated:Dashboard:kano_build", "generated:f1.index:path", "generated:gen:marker"}
	if !reflect.DeepEqual(reasons, want) {
		t.Fatalf("omitted = %v, want %v", reasons, want)
	}
	if p.Tokens > opt.Budget {
		t.Fatalf("%d tokens over the budget of %d", p.Tokens, opt.Budget)
	}

	// With a budget to spare, everything in reach is quoted, and the pack
	// says why the rest is unused.
	opt.Budget = 4000
	p, err = f.g.ScopedPack(context.Background(), ScopedArgs{For: "T1", Options: opt, Shares: config.DefaultContext().Scopes})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Entries[0].Excerpts); n != 5 {
		t.Fatalf("task quotes %d sections, want all 5", n)
	}
	if p.Unused == nil || p.Unused.Reason != UnusedAllQuoted || p.Unused.Tokens != opt.Budget-p.Tokens {
		t.Fatalf("unused = %+v", p.Unused)
	}
}

func TestGeneratedAreNoSeedsUnlessAsked(t *testing.T) {
	t.Parallel()
	f := kanoGraph(t)
	ctx := context.Background()
	opt := packOpts("webhook")
	p, err := f.g.Pack(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Entries {
		switch e.ID {
		case "Dashboard", "f1.index", "gen":
			t.Fatalf("generated %s is in the pack: %v", e.ID, entryIDs(p))
		}
	}
	gen := map[string]string{}
	for _, o := range p.Omitted {
		if o.Reason == ReasonGenerated {
			gen[o.ID] = o.Generated
		}
	}
	if gen["gen"] != generated.Marker {
		t.Fatalf("generated left out = %v", gen)
	}

	// context.exclude names more; include_generated brings them all back.
	opt.Exclude = []string{"adr*.md"}
	if p, err = f.g.Pack(ctx, opt); err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Entries {
		if e.ID == "ADR-1" {
			t.Fatalf("excluded ADR-1 is in the pack: %v", entryIDs(p))
		}
	}
	opt.Exclude, opt.IncludeGenerated = nil, true
	if p, err = f.g.Pack(ctx, opt); err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, e := range p.Entries {
		in[e.ID] = true
	}
	if !in["gen"] || !in["Dashboard"] {
		t.Fatalf("with include_generated: %v", entryIDs(p))
	}
	// A given seed is taken whatever it is.
	p, err = f.g.Pack(ctx, packOpts("", "f1.index"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Entries[0].ID != "f1.index" {
		t.Fatalf("given generated seed: %v", entryIDs(p))
	}
}

// TestADRQuotesItsDecision: a search seed that is an ADR quotes its
// decision even when the matched sections were others (log4brains' "why
// did we choose Lunr over Fuse.js": the title and the rejected option
// matched, not the Decision Outcome); other kinds quote what matched.
func TestADRQuotesItsDecision(t *testing.T) {
	cs := []index.Chunk{
		{ID: 1, Seq: 0, Slug: "use-lunr-for-search", Line: 1, EndLine: 6},
		{ID: 2, Seq: 1, Slug: "decision-outcome", Line: 23, EndLine: 26},
		{ID: 3, Seq: 2, Slug: "option-1-fusejs", Line: 29, EndLine: 36},
	}
	opt := PackOptions{Sections: 2, Weights: config.DefaultContext().Weights}
	for kind, want := range map[string][]string{"adr": {"use-lunr-for-search", "decision-outcome"}, "doc": {"use-lunr-for-search", "option-1-fusejs"}} {
		e := Entry{DocRef: index.DocRef{Kind: kind}, hits: []chunkHit{{id: 1}, {id: 3}}, found: 1}
		var got []string
		for _, c := range pickSections(e, append([]index.Chunk{}, cs...), opt, map[index.ChunkID]bool{}) {
			got = append(got, c.Slug)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s quotes %v, want %v", kind, got, want)
		}
	}
	// a related entry quotes its best matching section (one)
	e := Entry{DocRef: index.DocRef{Kind: "adr"}, hits: []chunkHit{{id: 3}}, Why: Why{Reason: ReasonRelated}}
	if got := pickSections(e, append([]index.Chunk{}, cs...), opt, map[index.ChunkID]bool{}); len(got) != 1 || got[0].Slug != "option-1-fusejs" {
		t.Errorf("a related ADR quotes %v, want its matching section", got)
	}
}
