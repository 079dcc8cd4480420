package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/workset"
)

func promoteCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "promote",
		Usage:     "append a workset's findings to the canonical documents: worklog lines, kind sections, new ADRs",
		ArgsUsage: "NAME",
		Description: "Reads the findings of .cache/worksets/NAME/notes.md and appends each one to the document it\n" +
			"names: a worklog line (YYYY-MM-DD HH:MM [agent=NAME] text) at the end of its Worklog section, or a\n" +
			"list item under Decisions, Risks or Findings for decision:, risk: and finding:. updated: is set to\n" +
			"today by editing that one line. Writes are atomic and only inside the repository's canonical\n" +
			"roots; promoted findings are recorded in the workset, so running it again adds nothing. The index\n" +
			"is synced and canon check runs on the written files; nothing is committed. See docs/promote.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the unified diff of every file on stdout and write nothing"},
			&cli.StringFlag{Name: "to", Value: workset.ToSelf, Usage: "where findings go: self, parent, root (of the parent chain), or the `PATH` of one document"},
			&cli.StringFlag{Name: "scope", Usage: "move findings up a scope: `group` (the document the target's group: names) or global (context.scopes.global_document)"},
			&cli.StringFlag{Name: "agent", Usage: "the agent `NAME` in worklog lines", DefaultText: "the workset's agent"},
			&cli.BoolFlag{Name: "adr", Usage: "make each decision: finding a new ADR, linked both ways"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "promote takes one workset name; canon workset list shows them")
			}
			name := c.Args().First()
			if err := workset.ValidateName(name); err != nil {
				return worksetError(err)
			}
			to := c.String("to")
			if sc := c.String("scope"); sc != "" {
				if c.IsSet("to") {
					return fail(2, "--scope and --to both say where findings go; give one")
				}
				if sc != workset.ToGroup && sc != workset.ToGlobal {
					return fail(2, "--scope %s is not a scope to promote to; use group or global", sc)
				}
				to = sc
			}
			s, err := e.openNoSync("canon promote")
			if err != nil {
				return err
			}
			defer s.Close()
			// The index must hold the working tree as it is: targets are
			// looked up there, and the check compares with it.
			if _, err := s.Reconcile(c.Context); err != nil {
				return err
			}
			if to, err = promoteTo(s, to); err != nil {
				return fail(2, "--to %v; name self, parent, root, or a document inside the repository", err)
			}
			we, err := workset.NewEnv(c.Context, s.Repo.Root, s.Store, s.Cfg, "canon promote", s.Repo)
			if err != nil {
				return worksetError(err)
			}
			plan, err := workset.PlanPromote(c.Context, we, name, workset.PromoteOptions{
				To: to, Agent: c.String("agent"), ADR: c.Bool("adr"), Scope: s.Scope, GlobalDocument: s.Cfg.Context.Scopes.GlobalDocument,
			})
			if errors.Is(err, workset.ErrPromoteTarget) {
				flag := "--to"
				if c.IsSet("scope") {
					flag = "--scope " + c.String("scope") + ":"
				}
				return fail(2, "%s %s", flag, strings.TrimPrefix(err.Error(), workset.ErrPromoteTarget.Error()+": "))
			}
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("dry-run") {
				res := workset.DryRun(plan)
				if !c.Bool("json") {
					res.WriteOutcomes(e.stderr, "dry run")
					defer fmt.Fprintln(e.stderr, "dry run: nothing was written; the diff is on stdout")
				}
				return e.print(c, res)
			}
			res, err := workset.Promote(c.Context, s, plan)
			if err != nil {
				return err
			}
			if err := e.print(c, res); err != nil {
				return err
			}
			return res.Err()
		},
	}
}

// promoteTo reads --to: a scope word as it is, else a path made
// repository-relative.
func promoteTo(s *gitsync.Session, to string) (string, error) {
	switch to {
	case workset.ToSelf, workset.ToParent, workset.ToRoot, workset.ToGroup, workset.ToGlobal:
		return to, nil
	}
	return s.Repo.RepoPath(to)
}
