package mcpserver

import (
	"context"
	"fmt"
	"testing"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/planguard"
)

// TestQueryPlans runs the MCP tools agents call most under the query-plan
// guard (ADR-0034, index/planguard), as cmd/canon's test of the same name
// runs the hooks, the staged check and the CLI's questions.
func TestQueryPlans(t *testing.T) {
	dir := planguard.Repo(t, 300)
	s, err := gitsync.Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	planguard.ForgetStats(t, dir)
	r := planguard.Watch(t, dir)
	cs := connect(t, dir)
	r.Take()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search", map[string]any{"query": "webhook retry"}},
		{"show", map[string]any{"ref": "G-1"}},
		{"context", map[string]any{"query": "webhook retry", "budget": 4000}},
		{"context", map[string]any{"for": "GT-1", "budget": 4000}},
		{"ready", nil},
		{"status", nil},
	} {
		if res := call(t, cs, c.tool, c.args, nil); res.IsError {
			t.Fatalf("%s: %s", c.tool, textOf(res))
		}
		r.Check(t, fmt.Sprintf("MCP %s %v", c.tool, c.args), planguard.Allowed)
	}
}
