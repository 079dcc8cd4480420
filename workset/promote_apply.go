package workset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// Repository is what promote needs of the open repository (a
// *gitsync.Session is one): what the edit engine writes through
// (edit.Repo: the journal's folder, the documents, the syncs), the check
// of files as a write would leave them and the check of files as they
// are. workset declares it so that it need not import gitsync.
type Repository interface {
	edit.Repo
	CheckPlanned(ctx context.Context, files map[string][]byte) (*check.Result, error)
	CheckPaths(ctx context.Context, paths []string) (*check.Result, error)
}

// PromoteArgs say what canon promote does with a workset's findings.
type PromoteArgs struct {
	Workset string
	// To is where findings go: self (or ""), parent, root, group, global,
	// or the repository-relative path of one document.
	To    string
	Agent string // named in worklog lines ("": the workset's agent)
	ADR   bool   // each decision: becomes a new ADR
	Apply bool   // write; else a dry run
}

// PromoteWorkset is canon promote (and the MCP tool): the index brought to
// the working tree as it is (targets are looked up there, and the check
// compares with it), the plan, then its diff (a dry run) or the promote
// transaction.
func PromoteWorkset(ctx context.Context, repo Repository, e *Env, a PromoteArgs) (*Promoted, error) {
	if err := repo.SyncWorkingTree(ctx); err != nil {
		return nil, err
	}
	to := a.To
	if to == "" {
		to = ToSelf
	}
	plan, err := PlanPromote(ctx, e, a.Workset, PromoteOptions{
		To: to, Agent: a.Agent, ADR: a.ADR, Scope: repo.Documents(), GlobalDocument: e.Config.Context.Scopes.GlobalDocument,
	})
	if err != nil {
		return nil, err
	}
	if !a.Apply {
		return DryRun(plan), nil
	}
	return Promote(ctx, repo, plan)
}

// Promoted is what promote did, or would do with a dry run. Its JSON is
// documented in docs/promote.md.
type Promoted struct {
	*PromotePlan
	DryRun  bool           `json:"dry_run"`
	Counts  map[string]int `json:"counts"`
	Written []string       `json:"written"`
	Check   *check.Summary `json:"check,omitempty"`
	// Introduced are errors canon check would report (or reports) that
	// the files did not have before: promote then writes nothing.
	Introduced []check.Finding `json:"introduced,omitempty"`
	Diff       string          `json:"diff,omitempty"`

	// Refused says the check of the planned files found Introduced, so
	// nothing was written.
	Refused bool `json:"-"`
	// Checked is the check of the files written (nil when none were).
	Checked *check.Result `json:"-"`
}

func newPromoted(plan *PromotePlan) *Promoted {
	out := &Promoted{PromotePlan: plan, Written: []string{}, Counts: map[string]int{}}
	for _, st := range []string{StatusPromoted, StatusAlready, StatusPresent, StatusRefused} {
		out.Counts[st] = plan.Count(st)
	}
	return out
}

// DryRun is the plan as promote --dry-run shows it: the outcomes and the
// diff, nothing written.
func DryRun(plan *PromotePlan) *Promoted {
	out := newPromoted(plan)
	out.DryRun, out.Diff = true, plan.Diff()
	return out
}

// Promote is the promote transaction, for the CLI and the MCP server: it
// checks the files as the plan leaves them before writing (refusing when
// that check reports errors the files do not have now), writes them all
// or none and records the findings in the workset in one journaled step
// (a promote killed midway is finished or undone by the next command),
// syncs the index with them and checks the written files again. An error
// means nothing was written, unless it says the files were.
func Promote(ctx context.Context, repo Repository, plan *PromotePlan) (*Promoted, error) {
	out := newPromoted(plan)
	if len(plan.Files) == 0 {
		// Findings already in place are recorded all the same.
		return out, plan.Record(ctx)
	}
	planned := make(map[string][]byte, len(plan.Files))
	for _, fc := range plan.Files {
		planned[fc.Path] = fc.After
	}
	preview, err := repo.CheckPlanned(ctx, planned)
	if err != nil {
		return nil, err
	}
	if out.Introduced = errorsOnly(preview.Findings); len(out.Introduced) > 0 {
		out.Refused = true
		return out, nil
	}
	contents := make([][]byte, len(plan.Files))
	for i, fc := range plan.Files {
		contents[i] = fc.After
	}
	if err := recordOwnWrites(ctx, plan.root, plan.Workset, contents); err != nil {
		return nil, err
	}
	written, werr := plan.Write(ctx, repo)
	out.Written = append(out.Written, written...)
	if re := (*safepath.RecordError)(nil); errors.As(werr, &re) {
		return nil, fmt.Errorf("the files were written, but recording the findings in the workset failed (a second promote finds them in place and records them): %w", re.Err)
	}
	if werr != nil {
		return nil, werr
	}
	if out.Checked, err = repo.CheckPaths(ctx, written); err != nil {
		return nil, err
	}
	sum := out.Checked.Summary()
	out.Check = &sum
	fresh, _ := check.Introduced(preview.Before, out.Checked.Findings)
	out.Introduced = errorsOnly(fresh)
	return out, nil
}

