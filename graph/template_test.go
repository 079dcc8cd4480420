package graph

import (
	"context"
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/canon-md/canon/index/config"
)

func TestBuiltinTemplatesValid(t *testing.T) {
	t.Parallel()
	lib, err := LoadLibrary(Builtin(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := lib.Names()
	if want := []string{"architecture-context", "blocked-work", "recent-decisions", "task-context", "workflow-resume"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("built-ins = %v, want %v", names, want)
	}
	for _, n := range names {
		tpl, err := lib.Resolve(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if errs := tpl.Validate(); len(errs) > 0 {
			t.Errorf("%s: %v", n, errs)
		}
		if tpl.Description == "" || len(tpl.Query.Anchors) == 0 {
			t.Errorf("%s has no description or no anchors", n)
		}
	}
	rd, _ := lib.Resolve("recent-decisions")
	if rd.Query.Expansion == nil || len(rd.Query.Expansion.EdgeTypes) == 0 || rd.Output.Sections[0].SortBy != "date" {
		t.Errorf("recent-decisions did not inherit from architecture-context: %+v", rd)
	}
}

func TestParseTemplate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stem, yaml, err string
	}{
		{"ok", "mine", "name: mine\nquery:\n  anchors: [{type: task}]\n", ""},
		{"name from file", "mine", "query:\n  anchors: [{type: task}]\n", ""},
		{"unknown key", "mine", "name: mine\nquery:\n  anchor: []\n", `mine.yaml:3: unknown key "anchor"`},
		{"unknown anchor key", "mine", "query:\n  anchors:\n    - {type: task, colour: red}\n", `unknown key "colour"`},
		{"name mismatch", "mine", "name: yours\n", "does not match the file name mine.yaml"},
		{"bad name", "Bad Name", "query: {}\n", "use lower-case letters"},
		{"syntax", "mine", "query: [\n", "mine.yaml:"},
		{"empty", "mine", "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTemplate(".canon/queries/"+tt.stem+".yaml", tt.stem, []byte(tt.yaml))
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var te *TemplateError
			if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want a TemplateError containing %q", err, tt.err)
			}
		})
	}
}

func TestValidateTemplate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml string
		errs       []string
	}{
		{"valid", `
query:
  anchors:
    - {type: task, filter: "state IN ('Ready')", sort_by: priority, order: asc, limit: 5}
    - {search: "webhook retry"}
    - {recent: 2w}
  expansion: {depth: 2, edge_types: [parent], exclude_types: [doc], direction: out, max_per_node: 3}
  filters: ["state != 'Dropped'"]
  budget: {max_nodes: 10, max_tokens: 500}
output:
  format: json
  sections: [{name: A, node_types: [task], filter: "priority = 'P0'", sort_by: updated, order: desc, limit: 3}, {name: B}]
`, nil},
		{"injection in a filter", `query: {filters: ["state = 'x'; DROP TABLE docs"]}`, []string{"query.filters[0]: filter", "';' is not allowed"}},
		{"function in an anchor", `query: {anchors: [{filter: "lower(state) = 'x'"}]}`, []string{"query.anchors[0].filter", "unknown function lower"}},
		{"empty anchor", `query: {anchors: [{limit: 3}]}`, []string{"selects nothing"}},
		{"search mixed", `query: {anchors: [{search: x, type: task}]}`, []string{"search is an anchor of its own"}},
		{"bad values", `
query:
  anchors: [{recent: soon, sort_by: "a b", order: up, limit: -1}]
  expansion: {depth: 9, direction: sideways, max_per_node: -1}
  budget: {max_nodes: 0, max_tokens: 0}
output:
  format: html
  sections: [{name: A, sort_by: "x;y", order: random}, {name: A}, {name: ""}]
`, []string{"not an age", "sort_by \"a b\"", "order \"up\"", "limit is negative", "depth 9", "sideways", "max_per_node is negative",
			"max_nodes must be", "max_tokens must be", "format \"html\"", "sort_by \"x;y\"", "order \"random\"", "used twice", "has no name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := ParseTemplate("t.yaml", "t", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, e := range tpl.Validate() {
				msgs = append(msgs, e.Error())
			}
			all := strings.Join(msgs, "\n")
			if len(tt.errs) == 0 && len(msgs) > 0 {
				t.Fatalf("unexpected errors:\n%s", all)
			}
			for _, want := range tt.errs {
				if !strings.Contains(all, want) {
					t.Errorf("errors do not mention %q:\n%s", want, all)
				}
			}
		})
	}
}

