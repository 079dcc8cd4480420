package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/workset"
)

func worksetCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "workset",
		Usage: "per-task slices of the graph under .cache/worksets: documents, plan, notes; stale when a member changes",
		Description: "A workset materialises a context pack for one task: workset.db (the index's schema, only the\n" +
			"selected rows, with why each is there), plan.md, notes.md and deliverable.md. Every sync marks\n" +
			"the worksets holding a changed document stale. See docs/worksets.md. CANON_NOW (RFC 3339) fixes\n" +
			"the clock for ages and TTLs.",
		Subcommands: []*cli.Command{
			worksetNewCommand(e),
			worksetListCommand(e),
			worksetShowCommand(e),
			worksetSearchCommand(e),
			worksetContextCommand(e),
			worksetRefreshCommand(e),
			worksetRmCommand(e),
			worksetGCCommand(e),
			worksetCheckpointCommand(e),
			worksetResumeCommand(e),
			worksetExportCommand(e),
			worksetImportCommand(e),
		},
	}
}

// worksetEnv opens the repository (catching up, which invalidates) and
// describes it to the workset package.
func (e *env) worksetEnv(c *cli.Context, who string) (*workset.Env, *gitsync.Session, error) {
	now, err := workset.ParseNow()
	if err != nil {
		return nil, nil, fail(2, "%v", err)
	}
	s, err := e.open(c, who)
	if err != nil {
		return nil, nil, err
	}
	head, err := s.Store.Meta(index.MetaHead)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	we := &workset.Env{
		Root: s.Repo.Root, Index: s.Store, Config: s.Cfg, Head: head, Now: now, Who: who,
		TemplateNow: headTime(c, s),
		Template: func(name string) (*graph.Template, error) {
			lib, err := loadLibrary(e)
			if err != nil {
				return nil, err
			}
			return lib.Resolve(name)
		},
		Git: func(ctx context.Context, args ...string) (string, error) {
			out, err := s.Repo.Git(ctx, args...)
			return string(out), err
		},
	}
	return we, s, nil
}

// catchUp brings the index to HEAD (the session tells the worksets), for
// commands that open the index without e.open.
func (e *env) catchUp(c *cli.Context, s *gitsync.Session) error {
	_, err := s.CatchUp(c.Context)
	return err
}

// worksetError turns the workset package's known errors into sentences.
func worksetError(err error) error {
	switch {
	case errors.Is(err, workset.ErrBadName):
		return fail(2, "%v", err)
	case errors.Is(err, workset.ErrNotFound), errors.Is(err, workset.ErrExists),
		errors.Is(err, workset.ErrEmpty), errors.Is(err, workset.ErrUnpromoted):
		return fail(1, "%v", err)
	}
	return graphError(err)
}

func nameArg(c *cli.Context, what string) (string, error) {
	if c.NArg() < 1 {
		return "", fail(2, "workset %s needs a workset name; canon workset list shows them", what)
	}
	name := c.Args().First()
	if err := workset.ValidateName(name); err != nil {
		return "", worksetError(err)
	}
	return name, nil
}

func worksetNewCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "materialise a workset from seeds, a search or a query template",
		ArgsUsage: "NAME",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "seed", Usage: "start from document `ID` (repeatable)"},
			&cli.StringFlag{Name: "query", Usage: "full-text search `TEXT` for seeds"},
			&cli.StringFlag{Name: "template", Usage: "select with the query template `NAME` (canon query list)"},
			&cli.IntFlag{Name: "depth", Usage: "hops from the seeds, `K`", DefaultText: "workset.depth, 1"},
			&cli.StringFlag{Name: "ttl", Usage: "lifetime, such as 72h, 3d or 2w", DefaultText: "workset.ttl, 72h"},
			&cli.StringFlag{Name: "agent", Usage: "who works in it, `NAME`"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "new")
			if err != nil {
				return err
			}
			if c.NArg() > 1 {
				return fail(2, "workset new takes one name; give seeds with --seed, a search with --query")
			}
			opt := workset.CreateOptions{Agent: c.String("agent")}
			opt.Query, opt.Template = strings.TrimSpace(c.String("query")), c.String("template")
			if opt.Query == "" && opt.Template == "" && len(c.StringSlice("seed")) == 0 {
				return fail(2, "workset new needs --seed ID, --query TEXT or --template NAME; for example canon workset new fix-retries --seed KB-TSK-0007")
			}
			if c.IsSet("depth") {
				d := c.Int("depth")
				if d < 0 || d > 10 {
					return fail(2, "--depth must be between 0 and 10")
				}
				opt.Depth = &d
			}
			if c.IsSet("ttl") {
				ttl, err := parseTTL(c.String("ttl"))
				if err != nil {
					return err
				}
				opt.TTL = ttl
			}
			we, s, err := e.worksetEnv(c, "canon workset new")
			if err != nil {
				return err
			}
			defer s.Close()
			opt.Seeds = []string{}
			for _, sd := range c.StringSlice("seed") {
				if rel, ok := relToRepo(s.Repo.Root, sd); ok {
					sd = rel
				}
				opt.Seeds = append(opt.Seeds, sd)
			}
			info, err := workset.Create(c.Context, we, name, opt)
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, info)
			}
			fmt.Fprintf(e.stdout, "created workset %s: %s, seeds %s, expires %s\n", info.Name, plural(info.Docs, "document"),
				strings.Join(info.Seeds, ", "), when(info.ExpiresAt, we.Now))
			fmt.Fprintf(e.stdout, "  %s/{plan.md,notes.md,deliverable.md}\n", info.Path)
			return nil
		},
	}
}

func parseTTL(s string) (time.Duration, error) {
	d, err := config.ParseTTL(s)
	if err != nil {
		return 0, fail(2, "--ttl %v", err)
	}
	return d, nil
}

func worksetListCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the worksets: documents, age, TTL left, stale and why, findings not yet promoted",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			we, s, err := e.worksetEnv(c, "canon workset list")
			if err != nil {
				return err
			}
			defer s.Close()
			list, err := workset.List(c.Context, we)
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"worksets": list})
			}
			if len(list) == 0 {
				fmt.Fprintln(e.stdout, "no worksets; canon workset new NAME --seed ID creates one")
				return nil
			}
			w := 4
			for _, in := range list {
				w = max(w, len(in.Name))
			}
			fmt.Fprintf(e.stdout, "%-*s  %4s  %-7s  %-9s  %-6s  %-16s  %s\n", w, "NAME", "DOCS", "AGE", "TTL LEFT", "STATE", "FINDINGS", "SEEDS")
			for _, in := range list {
				if in.CreatedAt.IsZero() {
					fmt.Fprintf(e.stdout, "%-*s  cannot be read: %s\n", w, in.Name, in.NotesError)
					continue
				}
				state := "fresh"
				if in.Stale {
					state = "stale"
				}
				left := "expired"
				if !in.Expired {
					left = span(time.Duration(in.TTLLeft) * time.Second)
				}
				fmt.Fprintf(e.stdout, "%-*s  %4d  %-7s  %-9s  %-6s  %-16s  %s\n", w, in.Name, in.Docs,
					span(time.Duration(in.AgeSeconds)*time.Second), left, state, findingsText(in), strings.Join(in.Seeds, ", "))
				printReasons(e.stdout, "    ", in.StaleReasons, 3)
			}
			return nil
		},
	}
}

func findingsText(in workset.Info) string {
	switch {
	case in.NotesError != "":
		return "notes unreadable"
	case in.Findings == 0:
		return "0"
	case in.Unpromoted == 0:
		return fmt.Sprintf("%d, all promoted", in.Findings)
	}
	return fmt.Sprintf("%d, %d unpromoted", in.Findings, in.Unpromoted)
}

