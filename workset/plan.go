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

// withoutComments blanks the HTML comments of lines outside fenced code
// (a comment may span lines), keeping every line, so that line numbers
// stay right: what plan.md, notes.md and resume read.
func withoutComments(lines []string) []string {
	out := make([]string, len(lines))
	inFence, inComment := false, false
	for i, line := range lines {
		switch {
		case !inComment && planFenceRE.MatchString(line):
			inFence = !inFence
			out[i] = line
		case inFence:
			out[i] = line
		default:
			out[i], inComment = uncomment(line, inComment)
		}
	}
	return out
}

// uncomment removes the HTML comments from line, inComment saying whether
// one opened on an earlier line is still open; it returns the rest and
// whether a comment is open at the end.
func uncomment(line string, inComment bool) (string, bool) {
	var b strings.Builder
	for {
		if inComment {
			end := strings.Index(line, "-->")
			if end < 0 {
				return b.String(), true
			}
			line, inComment = line[end+3:], false
			continue
		}
		start := strings.Index(line, "<!--")
		if start < 0 {
			if b.Len() == 0 {
				return line, false
			}
			b.WriteString(line)
			return b.String(), false
		}
		b.WriteString(line[:start])
		line, inComment = line[start+4:], true
	}
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
		fmt.Fprintf(&b, "\n## %s: %s\n\n", s.Doc.ID, s.Doc.Title)
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
