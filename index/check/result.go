package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index/human"
)

// Result is what a check found, and in how many files it looked.
type Result struct {
	Findings []Finding
	Checked  []string // the files validated (in full, or their links)
	// NewOnly says Findings are only the problems the change introduces;
	// Old then counts those the changed files already had (not listed).
	NewOnly bool
	Old     int
	// OldFiles are the changed files that hold those problems, sorted.
	OldFiles []string
	// Base is the commit the change is measured from (--new-from: the
	// merge base).
	Base string
	// Before are the old state's findings when a new-only check read that
	// state (it does only when the new state has findings): what a writer
	// compares the files it wrote with.
	Before []Finding
}

// Summary counts the findings.
func (r *Result) Summary() Summary { return Summarize(r.Findings, len(r.Checked)) }

// Formats canon check writes.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
)

// Report is a Result written in one of the formats: text, json, sarif or
// github. Version names canon in SARIF; Severities are the configured ones
// of every rule, which SARIF lists.
type Report struct {
	*Result
	Format     string
	Version    string
	Severities map[string]string
	// Limit bounds the findings the text lists (0: every one); the
	// summary still counts them all. The MCP tool check sets it.
	Limit int
}

// ExitCode is 1 when an error was found: canon check fails.
func (r *Report) ExitCode() int {
	if r.Summary().Errors > 0 {
		return 1
	}
	return 0
}

// ReportJSON is canon check's documented JSON shape: findings and
// summary, and for a new-only check the count of old problems and the
// base. Its fields are in the order of the keys' names, as the map it
// replaced printed them; the MCP tool check answers with it too.
type ReportJSON struct {
	Base     string    `json:"base,omitempty"`
	Findings []Finding `json:"findings"`
	NewOnly  bool      `json:"new_only,omitempty"`
	Old      *int      `json:"old,omitempty"` // set with NewOnly, 0 included
	Summary  Summary   `json:"summary"`
}

// JSON is the documented JSON shape (ReportJSON).
func (r *Report) JSON() any { return r.Shape() }

// Shape is the report as ReportJSON.
func (r *Report) Shape() ReportJSON {
	fs := r.Findings
	if fs == nil {
		fs = []Finding{}
	}
	out := ReportJSON{Findings: fs, Summary: Summarize(fs, len(r.Checked))}
	if r.NewOnly {
		old := r.Old
		out.NewOnly, out.Old, out.Base = true, &old, r.Base
	}
	return out
}

// WriteText writes the report in its format (json only when asked with
// --format json: --json goes through JSON).
func (r *Report) WriteText(w io.Writer) error {
	switch r.Format {
	case FormatJSON:
		if !r.NewOnly {
			return WriteJSON(w, r.Findings, len(r.Checked))
		}
		return writeIndented(w, r.JSON())
	case FormatSARIF:
		return WriteSARIF(w, r.Findings, r.Version, r.Severities)
	case FormatGitHub:
		WriteGitHub(w, r.Findings)
		WriteGitHubSummary(w, r.Findings, len(r.Checked))
		r.WriteOld(w)
		return nil
	}
	switch {
	case r.Base != "" && len(r.Checked) == 0:
		fmt.Fprintf(w, "no document differs from the merge base %.10s\n", r.Base)
		return nil
	case r.NewOnly && len(r.Findings) == 0 && len(r.Checked) > 0:
		fmt.Fprintf(w, "no new problems in %s\n", human.Plural(len(r.Checked), "file"))
	default:
		writeText(w, r.Findings, len(r.Checked), r.Limit)
	}
	r.WriteOld(w)
	return nil
}

// WriteOld sums up in one line the problems a new-only check did not list
// because the changed files had them before, and names the command that
// lists them: canon check with those files (not --all, which lists every
// problem of the repository).
func (r *Result) WriteOld(w io.Writer) {
	if !r.NewOnly || r.Old == 0 {
		return
	}
	were := "problems were"
	if r.Old == 1 {
		were = "problem was"
	}
	if len(r.OldFiles) == 0 {
		fmt.Fprintf(w, "%d %s already there in the files you changed; canon check --all lists them\n", r.Old, were)
		return
	}
	const most = 5
	files := human.ShellQuote(r.OldFiles)
	if len(files) <= most {
		fmt.Fprintf(w, "%d %s already there in %s; canon check %s lists them\n", r.Old, were, strings.Join(files, ", "), strings.Join(files, " "))
		return
	}
	fmt.Fprintf(w, "%d %s already there in %d of the files you changed (%s and %d more); canon check with their paths lists them\n",
		r.Old, were, len(files), strings.Join(files[:most], ", "), len(files)-most)
}