func TestLibraryOverrideAndExtends(t *testing.T) {
	t.Parallel()
	repo := fstest.MapFS{
		"task-context.yaml": {Data: []byte("description: ours\nquery:\n  anchors: [{id: T1}]\n")},
		"base.yaml":         {Data: []byte("query:\n  filters: [\"state != 'Dropped'\"]\n  expansion: {depth: 1, edge_types: [parent]}\n  budget: {max_tokens: 900}\n")},
		"child.yaml":        {Data: []byte("extends: base\nquery:\n  anchors: [{type: task}]\n  filters: [\"kind = 'task'\"]\n  expansion: {depth: 2}\n")},
		"loop-a.yaml":       {Data: []byte("extends: loop-b\n")},
		"loop-b.yaml":       {Data: []byte("extends: loop-a\n")},
		"orphan.yaml":       {Data: []byte("extends: nowhere\n")},
		"broken.yaml":       {Data: []byte("query: {nope: 1}\n")},
	}
	lib, err := LoadLibrary(Builtin(), repo)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := lib.Resolve("task-context")
	if err != nil || tc.Source != ".canon/queries/task-context.yaml" || tc.Description != "ours" {
		t.Fatalf("the repository's task-context does not replace the built-in: %+v, %v", tc, err)
	}
	child, err := lib.Resolve("child")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(child.Query.Filters, []string{"state != 'Dropped'", "kind = 'task'"}) {
		t.Errorf("filters = %v; they add up, the parent's first", child.Query.Filters)
	}
	if e := child.Query.Expansion; *e.Depth != 2 || !reflect.DeepEqual(e.EdgeTypes, []string{"parent"}) || *child.Query.Budget.MaxTokens != 900 {
		t.Errorf("expansion = %+v", e)
	}
	if _, err := lib.Resolve("loop-a"); err == nil || !strings.Contains(err.Error(), "circle") {
		t.Errorf("loop: %v", err)
	}
	if _, err := lib.Resolve("orphan"); err == nil || !strings.Contains(err.Error(), `extends "nowhere"`) {
		t.Errorf("orphan: %v", err)
	}
	if _, err := lib.Resolve("broken"); err == nil || !strings.Contains(err.Error(), `unknown key "nope"`) {
		t.Errorf("broken: %v", err)
	}
	if got := lib.Names(); len(got) != 11 {
		t.Errorf("names = %v", got)
	}
}

