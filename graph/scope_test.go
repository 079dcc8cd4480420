package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

func scoped(key, scope, group string, paths, keywords []string) index.ScopedDoc {
	return index.ScopedDoc{DocRef: index.DocRef{Key: key, ID: key, Title: key}, Scope: scope, Group: group, Paths: paths, Keywords: keywords}
}

func TestSelectScoped(t *testing.T) {
	t.Parallel()
	d := &index.ScopeData{
		Task: index.ScopedTask{DocRef: index.DocRef{Key: "T"}, Group: "GA", Text: "Retry failed Webhook deliveries"},
		Groups: map[string]index.DocRef{
			"GA": {Key: "GA", ID: "ga"}, "GB": {Key: "GB", ID: "gb"}, "GC": {Key: "GC", ID: "gc"},
		},
		// ga → gb → gc, and ga → gc directly: gc is at distance 1.
		Edges: []index.GroupEdge{{From: "GA", To: "GB"}, {From: "GB", To: "GC"}, {From: "GA", To: "GC"}},
		Docs: []index.ScopedDoc{
			scoped("K-GLOBAL", "global", "", nil, nil),
			scoped("K-GLOBAL-REFUND", "global", "", nil, []string{"refund"}),
			scoped("K-GA", "group", "GA", nil, nil),
			scoped("K-GB", "group", "GB", nil, nil),
			scoped("K-GC", "group", "GC", nil, nil),
			scoped("K-GD", "group", "GD", nil, nil), // a group beside
			scoped("K-PATH", "path", "", []string{"src/pay/**"}, nil),
			scoped("K-PATH-KW", "path", "", []string{"src/**/hooks.go"}, []string{"callback", "webhook"}),
			scoped("K-PATH-KW-NO", "path", "", []string{"src/pay/**"}, []string{"indexing"}),
			scoped("K-TASK", "task", "", nil, nil),
			scoped("K-ODD", "sometimes", "", nil, nil), // a scope canon does not know
			scoped("T", "global", "", nil, nil),        // the task itself is never knowledge
		},
	}
	calls := 0
	got := SelectScoped(d, func() []string { calls++; return []string{"src/pay/hooks.go"} })
	var keys []string
	for _, c := range got {
		keys = append(keys, c.Key+" "+strings.Join(c.GroupPath, ">")+" "+strings.Join(c.Matched, ", "))
	}
	want := []string{
		"K-TASK  ",
		"K-GA ga ",
		"K-GB ga>gb ", // gb and gc are both one hop away: by key
		"K-GC ga>gc ",
		"K-GLOBAL  ",
		"K-PATH  path src/pay/** ~ src/pay/hooks.go",
		"K-PATH-KW  keyword webhook, path src/**/hooks.go ~ src/pay/hooks.go",
	}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
	if calls != 1 {
		t.Fatalf("task paths asked %d times, want once", calls)
	}
	// Declared paths: are used, and the commits are never asked.
	d.Task.Paths = []string{"docs/"}
	calls = 0
	for _, c := range SelectScoped(d, func() []string { calls++; return nil }) {
		if strings.HasPrefix(c.Key, "K-PATH") {
			t.Fatalf("%s matched docs/", c.Key)
		}
	}
	if calls != 0 {
		t.Fatal("commit paths asked although the task declares paths")
	}
	// No group: no group knowledge; a cycle in the edges is walked once.
	d.Task.Group = ""
	for _, c := range SelectScoped(d, nil) {
		if c.Scope == "group" {
			t.Fatalf("%s without a task group", c.Key)
		}
	}
	d.Task.Group = "GA"
	d.Edges = append(d.Edges, index.GroupEdge{From: "GC", To: "GA"})
	if n := len(SelectScoped(d, nil)); n == 0 {
		t.Fatal("a cycle lost the candidates")
	}
}

