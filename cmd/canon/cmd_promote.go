package main

import (
	"errors"
	"fmt"
	"io"

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
			"names: a worklog line (YYYY-MM-DD HH:MM [agent=NAME] text) where it keeps its notes, as canon log\n" +
			"writes them (its Worklog, Backlog.md's Implementation Notes, ...), or a\n" +
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
			return e.with(c, "canon promote", func(s *gitsync.Session) (output, error) {
				to, err := promoteTo(s, to)
				if err != nil {
					return nil, fail(2, "--to %v; name self, parent, root, or a document inside the repository", err)
				}
				we, err := workset.NewEnv(c.Context, s.Repo.Root, s.Store, s.Cfg, "canon promote", s.Repo)
				if err != nil {
					return nil, worksetError(err)
				}
				res, err := workset.PromoteWorkset(c.Context, s, we, workset.PromoteArgs{
					Workset: name, To: to, Agent: c.String("agent"), ADR: c.Bool("adr"), Apply: !c.Bool("dry-run")})
				switch {
				case errors.Is(err, workset.ErrPromoteTarget):
					flag := "--to"
					if c.IsSet("scope") {
						flag = "--scope " + c.String("scope") + ":"
					}
					return nil, fail(2, "%s %s", flag, beyond(err, workset.ErrPromoteTarget))
				case err != nil:
					return nil, worksetError(err)
				case res.DryRun:
					return dryRun{res, e.stderr}, nil
				}
				return res, nil
			})
		},
	}
}

// dryRun prints promote --dry-run: the diff on stdout, then what would
// become of each finding on stderr.
type dryRun struct {
	*workset.Promoted
	stderr io.Writer
}

func (d dryRun) WriteText(w io.Writer) error {
	if err := d.Promoted.WriteText(w); err != nil {
		return err
	}
	d.WriteOutcomes(d.stderr, "dry run")
	_, err := fmt.Fprintln(d.stderr, "dry run: nothing was written; the diff is on stdout")
	return err
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
