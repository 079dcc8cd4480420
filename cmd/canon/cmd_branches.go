package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index/search"
)

// What every branch and worktree is doing (ADR-0042): canon branches, and
// the overlay step of ready and blocked.

var hereFlag = &cli.BoolFlag{Name: "here", Usage: "answer for this checkout alone, without what other branches and worktrees do"}

func branchesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "branches",
		Usage: "list the other branches and worktrees and what each changes in the backlog: new items, state moves, assignments, new ADRs",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			return e.with(c, "canon branches", func(s *gitsync.Session) (output, error) {
				over, st, err := s.Overlay(c.Context, "", "")
				if err != nil {
					return nil, err
				}
				if err := s.Store.HereEdges(c.Context, over); err != nil {
					return nil, err
				}
				refs, err := s.Store.Refs(c.Context)
				if err != nil {
					return nil, err
				}
				return graph.BranchesOf(refs, over, st), nil
			})
		},
	}
}

var branchesFlag = &cli.BoolFlag{Name: "branches", Usage: "add the versions on other branches and worktrees (commit, author), from the overlays"}

// foundOnBranches adds the hits' versions on other refs, and what other
// refs add that the query names.
func foundOnBranches(ctx context.Context, s *gitsync.Session, f *search.Found) (output, error) {
	over, st, err := s.Overlay(ctx, "", "")
	if err != nil {
		return nil, err
	}
	return graph.FoundOn(f, over, st), nil
}
