package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
)

// What other branches and worktrees do (ADR-0042): ready leaves out what
// another ref has taken, show carries the versions on other refs, and
// claims lists what is taken elsewhere, so that an agent checks before it
// starts. Each carries the overlays' freshness.

type (
	claimsOut struct {
		Claims  []graph.Claim          `json:"claims"`
		Overlay *gitsync.OverlayStatus `json:"overlay"`
		Fresh
	}
)

// leaveOutClaimed is ready's overlay step: the ready items no other ref
// claims, and those left out; here keeps them all.
func leaveOutClaimed(ctx context.Context, s *gitsync.Session, w *graph.Work, here bool) ([]graph.ClaimedItem, *gitsync.OverlayStatus, error) {
	if here {
		return []graph.ClaimedItem{}, nil, nil
	}
	over, st, err := s.Overlay(ctx, "", "")
	if err != nil {
		return nil, nil, err
	}
	r := graph.LeaveOutClaimed(w, graph.Claims(over, s.Cfg.States), st)
	w.Ready = r.Work.Ready
	return r.Claimed, st, nil
}

// claimedText is the lines ready adds for the items left out.
func claimedText(claimed []graph.ClaimedItem, st *gitsync.OverlayStatus) string {
	var b strings.Builder
	for _, c := range claimed {
		for _, cl := range c.Claims {
			fmt.Fprintf(&b, "left out: %s %s on %s (%s)\n", c.ID, claimWhat(cl), cl.Ref, cl.Author)
		}
	}
	if st != nil {
		b.WriteString(st.Text() + "\n")
	}
	return b.String()
}

func claimWhat(c graph.Claim) string {
	switch c.How {
	case "assigned":
		return "assigned to " + c.Assignee
	case "done":
		return "done (" + c.State + ")"
	}
	return c.State
}

// versionsOn is show's overlay step: the document's versions on other refs.
func versionsOn(ctx context.Context, s *gitsync.Session, path string) ([]index.RefDoc, *gitsync.OverlayStatus, error) {
	over, st, err := s.Overlay(ctx, "", path)
	if err != nil {
		return nil, nil, err
	}
	docs := []index.RefDoc{}
	for _, o := range over {
		docs = append(docs, o.RefDoc)
	}
	return docs, st, nil
}

func (m *Server) addClaimsTool() {
	add(m, &mcp.Tool{Name: "claims", OutputSchema: outSchema("claims:array", "overlay:object"), Description: "Items another branch or worktree has taken (state moved, assigned, done): check before you start one.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in noIn, out *claimsOut) (string, error) {
			over, st, err := s.Overlay(ctx, "", "")
			if err != nil {
				return "", err
			}
			out.Claims, out.Overlay = graph.Claims(over, s.Cfg.States), st
			var b strings.Builder
			if len(out.Claims) == 0 {
				b.WriteString("no item is taken on another branch or worktree\n")
			}
			for _, c := range out.Claims {
				fmt.Fprintf(&b, "%s %s on %s, %s by %s\n", c.ID, claimWhat(c), c.Ref, c.Commit[:min(10, len(c.Commit))], c.Author)
			}
			return b.String() + st.Text() + "\n", nil
		})
}
