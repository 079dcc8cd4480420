package graph

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// A task's pack holds the decisions its parent chain names (the feature's
// ADRs govern its tasks), after its neighbours, when the budget has room
// for them; listed by id when it has not.
func TestScopedPackHoldsTheParentsDecisions(t *testing.T) {
	t.Parallel()
	doc := func(id, typ, extra, body string) string {
		return "---\nid: " + id + "\ntype: " + typ + "\ntitle: " + id + " title\nstate: Proposed\n" + extra + "---\n# Context\n\n" + body + "\n"
	}
	long := strings.Repeat("Every write is read again before it is kept. ", 30) // about 340 tokens
	f := newFixture(t, map[string]string{
		"epic.md":    doc("E-1", "Epic", "decisions: [ADR-0001]\n", "The epic."),
		"feature.md": doc("F-1", "Feature", "parent: E-1\ndecisions: [ADR-0002, ADR-0003]\n", "The feature."),
		"task.md":    doc("T-1", "Task", "parent: F-1\ndecisions: [ADR-0003]\n", "The task."),
		"adr1.md":    doc("ADR-0001", "ADR", "", "Use one database. "+long),
		"adr2.md":    doc("ADR-0002", "ADR", "", "Queue the writes. "+long),
		"adr3.md":    doc("ADR-0003", "ADR", "", "Retry with backoff. "+long),
	})
	opt := OptionsFrom(config.DefaultContext())
	opt.Depth = 1
	pack := func(budget int, edges ...string) (in, listed []string) {
		t.Helper()
		o := opt
		o.Budget, o.Edges = budget, edges
		p, err := f.g.ScopedPack(context.Background(), ScopedArgs{For: "T-1", Options: o, Shares: config.DefaultContext().Scopes})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Entries {
			in = append(in, e.ID+" "+e.Why.String())
		}
		for _, l := range p.Listed {
			listed = append(listed, l.ID)
		}
		return in, listed
	}
	in, _ := pack(4000)
	want := []string{"T-1 given seed", "ADR-0003 T-1 --decision_ref--> this (depth 1)", "F-1 T-1 --parent--> this (depth 1)",
		"ADR-0002 F-1 --decision_ref--> this (depth 2)", "ADR-0001 E-1 --decision_ref--> this (depth 3)"}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("T-1's pack at depth 1 =\n%q\nwant its parents' decisions after its neighbours:\n%q", in, want)
	}
	if in, listed := pack(300); len(in) >= len(want) || len(listed) == 0 {
		t.Errorf("a small budget: %q in, %q listed; want what does not fit listed", in, listed)
	}
	if in, _ := pack(4000, "parent"); len(in) != 2 {
		t.Errorf("edges parent only: %q; the decisions are not followed", in)
	}
}
