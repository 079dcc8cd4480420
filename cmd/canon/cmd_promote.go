package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/workset"
)

func promoteCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "promote",
		Usage:     "append a workset's findings to the canonical documents: worklog lines, kind sections, new ADRs",
		ArgsUsage: "NAME",
		Description: "Reads the findings of .cache/worksets/NAME/notes.md and appends each one to the document it\n" +
			"names: a worklog line (YYYY-MM-DD HH:MM [agent=NAME] text) at the end of its Worklog section, or a\n" +
			"list item under Decisions, Risks or Findings for decision:, risk: and finding:. updated: is set to\n" +
			"today by editing that one line. Writes are atomic and only inside the repository's canonical\n" +
			"roots; promoted findings are recorded in the workset, so running it again adds nothing. The index\n" +
			"is synced and canon check runs on the written files; nothing is committed. See docs/promote.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the unified diff of every file on stdout and write nothing"},
			&cli.StringFlag{Name: "to", Value: workset.ToSelf, Usage: "where findings go: self, parent, root (of the parent chain), or the `PATH` of one document"},
			&cli.StringFlag{Name: "scope", Usage: "move findings up a scope: `group` (the document the target's group: names) or global (context.scopes.global_document)"},
			&cli.StringFlag{Name: "agent", Usage: "the agent `NAME` in worklog lines", DefaultText: "the workset's agent"},
			&cli.BoolFlag{Name: "adr", Usage: "make each decision: finding a new ADR, linked both ways"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "promote takes one workset name; canon workset list shows them")
			}
			name := c.Args().First()
			if err := workset.ValidateName(name); err != nil {
				return worksetError(err)
			}
			now, err := workset.ParseNow()
			if err != nil {
				return fail(2, "%v", err)
			}
			s, err := e.openNoSync("canon promote")
			if err != nil {
				return err
			}
			defer s.Close()
			// The index must hold the working tree as it is: targets are
			// looked up there, and the check compares with it.
			if _, err := s.Reconcile(c.Context); err != nil {
				return err
			}
			to := c.String("to")
			if sc := c.String("scope"); sc != "" {
				if c.IsSet("to") {
					return fail(2, "--scope and --to both say where findings go; give one")
				}
				switch sc {
				case workset.ToGroup, workset.ToGlobal:
					to = sc
				default:
					return fail(2, "--scope %s is not a scope to promote to; use group or global", sc)
				}
			}
			switch to {
			case workset.ToSelf, workset.ToParent, workset.ToRoot, workset.ToGroup, workset.ToGlobal:
			default:
				rel, err := s.Repo.RepoPath(to)
				if err != nil {
					return fail(2, "--to %v; name self, parent, root, or a document inside the repository", err)
				}
				to = rel
			}
			head, err := s.Store.Meta(index.MetaHead)
			if err != nil {
				return err
			}
			we := &workset.Env{Root: s.Repo.Root, Index: s.Store, Config: s.Cfg, Head: head, Now: now, Who: "canon promote"}
			plan, err := workset.PlanPromote(c.Context, we, name, workset.PromoteOptions{
				To: to, Agent: c.String("agent"), ADR: c.Bool("adr"), Scope: s.Scope, GlobalDocument: s.Cfg.Context.Scopes.GlobalDocument,
			})
			if errors.Is(err, workset.ErrPromoteTarget) {
				flag := "--to"
				if c.IsSet("scope") {
					flag = "--scope " + c.String("scope") + ":"
				}
				return fail(2, "%s %s", flag, strings.TrimPrefix(err.Error(), workset.ErrPromoteTarget.Error()+": "))
			}
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("dry-run") {
				return printDryRun(c, e, plan)
			}
			return e.promoteWrite(c, s, plan)
		},
	}
}

