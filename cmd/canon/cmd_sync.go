package main

import (
	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
)

func syncCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sync",
		Usage: "catch up with HEAD and reconcile the working tree (a stat walk; only changed files are read)",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			return e.withIndex(c, "canon sync", func(s *gitsync.Session) (output, error) { return s.Reconcile(c.Context) })
		},
	}
}

func verifyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "rebuild the index into a temporary file and compare it with the live one (exit 1 when they differ)",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			// The index as it is, caught up with HEAD: verify says when the
			// working tree was edited since, rather than taking it in.
			return e.withIndex(c, "canon verify", func(s *gitsync.Session) (output, error) {
				if _, err := s.Fresh(c.Context); err != nil {
					return nil, err
				}
				return s.Verify(c.Context)
			})
		},
	}
}
