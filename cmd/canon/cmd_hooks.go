package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index/check"
)

func hooksCommand(e *env) *cli.Command {
	hooksPath := &cli.StringFlag{Name: "hooks-path", Usage: "install into `DIR` (inside the repository) and make it core.hooksPath"}
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or inspect canon's git hooks",
		Subcommands: []*cli.Command{
			{
				Name:  "install",
				Usage: "install shims for " + strings.Join(hooks.Names, ", ") + "; hooks already there are kept and run first",
				Flags: []cli.Flag{hooksPath,
					&cli.BoolFlag{Name: "force", Usage: "replace a kept earlier hook canon would otherwise refuse to overwrite"}, jsonFlag},
				Action: func(c *cli.Context) error {
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					dir, acts, err := hooks.Install(c.Context, repo, hooks.InstallOptions{HooksPath: c.String("hooks-path"), Force: c.Bool("force")})
					if err != nil {
						return err
					}
					return printActions(c, e, relDir(repo.Root, dir), acts)
				},
			},
			{
				Name:  "uninstall",
				Usage: "remove canon's shims and put back the hooks they chained, byte for byte",
				Flags: []cli.Flag{hooksPath, jsonFlag},
				Action: func(c *cli.Context) error {
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					dir, acts, err := hooks.Uninstall(c.Context, repo, c.String("hooks-path"))
					if err != nil {
						return err
					}
					return printActions(c, e, relDir(repo.Root, dir), acts)
				},
			},
			{
				Name:  "status",
				Usage: "show each hook: canon's, chained, someone else's or missing",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					loc, err := hooks.Locate(c.Context, repo)
					if err != nil {
						return err
					}
					st := hooks.Status(loc.Dir)
					_, lookErr := exec.LookPath("canon")
					if c.Bool("json") {
						return writeJSON(e.stdout, map[string]any{
							"hooks_dir": loc.Dir, "core_hooks_path": loc.HooksPath, "canon_on_path": lookErr == nil, "hooks": st,
						})
					}
					fmt.Fprintf(e.stdout, "hooks folder %s", relDir(repo.Root, loc.Dir))
					if loc.HooksPath != "" {
						fmt.Fprintf(e.stdout, " (core.hooksPath = %s)", loc.HooksPath)
					}
					fmt.Fprintln(e.stdout)
					for _, h := range st {
						extra := ""
						switch {
						case h.State == hooks.StateChained:
							extra = "runs " + h.Kept + " first"
						case h.State == hooks.StateForeign && h.Canons:
							extra = "calls canon itself"
						case h.State == hooks.StateForeign:
							extra = "canon is not in it; canon hooks install chains it"
						}
						if h.Stale {
							extra = strings.TrimPrefix(extra+"; out of date, run canon hooks install", "; ")
						}
						if h.State != hooks.StateMissing && !h.Runs {
							extra = strings.TrimPrefix(extra+"; not executable, git skips it", "; ")
						}
						fmt.Fprintln(e.stdout, strings.TrimRight(fmt.Sprintf("  %-14s %-8s %s", h.Name, h.State, extra), " "))
					}
					if lookErr != nil {
						fmt.Fprintln(e.stdout, "canon is not on PATH: the hooks will do nothing until it is")
					}
					return nil
				},
			},
		},
	}
}

func printActions(c *cli.Context, e *env, dir string, acts []hooks.Action) error {
	if c.Bool("json") {
		return writeJSON(e.stdout, map[string]any{"hooks_dir": dir, "hooks": acts})
	}
	fmt.Fprintf(e.stdout, "hooks folder %s\n", dir)
	for _, a := range acts {
		line := fmt.Sprintf("  %-14s %s", a.Name, a.Did)
		if a.Note != "" {
			line += " (" + a.Note + ")"
		}
		fmt.Fprintln(e.stdout, line)
	}
	return nil
}

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:            "hook",
		Usage:           "the entry point git's hooks call: canon hook NAME [ARGS...]; with no name it syncs to HEAD",
		ArgsUsage:       "NAME [ARGS...]",
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			name := c.Args().First()
			args := c.Args().Tail()
			if name == "pre-commit" {
				return preCommit(c, e)
			}
			if name == "" {
				name = "sync"
			}
			_, err := hooks.Run(c.Context, hooks.Event{Name: name, Args: args, Dir: e.dir},
				func(msg string) { e.notef("%s", msg) })
			if err != nil {
				// A post-* hook never fails the git command.
				hooks.Report(e.stderr, name, explainErr(err))
			}
			return nil
		},
	}
}

type plainErr string

func (p plainErr) Error() string { return string(p) }

func explainErr(err error) error { return plainErr(explain(err)) }

// relDir shows a folder inside the repository relative to its root.
func relDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return dir
	}
	return filepath.ToSlash(rel)
}

// preCommit validates what is staged. Validation errors refuse the commit;
// anything else going wrong is one line on stderr and the commit goes on.
func preCommit(c *cli.Context, e *env) error {
	if os.Getenv("CANON_SKIP") == "1" {
		return nil
	}
	s, err := e.openNoSync("canon hook pre-commit")
	if err != nil {
		hooks.Report(e.stderr, "pre-commit", explainErr(err))
		return nil
	}
	defer s.Close()
	if err := e.catchUp(c, s); err != nil {
		hooks.Report(e.stderr, "pre-commit", explainErr(err))
		return nil
	}
	res, err := s.CheckStaged(c.Context, true)
	if err != nil {
		hooks.Report(e.stderr, "pre-commit", explainErr(err))
		return nil
	}
	if len(res.Findings) == 0 {
		writeOld(e.stderr, res)
		return nil
	}
	check.WriteText(e.stderr, res.Findings, len(res.Checked))
	writeOld(e.stderr, res)
	if check.Summarize(res.Findings, len(res.Checked)).Errors == 0 {
		return nil
	}
	fmt.Fprintln(e.stderr, "canon: commit refused: fix the errors above and stage the fix (git commit --no-verify, or CANON_SKIP=1, skips canon)")
	return &silentExit{code: 1}
}
