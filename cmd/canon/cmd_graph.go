package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/renameio/v2"
	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// Flags shared by the commands that expand from seeds. Their defaults come
// from the context section of the configuration, so a flag only overrides
// when it is given.
// With capsFromConfig false (graph neighbors), the caps default to none.
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

// packOptions lays the command line over the configuration.
func packOptions(c *cli.Context, s *gitsync.Session) (graph.PackOptions, error) {
	opt := graph.OptionsFrom(s.Cfg.Context)
	if c.IsSet("depth") {
		opt.Depth = c.Int("depth")
	}
	if opt.Depth < 0 || opt.Depth > 10 {
		return opt, fail(2, "--depth must be between 0 and 10")
	}
	if c.IsSet("edges") {
		opt.Edges = graph.ParseEdges(c.String("edges"))
	}
	if c.IsSet("direction") {
		d, err := graph.ParseDirection(c.String("direction"))
		if err != nil {
			return opt, fail(2, "--%s", err)
		}
		opt.Direction = d
	}
	if c.IsSet("max-per-node") {
		opt.MaxPerNode = c.Int("max-per-node")
	}
	if c.IsSet("max-nodes") {
		opt.MaxNodes = c.Int("max-nodes")
	}
	if opt.MaxPerNode < 0 || opt.MaxNodes < 0 {
		return opt, fail(2, "--max-per-node and --max-nodes must be 0 or more")
	}
	if c.IsSet("budget") {
		opt.Budget = c.Int("budget")
		if opt.Budget < 0 {
			return opt, fail(2, "--budget must be 0 (no limit) or more")
		}
	}
	return opt, nil
}

// graphError turns the graph package's known errors into sentences.
func graphError(err error) error {
	var nf *graph.NotFoundError
	var amb *graph.AmbiguousError
	var fe *graph.FilterError
	var te *graph.TemplateError
	switch {
	case errors.As(err, &nf):
		return fail(1, "no document is called %q; try canon search %q", nf.Ref, nf.Ref)
	case errors.As(err, &amb):
		return fail(1, "%s", amb.Error())
	case errors.Is(err, graph.ErrNoWorkset):
		return fail(2, "%s", err.Error())
	case errors.As(err, &fe), errors.As(err, &te):
		return fail(1, "%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return err
}

func graphCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "graph",
		Usage: "walk the document graph: neighbours, shortest paths, statistics, exports",
		Subcommands: []*cli.Command{
			graphNeighborsCommand(e),
			graphPathCommand(e),
			graphStatsCommand(e),
			graphExportCommand(e),
		},
	}
}

func graphNeighborsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "neighbors",
		Aliases:   []string{"neighbours"},
		Usage:     "list the documents within --depth hops of one, breadth first",
		ArgsUsage: "ID",
		Flags:     append(expandFlags(false), jsonFlag),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "graph neighbors needs one document; for example canon graph neighbors KB-TSK-0007 --depth 2")
			}
			s, err := e.open(c, "canon graph neighbors")
			if err != nil {
				return err
			}
			defer s.Close()
			opt, err := packOptions(c, s)
			if err != nil {
				return err
			}
			if !c.IsSet("max-nodes") {
				opt.MaxNodes = 0
			}
			if !c.IsSet("max-per-node") {
				opt.MaxPerNode = 0
			}
			g := graph.New(s.Store)
			root := c.Args().First()
			if rel, ok := relToRepo(s.Repo.Root, root); ok {
				root = rel
			}
			ex, err := g.Expand(c.Context, []string{root}, graph.ExpandOptions{
				Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction, MaxPerNode: opt.MaxPerNode, MaxNodes: opt.MaxNodes,
			})
			if err != nil {
				return graphError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, neighborsJSON{
					Root: ex.Nodes[0].DocRef, Depth: opt.Depth, Edges: nonNil(opt.Edges), Direction: opt.Direction,
					Nodes: ex.Nodes[1:], NodeCapped: ex.NodeCapped, FanoutCapped: ex.FanoutCapped,
				})
			}
			printNeighbors(e.stdout, ex)
			return nil
		},
	}
}

