package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/workset"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate frontmatter and links: what is staged (the pre-commit hook), --all (CI), or the files named",
		ArgsUsage: "[PATH...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "validate every document and list every problem (for CI)"},
			&cli.StringFlag{Name: "new-from", Usage: "only the problems the change since the merge base with `REV` introduces (CI on a pull request)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json, sarif or github"},
			&cli.BoolFlag{Name: "fix", Usage: "make the fixes that are mechanical and have one answer (every document, or the paths named), then check again"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --fix: print the diff, write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if c.Bool("json") {
				format = "json"
			}
			switch format {
			case "text", "json", "sarif", "github":
			default:
				return fail(2, "--format %s is not a format; use text, json, sarif or github", format)
			}
			if c.Bool("all") && c.NArg() > 0 {
				return fail(2, "--all checks everything; give either --all or paths, not both")
			}
			newFrom := c.String("new-from")
			if newFrom != "" && (c.Bool("all") || c.NArg() > 0) {
				return fail(2, "--new-from checks what a branch changed; give it without --all and without paths")
			}
			fix := c.Bool("fix")
			if c.Bool("dry-run") && !fix {
				return fail(2, "--dry-run goes with --fix")
			}
			if fix && format != "text" && format != "json" {
				return fail(2, "--fix prints text or JSON; leave out --format %s", format)
			}
			all := c.Bool("all") || (fix && c.NArg() == 0 && newFrom == "")
			var ahead *gitsync.StagedAhead
			if !all && newFrom == "" && c.NArg() == 0 {
				// What is staged: git's diff runs while the index opens.
				ahead = gitsync.AskStaged(c.Context, e.dir)
				defer ahead.Close()
			}
			s, err := e.openNoSync("canon check")
			if err != nil {
				return err
			}
			defer s.Close()
			if err := e.catchUp(c, s); err != nil {
				return err
			}
			res, err := e.runCheck(c, s, all, newFrom, ahead)
			if err != nil {
				return err
			}
			if fix {
				return e.fixFindings(c, s, res, format == "json", func() (*gitsync.CheckResult, error) {
					return e.runCheck(c, s, all, newFrom, nil)
				})
			}
			if err := writeFindings(e, format, res, s.Cfg.Check.Rules); err != nil {
				return err
			}
			if check.Summarize(res.Findings, len(res.Checked)).Errors > 0 {
				return &silentExit{code: 1}
			}
			return nil
		},
	}
}

// runCheck runs the check the arguments ask for: every document (all),
// what a branch changed (newFrom), the named files, or what is staged.
func (e *env) runCheck(c *cli.Context, s *gitsync.Session, all bool, newFrom string, ahead *gitsync.StagedAhead) (*gitsync.CheckResult, error) {
	var res *gitsync.CheckResult
	var err error
	switch {
	case all || newFrom != "":
		if _, err = s.Reconcile(c.Context); err != nil {
			return nil, err
		}
		if newFrom != "" {
			res, err = s.CheckNewFrom(c.Context, newFrom)
			if errors.Is(err, gitsync.ErrBadRevision) {
				return nil, fail(2, "--new-from %s", strings.TrimPrefix(err.Error(), gitsync.ErrBadRevision.Error()+": "))
			}
		} else {
			res, err = s.CheckAll(c.Context)
		}
	case c.NArg() > 0:
		var paths []string
		for _, a := range c.Args().Slice() {
			p, perr := s.Repo.RepoPath(a)
			if perr != nil {
				return nil, fail(2, "%v; name Markdown files inside the repository", perr)
			}
			paths = append(paths, p)
		}
		res, err = s.CheckPaths(c.Context, paths)
	default:
		res, err = s.CheckStaged(c.Context, true, ahead)
	}
	return res, err
}

