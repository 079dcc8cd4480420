package gitsync

import (
	"context"
	"fmt"
	"io"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/human"
)

// Show is canon show: the document a reference names, everything the index
// knows of it (with each section's text when withText), and its problems by
// check's rules, as canon problems and check --all report them.
func (s *Session) Show(ctx context.Context, ref string, withText bool) (*index.DocView, error) {
	doc, err := s.Store.FindOne(ctx, ref)
	if err != nil {
		return nil, err
	}
	v, err := s.Store.Show(ctx, doc.Key, withText)
	if err != nil {
		return nil, err
	}
	if v.Problems, err = s.DocProblems(ctx, v.Path); err != nil {
		return nil, err
	}
	return v, nil
}

// ProblemList is canon problems: every problem of every document.
type ProblemList struct {
	Findings []check.Finding
	Checked  int
}

// Problems brings the index to the working tree as it is and checks every
// document with every rule, as check --all does: one truth about problems.
func (s *Session) Problems(ctx context.Context) (*ProblemList, error) {
	if _, err := s.Reconcile(ctx); err != nil {
		return nil, err
	}
	res, err := s.CheckAll(ctx)
	if err != nil {
		return nil, err
	}
	fs := res.Findings
	if fs == nil {
		fs = []check.Finding{}
	}
	return &ProblemList{Findings: fs, Checked: len(res.Checked)}, nil
}

// JSON is {"problems": [...], "summary": {...}}.
func (p *ProblemList) JSON() any {
	return map[string]any{"problems": p.Findings, "summary": check.Summarize(p.Findings, p.Checked)}
}

// WriteText lists the problems, a line each, and their counts.
func (p *ProblemList) WriteText(w io.Writer) error {
	for _, f := range p.Findings {
		fmt.Fprintln(w, f)
	}
	if len(p.Findings) == 0 {
		_, err := fmt.Fprintln(w, "no problems")
		return err
	}
	sum := check.Summarize(p.Findings, p.Checked)
	_, err := fmt.Fprintf(w, "%s, %s in %s\n", human.Plural(sum.Errors, "error"), human.Plural(sum.Warnings, "warning"), human.Plural(sum.Files, "file"))
	return err
}