// neighborsJSON is the --json shape of graph neighbors.
type neighborsJSON struct {
	Root         index.DocRef    `json:"root"`
	Depth        int             `json:"depth"`
	Edges        []string        `json:"edges"`
	Direction    graph.Direction `json:"direction"`
	Nodes        []graph.Reached `json:"nodes"`
	NodeCapped   bool            `json:"node_capped"`
	FanoutCapped int             `json:"fanout_capped"`
}

func describeRef(r index.DocRef) string {
	tag := r.Kind
	if r.State != "" {
		tag += ", " + r.State
	}
	return fmt.Sprintf("%s  %s  [%s]", r.ID, r.Title, tag)
}

func printNeighbors(w io.Writer, ex *graph.Expansion) {
	fmt.Fprintln(w, describeRef(ex.Nodes[0].DocRef))
	depth := 0
	for _, n := range ex.Nodes[1:] {
		if n.Depth != depth {
			depth = n.Depth
			fmt.Fprintf(w, "depth %d\n", depth)
		}
		arrow := "→"
		if n.Via.Direction == graph.In {
			arrow = "←"
		}
		from := ""
		if n.Depth > 1 {
			from = "  (from " + n.Via.FromID + ")"
		}
		fmt.Fprintf(w, "  %-12s %s %s%s\n", n.Via.Type, arrow, describeRef(n.DocRef), from)
	}
	fmt.Fprintf(w, "%s within %s", plural(len(ex.Nodes)-1, "neighbour"), plural(depth, "hop"))
	if ex.NodeCapped {
		fmt.Fprint(w, "; stopped at --max-nodes")
	}
	if ex.FanoutCapped > 0 {
		fmt.Fprintf(w, "; --max-per-node cut the neighbours of %s", plural(ex.FanoutCapped, "node"))
	}
	fmt.Fprintln(w)
}

func graphPathCommand(e *env) *cli.Command {
	return &cli.Command{
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
			s, err := e.open(c, "canon graph path")
			if err != nil {
				return err
			}
			defer s.Close()
			g := graph.New(s.Store)
			res, err := g.Path(c.Context, c.Args().Get(0), c.Args().Get(1), graph.PathOptions{
				Edges: graph.ParseEdges(c.String("edges")), Direction: dir, MaxDepth: c.Int("max-depth"),
			})
			if err != nil {
				return graphError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, res)
			}
			if !res.Found {
				fmt.Fprintf(e.stdout, "no path from %s to %s within %s\n", res.From.ID, res.To.ID, plural(c.Int("max-depth"), "hop"))
				return nil
			}
			for _, st := range res.Steps {
				switch {
				case st.Via == nil:
					fmt.Fprintln(e.stdout, describeRef(st.DocRef))
				case st.Via.Direction == graph.In:
					fmt.Fprintf(e.stdout, "  <--%s-- %s\n", st.Via.Type, describeRef(st.DocRef))
				default:
					fmt.Fprintf(e.stdout, "  --%s--> %s\n", st.Via.Type, describeRef(st.DocRef))
				}
			}
			fmt.Fprintln(e.stdout, plural(len(res.Steps)-1, "hop"))
			return nil
		},
	}
}

func graphStatsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "count nodes and edges by kind and type, dangling references, components and cycles",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			s, err := e.open(c, "canon graph stats")
			if err != nil {
				return err
			}
			defer s.Close()
			st, err := graph.New(s.Store).Stats(c.Context)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, st)
			}
			w := e.stdout
			fmt.Fprintf(w, "nodes            %s%s\n", thousands(st.Nodes), counts(st.NodesByKind))
			fmt.Fprintf(w, "edges            %s%s\n", thousands(st.Edges), counts(st.EdgesByType))
			fmt.Fprintf(w, "dangling         %d%s\n", st.Dangling, counts(st.DanglingByType))
			fmt.Fprintf(w, "ambiguous        %d%s\n", st.Ambiguous, counts(st.AmbiguousByType))
			fmt.Fprintf(w, "components       %s weakly connected; the largest has %s; %d isolated\n",
				thousands(st.Components), plural(st.LargestComponent, "node"), st.Isolated)
			printCycles(w, "parent cycles", st.ParentCycles)
			printCycles(w, "blocking cycles", st.BlockingCycles)
			return nil
		},
	}
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "  (" + strings.Join(parts, ", ") + ")"
}

