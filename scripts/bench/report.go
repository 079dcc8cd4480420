package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Row is one line of a result table: a series of samples of one measurement
// at one corpus size.
type Row struct {
	Case        string    `json:"case"`
	What        string    `json:"what"`
	Size        int       `json:"size"` // backlog items; the corpus adds 2% ADRs
	Docs        int       `json:"docs"`
	Label       string    `json:"label,omitempty"` // a real repository's name, for the history case
	Unit        string    `json:"unit"`            // ms or MB
	Samples     []float64 `json:"samples"`
	Median      float64   `json:"median"`
	Min         float64   `json:"min"`
	Floor       string    `json:"floor,omitempty"` // the row this one is divided by
	FloorMedian float64   `json:"floor_median,omitempty"`
	Ratio       float64   `json:"ratio,omitempty"`
	Target      string    `json:"target,omitempty"`
	Result      string    `json:"result,omitempty"`

	floor *Row
	tgt   *target
	flat  bool // the floor is this measurement at the smallest size of the run
}

func (r *Row) add(v float64) { r.Samples = append(r.Samples, v) }

// sizeText is the size column: 10k, or a real repository's name and its
// number of Markdown files.
func (r *Row) sizeText() string {
	if r.Label != "" {
		return fmt.Sprintf("%s (%s docs)", r.Label, commas(r.Docs))
	}
	return sizeLabel(r.Size)
}

// target is a figure from docs/benchmarks.md (Targets) and the issues. It is defined at one
// corpus size; at the other sizes it is evaluated too, but only as a trend.
type target struct {
	text string
	at   int
	ok   func(r *Row) bool
}

var (
	tIndexRatio = &target{"≤ 1.5x floor @10k", 10000, func(r *Row) bool { return r.Ratio <= 1.5 }}
	tIndexRSS   = &target{"≤ 300 MB @100k", 100000, func(r *Row) bool { return r.Median <= 300 }}
	tPostCommit = &target{"≤ 2x floor @100k", 100000, func(r *Row) bool { return r.Ratio <= 2 }}
	tFlat       = &target{"flat: ≤ 1.5x the smallest size @100k", 100000, func(r *Row) bool { return r.Ratio <= 1.5 }}
	tCheckout   = &target{"≤ 500 ms @100k", 100000, func(r *Row) bool { return r.Median <= 500 }}
	// Real history (docs/benchmarks.md, issue 18): at any size.
	tHistCommit   = &target{"≤ 1.5x floor", 0, func(r *Row) bool { return r.Ratio <= 1.5 }}
	tHistCheckout = &target{"≤ 2x floor", 0, func(r *Row) bool { return r.Ratio <= 2 }}
	tCheck        = &target{"≤ 1.3x floor @100k", 100000, func(r *Row) bool { return r.Ratio <= 1.3 }}
	tCheckAll     = &target{"≤ 1.5 s @10k", 10000, func(r *Row) bool { return r.Median <= 1500 }}
)

// finish computes medians, ratios and results once every row has its samples.
func finish(rows []*Row) {
	for _, r := range rows {
		r.Median = median(r.Samples)
		if len(r.Samples) > 0 {
			r.Min = slices.Min(r.Samples)
		}
	}
	smallest := map[string]*Row{} // case+what → row at the smallest size
	for _, r := range rows {
		k := r.Case + "\x00" + r.What
		if s := smallest[k]; s == nil || r.Size < s.Size {
			smallest[k] = r
		}
	}
	for _, r := range rows {
		if r.flat {
			if s := smallest[r.Case+"\x00"+r.What]; s != r {
				r.floor = s
			}
		}
		if f := r.floor; f != nil && f.Median > 0 {
			r.Floor, r.FloorMedian, r.Ratio = f.What+" @"+f.sizeText(), f.Median, r.Median/f.Median
		}
		if r.tgt == nil {
			continue
		}
		r.Target = r.tgt.text
		if r.flat && r.floor == nil {
			r.Result = "(base)"
			continue
		}
		pass := r.tgt.ok(r)
		switch {
		case (r.tgt.at == 0 || r.Size == r.tgt.at) && pass:
			r.Result = "pass"
		case r.tgt.at == 0 || r.Size == r.tgt.at:
			r.Result = "**FAIL**"
		case pass:
			r.Result = "(pass)"
		default:
			r.Result = "(fail)"
		}
	}
}

