package workset

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// Text renderers of the workset commands. Each result's JSON is its
// documented shape (docs/worksets.md); the text is for a person.

// Created is a new workset as canon workset new reports it.
type Created Info

// WriteText says what was made and where its files are.
func (c *Created) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "created workset %s: %s, seeds %s, expires %s\n", c.Name, human.Plural(c.Docs, "document"),
		human.Quote(strings.Join(c.Seeds, ", ")), human.When(c.ExpiresAt, c.now))
	_, err := fmt.Fprintf(w, "  %s/{plan.md,notes.md,deliverable.md}\n", c.Path)
	return err
}

// Listing is canon workset list.
type Listing []Info

// JSON is {"worksets": [...]}.
func (l Listing) JSON() any { return map[string]any{"worksets": []Info(l)} }

// WriteText is a table: name, size, age, time left, state, findings,
// seeds, with up to three stale reasons under a stale one.
func (l Listing) WriteText(w io.Writer) error {
	if len(l) == 0 {
		_, err := fmt.Fprintln(w, "no worksets; canon workset new NAME --seed ID creates one")
		return err
	}
	wid := 4
	for _, in := range l {
		wid = max(wid, len(in.Name))
	}
	fmt.Fprintf(w, "%-*s  %4s  %-7s  %-9s  %-6s  %-16s  %s\n", wid, "NAME", "DOCS", "AGE", "TTL LEFT", "STATE", "FINDINGS", "SEEDS")
	for _, in := range l {
		if in.CreatedAt.IsZero() {
			fmt.Fprintf(w, "%-*s  cannot be read: %s\n", wid, human.Quote(in.Name), human.Quote(in.NotesError))
			continue
		}
		state := "fresh"
		if in.Stale {
			state = "stale"
		}
		left := "expired"
		if !in.Expired {
			left = human.Span(time.Duration(in.TTLLeft) * time.Second)
		}
		fmt.Fprintf(w, "%-*s  %4d  %-7s  %-9s  %-6s  %-16s  %s\n", wid, in.Name, in.Docs,
			human.Span(time.Duration(in.AgeSeconds)*time.Second), left, state, in.findingsText(), human.Quote(strings.Join(in.Seeds, ", ")))
		WriteReasons(w, "    ", in.StaleReasons, 3)
	}
	return nil
}

func (in *Info) findingsText() string {
	switch {
	case in.NotesError != "":
		return "notes unreadable"
	case in.Findings == 0 && in.Hidden == 0:
		return "0"
	case in.Unpromoted == 0:
		return fmt.Sprintf("%d, all promoted", in.Findings)
	case in.Hidden > 0:
		return fmt.Sprintf("%d, %d unpromoted (%d in comments or code)", in.Findings, in.Unpromoted, in.Hidden)
	}
	return fmt.Sprintf("%d, %d unpromoted", in.Findings, in.Unpromoted)
}

// WriteReasons lists stale reasons, a line each, at most most of them (0:
// all).
func WriteReasons(w io.Writer, indent string, rs []StaleReason, most int) {
	for i, r := range rs {
		if most > 0 && i == most {
			fmt.Fprintf(w, "%s… and %d more (canon workset show)\n", indent, len(rs)-i)
			return
		}
		fmt.Fprintf(w, "%sstale: %s\n", indent, human.Quote(r.String()))
	}
}

