package main

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index/filter"
)

// Flags shared by the commands that expand from seeds. Their defaults come
// from the context section of the configuration, so a flag only overrides
// when it is given. With capsFromConfig false (graph neighbors), the caps
// default to none.
func expandFlags(capsFromConfig bool) []cli.Flag {
	perNode, nodes := "context.max_per_node, 8", "context.max_nodes, 40"
	if !capsFromConfig {
		perNode, nodes = "no cap", "no cap"
	}
	return []cli.Flag{
		&cli.IntFlag{Name: "depth", Usage: "hops from the seeds, `K`", DefaultText: "context.depth, 1"},
		&cli.StringFlag{Name: "edges", Usage: "edge types to follow, comma-separated `TYPES` such as parent,blocks,decision_ref", DefaultText: "context.edges, all"},
		&cli.StringFlag{Name: "direction", Usage: "follow edges `out`, in or both", DefaultText: "context.direction, both"},
		&cli.IntFlag{Name: "max-per-node", Usage: "new neighbours one node may add, `N` (0: no cap)", DefaultText: perNode},
		&cli.IntFlag{Name: "max-nodes", Usage: "nodes in the result, seeds included, `N` (0: no cap)", DefaultText: nodes},
	}
}

// formatFlag is --format md|json of the commands that print a pack.
var formatFlag = &cli.StringFlag{Name: "format", Value: "md", Usage: "`md` (Markdown for a prompt) or json (see docs/context-pack.md)"}

// twoFormats refuses --json beside an explicit --format other than json.
func twoFormats(c *cli.Context, json string) error {
	if f := c.String("format"); c.Bool("json") && c.IsSet("format") && f != json {
		return fail(2, "--json and --format %s ask for two formats; give one", f)
	}
	return nil
}

// packFormat reads --format md|json: json is --json.
func packFormat(c *cli.Context) error {
	switch f := c.String("format"); f {
	case "", "md", "markdown":
		return twoFormats(c, "json")
	case "json":
		return c.Set("json", "true")
	default:
		return fail(2, "--format %q is not md or json", f)
	}
}

// overrides are the expansion flags given, to lay over the configuration.
func overrides(c *cli.Context) graph.Overrides {
	return graph.Overrides{
		Depth: intFlag(c, "depth"), MaxPerNode: intFlag(c, "max-per-node"), MaxNodes: intFlag(c, "max-nodes"), Budget: intFlag(c, "budget"),
		Edges: stringFlag(c, "edges"), Direction: stringFlag(c, "direction"),
	}
}

// intFlag and stringFlag are a flag's value when it is given, else nil.
func intFlag(c *cli.Context, name string) *int {
	if !c.IsSet(name) {
		return nil
	}
	v := c.Int(name)
	return &v
}

func stringFlag(c *cli.Context, name string) *string {
	if !c.IsSet(name) {
		return nil
	}
	v := c.String(name)
	return &v
}

// seeds reads --seed: paths made repository-relative, other references as
// they are; nil when none is given.
func seeds(c *cli.Context, s *gitsync.Session) []string {
	var out []string
	for _, sd := range c.StringSlice("seed") {
		out = append(out, s.Repo.Ref(sd))
	}
	return out
}

