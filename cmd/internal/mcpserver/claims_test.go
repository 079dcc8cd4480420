package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
)

// TestMCPClaims: a task taken in another worktree of the same clone (a
// commit, no push) leaves ready, is listed by claims, and show carries its
// version there; ready with here keeps it (ADR-0042).
func TestMCPClaims(t *testing.T) {
	dir, cs := mcpRepo(t)
	wt := filepath.Join(t.TempDir(), "agent")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "agent", wt)
	p := filepath.Join(wt, "items", "KB-TSK-0001.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "state: Ready", "state: In Progress", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, wt, "commit", "-qam", "take KB-TSK-0001")

	var claims claimsOut
	call(t, cs, "claims", nil, &claims)
	if len(claims.Claims) != 1 || claims.Claims[0].ID != "KB-TSK-0001" || claims.Claims[0].Ref != "refs/heads/agent" || claims.Overlay.Refs != 1 {
		t.Fatalf("claims: %+v", claims)
	}
	type readyAnswer struct {
		Ready   []graph.Item
		Claimed []graph.ClaimedItem
		Overlay *gitsync.OverlayStatus
	}
	var ready readyAnswer
	call(t, cs, "ready", nil, &ready)
	for _, it := range ready.Ready {
		if it.ID == "KB-TSK-0001" {
			t.Fatalf("ready lists the claimed item: %+v", ready.Ready)
		}
	}
	if len(ready.Claimed) != 1 || ready.Overlay == nil {
		t.Fatalf("ready does not say what it left out: %+v", ready)
	}
	var here readyAnswer
	call(t, cs, "ready", map[string]any{"here": true}, &here)
	if len(here.Ready) != 1 || here.Ready[0].ID != "KB-TSK-0001" {
		t.Fatalf("ready here: %+v", here.Ready)
	}
	var show struct{ Branches []index.RefDoc }
	call(t, cs, "show", map[string]any{"ref": "KB-TSK-0001"}, &show)
	if len(show.Branches) != 1 || show.Branches[0].State != "In Progress" || show.Branches[0].Author == "" {
		t.Fatalf("show branches: %+v", show.Branches)
	}
}

// TestMCPClaimAsWho: item_claim without as names whoever canon claim
// would (CANON_AGENT, else git's user.name), as its tools/list entry says.
func TestMCPClaimAsWho(t *testing.T) {
	t.Setenv("CANON_AGENT", "")
	dir, cs := mcpRepo(t)
	gitIn(t, dir, "config", "user.name", "Grace")
	res := call(t, cs, "item_claim", map[string]any{"item": "KB-TSK-0001", "dry_run": true}, nil)
	if res.IsError || !strings.Contains(textOf(res), "Grace") {
		t.Errorf("item_claim without as, git's user.name Grace: %v %s", res.IsError, textOf(res))
	}
	t.Setenv("CANON_AGENT", "agent-7")
	res = call(t, cs, "item_claim", map[string]any{"item": "KB-TSK-0001", "dry_run": true}, nil)
	if res.IsError || !strings.Contains(textOf(res), "agent-7") {
		t.Errorf("item_claim without as, CANON_AGENT=agent-7: %v %s", res.IsError, textOf(res))
	}
	res = call(t, cs, "item_claim", map[string]any{"item": "KB-TSK-0001", "as": "bob", "dry_run": true}, nil)
	if res.IsError || !strings.Contains(textOf(res), "bob") {
		t.Errorf("item_claim as bob: %v %s", res.IsError, textOf(res))
	}
}
