package mcpserver

import (
	"context"

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
	add(m, &mcp.Tool{Name: "claims", OutputSchema: outSchema("claims:array", "overlay:object"), Description: "Items other branches or worktrees took: check before you start.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in noIn, out *claimsOut) (string, error) {
			over, st, err := s.Overlay(ctx, "", "")
			if err != nil {
				return "", err
			}
			out.Claims, out.Overlay = graph.Claims(over, s.Cfg.States), st
			return rendered(graph.ClaimList{Claims: out.Claims, Overlay: st}), nil
		})
}
