package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
)

// startedByCommand is the hidden flag a command gives the canon watch it
// starts (watch.auto, ADR-0089).
const startedByCommand = "started-by-command"

func watchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "keep the index in step with the working tree as files are saved (runs until Ctrl-C or --stop)",
		Description: "Watches the canonical roots, HEAD and the branch refs; syncs each settled burst of edits\n" +
			"(only the changed paths), catches up when a checkout or reset moves HEAD, and rescans\n" +
			"everything periodically as a safety net. One watcher per worktree; canon status shows it.\n" +
			"With watch.auto: true in .canon/config.yaml a command that finds none starts one in the\n" +
			"background, which stops after watch.idle with no command asking. --stop stops the\n" +
			"worktree's watcher, however it was started. The --json-events lines are documented in docs/watch.md.",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "debounce", Usage: "quiet time before a sync", DefaultText: "watch.debounce, 150ms"},
			&cli.DurationFlag{Name: "idle", Usage: "stop after this long with no command asking (0: run until stopped)", DefaultText: "0"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.BoolFlag{Name: "json-events", Aliases: []string{"json"}, Usage: "print one JSON object per line for each event (start, sync, note, error, stop); with --stop, the answer as JSON"},
			&cli.BoolFlag{Name: "stop", Usage: "stop the watcher of this worktree (started by hand or by a command) and wait until it is gone"},
			&cli.BoolFlag{Name: startedByCommand, Hidden: true},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("stop") {
				return e.stopWatch(c)
			}
			opt := watch.ServeOptions{StartedBy: gitsync.StartedByHand}
			if c.IsSet("debounce") {
				d := c.Duration("debounce")
				if d < 0 || d > 10*time.Second {
					return fail(2, "--debounce %s is out of range; give a duration from 0 to 10s, like 150ms", d)
				}
				opt.Debounce = &d
			}
			if c.IsSet("idle") {
				d := c.Duration("idle")
				if d != 0 && (d < config.MinWatchIdle || d > config.MaxWatchIdle) {
					return fail(2, "--idle %s is out of range; give 0 or a duration from %s to %s, like 30m", d, config.MinWatchIdle, config.MaxWatchIdle)
				}
				opt.Idle = d
			}
			auto := c.Bool(startedByCommand)
			s, err := e.openNoSync("canon watch")
			if err != nil {
				return err
			}
			if auto {
				// The start is done: the watcher lock (or its loser's exit)
				// speaks for it from here.
				_ = os.Remove(filepath.Join(s.Repo.CanonDir(), autoWatchMark))
				opt.StartedBy, opt.Idle = gitsync.StartedByCommand, s.Cfg.Watch.Idle
			}
			out := &watch.Output{
				Stdout: e.stdout, Stderr: e.stderr, JSON: c.Bool("json-events"), Quiet: c.Bool("quiet") || auto, Explain: explain,
			}
			if auto {
				out.Announce = fmt.Sprintf("watch: started by a command (watch.auto) in %s, pid %d; stops after %s with no command asking",
					s.Repo.Root, os.Getpid(), human.Span(opt.Idle))
			}
			err = watch.Serve(c.Context, s, opt, out)
			switch {
			case auto && isWatcherBusy(err):
				return nil // another command's watcher won the lock: the one listener
			case auto && err == nil && out.Stopped == "":
				e.notef("watch: stopped (canon watch --stop or a signal)")
			case auto && out.Stopped == watch.StopMissed:
				// Started again it would miss the same folders: the
				// commands walk for the next hour instead.
				_ = writeNoFollow(filepath.Join(s.Repo.CanonDir(), autoWatchMissed), time.Now().UTC().Format(time.RFC3339)+"\n")
			}
			return err
		},
	}
}