// WriteText shows a workset: how it was built, its size and state, each
// member and why it is there, and the findings of notes.md.
func (d *Detail) WriteText(out io.Writer) error {
	fmt.Fprintf(out, "workset %s  (%s)\n", d.Name, d.Path)
	if d.Agent != "" {
		fmt.Fprintf(out, "agent    %s\n", human.Quote(d.Agent))
	}
	fmt.Fprintf(out, "built    %s from commit %s; ttl %s, expires %s\n", d.BuiltAt.Format("2006-01-02 15:04"), human.Commit(d.Head), d.TTL, human.When(d.ExpiresAt, d.now))
	fmt.Fprintf(out, "chosen   %s\n", human.Quote(d.Spec.text(d.Settings)))
	fmt.Fprintf(out, "size     %s, %s on disk (cap %d)\n", human.Plural(d.Docs, "document"), human.Bytes(d.Bytes), d.Settings.MaxDocs)
	if d.Stale {
		fmt.Fprintln(out, "state    stale")
		WriteReasons(out, "  ", d.StaleReasons, 0)
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
			arrow := fmt.Sprintf("%s --%s--> this", human.Quote(m.Via.FromID), human.Quote(m.Via.Edge))
			if m.Via.Direction == "in" {
				arrow = fmt.Sprintf("this --%s--> %s", human.Quote(m.Via.Edge), human.Quote(m.Via.FromID))
			}
			why = fmt.Sprintf("distance %d: %s", m.Distance, arrow)
			if m.Source == SourceEnrich {
				why += " (" + human.Quote(m.AddedBy) + ")"
			}
		}
		fmt.Fprintf(out, "  %-*s  %s  [%s]  %s\n", wid, human.Quote(m.ID), human.Quote(m.Title), human.Quote(m.Kind), why)
	}
	fmt.Fprintf(out, "findings in notes.md: %s\n", d.findingsText())
	for _, f := range d.Findings {
		state := "unpromoted"
		if f.Promoted {
			state = "promoted to " + human.QuotePath(f.DestPath)
		}
		fmt.Fprintf(out, "  notes.md:%d  %s  %s: %s  (%s)\n", f.Line, human.Quote(f.Target), f.Kind, human.Quote(human.Clip(f.Text, 60)), state)
	}
	return nil
}

func (sp Spec) text(st Settings) string {
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

// WriteText lists the hits, where each came from and what --enrich did
// with it.
func (r *SearchResult) WriteText(w io.Writer) error {
	if len(r.Hits) == 0 {
		_, err := fmt.Fprintf(w, "no matches for %q in the workset or the repository\n", r.Query)
		return err
	}
	fromIndex := false
	for i, h := range r.Hits {
		section := ""
		if h.Section != "" {
			section = " › " + human.Quote(h.Section)
		}
		from := h.From
		switch {
		case h.Added:
			from += fmt.Sprintf(", %s away, added", human.Plural(*h.Distance, "hop"))
		case h.NotAdded == "size_cap":
			from += fmt.Sprintf(", %s away, not added: the workset is full", human.Plural(*h.Distance, "hop"))
		case h.NotAdded == "too_far":
			from += ", not added: farther than workset.enrich_distance"
		case h.NotAdded == "some_words":
			from += ", not added: holds only some of the words"
		}
		fmt.Fprintf(w, "%d. %s  %s%s  [%s]\n", i+1, human.Quote(h.ID), human.Quote(h.Title), section, from)
		fmt.Fprintf(w, "   %s:%d\n", index.QuotePath(h.Path), h.Line)
		if h.Snippet != "" {
			fmt.Fprintf(w, "   %s\n", human.Quote(h.Snippet))
		}
		fromIndex = fromIndex || h.From == FromIndex
	}
	if fromIndex && !r.enrich {
		fmt.Fprintln(w, "(few hits in the workset: the repository's index answered too; --enrich adds nearby ones to the workset)")
	}
	if len(r.Enriched) > 0 {
		fmt.Fprintf(w, "added %s to workset %s (now %d)\n", human.Plural(len(r.Enriched), "document"), r.Workset, r.Docs)
	}
	return nil
}

// WriteText says what a refresh changed and what it kept.
func (r *RefreshResult) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "refreshed workset %s at %s: %s (%d joined, %d left); expires %s\n", r.Name, human.Commit(r.Head),
		human.Plural(r.Docs, "document"), len(r.Added), len(r.Removed), human.When(r.ExpiresAt, r.now))
	for _, k := range r.Added {
		fmt.Fprintf(w, "  + %s\n", human.Quote(k))
	}
	for _, k := range r.Removed {
		fmt.Fprintf(w, "  - %s\n", human.Quote(k))
	}
	if !r.PlanRewritten {
		fmt.Fprintln(w, "  plan.md was edited, so it was kept as it is")
	}
	_, err := fmt.Fprintln(w, "  notes.md and deliverable.md were kept")
	return err
}

// Removed is a workset canon workset rm removed.
type Removed Info

// JSON is {"removed": NAME, "unpromoted_lost": N}.
func (r *Removed) JSON() any {
	return map[string]any{"removed": r.Name, "unpromoted_lost": r.Unpromoted}
}