// promoteJSON is the --json shape of promote (docs/promote.md).
type promoteJSON struct {
	*workset.PromotePlan
	DryRun  bool           `json:"dry_run"`
	Counts  map[string]int `json:"counts"`
	Written []string       `json:"written"`
	Check   *check.Summary `json:"check,omitempty"`
	// Introduced are errors canon check would report that the files did
	// not have before: promote then writes nothing.
	Introduced []check.Finding `json:"introduced,omitempty"`
	Diff       string          `json:"diff,omitempty"`
}

func newPromoteJSON(plan *workset.PromotePlan) *promoteJSON {
	out := &promoteJSON{PromotePlan: plan, Written: []string{}, Counts: map[string]int{}}
	for _, st := range []string{workset.StatusPromoted, workset.StatusAlready, workset.StatusPresent, workset.StatusRefused} {
		out.Counts[st] = plan.Count(st)
	}
	return out
}

func printDryRun(c *cli.Context, e *env, plan *workset.PromotePlan) error {
	if c.Bool("json") {
		out := newPromoteJSON(plan)
		out.DryRun, out.Diff = true, plan.Diff()
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		io.WriteString(e.stdout, plan.Diff())
		printOutcomes(e.stderr, plan, "dry run")
		fmt.Fprintf(e.stderr, "dry run: nothing was written; the diff is on stdout\n")
	}
	if plan.Count(workset.StatusRefused) > 0 {
		return &silentExit{code: 1}
	}
	return nil
}

// promoteOutcome is what promoteApply did.
type promoteOutcome struct {
	out *promoteJSON
	cr  *gitsync.CheckResult // the check of the written files; nil when nothing was written
	// refused: canon check would report errors in the files promote would
	// write (out.Introduced); nothing was written.
	refused bool
	werr    error // a write failed after out.Written were written
}

// promoteApply is the promote transaction, for the CLI and the MCP server:
// it checks the result before writing it, writes, syncs the index with the
// written files, records the findings in the workset and checks the files
// again. Errors are the ones that leave nothing to report.
func promoteApply(ctx context.Context, s *gitsync.Session, plan *workset.PromotePlan) (*promoteOutcome, error) {
	res := &promoteOutcome{out: newPromoteJSON(plan)}
	out := res.out
	if len(plan.Files) == 0 {
		// Findings already in place are recorded all the same.
		return res, plan.Record(ctx, nil)
	}
	introduced, before, err := previewCheck(ctx, s, plan)
	if err != nil {
		return nil, err
	}
	if len(introduced) > 0 {
		out.Introduced, res.refused = introduced, true
		return res, nil
	}
	written, werr := plan.Write()
	out.Written = append(out.Written, written...)
	res.werr = werr
	if len(written) == 0 {
		return res, nil
	}
	if _, err := s.SyncPaths(ctx, written); err != nil {
		return nil, err
	}
	if err := plan.Record(ctx, written); err != nil {
		return nil, fmt.Errorf("the files were written, but recording the findings in the workset failed (a second promote finds them in place and records them): %w", err)
	}
	cr, err := s.CheckPaths(ctx, written)
	if err != nil {
		return nil, err
	}
	res.cr = cr
	sum := check.Summarize(cr.Findings, len(cr.Checked))
	out.Check = &sum
	for _, f := range cr.Findings {
		if f.Severity == "error" && !before[findingKey(f)] {
			out.Introduced = append(out.Introduced, f)
		}
	}
	return res, nil
}