func errorsOnly(fs []check.Finding) []check.Finding {
	var out []check.Finding
	for _, f := range fs {
		if f.Severity == "error" {
			out = append(out, f)
		}
	}
	return out
}

// ExitCode is 1 when a finding was refused (the written ones stand).
func (p *Promoted) ExitCode() int {
	if !p.Refused && p.Count(StatusRefused) > 0 {
		return 1
	}
	return 0
}

// Err is the sentence that ends a promote that wrote nothing because the
// check refused, or that left errors canon check reports.
func (p *Promoted) Err() error {
	switch {
	case p.Refused:
		return fmt.Errorf("promote would leave %s canon check reports in the written files (above); nothing was written. Reword the findings in notes.md (a link is resolved from the document it lands in), then run promote again",
			human.Plural(len(p.Introduced), "error"))
	case len(p.Introduced) > 0:
		return fmt.Errorf("canon check reports %s promote introduced in the written files; fix them before committing", human.Plural(len(p.Introduced), "error"))
	}
	return nil
}

// WriteText shows a dry run's diff, or what promote did: each finding's
// outcome, the files written and how to commit them, and the check of
// those files.
func (p *Promoted) WriteText(w io.Writer) error {
	switch {
	case p.DryRun:
		_, err := io.WriteString(w, p.Diff)
		return err
	case p.Refused:
		p.WriteOutcomes(w, "nothing written")
		for _, f := range p.Introduced {
			fmt.Fprintln(w, f)
		}
		return nil
	}
	p.WriteOutcomes(w, "")
	if len(p.Written) > 0 {
		fmt.Fprintf(w, "wrote %s; nothing is committed. To commit them:\n", human.Plural(len(p.Written), "file"))
		fmt.Fprintf(w, "  git add %s\n", strings.Join(human.ShellQuote(fromHere(p.root, p.Written)), " "))
	}
	if cr := p.Checked; cr != nil {
		var b strings.Builder
		check.WriteText(&b, cr.Findings, len(cr.Checked))
		for _, line := range strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n") {
			fmt.Fprint(w, "canon check: "+strings.TrimSuffix(line, "\n")+"\n")
		}
		if cr.Summary().Errors > 0 && len(p.Introduced) == 0 {
			fmt.Fprintln(w, "canon check: the errors were there before promote; promote added none")
		}
	}
	return nil
}

// WriteOutcomes says what became of each finding, one line each, after a
// count line. A note ("dry run", "nothing written") says the findings
// marked promoted are only pending.
func (p *Promoted) WriteOutcomes(w io.Writer, note string) {
	plan := p.PromotePlan
	head := fmt.Sprintf("promote %s", plan.Workset)
	dry := note != ""
	if dry {
		head += " (" + note + ")"
	}
	counts := []string{}
	for _, st := range []struct{ status, words string }{
		{StatusPromoted, "promoted"}, {StatusPresent, "found in place"},
		{StatusAlready, "promoted before"}, {StatusRefused, "refused"},
	} {
		if n := plan.Count(st.status); n > 0 {
			word := st.words
			if dry && st.status == StatusPromoted {
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
		if dry && status == StatusPromoted {
			status = "pending"
		}
		fmt.Fprintf(w, "  notes.md:%-4d %-9s %s %s", o.Line, status, human.Quote(o.Target), o.Kind)
		switch o.Status {
		case StatusPromoted:
			switch {
			case o.LinkedFrom != nil:
				fmt.Fprintf(w, " → new %s %s, listed in decisions: of %s", o.Dest.ID, human.QuotePath(o.Dest.Path), human.Quote(o.LinkedFrom.ID))
			default:
				fmt.Fprint(w, " → ")
				if o.TargetDoc == nil || o.Dest.Key != o.TargetDoc.Key {
					fmt.Fprint(w, human.Quote(o.Dest.ID)+" ")
				}
				fmt.Fprintf(w, "%s § %s", human.QuotePath(o.Dest.Path), human.Quote(o.Section))
				if o.Created {
					fmt.Fprint(w, " (new section)")
				}
			}
			if o.SinceBuilt == SinceChanged {
				fmt.Fprint(w, " (changed since the workset was built)")
			}
		default:
			fmt.Fprintf(w, ": %s", human.Quote(o.Reason))
		}
		fmt.Fprintln(w)
	}
	for _, f := range plan.Files {
		if f.Note != "" {
			fmt.Fprintf(w, "  %s: %s\n", f.Path, f.Note)
		}
	}
}

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