func printCycles(w io.Writer, label string, cs []graph.Cycle) {
	if len(cs) == 0 {
		fmt.Fprintf(w, "%-16s none\n", label)
		return
	}
	fmt.Fprintf(w, "%-16s %d\n", label, len(cs))
	for _, cy := range cs {
		ids := make([]string, len(cy.Nodes))
		for i, n := range cy.Nodes {
			ids[i] = n.ID
		}
		if cy.Simple {
			fmt.Fprintf(w, "  %s → %s\n", strings.Join(ids, " → "), ids[0])
		} else {
			fmt.Fprintf(w, "  %s (tangled: more than one cycle)\n", strings.Join(ids, ", "))
		}
	}
}

func graphExportCommand(e *env) *cli.Command {
	return &cli.Command{
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
			format := c.String("format")
			switch format {
			case "dot", "mermaid", "jsonl":
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
			s, err := e.open(c, "canon graph export")
			if err != nil {
				return err
			}
			defer s.Close()
			opt := graph.ExportOptions{
				Roots: c.StringSlice("root"), Depth: c.Int("depth"), Edges: graph.ParseEdges(c.String("edges")), Direction: dir,
			}
			return writeExport(c, e, s.Repo.Root, graph.New(s.Store), opt, format)
		},
	}
}

// writeExport runs an export into files written atomically (jsonl, or
// --out) or onto stdout.
func writeExport(c *cli.Context, e *env, root string, g *graph.Graph, opt graph.ExportOptions, format string) error {
	out := c.String("out")
	var files []*renameio.PendingFile
	defer func() {
		for _, f := range files {
			f.Cleanup()
		}
	}()
	create := func(path string) (io.Writer, error) {
		if err := safepath.Writable(path, root); err != nil {
			return nil, fail(2, "--out: %v; export into a folder inside the repository (a git-ignored one such as .cache/), or to stdout", err)
		}
		f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		files = append(files, f)
		return f, nil
	}
	var sink graph.Sink
	var paths []string
	switch {
	case format == "jsonl":
		dir := out
		if dir == "" {
			dir = "."
		}
		if err := safepath.MkdirAll(dir, 0o755, root); err != nil {
			return fail(2, "--out: %v; export into a folder inside the repository (a git-ignored one such as .cache/)", err)
		}
		paths = []string{filepath.Join(dir, "graph_nodes.jsonl"), filepath.Join(dir, "graph_edges.jsonl")}
		nw, err := create(paths[0])
		if err != nil {
			return err
		}
		ew, err := create(paths[1])
		if err != nil {
			return err
		}
		sink = graph.JSONL(nw, ew)
	default:
		w := e.stdout
		if out != "" {
			paths = []string{out}
			f, err := create(out)
			if err != nil {
				return err
			}
			w = f
		}
		switch {
		case out == "" && c.Bool("json"):
			sink = graph.JSON(w)
		case format == "mermaid":
			sink = graph.Mermaid(w)
		default:
			sink = graph.DOT(w)
		}
	}
	res, err := g.Export(c.Context, opt, sink)
	if err != nil {
		return graphError(err)
	}
	for _, f := range files {
		if err := f.CloseAtomicallyReplace(); err != nil {
			return err
		}
	}
	if len(paths) == 0 {
		return nil
	}
	for i := range paths {
		paths[i] = filepath.ToSlash(paths[i])
	}
	if c.Bool("json") {
		return writeJSON(e.stdout, exportJSON{Format: format, Files: paths, Exported: res})
	}
	if format == "jsonl" {
		fmt.Fprintf(e.stdout, "wrote %s (%s) and %s (%s)\n", paths[0], plural(res.Nodes, "node"), paths[1], plural(res.Edges, "edge"))
	} else {
		fmt.Fprintf(e.stdout, "wrote %s (%s, %s)\n", paths[0], plural(res.Nodes, "node"), plural(res.Edges, "edge"))
	}
	if res.Capped {
		fmt.Fprintln(e.stdout, "the expansion from --root stopped at 10,000 nodes")
	}
	return nil
}

