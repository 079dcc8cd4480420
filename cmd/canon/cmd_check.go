package main

import (
	"fmt"

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
			&cli.BoolFlag{Name: "all", Usage: "validate every document (for CI)"},
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
			case c.Bool("all"):
				var rec *gitsync.Result
				if rec, err = s.Reconcile(c.Context); err != nil {
					return err
				}
				e.invalidate(c.Context, s, rec)
				res, err = s.CheckAll(c.Context)
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
				res, err = s.CheckStaged(c.Context)
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
		return check.WriteJSON(e.stdout, res.Findings, len(res.Checked))
	case "sarif":
		return check.WriteSARIF(e.stdout, res.Findings, version, severities)
	case "github":
		check.WriteGitHub(e.stdout, res.Findings)
		s := check.Summarize(res.Findings, len(res.Checked))
		fmt.Fprintf(e.stdout, "canon check: %d errors, %d warnings in %d files\n", s.Errors, s.Warnings, s.Files)
		return nil
	}
	check.WriteText(e.stdout, res.Findings, len(res.Checked))
	return nil
}
