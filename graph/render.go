package graph

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/human"
)

// The Markdown a pack renders to. Token estimates are counted on exactly
// these strings, so the JSON and the Markdown of a pack agree.

func renderSection(name string) string {
	return "## " + name + "\n\n"
}

func renderHead(e *Entry, sectioned bool) string {
	h := "##"
	if sectioned {
		h = "###"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d. %s\n", h, e.Rank, human.Named(e.ID, e.Title, ": "))
	b.WriteString(human.Quote(e.Kind))
	if e.State != "" {
		b.WriteString(" · " + human.Quote(e.State))
	}
	fmt.Fprintf(&b, " · score %s · %s\n", strconv.FormatFloat(e.Score, 'f', -1, 64), human.QuotePath(e.Path))
	b.WriteString("Why: " + human.Quote(e.Why.String()) + "\n\n")
	return b.String()
}

// String says why in one line.
func (w Why) String() string {
	if w.Reason == ReasonScope {
		s := w.Scope + " knowledge"
		switch w.Scope {
		case "group":
			s = "knowledge of group " + w.Group
			if len(w.GroupPath) > 1 {
				s += " (" + strings.Join(w.GroupPath, " --depends_on--> ") + ")"
			} else {
				s += " (the task's group)"
			}
		case "task":
			s = "task knowledge linked with this task"
		}
		if w.Edge != "" {
			if w.Direction == In {
				s += fmt.Sprintf("; this --%s--> %s", w.Edge, w.FromID)
			} else {
				s += fmt.Sprintf("; %s --%s--> this", w.FromID, w.Edge)
			}
		}
		if len(w.Matched) > 0 {
			s += "; conditions matched: " + strings.Join(w.Matched, ", ")
		}
		return s
	}
	if w.Reason == ReasonRelated {
		s := "related: no edge reaches the task; a search for its title"
		if len(w.Matched) > 0 {
			s += " matched " + strings.Join(w.Matched, ", ")
		} else {
			s += " found it"
		}
		return s
	}
	if w.Reason == ReasonNeighbour {
		if w.Direction == In {
			return fmt.Sprintf("this --%s--> %s (depth %d)", w.Edge, w.FromID, w.Depth)
		}
		return fmt.Sprintf("%s --%s--> this (depth %d)", w.FromID, w.Edge, w.Depth)
	}
	var s string
	switch w.Source {
	case SourceSearch:
		s = "search hit"
	case SourceAnchor:
		s = "template anchor"
	default:
		s = "given seed"
	}
	if len(w.Matched) > 0 {
		s += ", matched " + strings.Join(w.Matched, ", ")
	}
	if w.BM25 != nil {
		s += fmt.Sprintf(" (bm25 %.4f)", *w.BM25)
	}
	return s
}

func renderExcerpt(x *Excerpt, sectioned bool) string {
	h := "###"
	if sectioned {
		h = "####"
	}
	name := x.Heading
	if name == "" {
		name = "(opening text)"
	}
	return fmt.Sprintf("%s %s (lines %d-%d)\n\n%s\n\n", h, name, x.Line, x.EndLine, x.Text)
}

// WriteMarkdown renders the pack for a prompt.
func (p *Pack) WriteMarkdown(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# %s\n\n", p.Title)
	fmt.Fprintf(b, "%s, about %d tokens (%s), budget %s.\n", plural(len(p.Entries), "entry", "entries"), p.Tokens, p.TokenEstimate, budgetText(p.Settings.Budget))
	writeOmitted(b, p)
	if p.NodeCapped {
		fmt.Fprintf(b, "Expansion stopped at max_nodes %d.\n", p.Settings.MaxNodes)
	}
	b.WriteString("\n")
	section := ""
	sectioned := len(p.Sections) > 0
	if len(p.Entries) == 0 {
		b.WriteString("Nothing matched.\n")
	}
	for i := range p.Entries {
		e := &p.Entries[i]
		if sectioned && e.Section != section {
			b.WriteString(renderSection(e.Section))
			section = e.Section
		}
		b.WriteString(renderHead(e, sectioned))
		for j := range e.Excerpts {
			b.WriteString(renderExcerpt(&e.Excerpts[j], sectioned))
		}
	}
	if len(p.Listed) > 0 {
		b.WriteString(listedHeading)
		for i := range p.Listed {
			b.WriteString(renderListed(&p.Listed[i]))
		}
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// maxOmittedShown is how many documents or sections a line of what a
// pack left out names.
const maxOmittedShown = 12

// writeOmitted says what the pack left out: entries (budget, template
// limits), generated documents, the task's sections not quoted, and the
// budget left unused.
func writeOmitted(b *strings.Builder, p *Pack) {
	var ids, gen, secs []string
	from := ""
	for _, o := range p.Omitted {
		switch {
		case o.Reason == ReasonGenerated:
			gen = append(gen, o.ID+" ("+o.Generated+")")
		case o.Section != "":
			from = o.ID
			s := fmt.Sprintf("%s (line %d, ", o.Section, o.Line)
			switch o.Reason {
			case ReasonSectionWeight:
				s += "weighs 0)"
			case ReasonSectionTOC:
				s += "a table of contents)"
			default:
				s += fmt.Sprintf("about %d tokens, over the budget)", o.Tokens)
			}
			secs = append(secs, s)
		default:
			ids = append(ids, o.ID)
		}
	}
	if len(ids) > 0 {
		fmt.Fprintf(b, "Left out: %s.\n", clipList(ids, maxOmittedShown, "documents"))
	}
	if len(gen) > 0 {
		fmt.Fprintf(b, "Left out as generated (--generated keeps them): %s.\n", clipList(gen, maxOmittedShown, "documents"))
	}
	if len(secs) > 0 {
		fmt.Fprintf(b, "Not quoted from %s: %s.\n", from, clipList(secs, maxOmittedShown, "sections"))
	}
	if u := p.Unused; u != nil {
		why := "every section in reach is quoted (--depth reaches further)"
		switch u.Reason {
		case UnusedTooLarge:
			why = "what is left does not fit whole"
		case UnusedNoEdges:
			why = "every section in reach is quoted, and no edge reaches the task (context.related adds documents a search for its title finds)"
		}
		fmt.Fprintf(b, "About %d tokens of the budget unused: %s.\n", u.Tokens, why)
	}
}

func budgetText(n int) string {
	if n <= 0 {
		return "unlimited"
	}
	return strconv.Itoa(n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