// promoteWrite runs the promote transaction and reports it.
func (e *env) promoteWrite(c *cli.Context, s *gitsync.Session, plan *workset.PromotePlan) error {
	res, err := promoteApply(c.Context, s, plan)
	if err != nil {
		return err
	}
	out := res.out
	if res.refused {
		if c.Bool("json") {
			writeJSON(e.stdout, out)
		} else {
			printOutcomes(e.stdout, plan, "nothing written")
			for _, f := range out.Introduced {
				fmt.Fprintln(e.stdout, f)
			}
		}
		return fail(1, "promote would leave %s canon check reports in the written files (above); nothing was written. Reword the findings in notes.md (a link is resolved from the document it lands in), then run promote again",
			plural(len(out.Introduced), "error"))
	}
	if res.werr != nil {
		if len(out.Written) > 0 {
			return fmt.Errorf("%w (written and synced before that: %s)", res.werr, strings.Join(out.Written, ", "))
		}
		return fail(1, "%v", res.werr)
	}
	if err := e.promoteDone(c, s, plan, out, res.cr); err != nil {
		return err
	}
	if len(out.Introduced) > 0 {
		return fail(1, "canon check reports %s promote introduced in the written files; fix them before committing", plural(len(out.Introduced), "error"))
	}
	return nil
}

func (e *env) promoteDone(c *cli.Context, s *gitsync.Session, plan *workset.PromotePlan, out *promoteJSON, cr *gitsync.CheckResult) error {
	if c.Bool("json") {
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		printOutcomes(e.stdout, plan, "")
		if len(out.Written) > 0 {
			fmt.Fprintf(e.stdout, "wrote %s; nothing is committed. To commit them:\n", plural(len(out.Written), "file"))
			fmt.Fprintf(e.stdout, "  git add %s\n", strings.Join(shellQuote(fromHere(s.Repo.Root, out.Written)), " "))
		}
		if cr != nil {
			var b strings.Builder
			check.WriteText(&b, cr.Findings, len(cr.Checked))
			for _, line := range strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n") {
				fmt.Fprint(e.stdout, "canon check: "+strings.TrimSuffix(line, "\n")+"\n")
			}
			if s := check.Summarize(cr.Findings, len(cr.Checked)); s.Errors > 0 && len(out.Introduced) == 0 {
				fmt.Fprintln(e.stdout, "canon check: the errors were there before promote; promote added none")
			}
		}
	}
	if plan.Count(workset.StatusRefused) > 0 {
		return &silentExit{code: 1}
	}
	return nil
}

// printOutcomes says what became of each finding, one line each, after a
// count line. A note ("dry run", "nothing written") says the findings
// marked promoted are only pending.
func printOutcomes(w io.Writer, plan *workset.PromotePlan, note string) {
	head := fmt.Sprintf("promote %s", plan.Workset)
	dry := note != ""
	if dry {
		head += " (" + note + ")"
	}
	counts := []string{}
	for _, st := range []struct{ status, words string }{
		{workset.StatusPromoted, "promoted"}, {workset.StatusPresent, "found in place"},
		{workset.StatusAlready, "promoted before"}, {workset.StatusRefused, "refused"},
	} {
		if n := plan.Count(st.status); n > 0 {
			word := st.words
			if dry && st.status == workset.StatusPromoted {
				word = "to promote"
			}
			counts = append(counts, fmt.Sprintf("%d %s", n, word))
		}
	}
	if len(plan.Findings) == 0 {
		counts = append(counts, "no findings in notes.md")
	}
	fmt.Fprintf(w, "%s: %s\n", head, strings.Join(counts, ", "))
	for _, o := range plan.Findings {
		status := o.Status
		if dry && status == workset.StatusPromoted {
			status = "pending"
		}
		fmt.Fprintf(w, "  notes.md:%-4d %-9s %s %s", o.Line, status, o.Target, o.Kind)
		switch o.Status {
		case workset.StatusPromoted:
			switch {
			case o.LinkedFrom != nil:
				fmt.Fprintf(w, " → new %s %s, listed in decisions: of %s", o.Dest.ID, o.Dest.Path, o.LinkedFrom.ID)
			default:
				fmt.Fprint(w, " → ")
				if o.TargetDoc == nil || o.Dest.Key != o.TargetDoc.Key {
					fmt.Fprint(w, o.Dest.ID+" ")
				}
				fmt.Fprintf(w, "%s § %s", o.Dest.Path, o.Section)
				if o.Created {
					fmt.Fprint(w, " (new section)")
				}
			}
			if o.SinceBuilt == workset.SinceChanged {
				fmt.Fprint(w, " (changed since the workset was built)")
			}
		default:
			fmt.Fprintf(w, ": %s", o.Reason)
		}
		fmt.Fprintln(w)
	}
	for _, f := range plan.Files {
		if f.Note != "" {
			fmt.Fprintf(w, "  %s: %s\n", f.Path, f.Note)
		}
	}
}