func printReasons(w io.Writer, indent string, rs []workset.StaleReason, most int) {
	for i, r := range rs {
		if most > 0 && i == most {
			fmt.Fprintf(w, "%s… and %d more (canon workset show)\n", indent, len(rs)-i)
			return
		}
		fmt.Fprintf(w, "%sstale: %s\n", indent, r.String())
	}
}

func worksetShowCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a workset: manifest, members and why each is there, what changed, findings",
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "show")
			if err != nil {
				return err
			}
			we, s, err := e.worksetEnv(c, "canon workset show")
			if err != nil {
				return err
			}
			defer s.Close()
			d, err := workset.Show(c.Context, we, name)
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, d)
			}
			out := e.stdout
			fmt.Fprintf(out, "workset %s  (%s)\n", d.Name, d.Path)
			if d.Agent != "" {
				fmt.Fprintf(out, "agent    %s\n", d.Agent)
			}
			fmt.Fprintf(out, "built    %s from commit %s; ttl %s, expires %s\n", d.BuiltAt.Format("2006-01-02 15:04"), shortHash(d.Head), d.TTL, when(d.ExpiresAt, we.Now))
			fmt.Fprintf(out, "chosen   %s\n", specText(d.Spec, d.Settings))
			fmt.Fprintf(out, "size     %s, %s on disk (cap %d)\n", plural(d.Docs, "document"), bytesText(d.Bytes), d.Settings.MaxDocs)
			if d.Stale {
				fmt.Fprintln(out, "state    stale")
				printReasons(out, "  ", d.StaleReasons, 0)
			} else {
				fmt.Fprintln(out, "state    fresh")
			}
			fmt.Fprintln(out, "members")
			wid := 0
			for _, m := range d.Members {
				wid = max(wid, len(m.ID))
			}
			for _, m := range d.Members {
				why := "seed (" + m.Source + ")"
				if m.Via != nil {
					arrow := fmt.Sprintf("%s --%s--> this", m.Via.FromID, m.Via.Edge)
					if m.Via.Direction == "in" {
						arrow = fmt.Sprintf("this --%s--> %s", m.Via.Edge, m.Via.FromID)
					}
					why = fmt.Sprintf("distance %d: %s", m.Distance, arrow)
					if m.Source == workset.SourceEnrich {
						why += " (" + m.AddedBy + ")"
					}
				}
				fmt.Fprintf(out, "  %-*s  %s  [%s]  %s\n", wid, m.ID, m.Title, m.Kind, why)
			}
			fmt.Fprintf(out, "findings in notes.md: %s\n", findingsText(d.Info))
			for _, f := range d.Findings {
				state := "unpromoted"
				if f.Promoted {
					state = "promoted to " + f.DestPath
				}
				fmt.Fprintf(out, "  notes.md:%d  %s  %s: %s  (%s)\n", f.Line, f.Target, f.Kind, clipText(f.Text, 60), state)
			}
			return nil
		},
	}
}

func specText(sp workset.Spec, st workset.Settings) string {
	var parts []string
	if len(sp.Seeds) > 0 {
		parts = append(parts, "seeds "+strings.Join(sp.Seeds, ", "))
	}
	if sp.Query != "" {
		parts = append(parts, fmt.Sprintf("query %q", sp.Query))
	}
	if sp.Template != "" {
		parts = append(parts, "template "+sp.Template)
	}
	edges := "all edges"
	if len(st.Edges) > 0 {
		edges = strings.Join(st.Edges, ",")
	}
	parts = append(parts, fmt.Sprintf("depth %d over %s (%s)", st.Depth, edges, st.Direction))
	return strings.Join(parts, "; ")
}

func worksetSearchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search the workset first; below workset.min_hits hits the repository answers too (--enrich adds those near the workset)",
		ArgsUsage: "NAME QUERY",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "at most `N` hits"},
			&cli.BoolFlag{Name: "enrich", Usage: "add the repository's hits within workset.enrich_distance hops of a member, up to workset.max_docs"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "search")
			if err != nil {
				return err
			}
			q := strings.TrimSpace(strings.Join(c.Args().Tail(), " "))
			if q == "" {
				return fail(2, "workset search needs a query after the name; for example canon workset search %s \"retry\"", name)
			}
			if c.Int("limit") < 1 {
				return fail(2, "--limit must be at least 1")
			}
			we, s, err := e.worksetEnv(c, "canon workset search")
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := workset.Search(c.Context, we, name, q, workset.SearchOptions{Limit: c.Int("limit"), Enrich: c.Bool("enrich"), Who: "canon workset search"})
			if err != nil {
				return worksetError(err)
			}
			if res.Stale {
				e.notef("warning: workset %s is stale, its answers may be out of date (canon workset refresh %s):", name, name)
				printReasons(e.stderr, "  ", res.StaleReasons, 3)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, res)
			}
			if len(res.Hits) == 0 {
				fmt.Fprintf(e.stdout, "no matches for %q in the workset or the repository\n", q)
				return nil
			}
			for i, h := range res.Hits {
				section := ""
				if h.Section != "" {
					section = " › " + h.Section
				}
				from := h.From
				switch {
				case h.Added:
					from += fmt.Sprintf(", %s away, added", plural(*h.Distance, "hop"))
				case h.NotAdded == "size_cap":
					from += fmt.Sprintf(", %s away, not added: the workset is full", plural(*h.Distance, "hop"))
				case h.NotAdded == "too_far":
					from += ", not added: farther than workset.enrich_distance"
				}
				fmt.Fprintf(e.stdout, "%d. %s  %s%s  [%s]\n", i+1, h.ID, h.Title, section, from)
				fmt.Fprintf(e.stdout, "   %s:%d\n", index.QuotePath(h.Path), h.Line)
				if h.Snippet != "" {
					fmt.Fprintf(e.stdout, "   %s\n", h.Snippet)
				}
			}
			fromIndex := false
			for _, h := range res.Hits {
				fromIndex = fromIndex || h.From == workset.FromIndex
			}
			if fromIndex && !c.Bool("enrich") {
				fmt.Fprintln(e.stdout, "(few hits in the workset: the repository's index answered too; --enrich adds nearby ones to the workset)")
			}
			if len(res.Enriched) > 0 {
				fmt.Fprintf(e.stdout, "added %s to workset %s (now %d)\n", plural(len(res.Enriched), "document"), name, res.Docs)
			}
			return nil
		},
	}
}

func worksetContextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "a context pack from the workset's own documents: its seeds (and QUERY's hits in it), ranked, within a budget",
		ArgsUsage: "NAME [QUERY]",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "size of the pack in estimated `TOKENS`, ceil(characters/4) (0: no limit)", DefaultText: "context.budget, 4000"},
			&cli.StringFlag{Name: "format", Value: "md", Usage: "`md` (Markdown for a prompt) or json (see docs/context-pack.md)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "context")
			if err != nil {
				return err
			}
			asJSON, err := jsonFormat(c)
			if err != nil {
				return err
			}
			opt := workset.ContextOptions{Query: strings.TrimSpace(strings.Join(c.Args().Tail(), " "))}
			if c.IsSet("budget") {
				b := c.Int("budget")
				if b < 0 {
					return fail(2, "--budget must be 0 (no limit) or more")
				}
				opt.Budget = &b
			}
			we, s, err := e.worksetEnv(c, "canon workset context")
			if err != nil {
				return err
			}
			defer s.Close()
			p, info, err := workset.Context(c.Context, we, name, opt)
			if err != nil {
				return worksetError(err)
			}
			if info.Stale {
				e.notef("warning: workset %s is stale, this pack may be out of date (canon workset refresh %s):", name, name)
				printReasons(e.stderr, "  ", info.StaleReasons, 3)
			}
			if asJSON {
				return writeJSON(e.stdout, p)
			}
			return p.WriteMarkdown(e.stdout)
		},
	}
}

func worksetRefreshCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "refresh",
		Usage:     "rebuild the slice from the current index the way it was chosen; notes.md and deliverable.md are kept",
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "refresh")
			if err != nil {
				return err
			}
			we, s, err := e.worksetEnv(c, "canon workset refresh")
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := workset.Refresh(c.Context, we, name)
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, res)
			}
			fmt.Fprintf(e.stdout, "refreshed workset %s at %s: %s (%d joined, %d left); expires %s\n", name, shortHash(res.Head),
				plural(res.Docs, "document"), len(res.Added), len(res.Removed), when(res.ExpiresAt, we.Now))
			for _, k := range res.Added {
				fmt.Fprintf(e.stdout, "  + %s\n", k)
			}
			for _, k := range res.Removed {
				fmt.Fprintf(e.stdout, "  - %s\n", k)
			}
			if !res.PlanRewritten {
				fmt.Fprintln(e.stdout, "  plan.md was edited, so it was kept as it is")
			}
			fmt.Fprintln(e.stdout, "  notes.md and deliverable.md were kept")
			return nil
		},
	}
}

func worksetRmCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rm",
		Usage:     "remove a workset (refused while notes.md holds unpromoted findings, unless --force)",
		ArgsUsage: "NAME",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "remove it even with unpromoted findings"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "rm")
			if err != nil {
				return err
			}
			we, s, err := e.worksetEnv(c, "canon workset rm")
			if err != nil {
				return err
			}
			defer s.Close()
			info, err := workset.Remove(c.Context, we, name, c.Bool("force"))
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"removed": name, "unpromoted_lost": info.Unpromoted})
			}
			fmt.Fprintf(e.stdout, "removed workset %s", name)
			if info.Unpromoted > 0 {
				fmt.Fprintf(e.stdout, " and its %s", plural(info.Unpromoted, "unpromoted finding"))
			}
			fmt.Fprintln(e.stdout)
			return nil
		},
	}
}

func worksetGCCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gc",
		Usage: "remove the worksets whose TTL ran out; those with unpromoted findings stay unless --force",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "remove expired worksets even with unpromoted findings"},
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would be removed, remove nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			we, s, err := e.worksetEnv(c, "canon workset gc")
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := workset.GC(c.Context, we, workset.GCOptions{Force: c.Bool("force"), DryRun: c.Bool("dry-run")})
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, res)
			}
			verb := "removed"
			if c.Bool("dry-run") {
				verb = "would remove"
			}
			for _, r := range res.Removed {
				line := fmt.Sprintf("%s %s (expired %s)", verb, r.Name, when(r.ExpiresAt, we.Now))
				if r.Unpromoted > 0 {
					line += fmt.Sprintf(" with %s", plural(r.Unpromoted, "unpromoted finding"))
				}
				fmt.Fprintln(e.stdout, line)
			}
			for _, k := range res.Kept {
				fmt.Fprintf(e.stdout, "kept %s: %s; canon promote %s, or gc --force\n", k.Name, k.Reason, k.Name)
			}
			for _, d := range res.Debris {
				fmt.Fprintf(e.stdout, "%s debris %s\n", verb, d)
			}
			fmt.Fprintf(e.stdout, "%d removed, %d kept, %d not expired\n", len(res.Removed), len(res.Kept), res.Live)
			return nil
		},
	}
}

// span writes a duration the way a person reads it: 45m, 5h, 3d 4h.
func span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	days := int(d / (24 * time.Hour))
	if h := int(d%(24*time.Hour)) / int(time.Hour); h > 0 {
		return fmt.Sprintf("%dd %dh", days, h)
	}
	return fmt.Sprintf("%dd", days)
}

// when writes a time with how far it is from now.
func when(t, now time.Time) string {
	s := t.UTC().Format("2006-01-02 15:04")
	if t.After(now) {
		return s + " (in " + span(t.Sub(now)) + ")"
	}
	return s + " (" + span(now.Sub(t)) + " ago)"
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
