package main

import (
	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

func agentsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "agents-md",
		Usage: "print a compact guide for agents (context, findings, promote, hooks); --write puts it in a file between markers",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "put the guide in `FILE` (AGENTS.md, CLAUDE.md, ...), replacing an earlier one between canon's markers"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.String("write") == "" {
				return e.print(c, &usecase.Guide{})
			}
			return e.withRepo(c, func(r *gitsync.Repo) (output, error) { return usecase.WriteGuide(r.Root, c.String("write")) })
		},
	}
}
