package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
)

func syncCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sync",
		Usage: "catch up with HEAD and reconcile the working tree (a stat walk; only changed files are read)",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			s, err := e.openNoSync("canon sync")
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Reconcile(c.Context)
			if err != nil {
				return err
			}
			return printSync(c, e, res)
		},
	}
}

// syncJSON is the --json shape of sync and index.
type syncJSON struct {
	Action         string         `json:"action"`
	From           string         `json:"from,omitempty"`
	Head           string         `json:"head"`
	Reason         string         `json:"reason,omitempty"`
	*index.Changes                // added, modified, renamed, deleted, changed_keys, edges_*
	Stats          *index.Stats   `json:"-"`
	Built          map[string]int `json:"built,omitempty"`
}

func printSync(c *cli.Context, e *env, res *gitsync.Result) error {
	if c.Bool("json") {
		out := syncJSON{Action: res.Action, From: res.From, Head: res.To, Reason: res.Reason, Changes: res.Changes}
		if out.Changes == nil {
			out.Changes = &index.Changes{}
		}
		normalizeChanges(out.Changes)
		if res.Stats != nil {
			out.Built = map[string]int{"documents": res.Stats.Documents, "skipped_files": res.Stats.Skipped}
		}
		return writeJSON(e.stdout, out)
	}
	if res.Action == gitsync.ActionRebuild {
		printBuilt(e.stdout, res.Stats, nil)
		return nil
	}
	ch := res.Changes
	if ch == nil || ch.None() {
		fmt.Fprintf(e.stdout, "up to date at %s\n", shortHash(res.To))
		return nil
	}
	span := shortHash(res.To)
	if res.From != "" && res.From != res.To {
		span = shortHash(res.From) + ".." + shortHash(res.To)
	}
	fmt.Fprintf(e.stdout, "synced %s: %d added, %d modified, %d renamed, %d deleted; edges +%d −%d\n", span,
		len(ch.Added), len(ch.Modified), len(ch.Renamed), len(ch.Deleted), ch.EdgesAdded, ch.EdgesRemoved)
	const most = 50
	lines := 0
	emit := func(format string, args ...any) {
		if lines < most {
			fmt.Fprintf(e.stdout, format, args...)
		}
		lines++
	}
	for _, p := range ch.Added {
		emit("  A  %s\n", p)
	}
	for _, p := range ch.Modified {
		emit("  M  %s\n", p)
	}
	for _, r := range ch.Renamed {
		emit("  R  %s → %s\n", r[0], r[1])
	}
	for _, p := range ch.Deleted {
		emit("  D  %s\n", p)
	}
	if lines > most {
		fmt.Fprintf(e.stdout, "  … and %d more (see --json)\n", lines-most)
	}
	return nil
}

func normalizeChanges(ch *index.Changes) {
	if ch.Added == nil {
		ch.Added = []string{}
	}
	if ch.Modified == nil {
		ch.Modified = []string{}
	}
	if ch.Renamed == nil {
		ch.Renamed = [][2]string{}
	}
	if ch.Deleted == nil {
		ch.Deleted = []string{}
	}
	if ch.Keys == nil {
		ch.Keys = []string{}
	}
}

func verifyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "rebuild the index into a temporary file and compare it with the live one (exit 1 when they differ)",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			s, err := e.open(c, "canon verify")
			if err != nil {
				return err
			}
			defer s.Close()
			// Hold the writer lock so that the live index cannot move while
			// it is compared.
			unlock, err := s.Store.Lock(c.Context, "canon verify", s.LockWait)
			if err != nil {
				return err
			}
			defer unlock()
			live, err := s.Store.Dump(c.Context)
			if err != nil {
				return err
			}
			tmpPath := gitsync.VerifyPath(s.Repo.CanonDir())
			defer func() {
				for _, suffix := range []string{"", "-wal", "-shm", ".lock"} {
					os.Remove(tmpPath + suffix)
				}
			}()
			fresh, _, err := index.Open(tmpPath)
			if err != nil {
				return err
			}
			defer fresh.Close()
			files, err := s.Scope.Walk()
			if err != nil {
				return err
			}
			if _, err := fresh.Rebuild(c.Context, s.Loader, files, nil, nil); err != nil {
				return fmt.Errorf("build the comparison index: %w", err)
			}
			rebuilt, err := fresh.Dump(c.Context)
			if err != nil {
				return err
			}
			diff := index.DiffDumps(live, rebuilt)
			if c.Bool("json") {
				if diff == nil {
					diff = []string{}
				}
				if err := writeJSON(e.stdout, map[string]any{"equal": len(diff) == 0, "rows": len(live), "differences": diff}); err != nil {
					return err
				}
			} else if len(diff) == 0 {
				fmt.Fprintf(e.stdout, "the index matches a fresh rebuild (%s rows compared)\n", thousands(len(live)))
			} else {
				fmt.Fprintf(e.stdout, "the index differs from a fresh rebuild in %d rows (- live, + rebuilt):\n", len(diff))
				for i, d := range diff {
					if i == 40 {
						fmt.Fprintf(e.stdout, "  … and %d more (see --json)\n", len(diff)-i)
						break
					}
					fmt.Fprintf(e.stdout, "  %s\n", strings.ReplaceAll(d, "\t", " | "))
				}
				fmt.Fprintln(e.stdout, "files edited since the last sync show up here too: run canon sync, then verify again; if differences remain, run canon index --full and report the bug")
			}
			if len(diff) > 0 {
				return &silentExit{code: 1}
			}
			return nil
		},
	}
}
