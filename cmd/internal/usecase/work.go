package usecase

import (
	"context"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
)

// Elsewhere is what other branches and worktrees do with HEAD's items,
// for canon ready and canon blocked and their MCP tools alike (ADR-0042):
// nil with here, or when no other ref is followed, so that the answer is
// this checkout's as it was before overlays.
func Elsewhere(ctx context.Context, s *gitsync.Session, here bool) (*graph.Elsewhere, error) {
	if here {
		return nil, nil
	}
	over, st, err := s.OverlayOfHere(ctx)
	if err != nil {
		return nil, err
	}
	if st.Refs == 0 && st.Note == "" {
		return nil, nil
	}
	return &graph.Elsewhere{Claims: graph.Claims(over, s.Cfg.States), Fresh: st}, nil
}
