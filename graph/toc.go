package graph

import (
	"strings"
)

// ReasonSectionTOC: a section of the task that is its table of contents
// (links to its own headings) is not quoted; the headings it lists are.
const ReasonSectionTOC = "section_toc"

// tocText reports a section that is a table of contents: at least three
// lines that are list items linking to a heading of the page ("- [Goals](#goals)"),
// and they are at least 70% of its lines with text. Quoting one spends
// the budget on the document's outline (a KEP's first 70 lines).
func tocText(text string) bool {
	lines, links := 0, 0
	for _, ln := range strings.Split(text, "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "<!--") {
			continue // and the markers of a generated table (<!-- toc -->)
		}
		lines++
		item := strings.TrimLeft(ln, "-*+ ")
		if item == ln {
			// "1. [x](#x)": a numbered item
			i := strings.IndexFunc(ln, func(r rune) bool { return r < '0' || r > '9' })
			if i > 0 && strings.HasPrefix(ln[i:], ". ") {
				item = strings.TrimSpace(ln[i+2:])
			}
		}
		if item != ln && anchorOnly(item) {
			links++
		}
	}
	return links >= 3 && links*10 >= lines*7
}

// anchorOnly reports a list item that is one link to a heading of the
// page and nothing else ("[Goals](#goals)"): not a checklist item ("[ ]
// [Design](#design) reviewed"), not a link followed by what it says.
func anchorOnly(item string) bool {
	if !strings.HasPrefix(item, "[") || strings.HasPrefix(item, "[ ]") || strings.HasPrefix(item, "[x]") || strings.HasPrefix(item, "[X]") {
		return false
	}
	mid := strings.Index(item, "](#")
	return mid > 0 && strings.HasSuffix(item, ")") && !strings.Contains(item[mid+3:len(item)-1], ")")
}