func TestPathMatches(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		glob, path string
		want       bool
	}{
		{"src/pay/**", "src/pay/hooks.go", true},
		{"src/pay/**", "src/pay/deep/a/b.go", true},
		{"src/pay/**", "src/search/a.go", false},
		{"src/**/hooks.go", "src/pay/hooks.go", true},
		{"*.md", "README.md", true},
		{"*.md", "docs/a.md", false},
		{"src/pay/**", "src/pay/", true},     // a folder the glob reaches into
		{"src/pay/*.go", "src/", true},       // a folder above it
		{"src/pay/**", "src/pay/*.go", true}, // a task path that is a glob
		{"src/pay/**", "docs/", false},
		{"./src/pay/**", "src/pay/x.go", true},
	} {
		if got := pathMatches(tt.glob, tt.path); got != tt.want {
			t.Errorf("pathMatches(%q, %q) = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}

func TestContainsWord(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text, word string
		want       bool
	}{
		{"Retry webhook deliveries", "webhook", true},
		{"Retry Webhook deliveries", "webhook", true},
		{"Retry webhooks", "webhook", false},
		{"the refund-flow", "refund", true},
		{"card payments", "card payments", true},
		{"ÅR-rapport", "år", true},
		{"a.b", "a.b", true},
	} {
		if got := containsWord(tt.text, tt.word); got != tt.want {
			t.Errorf("containsWord(%q, %q) = %v", tt.text, tt.word, got)
		}
	}
}

// fillScoped: each scope fills its share; what it leaves goes to the others
// in ScopeOrder; an entry that does not fit whole is listed, else omitted;
// entries are never cut.
func TestFillScoped(t *testing.T) {
	t.Parallel()
	entry := func(key, scope string, chars int) Entry {
		return Entry{DocRef: index.DocRef{Key: key, ID: key, Title: key, Kind: "doc", Path: key + ".md"}, Scope: scope, Section: scopeTitle(scope),
			Excerpts: []Excerpt{{Heading: "h", Line: 1, EndLine: 2, Text: strings.Repeat("x", chars)}}}
	}
	shares := config.Scopes{Global: 0.3, Group: 0.3, Task: 0.2, Path: 0.2}
	entries := []Entry{
		entry("T", "task", 100),
		entry("G1", "group", 100), entry("G2", "group", 100), entry("G3", "group", 100), entry("G4", "group", 1200),
		entry("GL1", "global", 100),
		// no path knowledge: its share goes to the others
	}
	p := &Pack{}
	fillScoped(p, entries, 400, shares)
	var in, listed, omitted []string
	for _, e := range p.Entries {
		in = append(in, e.Key)
	}
	for _, l := range p.Listed {
		listed = append(listed, l.Key)
	}
	for _, o := range p.Omitted {
		omitted = append(omitted, o.Key)
	}
	if want := []string{"T", "G1", "G2", "G3", "GL1"}; !reflect.DeepEqual(in, want) {
		t.Fatalf("entries %v, want %v (scopes %+v)", in, want, p.Scopes)
	}
	if want := []string{"G4"}; !reflect.DeepEqual(listed, want) || len(omitted) != 0 {
		t.Fatalf("listed %v omitted %v, want G4 listed", listed, omitted)
	}
	if p.Tokens > 400 {
		t.Fatalf("%d tokens over the budget of 400", p.Tokens)
	}
	if g := p.Scopes["group"]; g.Used <= g.Budget {
		t.Fatalf("the group scope did not take what path left: %+v", g)
	}
	for _, e := range p.Entries {
		if e.Excerpts[0].Cut {
			t.Fatalf("%s was cut", e.Key)
		}
	}
	// No budget: everything.
	p = &Pack{}
	fillScoped(p, entries, 0, shares)
	if len(p.Entries) != len(entries) || len(p.Listed) != 0 {
		t.Fatalf("unlimited: %d entries, %d listed", len(p.Entries), len(p.Listed))
	}
}
