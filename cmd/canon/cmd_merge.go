package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/hooks"
)

// mergeDriverCommand is what git runs for a file .gitattributes marks
// merge=canon (merge.canon.driver, which canon hooks install registers).
// As git runs it, without --json, it skips building the command line
// interface (isMergeDriver), like the post-* hooks: git starts it once
// for every file both sides changed.
func mergeDriverCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "git's merge driver for canonical documents (registered by canon hooks install): merges the frontmatter field by field and append-only sections entry by entry, the rest with git merge-file; exit 1 leaves conflict markers in the file",
		ArgsUsage: "BASE OURS THEIRS [MARKER_SIZE [PATH]]",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			a, err := mergeArgs(c.Args().Slice())
			if err != nil {
				return err
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

// isMergeDriver says args are canon merge-driver as git runs it.
func isMergeDriver(args []string) bool {
	return len(args) >= 5 && len(args) <= 7 && args[1] == "merge-driver" && args[2] != "--json" && args[2] != "-h" && args[2] != "--help"
}

// mergeDriver runs canon merge-driver ARGS and returns git's exit status:
// 0 merged, 1 conflicts in the file, 2 the driver could not run (git then
// reports the file conflicted and leaves ours in place).
func (e *env) mergeDriver(ctx context.Context, args []string) int {
	a, err := mergeArgs(args)
	if err == nil {
		var out *hooks.MergeOutcome
		if out, err = hooks.MergeDriver(ctx, e.dir, a); err == nil {
			for _, n := range out.Notes() {
				e.notef("%s", n)
			}
			return out.ExitCode()
		}
	}
	fmt.Fprintf(e.stderr, "canon: error: %s\n", explain(err))
	return 2
}

func mergeArgs(args []string) (hooks.MergeArgs, error) {
	if len(args) < 3 || len(args) > 5 {
		return hooks.MergeArgs{}, fail(2, "merge-driver takes git's %%O %%A %%B %%L %%P; register it with canon hooks install rather than running it yourself")
	}
	a := hooks.MergeArgs{Base: args[0], Ours: args[1], Theirs: args[2], Path: args[1]}
	if len(args) > 3 {
		n, err := strconv.Atoi(args[3])
		if err != nil || n < 1 || n > 1000 {
			return a, fail(2, "merge-driver: the marker size %q is not a number from 1 to 1000 (git's %%L)", args[3])
		}
		a.MarkerSize = n
	}
	if len(args) > 4 {
		a.Path = args[4]
	}
	return a, nil
}
