package workset

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/lazyre"
)

// PlanItem is one step of plan.md.
type PlanItem struct {
	Text  string `json:"text"`
	Done  bool   `json:"done"`
	Depth int    `json:"depth"` // nesting, from 0
}

// PlanSource is a seed and the text of its Acceptance Criteria section
// ("" when it has none).
type PlanSource struct {
	Doc      index.DocRef
	Criteria string
	Found    bool // the document has such a section
}

// IsCriteriaHeading says whether a heading names acceptance criteria:
// "Acceptance Criteria", "Acceptance criteria:", "AC", "Definition of Done".
func IsCriteriaHeading(h string) bool {
	h = strings.ToLower(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), ":")))
	return strings.HasPrefix(h, "acceptance criteria") || h == "ac" || h == "acceptance" || h == "definition of done"
}

var (
	planItemRE  = lazyre.MustCompile(`^([ \t]*)(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+(?:\[([ xX])\](?:[ \t]+|$))?(.*))?$`)
	planHeadRE  = lazyre.MustCompile(`^ {0,3}#{1,6}([ \t]|$)`)
	planFenceRE = lazyre.MustCompile("^ {0,3}(```|~~~)")
)

// PlanItems turns an Acceptance Criteria section into checklist items:
// each list item (nested ones nested, checkboxes kept as ticked or not),
// and each paragraph that is not in a list. Lines continuing an item join
// it; headings and fenced code are left out.
func PlanItems(section string) []PlanItem {
	var out []PlanItem
	var indents []int // marker indents of the open items, for depth
	last := -1        // index in out of the last list item
	para := -1        // index in out of the paragraph being read
	blank := false    // a blank line since the last text
	inFence := false
	// HTML comments show nothing (<!-- AC:BEGIN --> and its kind mark
	// sections for tools); a line that held only a comment ends a
	// paragraph, as the HTML block it is does.
	for _, line := range withoutComments(strings.Split(strings.ReplaceAll(section, "\r\n", "\n"), "\n")) {
		if planFenceRE.MatchString(line) {
			inFence = !inFence
			last, para = -1, -1
			continue
		}
		if inFence || planHeadRE.MatchString(line) {
			continue
		}
		if strings.TrimSpace(line) == "" {
			blank, para = true, -1
			continue
		}
		if m := planItemRE.FindStringSubmatch(line); m != nil {
			indent := width(m[1])
			for len(indents) > 0 && indents[len(indents)-1] >= indent {
				indents = indents[:len(indents)-1]
			}
			if text := collapse(m[3]); text != "" {
				out = append(out, PlanItem{Text: text, Done: m[2] == "x" || m[2] == "X", Depth: len(indents)})
				last, para, blank = len(out)-1, -1, false
				indents = append(indents, indent)
			}
			continue
		}
		t := collapse(line)
		indent := width(line[:len(line)-len(strings.TrimLeft(line, " \t"))])
		switch {
		case last >= 0 && (!blank || len(indents) > 0 && indent > indents[len(indents)-1]):
			out[last].Text += " " + t
		case para >= 0:
			out[para].Text += " " + t
		default:
			indents, last = nil, -1
			out = append(out, PlanItem{Text: t})
			para = len(out) - 1
		}
		blank = false
	}
	return out
}

// withoutComments blanks the HTML comments of lines outside fenced code,
// keeping every line, so that line numbers stay right: what plan.md,
// notes.md and resume read. A comment hides lines only where CommonMark
// makes it an HTML block, "<!--" at the start of a line (three spaces in
// at most), and only when it ends: up to the line holding "-->", whose
// rest is kept. Within a line, a comment that ends on that line is left
// out; a "<!--" after text that does not end there, or one at the start
// of a line that never ends, hides nothing: it is text (ADR-0033), so
// that a note holding "<!--" cannot hide the notes after it.
func withoutComments(lines []string) []string {
	lastEnd := -1 // the last line holding "-->"
	for i := len(lines) - 1; i >= 0 && lastEnd < 0; i-- {
		if strings.Contains(lines[i], "-->") {
			lastEnd = i
		}
	}
	out := make([]string, len(lines))
	inFence, inComment := false, false
	for i, line := range lines {
		switch {
		case inComment:
			end := strings.Index(line, "-->")
			if end >= 0 {
				out[i], inComment = inlineComments(line[end+3:]), false
			}
		case planFenceRE.MatchString(line):
			inFence = !inFence
			out[i] = line
		case inFence:
			out[i] = line
		case blockCommentRE.MatchString(line):
			start := strings.Index(line, "<!--")
			// "<!-->" and "<!--->" end where they start.
			if end := strings.Index(line[start+2:], "-->"); end >= 0 {
				out[i] = inlineComments(line[start+2+end+3:])
			} else if lastEnd > i {
				inComment = true
			} else {
				out[i] = line // never ends: text
			}
		default:
			out[i] = inlineComments(line)
		}
	}
	return out
}

var blockCommentRE = lazyre.MustCompile(`^ {0,3}<!--`)

// inlineComments leaves out of a line the comments that start and end in
// it; a "<!--" that does not end in it is text, and so is what follows.
func inlineComments(line string) string {
	var b strings.Builder
	for {
		start := strings.Index(line, "<!--")
		if start < 0 {
			break
		}
		end := strings.Index(line[start+2:], "-->")
		if end < 0 {
			break
		}
		b.WriteString(line[:start])
		line = line[start+2+end+3:]
	}
	if b.Len() == 0 {
		return line
	}
	return b.String() + line
}

// RenderPlan writes plan.md: per seed, its acceptance criteria as a
// checklist.
func RenderPlan(name string, sources []PlanSource) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Plan: %s\n\n", name)
	b.WriteString("A checklist from the Acceptance Criteria of the seed items. Tick items as\n")
	b.WriteString("you go; canon workset refresh rewrites this file only while it is unedited.\n")
	if len(sources) == 0 {
		b.WriteString("\nThis workset has no seed items; write your own steps here.\n")
	}
	for _, s := range sources {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", flatten(s.Doc.ID), flatten(s.Doc.Title)) // a heading: one line
		items := PlanItems(s.Criteria)
		switch {
		case !s.Found:
			b.WriteString("No Acceptance Criteria section; write your own steps here.\n")
			continue
		case len(items) == 0:
			b.WriteString("The Acceptance Criteria section is empty.\n")
			continue
		}
		for _, it := range items {
			box := "[ ]"
			if it.Done {
				box = "[x]"
			}
			fmt.Fprintf(&b, "%s- %s %s\n", strings.Repeat("  ", it.Depth), box, it.Text)
		}
	}
	return b.String()
}
