package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
)

// What other branches and worktrees do (ADR-0042): ready leaves out what
// another ref has taken, show carries the versions on other refs, and
// claims lists what is taken elsewhere, so that an agent checks before it
// starts. Each carries the overlays' freshness. claims has no command of
// its own (canon branches answers per ref, canon ready --json lists what
// it left out as claimed).

type (
	claimsOut struct {
		Claims  []graph.Claim          `json:"claims"`
		Overlay *gitsync.OverlayStatus `json:"overlay"`
		Fresh
	}
)

func (m *Server) addClaimsTool() {
	add(m, &mcp.Tool{Name: "claims", OutputSchema: outSchema("claims:array", "overlay:object"), Description: "Items other refs took: check first.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in noIn, out *claimsOut) (string, error) {
			over, st, err := s.OverlayOfHere(ctx)
			if err != nil {
				return "", err
			}
			out.Claims, out.Overlay = graph.Claims(over, s.Cfg.States), st
			return rendered(graph.ClaimList{Claims: out.Claims, Overlay: st}), nil
		})
}
