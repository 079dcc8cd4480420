package mcpserver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPIDNext: id_next answers canon id next's id, past what another
// branch minted, minted by the random scheme when the configuration says
// so, with the CLI's words for a kind no id has.
func TestMCPIDNext(t *testing.T) {
	dir, cs := mcpRepo(t)
	var out idNextOut
	res := call(t, cs, "id_next", map[string]any{"kind": "task"}, &out)
	if out.ID != "KB-TSK-0003" || !strings.HasPrefix(textOf(res), "KB-TSK-0003\n(") {
		t.Fatalf("id_next = %+v, text %q; want KB-TSK-0003", out, textOf(res))
	}
	wt := filepath.Join(t.TempDir(), "agent")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "agent", wt)
	if err := os.WriteFile(filepath.Join(wt, "items", "KB-TSK-0003.md"), []byte("---\nid: KB-TSK-0003\ntype: Task\ntitle: Minted on agent\nstate: Ready\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, wt, "add", "-A")
	gitIn(t, wt, "commit", "-qm", "mint KB-TSK-0003")
	call(t, cs, "id_next", map[string]any{"kind": "KB-TSK"}, &out)
	if out.ID != "KB-TSK-0004" {
		t.Fatalf("id_next after another branch minted KB-TSK-0003 = %s, want KB-TSK-0004", out.ID)
	}
	res = call(t, cs, "id_next", map[string]any{"kind": "epic"}, nil)
	if !res.IsError || !strings.Contains(textOf(res), "no document has a numbered id of kind or prefix epic") {
		t.Errorf("id_next epic: %v %q", res.IsError, textOf(res))
	}
	res = call(t, cs, "id_next", map[string]any{"kind": "task", "namespace": "nope/deeper"}, nil)
	if !res.IsError || !strings.Contains(textOf(res), "namespace nope/deeper names no configured namespace") || strings.Contains(textOf(res), "--") {
		t.Errorf("id_next with an unknown namespace: %v %q", res.IsError, textOf(res))
	}

	if err := os.MkdirAll(filepath.Join(wt, ".canon"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, ".canon", "config.yaml"), []byte("ids:\n  scheme: random\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	random := connect(t, wt)
	call(t, random, "id_next", map[string]any{"kind": "task"}, &out)
	if !regexp.MustCompile(`^KB-TSK-[0-9a-f]{6}$`).MatchString(out.ID) {
		t.Errorf("id_next under ids.scheme random = %s, want KB-TSK- and 6 hex digits", out.ID)
	}
}
