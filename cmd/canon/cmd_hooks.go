package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
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
				Usage: "install shims for " + strings.Join(hooks.Names, ", ") + "; hooks already there are kept and run first. Where lefthook, husky or pre-commit manage the hooks, print what to add to their configuration (--manager adds it)",
				Flags: []cli.Flag{hooksPath,
					&cli.BoolFlag{Name: "force", Usage: "replace a kept earlier hook canon would otherwise refuse to overwrite"},
					&cli.StringFlag{Name: "manager", Usage: "add canon to `NAME`'s configuration (lefthook, husky, pre-commit), or git for canon's own shims whatever manages the hooks"},
					jsonFlag},
				Action: func(c *cli.Context) error {
					var m hooks.Manager
					if c.IsSet("manager") {
						var err error
						if m, err = hooks.ParseManager(c.String("manager")); err != nil {
							return fail(2, "%v", err)
						}
					}
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					res, err := hooks.Setup(c.Context, repo, hooks.InstallOptions{HooksPath: c.String("hooks-path"), Force: c.Bool("force"), Manager: m})
					if err != nil {
						return err
					}
					return printSetup(c, e, repo.Root, res)
				},
			},
			{
				Name:  "uninstall",
				Usage: "remove canon's shims, putting back the hooks they chained byte for byte, and canon's entries in lefthook, husky and pre-commit configurations",
				Flags: []cli.Flag{hooksPath, jsonFlag},
				Action: func(c *cli.Context) error {
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					res, err := hooks.Teardown(c.Context, repo, c.String("hooks-path"))
					if err != nil {
						return err
					}
					return printSetup(c, e, repo.Root, res)
				},
			},
			{
				Name:  "status",
				Usage: "say whether canon will run on the next commit and checkout, through what, and what stands in the way",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					repo, err := gitsync.Discover(e.dir)
					if err != nil {
						return err
					}
					rep, err := hooks.Inspect(c.Context, repo)
					if err != nil {
						return err
					}
					_, lookErr := exec.LookPath("canon")
					if lookErr != nil {
						rep.Commit, rep.Checkout = false, false
					}
					if c.Bool("json") {
						return writeJSON(e.stdout, struct {
							*hooks.Inspection
							CanonOnPath bool `json:"canon_on_path"`
						}{rep, lookErr == nil})
					}
					printHooksStatus(e, repo.Root, rep, lookErr == nil)
					return nil
				},
			},
		},
	}
}

func printHooksStatus(e *env, root string, rep *hooks.Inspection, onPath bool) {
	fmt.Fprintf(e.stdout, "hooks folder %s", relDir(root, rep.Dir))
	if rep.HooksPath != "" {
		fmt.Fprintf(e.stdout, " (core.hooksPath = %s)", rep.HooksPath)
	}
	fmt.Fprintln(e.stdout)
	for _, f := range rep.Managers {
		fmt.Fprintf(e.stdout, "hook manager %s (%s)\n", f.Manager, f.Config)
	}
	var via []string
	for _, h := range rep.Hooks {
		state, extra := h.Kind, h.Via
		switch {
		case h.State == hooks.StateChained:
			state, extra = string(h.State), "runs "+h.Kept+" first"
		case h.Kind == "canon":
			state, extra = string(h.State), ""
		case h.Kind == "script":
			state = string(hooks.StateForeign)
		}
		if !h.RunsCanon && h.Why != "" {
			extra = strings.TrimPrefix(extra+"; canon does not run: "+h.Why, "; ")
		}
		if h.Stale {
			extra = strings.TrimPrefix(extra+"; out of date, run canon hooks install", "; ")
		}
		if h.RunsCanon && h.Via != "" && !contains(via, viaName(h.Via)) {
			via = append(via, viaName(h.Via))
		}
		fmt.Fprintln(e.stdout, strings.TrimRight(fmt.Sprintf("  %-14s %-10s %s", h.Name, state, extra), " "))
	}
	switch {
	case !onPath:
		fmt.Fprintln(e.stdout, "canon is not on PATH: the hooks will do nothing until it is")
	case rep.Commit && rep.Checkout:
		fmt.Fprintf(e.stdout, "canon runs on the next commit and checkout, through %s\n", strings.Join(via, " and "))
	default:
		var not []string
		if !rep.Commit {
			not = append(not, "commit")
		}
		if !rep.Checkout {
			not = append(not, "checkout")
		}
		fmt.Fprintf(e.stdout, "CANON WILL NOT RUN on the next %s: the index falls behind until a canon command catches up; run canon hooks install\n", strings.Join(not, " or "))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stdout, "problem: %s\n", p)
	}
}