var caseTitles = []struct{ name, title string }{
	{"index", "Full build: `canon index --full` (issue 2)"},
	{"hook", "Git hooks: `canon hook post-commit`, `canon hook post-checkout` (issue 3)"},
	{"check", "Pre-commit validation: `canon check` (issue 4)"},
	{"history", "Git hooks on real history (issue 18): a real repository's own commits"},
}

// writeMarkdown prints the header and one table per case. Within a case the
// rows keep the order in which each measurement first appeared, by size.
func writeMarkdown(w io.Writer, h *header, rows []*Row) {
	fmt.Fprintf(w, "## canon benchmark, %s\n\n", h.Started)
	fmt.Fprintf(w, "- command: `%s`\n", h.Command)
	fmt.Fprintf(w, "- machine: %d × %s, %s RAM, Linux %s; %s; %s\n", h.Machine.NProc, h.Machine.CPU,
		h.Machine.Memory, h.Machine.Kernel, h.Machine.Go, h.Machine.Git)
	fmt.Fprintf(w, "- load average (1 min) at start %s, at end %s\n", h.Machine.LoadStart, h.Machine.LoadEnd)
	fmt.Fprintf(w, "- canon: %s\n", h.Canon)
	fmt.Fprintf(w, "- corpus: `gencorpus -n N -adrs N/50 -seed 1 -git`; size = N items (1k = 1,000 items + 20 ADRs)\n")
	limit := "at most " + h.Budget + " per measurement"
	if h.Budget == "0s" {
		limit = "no time limit"
	}
	fmt.Fprintf(w, "- repetitions: %d (hooks and the one-file check: %d), after one untimed warm-up, %s; times are wall clock of the whole process unless marked in process\n",
		h.Runs, h.HookRuns, limit)
	for _, c := range caseTitles {
		var sel []*Row
		for _, r := range rows {
			if r.Case == c.name {
				sel = append(sel, r)
			}
		}
		if len(sel) == 0 {
			continue
		}
		order := map[string]int{}
		for _, r := range sel {
			if _, ok := order[r.What]; !ok {
				order[r.What] = len(order)
			}
		}
		slices.SortStableFunc(sel, func(a, b *Row) int {
			if d := order[a.What] - order[b.What]; d != 0 {
				return d
			}
			return a.Size - b.Size
		})
		fmt.Fprintf(w, "\n### %s\n\n", c.title)
		fmt.Fprintln(w, "| what | size | runs | median | min | floor median | ratio | target | result |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---|")
		for _, r := range sel {
			floor, ratio := "", ""
			if r.floor != nil {
				floor = format(r.FloorMedian, r.floor.Unit)
				ratio = fmt.Sprintf("%.2fx", r.Ratio)
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", r.What, r.sizeText(), len(r.Samples),
				format(r.Median, r.Unit), format(r.Min, r.Unit), floor, ratio, r.Target, r.Result)
		}
	}
	fmt.Fprintln(w, "\nratio = median / floor median, both measured in this run. A result in parentheses applies a target at a size other than the one it is defined at: a trend, not a verdict.")
	if len(h.Notes) > 0 {
		fmt.Fprintln(w, "\nChecks and observations:")
		for _, n := range h.Notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
	}
}

func format(v float64, unit string) string {
	switch {
	case unit == "MB":
		return fmt.Sprintf("%.0f MB", v)
	case v >= 1000:
		return fmt.Sprintf("%.2f s", v/1000)
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}

func sizeLabel(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// shellQuote renders args so that the printed command line can be pasted.
func shellQuote(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:@+") == "" {
			b.WriteString(a)
		} else {
			b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
		}
	}
	return b.String()
}
