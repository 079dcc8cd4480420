package graph

import (
	"context"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/search"
)

func packOpts(query string, seeds ...string) PackOptions {
	o := OptionsFrom(config.DefaultContext())
	o.Query, o.Seeds = query, seeds
	return o
}

func entryIDs(p *Pack) []string {
	out := make([]string, len(p.Entries))
	for i, e := range p.Entries {
		out[i] = e.ID
	}
	return out
}

func TestPackWhy(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	p, err := f.g.Pack(ctx, packOpts("webhooks", "T3"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Entry{}
	for _, e := range p.Entries {
		byID[e.ID] = e
	}
	if e := p.Entries[0]; e.ID != "T3" || e.Why.Reason != ReasonSeed || e.Why.Source != SourceGiven || e.Rank != 1 {
		t.Fatalf("first entry = %+v; a given seed comes first", e)
	}
	adr := byID["ADR-1"]
	if adr.Why.Reason != ReasonSeed || adr.Why.Source != SourceSearch || adr.Why.BM25 == nil || !reflect.DeepEqual(adr.Why.Matched, []string{"webhooks"}) {
		t.Fatalf("ADR-1 why = %+v", adr.Why)
	}
	// T1 matches too, and is ADR-1's neighbour: it stays a seed.
	if w := byID["T1"].Why; w.Reason != ReasonSeed || w.Source != SourceSearch || w.Depth != 0 {
		t.Fatalf("T1 why = %+v", w)
	}
	if w := byID["S1"].Why; w.Reason != ReasonNeighbour || w.Edge != EdgeParent || w.Depth != 1 || w.FromID == "" {
		t.Fatalf("S1 why = %+v", w)
	}
	if w := byID["ADR-0"].Why; w.Edge != EdgeSupersedes || w.Direction != Out || w.FromID != "ADR-1" {
		t.Fatalf("ADR-0 why = %+v", w)
	}
	// A search seed quotes the section that matched.
	if xs := byID["T1"].Excerpts; len(xs) != 1 || xs[0].Slug != "goal" || xs[0].Line != 13 || !strings.Contains(xs[0].Text, "webhooks") {
		t.Fatalf("T1 excerpts = %+v", xs)
	}
	// A neighbour quotes its heaviest section (Decision weighs 1.5).
	if xs := byID["ADR-0"].Excerpts; len(xs) != 1 || xs[0].Slug != "decision" {
		t.Fatalf("ADR-0 excerpts = %+v", xs)
	}
	// After the given seed come the search's seeds, then the neighbours
	// by decreasing score.
	i := 1
	for i < len(p.Entries) && p.Entries[i].Why.Source == SourceSearch {
		i++
	}
	for i++; i < len(p.Entries); i++ {
		if p.Entries[i].Score > p.Entries[i-1].Score {
			t.Errorf("entry %d (%s, %v) outranks entry %d", i+1, p.Entries[i].ID, p.Entries[i].Score, i)
		}
	}
	if p.Truncated || len(p.Omitted) != 0 {
		t.Fatalf("a small pack was truncated: %+v", p.Omitted)
	}
}

func TestPackReranks(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	o := packOpts("", "T1")
	o.Weights.Kinds = map[string]float64{"adr": 5}
	p, err := f.g.Pack(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := entryIDs(p)[1]; got != "ADR-1" {
		t.Fatalf("with adr weighing 5, entry 2 is %s: %v", got, entryIDs(p))
	}
	o.Weights.Kinds = nil
	o.Weights.States = map[string]float64{"inprogress": 0}
	p, err = f.g.Pack(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	ids := entryIDs(p)
	if ids[len(ids)-1] != "T2" && ids[len(ids)-1] != "S1" {
		t.Fatalf("with InProgress weighing 0, the in-progress items come last: %v", ids)
	}
}

// TestPackLeadsWithSearch: a pack built from a question leads with the
// documents search ranks first, in the search's order, however the
// weights of kinds, states and sections would rank them (ADR-0047); the
// weights order what comes after.
func TestPackLeadsWithSearch(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	o := packOpts("how do we use webhooks?")
	o.Weights.Kinds = map[string]float64{"adr": 0.1}
	found, err := f.g.searchSeeds(ctx, o.Query, o.SearchSeeds, f.g.newGenFilter(o))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range found {
		want = append(want, s.ref.ID)
	}
	if len(want) < 2 || want[0] != "ADR-1" {
		t.Fatalf("search found %v; the test needs ADR-1 first and another", want)
	}
	p, err := f.g.Pack(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	got := entryIDs(p)
	if len(got) < len(want) || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("pack = %v; it leads with the search's %v", got, want)
	}
	for _, e := range p.Entries[len(want):] {
		if e.Why.Reason != ReasonNeighbour {
			t.Errorf("%s after the search's seeds is a %s", e.ID, e.Why.Reason)
		}
	}
}

// TestPackSeedsPastLongDocuments: a document matching in many sections
// does not crowd the documents after it out of the pack's seeds.
func TestPackSeedsPastLongDocuments(t *testing.T) {
	t.Parallel()
	var long strings.Builder
	long.WriteString("---\nid: LONG\ntitle: Webhooks retry\n---\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&long, "# Part %d\nThe webhooks retry, part %d.\n", i, i)
	}
	f := newFixture(t, map[string]string{
		"long.md":  long.String(),
		"short.md": "---\nid: SHORT\ntitle: Other\n---\n# Notes\nSome webhooks may retry, among many other things said here at length.\n",
	})
	o := packOpts("how do webhooks retry?")
	o.SearchSeeds = 2
	p, err := f.g.Pack(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string]bool{}
	for _, e := range p.Entries {
		if e.Why.Reason == ReasonSeed {
			seeds[e.ID] = true
		}
	}
	if !seeds["LONG"] || !seeds["SHORT"] {
		t.Fatalf("seeds %v; both documents match", entryIDs(p))
	}
}

func TestPackBudget(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	ctx := context.Background()
	full, err := f.g.Pack(ctx, packOpts("webhooks", "T3"))
	if err != nil {
		t.Fatal(err)
	}
	if full.Tokens <= 100 {
		t.Fatalf("full pack is only %d tokens", full.Tokens)
	}
	for _, budget := range []int{1, 20, 60, 100, full.Tokens - 1} {
		o := packOpts("webhooks", "T3")
		o.Budget = budget
		p, err := f.g.Pack(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Truncated || p.Tokens > budget {
			t.Errorf("budget %d: truncated %v, %d tokens", budget, p.Truncated, p.Tokens)
		}
		// What is kept is a prefix of the full pack, in the same order.
		if got, want := entryIDs(p), entryIDs(full)[:len(p.Entries)]; !reflect.DeepEqual(got, want) {
			t.Errorf("budget %d kept %v, not a prefix of %v", budget, got, entryIDs(full))
		}
		if len(p.Entries)+len(p.Omitted) != len(full.Entries) {
			t.Errorf("budget %d: %d kept + %d omitted != %d", budget, len(p.Entries), len(p.Omitted), len(full.Entries))
		}
		// Every entry's tokens are the estimate of what it renders to.
		sum := 0
		for _, e := range p.Entries {
			text := renderHead(&e, false)
			for _, x := range e.Excerpts {
				text += renderExcerpt(&x, false)
			}
			if Tokens(text) != e.Tokens {
				t.Errorf("budget %d: %s says %d tokens, renders to %d", budget, e.ID, e.Tokens, Tokens(text))
			}
			sum += e.Tokens
		}
		if sum != p.Tokens {
			t.Errorf("budget %d: entries sum to %d, pack says %d", budget, sum, p.Tokens)
		}
	}
	o := packOpts("webhooks", "T3")
	o.Budget = 1
	p, _ := f.g.Pack(ctx, o)
	if len(p.Entries) != 0 || len(p.Omitted) != len(full.Entries) {
		t.Fatalf("budget 1 kept %v", entryIDs(p))
	}
}

func TestPackCaps(t *testing.T) {
	t.Parallel()
	f := smallGraph(t)
	o := packOpts("", "T1")
	o.MaxNodes = 3
	p, err := f.g.Pack(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 3 || !p.NodeCapped {
		t.Fatalf("max_nodes 3 gave %v (capped %v)", entryIDs(p), p.NodeCapped)
	}
}

// TestPackDeterministic builds the same tree twice: once incrementally, in
// an order that gives rows other ids, once from nothing. Packs are equal,
// and equal when asked twice.
func TestPackDeterministic(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 30 {
		id := fmt.Sprintf("T%02d", i)
		extra := fmt.Sprintf("parent: E%d\n", i%3)
		if i > 0 {
			extra += fmt.Sprintf("links:\n  relates: [T%02d]\n", i-1)
		}
		// Identical bodies: bm25 ties everywhere, broken by key.
		files["items/"+id+".md"] = item(id, "Task", []string{"Ready", "Done", "InProgress"}[i%3], extra,
			"# Context\nThe webhook retry queue.\n# Goal\nRetry webhooks.\n# Worklog\nwebhook\n")
	}
	for i := range 3 {
		files[fmt.Sprintf("epics/E%d.md", i)] = item(fmt.Sprintf("E%d", i), "Epic", "InProgress", "", "# Goal\nAll the webhook work.\n")
	}
	opts := packOpts("webhook retry")
	opts.Depth, opts.Budget, opts.MaxNodes = 2, 1500, 25

	fresh := newFixture(t, files)
	a, err := fresh.g.Pack(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := fresh.g.Pack(context.Background(), opts)
	if packJSON(t, a) != packJSON(t, again) {
		t.Fatal("the same pack asked twice differs")
	}

	// Incremental: the files in reverse order, a few at a time.
	inc := newFixture(t, nil)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] > names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	for i, n := range names {
		inc.write(n, files[n])
		if i%7 == 0 {
			inc.reconcile()
		}
	}
	inc.reconcile()
	b, err := inc.g.Pack(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if packJSON(t, a) != packJSON(t, b) {
		t.Fatalf("incremental and fresh indexes give different packs:\n%s\n----\n%s", packJSON(t, a), packJSON(t, b))
	}
	if !a.Truncated && !a.NodeCapped {
		t.Fatal("the test pack should hit a bound")
	}
	var md1, md2 strings.Builder
	must.OK(t, a.WriteMarkdown(&md1), b.WriteMarkdown(&md2))
	if md1.String() != md2.String() {
		t.Fatal("Markdown differs")
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		max  int
		want string
		cut  bool
	}{
		{"short", 10, "short", false},
		{"one two three four", 12, "one two …", true},
		{"line one\nline two\nline three", 20, "line one\nline two …", true},
		{"intro\n```go\ncode line one\ncode line two\n```", 30, "intro\n```go\ncode line one …\n```", true},
		{"ääääää", 3, "äää …", true},
	}
	for _, tt := range tests {
		got, cut := clip(tt.in, tt.max)
		if got != tt.want || cut != tt.cut {
			t.Errorf("clip(%q, %d) = %q, %v; want %q, %v", tt.in, tt.max, got, cut, tt.want, tt.cut)
		}
	}
	if Tokens("") != 0 || Tokens("abcd") != 1 || Tokens("abcde") != 2 || Tokens("ääää") != 1 {
		t.Error("Tokens is not ceil(code points / 4)")
	}
}

// TestSearchTies checks the fast search path against the slow one: with
// many sections scoring the same, FTS5's row-id order must never decide.
func TestSearchTies(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("n/%02d.md", 19-i)] = fmt.Sprintf("---\nid: N%02d\n---\n# Same\nwebhook retry\n# Other\nwebhook\n", 19-i)
	}
	files["best.md"] = "---\nid: BEST\ntitle: webhook retry\n---\n# webhook\nwebhook retry webhook retry\n"
	f := newFixture(t, files)
	ctx := context.Background()
	q := "webhook retry"
	for _, n := range []int{1, 3, 8} {
		fast, err := f.g.searchSeeds(ctx, q, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := search.RankSections(ctx, f.g.st, q, n*4)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := f.g.groupHits(ctx, r, r.Matches, n)
		if err != nil {
			t.Fatal(err)
		}
		var a, b []string
		for _, s := range fast {
			a = append(a, fmt.Sprint(s.ref.ID, s.matched))
		}
		for _, s := range slow {
			b = append(b, fmt.Sprint(s.ref.ID, s.matched))
		}
		if !reflect.DeepEqual(a, b) || len(a) != n || fast[0].ref.ID != "BEST" {
			t.Errorf("n=%d: fast %v, slow %v", n, a, b)
		}
	}
}

// TestPackOptionsOfLeavesOutFixtures: packs leave out test fixtures'
// copies of documents (fixtures:) as they leave out templates.
func TestPackOptionsOfLeavesOutFixtures(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Templates = []string{"eip-template.md"}
	cfg.Fixtures = []string{"pkg/repo/testdata/**"}
	o := PackOptionsOf(cfg)
	if len(o.Templates) != 2 || o.Templates[0] != "eip-template.md" || o.Templates[1] != "pkg/repo/testdata/**" {
		t.Errorf("left out of packs: %v", o.Templates)
	}
	if len(cfg.Templates) != 1 {
		t.Errorf("the configuration's templates changed: %v", cfg.Templates)
	}
}
