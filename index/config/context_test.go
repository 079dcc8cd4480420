package config

import (
	"strings"
	"testing"
)

func TestContextSection(t *testing.T) {
	t.Parallel()
	c, err := Parse(File, []byte("context:\n  depth: 2\n  budget: 900\n  edges: [parent]\n  weights:\n    decay: 0.5\n    states: {InProgress: 2}\n    kinds: {ADR: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	x := c.Context
	if x.Depth != 2 || x.Budget != 900 || len(x.Edges) != 1 || x.Weights.Decay != 0.5 {
		t.Fatalf("context = %+v", x)
	}
	if Weight(x.Weights.States, "inprogress") != 2 || Weight(x.Weights.Kinds, "adr") != 3 || Weight(x.Weights.Kinds, "task") != 1 {
		t.Fatalf("weights = %+v", x.Weights)
	}
	if Weight(x.Weights.States, "Done") != 0.7 || Weight(x.Weights.Sections, "nothing-like-it") != 1 {
		t.Fatal("defaults were not kept under the file's weights")
	}
	for y, want := range map[string]string{
		"context: {depth: -1}":                 "depth must be at least 0",
		"context: {direction: up}":             "not out, in or both",
		"context: {weights: {decay: 2}}":       "decay",
		"context: {weights: {kinds: {a: -1}}}": "negative",
		"context: {max_nodes: 0}":              "max_nodes must be at least 1",
		// Scores built from these would be NaN or +Inf, which JSON cannot hold.
		"context: {weights: {kinds: {a: .nan}}}":      "context.weights.kinds.a is NaN; weights are numbers from 0 to 100",
		"context: {weights: {edges: {parent: .inf}}}": "context.weights.edges.parent is +Inf; weights are numbers from 0 to 100",
		"context: {weights: {states: {done: 1e300}}}": "context.weights.states.done is 1e+300",
		"context: {weights: {decay: .nan}}":           "decay must be above 0",
		"context: {scopes: {task: .nan}}":             "context.scopes.task must be between 0 and 1",
	} {
		if _, err := Parse(File, []byte(y)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want %q", y, err, want)
		}
	}
}

func TestContextEssentialAndGenerated(t *testing.T) {
	t.Parallel()
	d := DefaultContext()
	if len(d.Essential) != 5 || d.Essential[0] != "Acceptance Criteria" || d.IncludeGenerated || len(d.Exclude) != 0 {
		t.Fatalf("defaults = %v %v %v", d.Essential, d.Exclude, d.IncludeGenerated)
	}
	c, err := Parse(File, []byte("context:\n  essential: [Plan]\n  exclude: ['docs/**/index.md']\n  include_generated: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if x := c.Context; len(x.Essential) != 1 || x.Essential[0] != "Plan" || x.Exclude[0] != "docs/**/index.md" || !x.IncludeGenerated {
		t.Fatalf("context = %+v", x)
	}
	if _, err := Parse(File, []byte("context:\n  exclude: ['docs/[a']\n")); err == nil || !strings.Contains(err.Error(), `context.exclude "docs/[a" is not a glob`) {
		t.Fatalf("bad glob: %v", err)
	}
}

// TestSectionWeight: MADR's headings weigh as the Nygard keys they
// extend; an exact key wins over a shorter one, and an unlisted slug
// weighs 1 (decisions is no decision section: no dash).
func TestSectionWeight(t *testing.T) {
	m := map[string]float64{"decision": 1.5, "context": 1.2, "worklog": 0.3, "decision-drivers": 0.9}
	for slug, want := range map[string]float64{
		"decision": 1.5, "Decision-Outcome": 1.5, "context-and-problem-statement": 1.2,
		"decision-drivers": 0.9, "decision-drivers-and-more": 0.9, "worklog-2026-11": 0.3,
		"decisions": 1, "considered-options": 1, "": 1,
	} {
		if got := SectionWeight(m, slug); got != want {
			t.Errorf("SectionWeight(%q) = %v, want %v", slug, got, want)
		}
	}
}
