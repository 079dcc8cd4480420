package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/workset"
)

func queryCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "query",
		Usage: "run query templates: YAML in .canon/queries (anchors, expansion, filters, budget, sections) and the built-ins",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list the templates, built-in and the repository's",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					lib, err := loadLibrary(e)
					if err != nil {
						return err
					}
					type row struct {
						Name        string `json:"name"`
						Source      string `json:"source"`
						Description string `json:"description,omitempty"`
						Error       string `json:"error,omitempty"`
					}
					rows := []row{}
					for _, n := range lib.Names() {
						t, err := lib.Get(n)
						if err != nil {
							rows = append(rows, row{Name: n, Source: filepath.ToSlash(filepath.Join(graph.QueriesDir, n+".yaml")), Error: err.Error()})
							continue
						}
						rows = append(rows, row{Name: n, Source: t.Source, Description: strings.TrimSpace(t.Description)})
					}
					if c.Bool("json") {
						return writeJSON(e.stdout, map[string]any{"templates": rows})
					}
					wn, ws := 0, 0
					for _, r := range rows {
						wn, ws = max(wn, len(r.Name)), max(ws, len(r.Source))
					}
					for _, r := range rows {
						text := firstSentence(r.Description)
						if r.Error != "" {
							text = "invalid: " + r.Error
						}
						line := fmt.Sprintf("%-*s  %-*s  %s", wn, r.Name, ws, r.Source, text)
						fmt.Fprintln(e.stdout, strings.TrimRight(line, " "))
					}
					return nil
				},
			},
			{
				Name:      "show",
				Usage:     "print a template with what it extends resolved",
				ArgsUsage: "NAME",
				Flags:     []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return fail(2, "query show needs a template name; canon query list shows them")
					}
					lib, err := loadLibrary(e)
					if err != nil {
						return err
					}
					t, err := lib.Resolve(c.Args().First())
					if err != nil {
						return graphError(err)
					}
					if c.Bool("json") {
						return writeJSON(e.stdout, t)
					}
					y, err := t.YAML()
					if err != nil {
						return err
					}
					fmt.Fprintf(e.stdout, "# source: %s\n", t.Source)
					if t.Extends != "" {
						fmt.Fprintf(e.stdout, "# extends %s, resolved below\n", t.Extends)
					}
					_, err = e.stdout.Write(y)
					return err
				},
			},
			{
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
					lib, err := loadLibrary(e)
					if err != nil {
						return err
					}
					t, err := lib.Resolve(c.Args().First())
					if err != nil {
						return graphError(err)
					}
					if !c.IsSet("format") && t.Output.Format == "json" {
						c.Set("format", "json")
					}
					asJSON, err := jsonFormat(c)
					if err != nil {
						return err
					}
					s, err := e.open(c, "canon query run")
					if err != nil {
						return err
					}
					defer s.Close()
					ro := graph.RunOptions{Base: graph.OptionsFrom(s.Cfg.Context), Now: headTime(c, s), Workset: c.String("workset"),
						WorksetSeeds: func(ctx context.Context, name string) ([]string, error) {
							keys, err := workset.SeedKeys(ctx, &workset.Env{Root: s.Repo.Root}, name)
							if err != nil {
								return nil, worksetError(err)
							}
							return keys, nil
						}}
					for _, sd := range c.StringSlice("seed") {
						if rel, ok := relToRepo(s.Repo.Root, sd); ok {
							sd = rel
						}
						ro.Seeds = append(ro.Seeds, sd)
					}
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
					p, err := graph.New(s.Store).RunTemplate(c.Context, t, ro)
					if err != nil {
						return graphError(err)
					}
					if asJSON {
						return writeJSON(e.stdout, p)
					}
					return p.WriteMarkdown(e.stdout)
				},
			},
			{
				Name:      "validate",
				Usage:     "check template files (default: every template): YAML keys, extends, filters, values",
				ArgsUsage: "[FILE...]",
				Flags:     []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					lib, err := loadLibrary(e)
					if err != nil {
						return err
					}
					type result struct {
						Template string   `json:"template"`
						Source   string   `json:"source"`
						OK       bool     `json:"ok"`
						Errors   []string `json:"errors"`
					}
					var results []result
					check := func(name, source string, parseErr error) {
						r := result{Template: name, Source: source, Errors: []string{}}
						if parseErr != nil {
							r.Errors = append(r.Errors, parseErr.Error())
						} else if t, err := lib.Resolve(name); err != nil {
							r.Errors = append(r.Errors, err.Error())
						} else {
							for _, err := range t.Validate() {
								r.Errors = append(r.Errors, err.Error())
							}
						}
						r.OK = len(r.Errors) == 0
						results = append(results, r)
					}
					if c.NArg() == 0 {
						for _, n := range lib.Names() {
							t, err := lib.Get(n)
							src := filepath.ToSlash(filepath.Join(graph.QueriesDir, n+".yaml"))
							if t != nil {
								src = t.Source
							}
							check(n, src, err)
						}
					}
					for _, file := range c.Args().Slice() {
						data, err := os.ReadFile(file)
						if err != nil {
							return fail(1, "cannot read %s: %v", file, errors.Unwrap(err))
						}
						stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
						t, perr := graph.ParseTemplate(filepath.ToSlash(file), stem, data)
						if perr == nil {
							lib.Add(t)
						}
						check(stem, filepath.ToSlash(file), perr)
					}
					bad := 0
					for _, r := range results {
						if !r.OK {
							bad++
						}
					}
					if c.Bool("json") {
						if err := writeJSON(e.stdout, map[string]any{"results": results}); err != nil {
							return err
						}
					} else {
						for _, r := range results {
							label := r.Source
							if label == "builtin" {
								label = "builtin:" + r.Template + ".yaml"
							}
							if r.OK {
								fmt.Fprintf(e.stdout, "%s: ok\n", label)
								continue
							}
							for _, msg := range r.Errors {
								if !strings.HasPrefix(msg, r.Source) {
									msg = label + ": " + msg
								}
								fmt.Fprintln(e.stdout, msg)
							}
						}
					}
					if bad > 0 {
						return &silentExit{code: 1}
					}
					return nil
				},
			},
		},
	}
}

// loadLibrary reads the built-in templates and the repository's. It needs
// the repository's root, not its index.
func loadLibrary(e *env) (*graph.Library, error) {
	repo, err := gitsync.Discover(e.dir)
	if err != nil {
		return nil, err
	}
	var fsys = os.DirFS(filepath.Join(repo.Root, filepath.FromSlash(graph.QueriesDir)))
	return graph.LoadLibrary(graph.Builtin(), fsys)
}

// headTime is the commit time of HEAD, read when a template asks for it:
// "recent" counts back from the commit the index reflects, so that a run
// depends on the repository's state, not on the clock. Without a commit it
// is the clock.
func headTime(c *cli.Context, s *gitsync.Session) func() time.Time {
	return func() time.Time {
		out, err := s.Repo.Git(c.Context, "show", "-s", "--format=%cI", "HEAD")
		if err != nil {
			return time.Now()
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
		if err != nil {
			return time.Now()
		}
		return t
	}
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