type checkKey struct{ path, rule, message string }

func findingKey(f check.Finding) checkKey { return checkKey{f.Path, f.Rule, f.Message} }

// previewCheck runs canon check over the files as promote would leave
// them, without writing: the planned contents laid over the index in a
// transaction that is rolled back (as the pre-commit check does with
// staged blobs). It returns the errors the files do not have now, and the
// errors they have now.
func previewCheck(ctx context.Context, s *gitsync.Session, plan *workset.PromotePlan) ([]check.Finding, map[checkKey]bool, error) {
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	tree := &gitsync.GitTree{Repo: s.Repo}
	b := index.NewBatch(s.Cfg)
	planned := map[string]bool{}
	for _, fc := range plan.Files {
		planned[fc.Path] = true
		b.Upserts = append(b.Upserts, s.Loader.FromContent(index.FileInfo{Path: fc.Path}, fc.After))
	}
	var after []check.Finding
	var others []string // documents whose links the change may move
	err = s.Store.Preview(ctx, b, func(q index.Querier, ch *index.Changes) error {
		in := check.Input{Cfg: s.Cfg, Docs: []int64{}, Tree: tree}
		for p := range planned {
			var id int64
			if err := q.QueryRowContext(ctx, `SELECT id FROM docs WHERE path = ?`, p).Scan(&id); err != nil {
				return fmt.Errorf("check %s: %w", p, err)
			}
			in.Docs = append(in.Docs, id)
		}
		for _, key := range ch.Keys {
			var id int64
			var p string
			if err := q.QueryRowContext(ctx, `SELECT id, path FROM docs WHERE key = ? LIMIT 1`, key).Scan(&id, &p); err == nil && !planned[p] {
				in.LinksOnly = append(in.LinksOnly, id)
				others = append(others, p)
			}
		}
		sortIDs(in.Docs)
		after, err = check.Run(ctx, q, in)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	in := check.Input{Cfg: s.Cfg, Docs: []int64{}, Tree: tree}
	ids := func(paths []string, into *[]int64) error {
		for _, p := range paths {
			var id int64
			err := s.Store.DB().QueryRowContext(ctx, `SELECT id FROM docs WHERE path = ?`, p).Scan(&id)
			if err == nil {
				*into = append(*into, id)
			}
		}
		return nil
	}
	ids(plan.Paths(), &in.Docs)
	ids(others, &in.LinksOnly)
	now, err := check.Run(ctx, s.Store.DB(), in)
	if err != nil {
		return nil, nil, err
	}
	had := map[checkKey]bool{}
	for _, f := range now {
		had[findingKey(f)] = true
	}
	var introduced []check.Finding
	for _, f := range after {
		if f.Severity == "error" && !had[findingKey(f)] {
			introduced = append(introduced, f)
		}
	}
	return introduced, had, nil
}

func sortIDs(ids []int64) { sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] }) }

// fromHere makes repo-relative paths relative to the current folder, for a
// command typed there.
func fromHere(root string, paths []string) []string {
	here, err := os.Getwd()
	if err != nil {
		return paths
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if rel, err := filepath.Rel(here, filepath.Join(root, filepath.FromSlash(p))); err == nil {
			out[i] = filepath.ToSlash(rel)
		}
	}
	return out
}

// shellQuote quotes the paths a shell would split or expand.
func shellQuote(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if strings.ContainsAny(p, " \t'\"$`\\!*?[]{}()<>|&;#~") {
			p = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
		out[i] = p
	}
	return out
}
