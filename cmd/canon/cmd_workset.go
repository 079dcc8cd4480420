package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
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
			worksetCmd(e, "new", "NAME", "materialise a workset from seeds, a search or a query template", []cli.Flag{
				&cli.StringSliceFlag{Name: "seed", Usage: "start from document `ID` (repeatable)"},
				&cli.StringFlag{Name: "query", Usage: "full-text search `TEXT` for seeds"},
				&cli.StringFlag{Name: "template", Usage: "select with the query template `NAME` (canon query list)"},
				&cli.IntFlag{Name: "depth", Usage: "hops from the seeds, `K`", DefaultText: "workset.depth, 1"},
				&cli.StringFlag{Name: "ttl", Usage: "lifetime, such as 72h, 3d or 2w", DefaultText: "workset.ttl, 72h"},
				&cli.StringFlag{Name: "agent", Usage: "who works in it, `NAME`"},
			}, worksetNew),
			worksetCmd(e, "list", "", "list the worksets: documents, age, TTL left, stale and why, findings not yet promoted", nil,
				func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
					list, err := workset.List(c.Context, we)
					return workset.Listing(list), err
				}),
			worksetCmd(e, "show", "NAME", "show a workset: manifest, members and why each is there, what changed, findings", nil,
				func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
					return workset.Show(c.Context, we, c.Args().First())
				}),
			worksetCmd(e, "search", "NAME QUERY", "search the workset first; below workset.min_hits hits the repository answers too (--enrich adds those near the workset)", []cli.Flag{
				&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "at most `N` hits"},
				&cli.BoolFlag{Name: "enrich", Usage: "add the repository's hits within workset.enrich_distance hops of a member, up to workset.max_docs"},
			}, worksetSearch),
			worksetCmd(e, "context", "NAME [QUERY]", "a context pack from the workset's own documents: its seeds (and QUERY's hits in it), ranked, within a budget", []cli.Flag{
				&cli.IntFlag{Name: "budget", Usage: "size of the pack in estimated `TOKENS`, ceil(characters/4) (0: no limit)", DefaultText: "context.budget, 4000"},
				formatFlag,
			}, worksetContext),
			worksetCmd(e, "refresh", "NAME", "rebuild the slice from the current index the way it was chosen; notes.md and deliverable.md are kept", nil,
				func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
					return workset.Refresh(c.Context, we, c.Args().First())
				}),
			worksetCmd(e, "rm", "NAME", "remove a workset (refused while notes.md holds unpromoted findings, unless --force)", []cli.Flag{
				&cli.BoolFlag{Name: "force", Usage: "remove it even with unpromoted findings"},
			}, func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
				info, err := workset.Remove(c.Context, we, c.Args().First(), c.Bool("force"))
				return (*workset.Removed)(info), err
			}),
			worksetCmd(e, "gc", "", "remove the worksets whose TTL ran out; those with unpromoted findings stay unless --force", []cli.Flag{
				&cli.BoolFlag{Name: "force", Usage: "remove expired worksets even with unpromoted findings"},
				&cli.BoolFlag{Name: "dry-run", Usage: "say what would be removed, remove nothing"},
			}, func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
				return workset.GC(c.Context, we, workset.GCOptions{Force: c.Bool("force"), DryRun: c.Bool("dry-run")})
			}),
			// Resumable work (ADR-0019): checkpoint, resume, export, import.
			worksetCmd(e, "checkpoint", "NAME", "record where the work stands: HEAD, the members' versions, plan progress, findings, a note", []cli.Flag{
				&cli.StringFlag{Name: "note", Usage: "what this point is (\"tests pass, API next\")"},
				&cli.StringFlag{Name: "agent", Usage: "who records it"},
			}, func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
				cp, err := workset.RecordCheckpoint(c.Context, we, c.Args().First(), workset.CheckpointOptions{Note: c.String("note"), Agent: c.String("agent")})
				return workset.Checkpointed{Checkpoint: cp, Name: c.Args().First()}, err
			}),
			worksetCmd(e, "resume", "NAME", "what the next session needs: the goal, plan progress and the next step, decisions, what changed since the last checkpoint", []cli.Flag{
				&cli.IntFlag{Name: "budget", Value: 2000, Usage: "the pack's size in estimated tokens (characters / 4); 0: no bound"},
			}, func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
				if c.Int("budget") < 0 {
					return nil, fail(2, "--budget must be 0 or more")
				}
				return workset.BuildResume(c.Context, we, c.Args().First(), workset.ResumeOptions{Budget: c.Int("budget")})
			}),
			worksetCmd(e, "export", "NAME", "write a hand-off file: the resume pack, plan.md and notes.md in one Markdown file anyone can read", []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to FILE (inside the repository) rather than to standard output"},
				&cli.IntFlag{Name: "budget", Value: 4000, Usage: "the resume pack's size in estimated tokens; 0: no bound"},
			}, func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
				return workset.ExportTo(c.Context, we, c.Args().First(), workset.ResumeOptions{Budget: c.Int("budget")}, c.String("output"))
			}),
			worksetCmd(e, "import", "FILE", "make a workset from a hand-off file: documents selected from this clone's index; plan, notes and checkpoints kept", []cli.Flag{
				&cli.StringFlag{Name: "name", Usage: "the workset's name here (default: the one in the file)"},
			}, worksetImport),
		},
	}
}

