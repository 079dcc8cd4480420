package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestQueryRunCountsFromHead: query_run runs a template as canon query run
// does (usecase.TemplateRun), so "recent" counts back from HEAD's commit
// time, not from the clock. The server used the clock: a decision made
// 40 days before the last commit fell out of recent-decisions once the
// repository was a few months old.
func TestQueryRunCountsFromHead(t *testing.T) {
	dir := t.TempDir()
	adr := "---\nid: ADR-0001\ntitle: Keep tokens short-lived\nstatus: Accepted\ndate: 2025-01-20\n---\n# Decision\n\nTokens live an hour.\n"
	if err := os.MkdirAll(filepath.Join(dir, "decisions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "decisions", "ADR-0001.md"), []byte(adr), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	t.Setenv("GIT_COMMITTER_DATE", "2025-03-01T12:00:00Z")
	t.Setenv("GIT_AUTHOR_DATE", "2025-03-01T12:00:00Z")
	gitIn(t, dir, "commit", "-qm", "a decision")
	cs := connect(t, dir)
	res := call(t, cs, "query_run", map[string]any{"template": "recent-decisions"}, nil)
	if res.IsError || !strings.Contains(textOf(res), "ADR-0001") {
		t.Errorf("recent-decisions at HEAD's time (2025-03-01) leaves out a decision of 2025-01-20:\n%s", textOf(res))
	}
}

// TestResourcesRefuseTrackedWorkset: the plan and notes resources refuse
// a workset git tracks, as every workset tool does (ADR-0029): its files
// came with the repository, from whoever committed them.
func TestResourcesRefuseTrackedWorkset(t *testing.T) {
	dir, cs := mcpRepo(t)
	call(t, cs, "workset_new", map[string]any{"name": "w1", "seeds": []string{"KB-TSK-0001"}}, nil)
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "canon://workset/w1/plan"}); err != nil {
		t.Fatalf("a workset canon made: %v", err)
	}
	gitIn(t, dir, "add", "-f", ".cache/worksets/w1/plan.md")
	gitIn(t, dir, "commit", "-qm", "a workset in git")
	for _, f := range []string{"plan", "notes"} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "canon://workset/w1/" + f})
		if err == nil || !strings.Contains(err.Error(), "workset w1 is tracked by git") {
			t.Errorf("%s of a tracked workset: %v", f, err)
		}
	}
}