// viaName shortens "lefthook (lefthook.yml)" to "lefthook".
func viaName(via string) string {
	if i := strings.Index(via, " ("); i >= 0 {
		return via[:i]
	}
	return via
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func printSetup(c *cli.Context, e *env, root string, res *hooks.InstallResult) error {
	if c.Bool("json") {
		res.Dir = relDir(root, res.Dir)
		return writeJSON(e.stdout, res)
	}
	if res.Snippet != "" {
		fmt.Fprintf(e.stdout, "%s runs this repository's hooks (%s), so canon wrote no shims: %s.\n", res.Manager, res.Config, managerWhy(res.Manager))
		fmt.Fprintf(e.stdout, "Add this to %s, then run %s (canon hooks install --manager %s does the first step):\n\n%s",
			managerTarget(res.Manager, res.Config), orNothing(res.Next), res.Manager, res.Snippet)
		return nil
	}
	if len(res.Shims) > 0 || res.Manager == "" {
		printActions(e, relDir(root, res.Dir), res.Shims)
	}
	for _, ed := range res.Edits {
		what := ed.Path
		if ed.Hook != "" {
			what += " " + ed.Hook
		}
		fmt.Fprintf(e.stdout, "  %-14s %s\n", ed.Did, what)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	if res.Next != "" {
		fmt.Fprintf(e.stdout, "now run: %s\n", res.Next)
	}
	return nil
}

func managerWhy(m hooks.Manager) string {
	switch m {
	case hooks.Lefthook:
		return "lefthook would rename them to *.old and never run them"
	case hooks.Husky:
		return "git runs husky's hooks in .husky/_, which husky rewrites on every run"
	}
	return "pre-commit install would keep them as *.legacy, beside its own"
}

func managerTarget(m hooks.Manager, config string) string {
	switch m {
	case hooks.Husky:
		return "the script in .husky named above each line"
	case hooks.Lefthook:
		return config + " (canon's command under each hook it already has)"
	case hooks.PreCommit:
		return ".pre-commit-config.yaml"
	}
	return config
}

func orNothing(next string) string {
	if next == "" {
		return "nothing else"
	}
	return next
}

func printActions(e *env, dir string, acts []hooks.Action) {
	fmt.Fprintf(e.stdout, "hooks folder %s\n", dir)
	for _, a := range acts {
		line := fmt.Sprintf("  %-14s %s", a.Name, a.Did)
		if a.Note != "" {
			line += " (" + a.Note + ")"
		}
		fmt.Fprintln(e.stdout, line)
	}
}

// hookNames are what canon hook takes: git's hooks, sync (what the
// pre-commit framework's canon-sync calls) and check-all (canon-check-all).
var hookNames = append(append([]string{}, hooks.Names...), "sync", "check-all")

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:            "hook",
		Usage:           "the entry point hooks call: canon hook " + strings.Join(hookNames, "|") + " [ARGS...]; with no name it syncs to HEAD",
		ArgsUsage:       "NAME [ARGS...]",
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			name := c.Args().First()
			args := c.Args().Tail()
			if name == "" {
				name = "sync"
			}
			if r, err := gitsync.Discover(e.dir); err == nil {
				indexPathHint = relIndexPath(r)
			}
			if !contains(hookNames, name) {
				// A typo in a hook script must not pass silently: exit 2
				// fails a pre-commit hook and shows in every other.
				return fail(2, "there is no hook %q; canon hook takes %s", name, strings.Join(hookNames, ", "))
			}
			switch name {
			case "pre-commit":
				return preCommit(c, e)
			case "check-all":
				return checkAllHook(c, e)
			case "sync":
				// Under the pre-commit framework, canon-sync runs for every
				// post-* hook; its variables say which one, with git's
				// arguments.
				name, args = hooks.PreCommitEvent(os.Getenv)
			}
			postHook(c.Context, e, name, args)
			return nil
		},
	}
}

