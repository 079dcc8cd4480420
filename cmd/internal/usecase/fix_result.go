package usecase

import (
	"context"
	"fmt"
	"io"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/human"
)

// Fixed is what canon check --fix did, or would do with a dry run.
type Fixed struct {
	Plan    *FixPlan
	DryRun  bool
	Written []string
	// After is the check run again once the fixes are written.
	After *check.Result
}

// Fix is canon check --fix: it plans the mechanical fixes the findings
// carry in the session's repository, writes them through the edit engine
// (with a dry run: nothing), which syncs the files written, and checks
// again with recheck: the exit status is that second check's.
func Fix(ctx context.Context, s *gitsync.Session, findings []check.Finding, dryRun bool, recheck func() (*check.Result, error)) (*Fixed, error) {
	return fix(ctx, s, s.Repo.Root, findings, dryRun, recheck)
}

// fix is Fix on any repository the edit engine writes (a test's).
func fix(ctx context.Context, repo edit.Repo, root string, findings []check.Finding, dryRun bool, recheck func() (*check.Result, error)) (*Fixed, error) {
	plan, err := planFixes(root, repo.Documents(), findings)
	if err != nil {
		return nil, err
	}
	out := &Fixed{Plan: plan, DryRun: dryRun}
	if dryRun {
		return out, nil
	}
	written, err := plan.Write(ctx, repo)
	if err != nil {
		return nil, err // all or none: nothing was written
	}
	out.Written = written
	if out.After, err = recheck(); err != nil {
		return nil, err
	}
	return out, nil
}

// ExitCode is 1 when the check after the fixes still finds errors.
func (f *Fixed) ExitCode() int {
	if f.After != nil && f.After.Summary().Errors > 0 {
		return 1
	}
	return 0
}

// JSON is the documented shape of check --fix (--dry-run).
func (f *Fixed) JSON() any {
	p := f.Plan
	if f.DryRun {
		return map[string]any{"dry_run": true, "fixed": nonNil(p.Fixed), "skipped": p.Skipped, "diff": p.Diff()}
	}
	fs := f.After.Findings
	if fs == nil {
		fs = []check.Finding{}
	}
	return map[string]any{"fixed": nonNil(p.Fixed), "written": nonNil(f.Written), "skipped": p.Skipped,
		"findings": fs, "summary": check.Summarize(fs, len(f.After.Checked))}
}

// WriteText shows the diff, what was (or would be) fixed, what was not and
// why, and the check after the fixes.
func (f *Fixed) WriteText(w io.Writer) error {
	p := f.Plan
	fmt.Fprint(w, p.Diff())
	if f.DryRun {
		fmt.Fprintf(w, "%s in %s would be fixed; nothing was written\n", human.Plural(len(p.Fixed), "problem"), human.Plural(len(p.Files), "file"))
		writeSkipped(w, p.Skipped)
		return nil
	}
	fmt.Fprintf(w, "fixed %s in %s\n", human.Plural(len(p.Fixed), "problem"), human.Plural(len(f.Written), "file"))
	writeSkipped(w, p.Skipped)
	return (&check.Report{Result: f.After, Format: check.FormatText}).WriteText(w)
}

func writeSkipped(w io.Writer, skipped []SkippedFix) {
	for _, sk := range skipped {
		fmt.Fprintf(w, "not fixed: %s:%d:%d %s: %s\n", index.QuotePath(sk.Finding.Path), sk.Finding.Line, sk.Finding.Col, sk.Finding.Rule, sk.Why)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
