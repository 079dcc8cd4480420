package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/doctext"
	"github.com/canon-md/canon/index/search"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "write .canon/config.yaml (if there is none): the commented defaults and what canon learns from the repository; build the index",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "observe", Usage: "learn from the repository again and show the learned block the configuration would get (a dry run)"},
			&cli.BoolFlag{Name: "write", Usage: "with --observe: write the learned block into the configuration, leaving the rest of the file as it is"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.Bool("write") && !c.Bool("observe") {
				return fail(2, "--write goes with --observe: canon init --observe --write")
			}
			opt := gitsync.InitOptions{Observe: c.Bool("observe"), Write: c.Bool("write")}
			return e.withIndex(c, "canon init", func(s *gitsync.Session) (output, error) { return usecase.Init(c.Context, s, opt) })
		},
	}
}

func indexCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "bring the index up to date with the working tree (--full: rebuild it from nothing)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "full", Usage: "rebuild from nothing instead of reading only what changed"},
			&cli.BoolFlag{Name: "optimize", Usage: "merge the full-text index into one segment, as a rebuild leaves it (searches slow down a little as syncs add segments)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			switch {
			case c.Bool("optimize") && c.Bool("full"):
				return fail(2, "--full and --optimize do not go together: a rebuild leaves the full-text index in one segment already; drop one of them")
			case c.Bool("optimize"):
				return e.withIndex(c, "canon index --optimize", func(s *gitsync.Session) (output, error) { return s.Optimize(c.Context) })
			case !c.Bool("full"):
				return e.withIndex(c, "canon index", func(s *gitsync.Session) (output, error) { return s.Reconcile(c.Context) })
			}
			s, recreated, err := gitsync.OpenToRebuild(c.Context, e.dir, "canon index --full")
			if recreated {
				e.notef("the index database was damaged; removing it and building a new one")
			}
			return e.printed(c, func(s *gitsync.Session) (output, error) {
				res, err := s.Rebuild(c.Context, "")
				return gitsync.Built{Result: res}, err
			})(e.opened(s, err))
		},
	}
}

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show where the index is, the commit it reflects, its counts and whether it is behind",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			return e.withIndex(c, "canon status", func(s *gitsync.Session) (output, error) {
				s.Vouched(c.Context) // a listener that answers spares the count of edited files
				return s.Status(c.Context)
			})
		},
	}
}

func searchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "full-text search over sections, ranked by bm25",
		ArgsUsage: "QUERY",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "at most `N` hits"},
			&cli.StringFlag{Name: "kind", Usage: "only documents of kind `K` (task, epic, adr, doc, ...)"},
			&cli.StringFlag{Name: "namespace", Usage: "only documents of namespace `NS` (a Kano product, a folder in namespaces:)"},
			branchesFlag, noVectorsFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			q := strings.Join(c.Args().Slice(), " ")
			if strings.TrimSpace(q) == "" {
				return fail(2, "search needs a query; for example canon search \"token refresh\"")
			}
			if c.Int("limit") < 1 {
				return fail(2, "--limit must be at least 1")
			}
			return e.with(c, "canon search", func(s *gitsync.Session) (output, error) {
				useVectors(c, s)
				f, err := search.Search(c.Context, s.Store, q, search.Options{Limit: c.Int("limit"), Kind: c.String("kind"), Namespace: c.String("namespace")})
				if err != nil || !c.Bool("branches") {
					return f, err
				}
				return foundOnBranches(c.Context, s, f)
			})
		},
	}
}

func showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one document: frontmatter, edges out and in, sections, problems",
		ArgsUsage: "ID|UID|PATH",
		Flags: []cli.Flag{jsonFlag, &cli.BoolFlag{Name: "text", Usage: "include each section's text"},
			&cli.IntFlag{Name: "budget", Usage: "with --text, keep about `TOKENS` of section text (0: all)"}, branchesFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "show needs one document: an id, uid, node key or path; for example canon show KB-TSK-0042")
			}
			return e.with(c, "canon show", func(s *gitsync.Session) (output, error) {
				if c.Int("budget") < 0 {
					return nil, fail(2, "--budget is %d; give a positive number of tokens, or 0 for all", c.Int("budget"))
				}
				v, err := s.Show(c.Context, s.Repo.Ref(c.Args().First()), c.Bool("text"))
				if err != nil {
					return nil, err
				}
				usecase.ClipText(v, c.Int("budget"))
				if !c.Bool("branches") {
					return doctext.View{DocView: v}, nil
				}
				return usecase.VersionsOn(c.Context, s, v)
			})
		},
	}
}

func problemsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "problems",
		Usage: "list every problem of every document, by the rules of canon check --all: path:line:col: severity rule: message",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			return e.with(c, "canon problems", func(s *gitsync.Session) (output, error) { return s.Problems(c.Context) })
		},
	}
}