// exportJSON is the --json summary of an export written to files.
type exportJSON struct {
	Format string   `json:"format"`
	Files  []string `json:"files"`
	*graph.Exported
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
			&cli.StringFlag{Name: "format", Value: "md", Usage: "`md` (Markdown for a prompt) or json (see docs/context-pack.md)"},
			jsonFlag,
		}, expandFlags(true)...),
		Action: func(c *cli.Context) error {
			q := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
			seeds := c.StringSlice("seed")
			if task := c.String("for"); task != "" {
				if q != "" || len(seeds) > 0 {
					return fail(2, "--for builds the pack of one task; give it without a query and without --seed")
				}
				return scopedContext(c, e, task)
			}
			if q == "" && len(seeds) == 0 {
				return fail(2, "context needs a query or --seed ID; for example canon context \"webhook retries\" --seed KB-TSK-0007")
			}
			asJSON, err := jsonFormat(c)
			if err != nil {
				return err
			}
			s, err := e.open(c, "canon context")
			if err != nil {
				return err
			}
			defer s.Close()
			opt, err := packOptions(c, s)
			if err != nil {
				return err
			}
			opt.Query = q
			for _, sd := range seeds {
				if rel, ok := relToRepo(s.Repo.Root, sd); ok {
					sd = rel
				}
				opt.Seeds = append(opt.Seeds, sd)
			}
			p, err := graph.New(s.Store).Pack(c.Context, opt)
			if err != nil {
				return graphError(err)
			}
			if asJSON {
				return writeJSON(e.stdout, p)
			}
			return p.WriteMarkdown(e.stdout)
		},
	}
}

// scopedContext is canon context --for TASK.
func scopedContext(c *cli.Context, e *env, task string) error {
	asJSON, err := jsonFormat(c)
	if err != nil {
		return err
	}
	s, err := e.open(c, "canon context")
	if err != nil {
		return err
	}
	defer s.Close()
	opt, err := packOptions(c, s)
	if err != nil {
		return err
	}
	if rel, ok := relToRepo(s.Repo.Root, task); ok {
		task = rel
	}
	p, err := graph.New(s.Store).ScopedPack(c.Context, graph.ScopedArgs{
		For: task, Options: opt, Shares: s.Cfg.Context.Scopes,
		CommitPaths: func(ctx context.Context, t index.DocRef) ([]string, error) {
			return s.Repo.CommitPaths(ctx, t.ID, 200)
		},
	})
	if err != nil {
		return graphError(err)
	}
	if asJSON {
		return writeJSON(e.stdout, p)
	}
	return p.WriteMarkdown(e.stdout)
}

// jsonFormat reads --format md|json and --json.
func jsonFormat(c *cli.Context) (bool, error) {
	switch f := c.String("format"); f {
	case "", "md", "markdown":
		return c.Bool("json"), nil
	case "json":
		return true, nil
	default:
		return false, fail(2, "--format %q is not md or json", f)
	}
}

func readyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "ready",
		Usage: "list open items none of whose blockers (blocks, blocked_by, depends_on, also up the parent chain) is open",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "kind", Usage: "only items of kind `K` (repeatable)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			w, err := work(c, e, "canon ready")
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"ready": w.Ready})
			}
			items := make([]graph.Item, len(w.Ready))
			copy(items, w.Ready)
			widths := itemWidths(items)
			for _, it := range items {
				printItem(e.stdout, it, widths)
			}
			fmt.Fprintf(e.stdout, "%d ready, %d blocked (canon blocked)\n", len(w.Ready), len(w.Blocked))
			return nil
		},
	}
}

func blockedCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "blocked",
		Usage: "list open items that wait for open items, and what they wait for",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "kind", Usage: "only items of kind `K` (repeatable)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			w, err := work(c, e, "canon blocked")
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"blocked": w.Blocked})
			}
			items := make([]graph.Item, len(w.Blocked))
			for i, b := range w.Blocked {
				items[i] = b.Item
			}
			widths := itemWidths(items)
			for _, b := range w.Blocked {
				printItem(e.stdout, b.Item, widths)
				for _, bl := range b.Blockers {
					how := bl.Edge
					if bl.Via != "" {
						how += ", through " + bl.ViaID
					}
					fmt.Fprintf(e.stdout, "    waits for %s (%s): %s  [%s]\n", bl.ID, bl.State, bl.Title, how)
				}
				if len(b.Blockers) == 0 {
					fmt.Fprintln(e.stdout, "    its state is Blocked; no open blocker is recorded")
				}
				if b.InCycle {
					fmt.Fprintln(e.stdout, "    in a blocking cycle: it waits, through others, for itself")
				}
			}
			fmt.Fprintf(e.stdout, "%d blocked, %d ready (canon ready)\n", len(w.Blocked), len(w.Ready))
			return nil
		},
	}
}

func work(c *cli.Context, e *env, who string) (*graph.Work, error) {
	s, err := e.open(c, who)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return graph.New(s.Store).Work(c.Context, graph.WorkOptions{States: s.Cfg.States, Kinds: c.StringSlice("kind")})
}

type widths struct{ id, prio, state int }

func itemWidths(items []graph.Item) widths {
	var w widths
	for _, it := range items {
		w.id = max(w.id, len(it.ID))
		w.prio = max(w.prio, len(it.Priority))
		w.state = max(w.state, len(it.State))
	}
	return w
}

func printItem(out io.Writer, it graph.Item, w widths) {
	prio := it.Priority
	if prio == "" {
		prio = "-"
	}
	fmt.Fprintf(out, "%-*s  %-*s  %-*s  %s  [%s]\n", w.id, it.ID, max(w.prio, 1), prio, w.state, it.State, it.Title, it.Kind)
}

func scopeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "scope",
		Usage: "scoped knowledge (frontmatter scope: global, group, task, path)",
		Subcommands: []*cli.Command{{
			Name:  "suggest",
			Usage: "list knowledge that has proved useful beyond its scope: task knowledge referenced by N or more tasks, group knowledge inherited by N or more groups",
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "min", Value: 3, Usage: "how many tasks or groups make a candidate, `N`"},
				jsonFlag,
			},
			Action: func(c *cli.Context) error {
				if c.Int("min") < 1 {
					return fail(2, "--min must be at least 1")
				}
				s, err := e.open(c, "canon scope suggest")
				if err != nil {
					return err
				}
				defer s.Close()
				o, err := s.Store.ScopeOverview(c.Context)
				if err != nil {
					return err
				}
				sug := graph.SuggestScopes(o, c.Int("min"))
				if c.Bool("json") {
					if sug == nil {
						sug = []graph.ScopeSuggestion{}
					}
					return writeJSON(e.stdout, map[string]any{"min": c.Int("min"), "suggestions": sug})
				}
				if len(sug) == 0 {
					fmt.Fprintf(e.stdout, "no knowledge is used by %d or more tasks or groups beyond its scope\n", c.Int("min"))
					return nil
				}
				for _, g := range sug {
					up := g.Up
					if g.Up == "group" {
						up = "group " + g.Group
					}
					what := "tasks"
					from := g.Scope + " knowledge"
					if g.Scope == "group" {
						what = "groups inherit it"
						from = "knowledge of group " + g.Group
					}
					fmt.Fprintf(e.stdout, "%s  %s (%s) → %s: %d %s: %s\n", g.ID, g.Title, from, up, len(g.Users), what, strings.Join(g.Users, ", "))
				}
				fmt.Fprintln(e.stdout, "move one with canon promote WORKSET --scope group|global, or set its scope: in the frontmatter")
				return nil
			},
		}},
	}
}
