package main

import (
	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
)

func queryCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "query",
		Usage: "run query templates: YAML in .canon/queries (anchors, expansion, filters, budget, sections) and the built-ins",
		Subcommands: []*cli.Command{{
			Name:  "list",
			Usage: "list the templates, built-in and the repository's",
			Flags: []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				lib, err := e.library()
				if err != nil {
					return err
				}
				return e.print(c, lib.List())
			},
		}, {
			Name:      "show",
			Usage:     "print a template with what it extends resolved",
			ArgsUsage: "NAME",
			Flags:     []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return fail(2, "query show needs a template name; canon query list shows them")
				}
				t, err := e.template(c.Args().First())
				if err != nil {
					return err
				}
				return e.print(c, t)
			},
		}, {
			Name:      "run",
			Usage:     "run a template and print its context pack",
			ArgsUsage: "NAME",
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "seed", Usage: "start from document `ID` instead of the template's anchors (repeatable)"},
				&cli.IntFlag{Name: "depth", Usage: "override the template's expansion depth `K`"},
				&cli.IntFlag{Name: "budget", Usage: "override the template's budget, in estimated `TOKENS`"},
				&cli.IntFlag{Name: "max-nodes", Usage: "override the template's node cap `N`"},
				&cli.StringFlag{Name: "workset", Usage: "the workset `NAME` an anchor \"workset: $workset\" means (workflow-resume)"},
				&cli.StringFlag{Name: "format", Usage: "`md` or json (default: the template's output.format)"},
				jsonFlag,
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return fail(2, "query run needs a template name; canon query list shows them")
				}
				t, err := e.template(c.Args().First())
				if err != nil {
					return err
				}
				if !c.IsSet("format") && t.Output.Format == "json" {
					_ = c.Set("format", "json") // a flag of this command: it cannot fail
				}
				if err := packFormat(c); err != nil {
					return err
				}
				ro := graph.RunOptions{Workset: c.String("workset")}
				for _, f := range []struct {
					name string
					dst  **int
				}{{"depth", &ro.Depth}, {"budget", &ro.Budget}, {"max-nodes", &ro.MaxNodes}} {
					if c.IsSet(f.name) {
						v := c.Int(f.name)
						if v < 0 {
							return fail(2, "--%s must be 0 or more", f.name)
						}
						*f.dst = &v
					}
				}
				return e.withGraph(c, "canon query run", func(s *gitsync.Session, _ *graph.Graph) (output, error) {
					ro.Seeds = seeds(c, s)
					return usecase.TemplateRun(c.Context, s, t, ro, worksetError)
				})
			},
		}, {
			Name:      "validate",
			Usage:     "check template files (default: every template): YAML keys, extends, filters, values",
			ArgsUsage: "[FILE...]",
			Flags:     []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				lib, err := e.library()
				if err != nil {
					return err
				}
				v, err := lib.Validate(c.Args().Slice())
				if err != nil {
					return err
				}
				return e.print(c, v)
			},
		}},
	}
}

// library reads the built-in templates and the repository's. It needs the
// repository's root, not its index.
func (e *env) library() (*graph.Library, error) {
	repo, err := gitsync.Discover(e.dir)
	if err != nil {
		return nil, err
	}
	return graph.RepoLibrary(repo.Root)
}

// template resolves a template of the library by name.
func (e *env) template(name string) (*graph.Template, error) {
	lib, err := e.library()
	if err != nil {
		return nil, err
	}
	t, err := lib.Resolve(name)
	if err != nil {
		return nil, graphError(err)
	}
	return t, nil
}