// graphError turns the graph package's known errors into sentences.
func graphError(err error) error {
	var fe *filter.Error
	var te *graph.TemplateError
	var oe *graph.OutError
	var opt *graph.OptionError
	switch {
	case errors.As(err, &opt):
		return fail(2, "--%v", opt)
	case errors.Is(err, graph.ErrNoWorkset):
		return fail(2, "%s", err.Error())
	case errors.As(err, &fe), errors.As(err, &te):
		return fail(1, "%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	case errors.As(err, &oe):
		return fail(2, "--out: %v; export into a folder inside the repository (a git-ignored one such as .cache/), or to stdout", oe)
	}
	return err
}

// withGraph is with for the graph commands: one call on the graph of a
// session caught up with HEAD, its known errors made sentences.
func (e *env) withGraph(c *cli.Context, who string, call func(s *gitsync.Session, g *graph.Graph) (output, error)) error {
	return e.with(c, who, func(s *gitsync.Session) (output, error) {
		v, err := call(s, graph.New(s.Store))
		if err != nil {
			return nil, graphError(err)
		}
		return v, nil
	})
}

func graphCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "graph",
		Usage: "walk the document graph: neighbours, shortest paths, statistics, exports",
		Subcommands: []*cli.Command{{
			Name:      "neighbors",
			Aliases:   []string{"neighbours"},
			Usage:     "list the documents within --depth hops of one, breadth first",
			ArgsUsage: "ID",
			Flags:     append(expandFlags(false), jsonFlag),
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return fail(2, "graph neighbors needs one document; for example canon graph neighbors KB-TSK-0007 --depth 2")
				}
				return e.withGraph(c, "canon graph neighbors", func(s *gitsync.Session, g *graph.Graph) (output, error) {
					return usecase.Neighbors(c.Context, s, s.Repo.Ref(c.Args().First()), overrides(c))
				})
			},
		}, {
			Name:      "path",
			Usage:     "show a shortest path between two documents",
			ArgsUsage: "FROM TO",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "edges", Usage: "edge types to follow, comma-separated `TYPES` (default: all)"},
				&cli.StringFlag{Name: "direction", Value: "both", Usage: "follow edges `out`, in or both"},
				&cli.IntFlag{Name: "max-depth", Value: 8, Usage: "longest path to look for, in hops `N`"},
				jsonFlag,
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 2 {
					return fail(2, "graph path needs two documents; for example canon graph path KB-TSK-0007 ADR-0005")
				}
				dir, err := graph.ParseDirection(c.String("direction"))
				if err != nil {
					return fail(2, "--%s", err)
				}
				return e.withGraph(c, "canon graph path", func(s *gitsync.Session, g *graph.Graph) (output, error) {
					return g.Path(c.Context, c.Args().Get(0), c.Args().Get(1), graph.PathOptions{
						Edges: graph.ParseEdges(c.String("edges")), Direction: dir, MaxDepth: c.Int("max-depth"),
					})
				})
			},
		}, {
			Name:  "stats",
			Usage: "count nodes and edges by kind and type, dangling references, components and cycles",
			Flags: []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				return e.withGraph(c, "canon graph stats", func(s *gitsync.Session, g *graph.Graph) (output, error) {
					return g.Stats(c.Context)
				})
			},
		}, {
			Name:  "export",
			Usage: "write the graph (or what --root reaches) as dot, mermaid or jsonl, in key order",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "format", Value: "dot", Usage: "`dot`, mermaid or jsonl (graph_nodes.jsonl and graph_edges.jsonl)"},
				&cli.StringSliceFlag{Name: "root", Usage: "export only what expansion from `ID` reaches (repeatable)"},
				&cli.IntFlag{Name: "depth", Value: 1, Usage: "with --root: hops from the roots"},
				&cli.StringFlag{Name: "edges", Usage: "edge types to export, comma-separated `TYPES` (default: all)"},
				&cli.StringFlag{Name: "direction", Value: "both", Usage: "with --root: follow edges `out`, in or both"},
				&cli.StringFlag{Name: "out", Usage: "dot, mermaid: write to `PATH` instead of stdout; jsonl: the folder (default: the current one)"},
				jsonFlag,
			},
			Action: func(c *cli.Context) error {
				format, out := c.String("format"), c.String("out")
				switch format {
				case graph.FormatDOT, graph.FormatMermaid, graph.FormatJSONL:
					if err := twoFormats(c, "json"); err != nil {
						return err
					}
				default:
					return fail(2, "--format %q is not dot, mermaid or jsonl", format)
				}
				dir, err := graph.ParseDirection(c.String("direction"))
				if err != nil {
					return fail(2, "--%s", err)
				}
				if c.Int("depth") < 0 {
					return fail(2, "--depth must be 0 or more")
				}
				if out == "" && format != graph.FormatJSONL && c.Bool("json") {
					format = graph.FormatJSON
				}
				return e.withGraph(c, "canon graph export", func(s *gitsync.Session, g *graph.Graph) (output, error) {
					opt := graph.ExportOptions{Roots: c.StringSlice("root"), Depth: c.Int("depth"), Edges: graph.ParseEdges(c.String("edges")), Direction: dir}
					res, err := g.ExportTo(c.Context, opt, format, out, s.Repo.Root, e.stdout)
					if res == nil {
						return nil, err // the export itself went to stdout
					}
					return res, err
				})
			},
		}},
	}
}

func contextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "build a context pack: search and/or seed ids, expand over the graph, rank, quote within a token budget",
		ArgsUsage: "[QUERY]",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "seed", Usage: "start from document `ID` too (repeatable)"},
			&cli.StringFlag{Name: "for", Usage: "the pack for `TASK`: it and its neighbourhood plus the knowledge in its scope (global, its groups, task, path), the budget split per scope (context.scopes)"},
			&cli.IntFlag{Name: "budget", Usage: "size of the pack in estimated `TOKENS`, ceil(characters/4) (0: no limit)", DefaultText: "context.budget, 4000"},
			&cli.BoolFlag{Name: "generated", Usage: "let generated documents (dashboards, index stubs, lists of links, context.exclude) be seeds and neighbours", DefaultText: "context.include_generated, false"},
			noVectorsFlag, formatFlag, jsonFlag,
		}, expandFlags(true)...),
		Action: func(c *cli.Context) error {
			a := usecase.ContextArgs{Query: strings.TrimSpace(strings.Join(c.Args().Slice(), " ")), For: c.String("for"), Overrides: overrides(c)}
			if c.IsSet("generated") {
				g := c.Bool("generated")
				a.Generated = &g
			}
			if err := packFormat(c); err != nil {
				return err
			}
			return e.withGraph(c, "canon context", func(s *gitsync.Session, _ *graph.Graph) (output, error) {
				useVectors(c, s)
				a.Seeds = seeds(c, s)
				if a.For != "" {
					a.For = s.Repo.Ref(a.For)
				}
				return usecase.Context(c.Context, s, a)
			})
		},
	}
}

// workCommand is canon ready or canon blocked: flags -> one graph use
// case (answer) -> its rendering, the same as the MCP tool of that name.
func workCommand(e *env, name, usage string, answer func(*graph.Graph, context.Context, graph.WorkQuery) (output, error)) *cli.Command {
	return &cli.Command{
		Name:  name,
		Usage: usage,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "kind", Usage: "only items of kind `K` (repeatable; default: the work kinds, work.kinds)"},
			&cli.IntFlag{Name: "limit", Usage: "list the first `N` items and count the rest", DefaultText: "work.limit, 20"},
			&cli.BoolFlag{Name: "all", Usage: "list every item"},
			hereFlag,
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.Int("limit") < 0 || (c.IsSet("limit") && c.Int("limit") == 0) {
				return fail(2, "--limit is %d; give a positive number, or --all for every item", c.Int("limit"))
			}
			return e.withGraph(c, "canon "+name, func(s *gitsync.Session, g *graph.Graph) (output, error) {
				q, err := usecase.Work(c.Context, s, usecase.WorkArgs{Kinds: c.StringSlice("kind"), Limit: c.Int("limit"), All: c.Bool("all"), Here: c.Bool("here")})
				if err != nil {
					return nil, err
				}
				return answer(g, c.Context, q)
			})
		},
	}
}

func readyCommand(e *env) *cli.Command {
	return workCommand(e, "ready", "list open work items none of whose blockers (blocks, blocked_by, depends_on, also up the parent chain) is open, leaving out those another branch or worktree has taken (--here: all)",
		func(g *graph.Graph, ctx context.Context, q graph.WorkQuery) (output, error) { return g.Ready(ctx, q) })
}

func blockedCommand(e *env) *cli.Command {
	return workCommand(e, "blocked", "list open work items that wait for open items, and what they wait for, and which blockers another branch or worktree has done",
		func(g *graph.Graph, ctx context.Context, q graph.WorkQuery) (output, error) { return g.Blocked(ctx, q) })
}

func scopeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "scope",
		Usage: "scoped knowledge (frontmatter scope: global, group, task, path)",
		Subcommands: []*cli.Command{{
			Name:  "suggest",
			Usage: "list knowledge that has proved useful beyond its scope: task knowledge referenced by N or more tasks, group knowledge inherited by N or more groups",
			Flags: []cli.Flag{&cli.IntFlag{Name: "min", Value: 3, Usage: "how many tasks or groups make a candidate, `N`"}, jsonFlag},
			Action: func(c *cli.Context) error {
				if c.Int("min") < 1 {
					return fail(2, "--min must be at least 1")
				}
				return e.with(c, "canon scope suggest", func(s *gitsync.Session) (output, error) {
					o, err := s.Store.ScopeOverview(c.Context)
					if err != nil {
						return nil, err
					}
					return &graph.Suggestions{Min: c.Int("min"), Suggestions: nonNil(graph.SuggestScopes(o, c.Int("min")))}, nil
				})
			},
		}},
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
