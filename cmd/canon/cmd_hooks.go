package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/clirun"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
)

func hooksCommand(e *env) *cli.Command {
	hooksPath := &cli.StringFlag{Name: "hooks-path", Usage: "install into `DIR` (inside the repository) and make it core.hooksPath"}
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or inspect canon's git hooks",
		Subcommands: []*cli.Command{{
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
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) {
					return hooks.Setup(c.Context, r, hooks.InstallOptions{HooksPath: c.String("hooks-path"), Force: c.Bool("force"), Manager: m})
				})
			},
		}, {
			Name:  "uninstall",
			Usage: "remove canon's shims, putting back the hooks they chained byte for byte, and canon's entries in lefthook, husky and pre-commit configurations",
			Flags: []cli.Flag{hooksPath, jsonFlag},
			Action: func(c *cli.Context) error {
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) { return hooks.Teardown(c.Context, r, c.String("hooks-path")) })
			},
		}, {
			Name:  "status",
			Usage: "say whether canon will run on the next commit and checkout, through what, and what stands in the way",
			Flags: []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) { return hooks.Inspect(c.Context, r) })
			},
		}},
	}
}

// withRepo is with for the commands that need the repository, not its
// index.
func (e *env) withRepo(c *cli.Context, call func(r *gitsync.Repo) (output, error)) error {
	r, err := gitsync.Discover(e.dir)
	if err != nil {
		return err
	}
	v, err := call(r)
	if err != nil {
		return err
	}
	return e.print(c, v)
}

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:            "hook",
		Usage:           "the entry point hooks call: canon hook " + strings.Join(hooks.Entries, "|") + " [ARGS...]; with no name it syncs to HEAD",
		ArgsUsage:       "NAME [ARGS...]",
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			name := c.Args().First()
			if name == "" {
				name = "sync"
			}
			if !slices.Contains(hooks.Entries, name) {
				// A typo in a hook script must not pass silently: exit 2
				// fails a pre-commit hook and shows in every other.
				return fail(2, "there is no hook %q; canon hook takes %s", name, strings.Join(hooks.Entries, ", "))
			}
			if code := e.hook(c.Context, name, c.Args().Tail()); code != 0 {
				return clirun.Quiet(code)
			}
			return nil
		},
	}
}

// hook runs canon hook NAME ARGS and returns its exit status.
func (e *env) hook(ctx context.Context, name string, args []string) int {
	if r, err := gitsync.Discover(e.dir); err == nil {
		indexPathHint = r.ShownIndexPath()
	}
	code, err := hooks.Dispatch(ctx, e.dir, name, args,
		hooks.Front{Stdin: os.Stdin, Stdout: e.stdout, Stderr: e.stderr, Open: e.openNoSync, Explain: explainErr})
	if err != nil {
		fmt.Fprintf(e.stderr, "canon: error: %s\n", explain(err))
		return 1
	}
	return code
}

// isPostHook says args are canon hook post-* as canon's shims run it (no
// global flag before hook): that runs without building the command line
// interface, which git would wait for after every commit and checkout
// (ADR-0021).
func isPostHook(args []string) bool {
	return len(args) >= 3 && args[1] == "hook" && strings.HasPrefix(args[2], "post-") && slices.Contains(hooks.Entries, args[2])
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
