package gitsync

import (
	"fmt"
	"io"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// syncJSON is the documented JSON shape of a sync (canon sync, canon
// index): the changes at the top level, head for the commit reached.
type syncJSON struct {
	Action string `json:"action"`
	From   string `json:"from,omitempty"`
	Head   string `json:"head"`
	Reason string `json:"reason,omitempty"`
	*index.Changes
	Built map[string]int `json:"built,omitempty"`
}

// JSON is the documented JSON shape of a sync: empty lists as [], never
// null.
func (r *Result) JSON() any {
	out := syncJSON{Action: r.Action, From: r.From, Head: r.To, Reason: r.Reason, Changes: Normalized(r.Changes)}
	if r.Stats != nil {
		out.Built = map[string]int{"documents": r.Stats.Documents, "skipped_files": r.Stats.Skipped}
	}
	return out
}

// Normalized returns changes whose lists are empty rather than nil (a
// copy; nil becomes no changes), for JSON that says [] rather than null.
func Normalized(ch *index.Changes) *index.Changes {
	var c index.Changes
	if ch != nil {
		c = *ch
	}
	if c.Added == nil {
		c.Added = []string{}
	}
	if c.Modified == nil {
		c.Modified = []string{}
	}
	if c.Renamed == nil {
		c.Renamed = [][2]string{}
	}
	if c.Deleted == nil {
		c.Deleted = []string{}
	}
	if c.Keys == nil {
		c.Keys = []string{}
	}
	return &c
}

// WriteText says what a sync did: a build's size, "up to date", or the
// counts and the first 50 paths that changed.
func (r *Result) WriteText(w io.Writer) error {
	if r.Action == ActionRebuild {
		writeBuilt(w, r.Stats)
		return nil
	}
	ch := r.Changes
	if ch == nil || ch.None() {
		_, err := fmt.Fprintf(w, "up to date at %s\n", human.Commit(r.To))
		return err
	}
	span := human.Commit(r.To)
	if r.From != "" && r.From != r.To {
		span = human.Commit(r.From) + ".." + human.Commit(r.To)
	}
	fmt.Fprintf(w, "synced %s: %d added, %d modified, %d renamed, %d deleted; edges +%d −%d\n", span,
		len(ch.Added), len(ch.Modified), len(ch.Renamed), len(ch.Deleted), ch.EdgesAdded, ch.EdgesRemoved)
	const most = 50
	lines := 0
	emit := func(format string, args ...any) {
		if lines < most {
			fmt.Fprintf(w, format, args...)
		}
		lines++
	}
	for _, p := range ch.Added {
		emit("  A  %s\n", human.QuotePath(p))
	}
	for _, p := range ch.Modified {
		emit("  M  %s\n", human.QuotePath(p))
	}
	for _, r := range ch.Renamed {
		emit("  R  %s → %s\n", human.QuotePath(r[0]), human.QuotePath(r[1]))
	}
	for _, p := range ch.Deleted {
		emit("  D  %s\n", human.QuotePath(p))
	}
	if lines > most {
		fmt.Fprintf(w, "  … and %d more (see --json)\n", lines-most)
	}
	return nil
}

// writeBuilt is the one line of a full build: documents, time, rate,
// files skipped.
func writeBuilt(w io.Writer, stats *index.Stats) {
	rate := ""
	if secs := stats.Elapsed.Seconds(); secs > 0 && float64(stats.Documents)/secs >= 1 {
		rate = fmt.Sprintf(", %s docs/s", human.Thousands(int(float64(stats.Documents)/secs)))
	}
	fmt.Fprintf(w, "indexed %s documents in %s%s", human.Thousands(stats.Documents), human.Duration(stats.Elapsed), rate)
	if stats.Skipped > 0 {
		fmt.Fprintf(w, "; %d files skipped", stats.Skipped)
	}
	fmt.Fprintln(w)
}