// fixFindings makes (or with --dry-run shows) the fixes the findings
// carry, syncs the files written, and checks again: the exit status is
// that second check's.
func (e *env) fixFindings(c *cli.Context, s *gitsync.Session, res *gitsync.CheckResult, asJSON bool, again func() (*gitsync.CheckResult, error)) error {
	plan, err := workset.PlanFixes(s.Repo.Root, s.Scope, res.Findings)
	if err != nil {
		return err
	}
	if c.Bool("dry-run") {
		if asJSON {
			return writeJSON(e.stdout, map[string]any{"dry_run": true, "fixed": nonNil(plan.Fixed), "skipped": plan.Skipped, "diff": plan.Diff()})
		}
		fmt.Fprint(e.stdout, plan.Diff())
		fmt.Fprintf(e.stdout, "%s in %s would be fixed; nothing was written\n", plural(len(plan.Fixed), "problem"), plural(len(plan.Files), "file"))
		writeSkipped(e.stdout, plan.Skipped)
		return nil
	}
	written, werr := plan.Write()
	if len(written) > 0 {
		if _, err := s.SyncPaths(c.Context, written); err != nil {
			return err
		}
	}
	if werr != nil {
		return fmt.Errorf("%w (written before that: %s)", werr, strings.Join(written, ", "))
	}
	after, err := again()
	if err != nil {
		return err
	}
	if asJSON {
		fs := after.Findings
		if fs == nil {
			fs = []check.Finding{}
		}
		if err := writeJSON(e.stdout, map[string]any{"fixed": nonNil(plan.Fixed), "written": nonNil(written), "skipped": plan.Skipped,
			"findings": fs, "summary": check.Summarize(fs, len(after.Checked))}); err != nil {
			return err
		}
	} else {
		fmt.Fprint(e.stdout, plan.Diff())
		fmt.Fprintf(e.stdout, "fixed %s in %s\n", plural(len(plan.Fixed), "problem"), plural(len(written), "file"))
		writeSkipped(e.stdout, plan.Skipped)
		if err := writeFindings(e, "text", after, s.Cfg.Check.Rules); err != nil {
			return err
		}
	}
	if check.Summarize(after.Findings, len(after.Checked)).Errors > 0 {
		return &silentExit{code: 1}
	}
	return nil
}

func writeSkipped(w io.Writer, skipped []workset.SkippedFix) {
	for _, sk := range skipped {
		fmt.Fprintf(w, "not fixed: %s:%d:%d %s: %s\n", index.QuotePath(sk.Finding.Path), sk.Finding.Line, sk.Finding.Col, sk.Finding.Rule, sk.Why)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func writeFindings(e *env, format string, res *gitsync.CheckResult, severities map[string]string) error {
	switch format {
	case "json":
		if !res.NewOnly {
			return check.WriteJSON(e.stdout, res.Findings, len(res.Checked))
		}
		fs := res.Findings
		if fs == nil {
			fs = []check.Finding{}
		}
		out := map[string]any{"findings": fs, "summary": check.Summarize(fs, len(res.Checked)), "new_only": true, "old": res.Old}
		if res.Base != "" {
			out["base"] = res.Base
		}
		return writeJSON(e.stdout, out)
	case "sarif":
		return check.WriteSARIF(e.stdout, res.Findings, version, severities)
	case "github":
		check.WriteGitHub(e.stdout, res.Findings)
		check.WriteGitHubSummary(e.stdout, res.Findings, len(res.Checked))
		writeOld(e.stdout, res)
		return nil
	}
	if res.Base != "" && len(res.Checked) == 0 {
		fmt.Fprintf(e.stdout, "no document differs from the merge base %.10s\n", res.Base)
		return nil
	}
	if res.NewOnly && len(res.Findings) == 0 && len(res.Checked) > 0 {
		fmt.Fprintf(e.stdout, "no new problems in %s\n", plural(len(res.Checked), "file"))
	} else {
		check.WriteText(e.stdout, res.Findings, len(res.Checked))
	}
	writeOld(e.stdout, res)
	return nil
}

// writeOld sums up in one line the problems a new-only check did not list
// because the changed files had them before.
func writeOld(w io.Writer, res *gitsync.CheckResult) {
	if !res.NewOnly || res.Old == 0 {
		return
	}
	were := "problems were"
	if res.Old == 1 {
		were = "problem was"
	}
	fmt.Fprintf(w, "%d %s already there in the files you changed; canon check --all lists them\n", res.Old, were)
}
