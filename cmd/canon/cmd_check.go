package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/check"
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
			s, err := e.openNoSync("canon check")
			if err != nil {
				return err
			}
			defer s.Close()
			if err := e.catchUp(c, s); err != nil {
				return err
			}
			var res *gitsync.CheckResult
			switch {
			case c.Bool("all") || newFrom != "":
				var rec *gitsync.Result
				if rec, err = s.Reconcile(c.Context); err != nil {
					return err
				}
				e.invalidate(c.Context, s, rec)
				if newFrom != "" {
					res, err = s.CheckNewFrom(c.Context, newFrom)
					if errors.Is(err, gitsync.ErrBadRevision) {
						return fail(2, "--new-from %s", strings.TrimPrefix(err.Error(), gitsync.ErrBadRevision.Error()+": "))
					}
				} else {
					res, err = s.CheckAll(c.Context)
				}
			case c.NArg() > 0:
				var paths []string
				for _, a := range c.Args().Slice() {
					p, perr := s.Repo.RepoPath(a)
					if perr != nil {
						return fail(2, "%v; name Markdown files inside the repository", perr)
					}
					paths = append(paths, p)
				}
				res, err = s.CheckPaths(c.Context, paths)
			default:
				res, err = s.CheckStaged(c.Context, true)
			}
			if err != nil {
				return err
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
