package main

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/hooks"
)

// mergeDriverCommand is what git runs for a file .gitattributes marks
// merge=canon (merge.canon.driver, which canon hooks install registers).
func mergeDriverCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "git's merge driver for canonical documents (registered by canon hooks install): merges the frontmatter field by field and append-only sections entry by entry, the rest with git merge-file; exit 1 leaves conflict markers in the file",
		ArgsUsage: "BASE OURS THEIRS [MARKER_SIZE [PATH]]",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) < 3 || len(args) > 5 {
				return fail(2, "merge-driver takes git's %%O %%A %%B %%L %%P; register it with canon hooks install rather than running it yourself")
			}
			a := hooks.MergeArgs{Base: args[0], Ours: args[1], Theirs: args[2], Path: args[1]}
			if len(args) > 3 {
				n, err := strconv.Atoi(args[3])
				if err != nil || n < 1 || n > 1000 {
					return fail(2, "merge-driver: the marker size %q is not a number from 1 to 1000 (git's %%L)", args[3])
				}
				a.MarkerSize = n
			}
			if len(args) > 4 {
				a.Path = args[4]
			}
			out, err := hooks.MergeDriver(c.Context, e.dir, a)
			if err != nil {
				return err
			}
			for _, n := range out.Notes() {
				e.notef("%s", n)
			}
			return e.print(c, out)
		},
	}
}
