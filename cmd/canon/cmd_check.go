package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/check"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate frontmatter and links: what is staged (the pre-commit hook), --all (CI), or the files (and folders) named",
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
			if err := twoFormats(c, check.FormatJSON); err != nil {
				return err
			} else if c.Bool("json") {
				format = check.FormatJSON
			}
			switch format {
			case check.FormatText, check.FormatJSON, check.FormatSARIF, check.FormatGitHub:
			default:
				return fail(2, "--format %s is not a format; use text, json, sarif or github", format)
			}
			// The paths as given; made repository-relative once the
			// session knows the repository.
			args := gitsync.CheckArgs{All: c.Bool("all"), NewFrom: c.String("new-from"), Paths: gitsync.Distinct(c.Args().Slice())}
			fix := c.Bool("fix")
			if err := args.Validate(); err != nil {
				return fail(2, "%v", err)
			}
			switch {
			case c.Bool("dry-run") && !fix:
				return fail(2, "--dry-run goes with --fix")
			case fix && format != check.FormatText && format != check.FormatJSON:
				return fail(2, "--fix prints text or JSON; leave out --format %s", format)
			}
			if fix && c.NArg() == 0 && args.NewFrom == "" {
				args.All = true // --fix alone fixes every document
			}
			if !args.All && args.NewFrom == "" && c.NArg() == 0 {
				// What is staged: git's diff runs while the index opens.
				args.Staged = gitsync.AskStaged(c.Context, e.dir)
				defer args.Staged.Close()
			}
			if format == check.FormatJSON {
				_ = c.Set("json", "true") // a flag of this command: it cannot fail
			}
			return e.withIndex(c, "canon check", func(s *gitsync.Session) (output, error) {
				if _, err := s.CatchUp(c.Context); err != nil {
					return nil, err
				}
				for i, a := range args.Paths {
					p, err := s.Repo.RepoPath(a)
					if err != nil {
						return nil, fail(2, "%v; name Markdown files inside the repository", err)
					}
					args.Paths[i] = p
				}
				res, err := s.Check(c.Context, args)
				var many *gitsync.TooManyPathsError
				if errors.As(err, &many) {
					return nil, fail(2, "%v; check every document with --all, or what a branch changed with --new-from REV", err)
				}
				if errors.Is(err, gitsync.ErrBadRevision) {
					return nil, fail(2, "--new-from %s", beyond(err, gitsync.ErrBadRevision))
				}
				if err != nil || !c.Bool("fix") {
					return &check.Report{Result: res, Format: format, Version: version, Severities: s.Cfg.Check.Rules}, err
				}
				return usecase.Fix(c.Context, s, res.Findings, c.Bool("dry-run"), func() (*check.Result, error) {
					return s.Check(c.Context, gitsync.CheckArgs{All: args.All, NewFrom: args.NewFrom, Paths: args.Paths})
				})
			})
		},
	}
}