// postHook runs a post-* hook. A post-* hook never fails the git command:
// a failure is one line on stderr.
func postHook(ctx context.Context, e *env, name string, args []string) {
	_, err := hooks.Run(ctx, hooks.Event{Name: name, Args: args, Dir: e.dir},
		func(msg string) { e.notef("%s", msg) })
	if err != nil {
		hooks.Report(e.stderr, name, explainErr(err))
	}
}

// runPostHook is `canon hook post-*` as canon's shims run it (no global
// flag before hook), without building the command line interface: git
// waits for it after every commit and checkout, and the twenty commands'
// flags and their first run cost a cold process about 0.3 ms (ADR-0021).
// It does what the hook command does for those names; anything else
// reports false and goes through the CLI.
func runPostHook(e *env, args []string) bool {
	if len(args) < 3 || args[1] != "hook" || !strings.HasPrefix(args[2], "post-") || !contains(hookNames, args[2]) {
		return false
	}
	e.dir, e.quiet = ".", !isTerminal(e.stderr)
	ctx, stop := stopOnSignal(e.stderr)
	defer stop()
	if r, err := gitsync.Discover(e.dir); err == nil {
		indexPathHint = relIndexPath(r)
	}
	postHook(ctx, e, args[2], args[3:])
	return true
}

// checkAllHook is canon check --all for pre-commit run --all-files (CI,
// pre-commit.ci). Inside git commit, where git sets GIT_INDEX_FILE for its
// hooks, it leaves the commit to canon-check, which validates what is
// staged rather than every document.
func checkAllHook(c *cli.Context, e *env) error {
	if os.Getenv("CANON_SKIP") == "1" || os.Getenv("GIT_INDEX_FILE") != "" {
		return nil
	}
	s, err := e.openNoSync("canon hook check-all")
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Reconcile(c.Context); err != nil {
		return err
	}
	res, err := s.CheckAll(c.Context)
	if err != nil {
		return err
	}
	check.WriteText(e.stdout, res.Findings, len(res.Checked))
	if check.Summarize(res.Findings, len(res.Checked)).Errors > 0 {
		return &silentExit{code: 1}
	}
	return nil
}

// plainErr is an error already explained for a person; it keeps the
// cause, so that a hook's report can tell a damaged index from a passing
// failure.
type plainErr struct {
	msg   string
	cause error
}

func (p plainErr) Error() string { return p.msg }
func (p plainErr) Unwrap() error { return p.cause }

func explainErr(err error) error { return plainErr{explain(err), index.Explain(err, indexPathHint)} }

// relDir shows a folder inside the repository relative to its root.
func relDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return dir
	}
	return filepath.ToSlash(rel)
}

// preCommit validates what is staged. Validation errors refuse the commit;
// anything else going wrong is one line on stderr and the commit goes on,
// except an index another process holds past the wait: then nothing was
// validated, and a gate that opens when it is busy is no gate.
func preCommit(c *cli.Context, e *env) error {
	if os.Getenv("CANON_SKIP") == "1" {
		return nil
	}
	// git's diff of the staged set runs while the index opens.
	ahead := gitsync.AskStaged(c.Context, e.dir)
	defer ahead.Close()
	s, err := e.openNoSync("canon hook pre-commit")
	if err != nil {
		hooks.Report(e.stderr, "pre-commit", explainErr(err))
		return nil
	}
	defer s.Close()
	s.Store.Waiting = func(holder string) {
		if holder == "" {
			holder = "another canon process"
		}
		e.notef("pre-commit: waiting for the index, which %s is writing", holder)
	}
	if err := e.catchUp(c, s); err != nil {
		return preCommitFailed(e, err)
	}
	res, err := s.CheckStaged(c.Context, true, ahead)
	if err != nil {
		return preCommitFailed(e, err)
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

// preCommitFailed reports a check that could not run. An index locked past
// the wait refuses the commit, naming the holder and the ways out; any
// other failure is one line and the commit goes on (hooks fail open).
func preCommitFailed(e *env, err error) error {
	var le *index.LockedError
	if errors.As(err, &le) {
		fmt.Fprintf(e.stderr, "canon: commit refused: nothing was validated, because %s and did not finish in time; commit again when it is done (or skip canon: git commit --no-verify, CANON_SKIP=1)\n", le.Error())
		return &silentExit{code: 1}
	}
	hooks.Report(e.stderr, "pre-commit", explainErr(err))
	return nil
}