func TestRunTemplate(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]string{
		"t1.md":   item("T1", "Task", "Ready", "priority: P0\nupdated: 2025-02-20\ndecisions: [ADR-1]\nparent: S1\n", "# Goal\nGo.\n"),
		"t2.md":   item("T2", "Task", "InProgress", "priority: P1\nupdated: 2024-01-01\nparent: S1\n", "# Goal\nGo on.\n"),
		"t3.md":   item("T3", "Task", "Dropped", "priority: P0\nparent: S1\n", "# Goal\nNever.\n"),
		"t4.md":   item("T4", "Task", "Ready", "priority: P3\ntags: [webhooks]\n", "# Goal\nLow.\n"),
		"s1.md":   item("S1", "Story", "Ready", "", "# Goal\nStory.\n"),
		"adr1.md": "---\nid: ADR-1\ntitle: A decision\nstatus: Accepted\ndate: 2025-02-01\n---\n# Decision\nYes.\n",
		"adr2.md": "---\nid: ADR-2\ntitle: An old one\nstatus: Accepted\ndate: 2023-02-01\n---\n# Decision\nNo.\n",
	})
	ctx := context.Background()
	run := func(yaml string, ro RunOptions) *Pack {
		t.Helper()
		tpl, err := ParseTemplate("t.yaml", "t", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		ro.Base = OptionsFrom(config.DefaultContext())
		ro.Now = func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }
		p, err := f.g.RunTemplate(ctx, tpl, ro)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := run(`
query:
  anchors: [{type: task, filter: "priority <= 'P1'", sort_by: priority}]
  expansion: {depth: 1, edge_types: [parent, decision_ref], exclude_types: [adr]}
  filters: ["state != 'Dropped'"]
output:
  sections: [{name: Work, node_types: [task], sort_by: id, order: desc}, {name: Above, node_types: [story]}]
`, RunOptions{})
	if got, want := entryIDs(p), []string{"T2", "T1", "S1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("entries = %v, want %v", got, want)
	}
	if p.Entries[0].Section != "Work" || p.Entries[2].Section != "Above" || p.Entries[0].Why.Source != SourceAnchor {
		t.Errorf("sections/why = %+v", p.Entries)
	}
	// Tags, recent (counted from Now) and section limits.
	p = run(`query: {anchors: [{tag: WEBHOOKS}, {type: adr, recent: 60d}]}`, RunOptions{})
	if got, want := entryIDs(p), []string{"ADR-1", "T4", "T1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tag+recent = %v, want %v", got, want)
	}
	p = run(`
query: {anchors: [{type: task}], expansion: {depth: 0}}
output: {sections: [{name: Top, filter: "priority = 'P0'", limit: 1}]}
`, RunOptions{})
	if got := entryIDs(p); !reflect.DeepEqual(got, []string{"T1"}) || len(p.Omitted) != 3 {
		t.Errorf("section filter+limit = %v, omitted %+v", got, p.Omitted)
	}
	// --seed replaces the anchors; --depth and --budget override.
	depth, budget := 0, 10000
	p = run(`query: {anchors: [{type: task}], expansion: {depth: 3}}`, RunOptions{Seeds: []string{"ADR-2"}, Depth: &depth, Budget: &budget})
	if got := entryIDs(p); !reflect.DeepEqual(got, []string{"ADR-2"}) || p.Settings.Budget != 10000 {
		t.Errorf("seeded run = %v, %+v", got, p.Settings)
	}
	// A template that would inject never runs.
	tpl, _ := ParseTemplate("t.yaml", "t", []byte(`query: {anchors: [{filter: "1=1) OR (1=1"}]}`))
	if _, err := f.g.RunTemplate(ctx, tpl, RunOptions{Base: OptionsFrom(config.DefaultContext())}); err == nil {
		t.Fatal("an injecting template ran")
	}
	tpl, _ = ParseTemplate("t.yaml", "t", []byte(`query: {}`))
	if _, err := f.g.RunTemplate(ctx, tpl, RunOptions{Base: OptionsFrom(config.DefaultContext())}); err == nil || !strings.Contains(err.Error(), "no anchors") {
		t.Fatalf("no anchors: %v", err)
	}
}

// TestRepoLibraryReadsNoDevice: a template that is a link to /dev/zero,
// or to a file outside the repository, is a broken template with the
// reason; the others load.
func TestRepoLibraryReadsNoDevice(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, filepath.FromSlash(QueriesDir))
	must.OK(t, os.MkdirAll(dir, 0o755))
	must.OK(t, os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("query:\n  anchors: [{id: T1}]\n"), 0o644))
	must.OK(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")))
	outside := filepath.Join(t.TempDir(), "out.yaml")
	must.OK(t, os.WriteFile(outside, []byte("description: s3cr3t\nquery:\n  anchors: [{id: T1}]\n"), 0o644))
	must.OK(t, os.Symlink(outside, filepath.Join(dir, "out.yaml")))
	lib, err := RepoLibrary(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Get("ok"); err != nil {
		t.Errorf("ok: %v", err)
	}
	for name, want := range map[string]string{"zero": "is a character device", "out": "canon reads nothing outside it"} {
		if _, err := lib.Get(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
