package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync/watch"
)

func watchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "keep the index in step with the working tree as files are saved (runs until Ctrl-C)",
		Description: "Watches the canonical roots, HEAD and the branch refs; syncs each settled burst of edits\n" +
			"(only the changed paths), catches up when a checkout or reset moves HEAD, and rescans\n" +
			"everything periodically as a safety net. One watcher per worktree; canon status shows it.\n" +
			"The --json-events lines are documented in docs/watch.md.",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "debounce", Usage: "quiet time before a sync", DefaultText: "watch.debounce, 150ms"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.BoolFlag{Name: "json-events", Aliases: []string{"json"}, Usage: "print one JSON object per line for each event (start, sync, note, error, stop)"},
		},
		Action: func(c *cli.Context) error {
			var debounce *time.Duration
			if c.IsSet("debounce") {
				d := c.Duration("debounce")
				if d < 0 || d > 10*time.Second {
					return fail(2, "--debounce %s is out of range; give a duration from 0 to 10s, like 150ms", d)
				}
				debounce = &d
			}
			s, err := e.openNoSync("canon watch")
			if err != nil {
				return err
			}
			return watch.Serve(c.Context, s, debounce, &watch.Output{
				Stdout: e.stdout, Stderr: e.stderr, JSON: c.Bool("json-events"), Quiet: c.Bool("quiet"), Explain: explain,
			})
		},
	}
}