// WriteText says what was removed, findings lost included.
func (r *Removed) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "removed workset %s", r.Name)
	if r.Unpromoted > 0 {
		fmt.Fprintf(w, " and its %s", human.Plural(r.Unpromoted, "unpromoted finding"))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteText says what gc removed (or would), what it kept and why.
func (r *GCResult) WriteText(w io.Writer) error {
	verb := "removed"
	if r.dryRun {
		verb = "would remove"
	}
	for _, x := range r.Removed {
		line := fmt.Sprintf("%s %s (expired %s)", verb, x.Name, human.When(x.ExpiresAt, r.now))
		if x.Unpromoted > 0 {
			line += fmt.Sprintf(" with %s", human.Plural(x.Unpromoted, "unpromoted finding"))
		}
		fmt.Fprintln(w, line)
	}
	for _, k := range r.Kept {
		fmt.Fprintf(w, "kept %s: %s; canon promote %s, or gc --force\n", k.Name, k.Reason, k.Name)
	}
	for _, d := range r.Debris {
		fmt.Fprintf(w, "%s debris %s\n", verb, d)
	}
	removed := "removed"
	if r.dryRun {
		removed = "would be removed (dry run)"
	}
	_, err := fmt.Fprintf(w, "%d %s, %d kept, %d not expired\n", len(r.Removed), removed, len(r.Kept), r.Live)
	return err
}

// WriteText is the resume pack as Markdown.
func (r *Resume) WriteText(w io.Writer) error {
	_, err := io.WriteString(w, r.Text())
	return err
}

// WriteText says what was appended (the MCP tool note).
func (n *NoteResult) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "appended: %s\n", n.Line)
	return err
}

// Imported is a workset canon workset import made.
type Imported Info

// WriteText says what was imported and how to go on.
func (i *Imported) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "imported workset %s: %s selected from this clone's index, %s; canon workset resume %s shows where the work stands\n",
		i.Name, human.Plural(i.Docs, "document"), human.Plural(i.Findings, "finding"), i.Name)
	return err
}

// Checkpointed is a checkpoint canon workset checkpoint recorded in the
// workset Name (its JSON is the checkpoint's).
type Checkpointed struct {
	*Checkpoint
	Name string `json:"-"`
}

// WriteText is the checkpoint in one line.
func (c Checkpointed) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "checkpoint %d of %s at %s: %d of %d plan steps done, %s (%d not promoted), %s\n",
		c.Seq, c.Name, human.Commit(c.Head), c.PlanDone, c.PlanTotal, human.Plural(c.Findings, "finding"), c.Unpromoted,
		human.Plural(len(c.Members), "member"))
	return err
}

// Handed is a hand-off file canon workset export made: on standard output
// (Path empty) or written to Path.
type Handed struct {
	Name string
	Path string // as given, relative to the working folder
	Data []byte
}

// ExportTo writes the hand-off file of workset name to out (a path inside
// the repository root, written atomically), or keeps it for standard
// output when out is "".
func ExportTo(ctx context.Context, e *Env, name string, opt ResumeOptions, out string) (*Handed, error) {
	data, err := Export(ctx, e, name, opt)
	if err != nil {
		return nil, err
	}
	h := &Handed{Name: name, Path: out, Data: data}
	if out == "" {
		return h, nil
	}
	p, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	if err := safepath.WriteFile(p, data, 0o644, e.Root); err != nil {
		return nil, fmt.Errorf("write %s: %w; give a path inside the repository, or leave out --output", out, err)
	}
	return h, nil
}

// JSON is {"name", "handoff"} for standard output, {"name", "path",
// "bytes"} for a file.
func (h *Handed) JSON() any {
	if h.Path == "" {
		return map[string]any{"name": h.Name, "handoff": string(h.Data)}
	}
	return map[string]any{"name": h.Name, "path": h.Path, "bytes": len(h.Data)}
}

// WriteText is the file itself, or where it was written.
func (h *Handed) WriteText(w io.Writer) error {
	if h.Path == "" {
		_, err := w.Write(h.Data)
		return err
	}
	_, err := fmt.Fprintf(w, "wrote %s (%s)\n", h.Path, human.Bytes(int64(len(h.Data))))
	return err
}