// worksetCmd makes a workset subcommand: its flags with --json, the
// checks every one makes of its arguments (a valid NAME first when the
// usage starts with one), then one call on the workset environment of a
// session caught up with HEAD (which invalidated what it had to).
func worksetCmd(e *env, name, args, usage string, flags []cli.Flag,
	call func(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error)) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, ArgsUsage: args, Flags: append(flags, jsonFlag),
		Action: func(c *cli.Context) error {
			if strings.HasPrefix(args, "NAME") {
				if c.NArg() < 1 {
					return fail(2, "workset %s needs a workset name; canon workset list shows them", name)
				}
				if err := workset.ValidateName(c.Args().First()); err != nil {
					return worksetError(err)
				}
			}
			if err := packFormat(c); err != nil {
				return err
			}
			who := "canon workset " + name
			return e.with(c, who, func(s *gitsync.Session) (output, error) {
				we, err := workset.NewEnv(c.Context, s.Repo.Root, s.Store, s.Cfg, who, s.Repo)
				if err != nil {
					return nil, worksetError(err)
				}
				v, err := call(c, e, we, s)
				if err != nil {
					return nil, worksetError(err)
				}
				return v, nil
			})
		},
	}
}

func worksetNew(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
	if c.NArg() > 1 {
		return nil, fail(2, "workset new takes one name; give seeds with --seed, a search with --query")
	}
	opt := workset.CreateOptions{Agent: c.String("agent")}
	opt.Query, opt.Template = strings.TrimSpace(c.String("query")), c.String("template")
	if opt.Query == "" && opt.Template == "" && len(c.StringSlice("seed")) == 0 {
		return nil, fail(2, "workset new needs --seed ID, --query TEXT or --template NAME; for example canon workset new fix-retries --seed KB-TSK-0007")
	}
	if c.IsSet("depth") {
		d := c.Int("depth")
		if d < 0 || d > 10 {
			return nil, fail(2, "--depth must be between 0 and 10")
		}
		opt.Depth = &d
	}
	if c.IsSet("ttl") {
		ttl, err := config.ParseTTL(c.String("ttl"))
		if err != nil {
			return nil, fail(2, "--ttl %v", err)
		}
		opt.TTL = ttl
	}
	if opt.Seeds = seeds(c, s); opt.Seeds == nil {
		opt.Seeds = []string{}
	}
	info, err := workset.Create(c.Context, we, c.Args().First(), opt)
	return (*workset.Created)(info), err
}

func worksetSearch(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
	name := c.Args().First()
	q := strings.TrimSpace(strings.Join(c.Args().Tail(), " "))
	if q == "" {
		return nil, fail(2, "workset search needs a query after the name; for example canon workset search %s \"retry\"", name)
	}
	if c.Int("limit") < 1 {
		return nil, fail(2, "--limit must be at least 1")
	}
	res, err := workset.Search(c.Context, we, name, q, workset.SearchOptions{Limit: c.Int("limit"), Enrich: c.Bool("enrich"), Who: "canon workset search"})
	if err == nil && res.Stale {
		e.warnStale(name, "its answers", res.StaleReasons)
	}
	return res, err
}

func worksetContext(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
	name := c.Args().First()
	opt := workset.ContextOptions{Query: strings.TrimSpace(strings.Join(c.Args().Tail(), " "))}
	if c.IsSet("budget") {
		b := c.Int("budget")
		if b < 0 {
			return nil, fail(2, "--budget must be 0 (no limit) or more")
		}
		opt.Budget = &b
	}
	p, info, err := workset.Context(c.Context, we, name, opt)
	if err == nil && info.Stale {
		e.warnStale(name, "this pack", info.StaleReasons)
	}
	return p, err
}

func worksetImport(c *cli.Context, e *env, we *workset.Env, s *gitsync.Session) (output, error) {
	if c.NArg() != 1 {
		return nil, fail(2, "canon workset import takes one hand-off FILE (written by canon workset export)")
	}
	if n := c.String("name"); n != "" {
		if err := workset.ValidateName(n); err != nil {
			return nil, fail(2, "--name: %v", err)
		}
	}
	// The user's own file: it may lie anywhere, but it is bounded and must
	// be a regular file, as every file canon reads.
	data, err := safepath.ReadArgument(c.Args().First(), safepath.HandoffLimit)
	if err != nil {
		return nil, fmt.Errorf("read the hand-off file: %w", err)
	}
	info, err := workset.Import(c.Context, we, data, workset.ImportOptions{Name: c.String("name")})
	return (*workset.Imported)(info), err
}

// warnStale says on stderr that a workset's answer may be out of date.
func (e *env) warnStale(name, what string, reasons []workset.StaleReason) {
	e.notef("warning: workset %s is stale, %s may be out of date (canon workset refresh %s):", name, what, name)
	workset.WriteReasons(e.stderr, "  ", reasons, 3)
}

// worksetError turns the workset package's known errors into sentences.
func worksetError(err error) error {
	var now *workset.NowError
	switch {
	case errors.Is(err, workset.ErrBadName), errors.As(err, &now):
		return fail(2, "%v", err)
	case errors.Is(err, workset.ErrNotFound), errors.Is(err, workset.ErrExists),
		errors.Is(err, workset.ErrEmpty), errors.Is(err, workset.ErrUnpromoted):
		return fail(1, "%v", err)
	}
	return graphError(err)
}
