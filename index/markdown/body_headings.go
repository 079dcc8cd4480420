package markdown

import (
	"strings"

	"github.com/canon-md/canon/index/lazyre"
)

// Headings: recorded as the scan meets them (ATX, or a paragraph
// underlined: setext), their text and slugs settled at the end, and the
// anchors of their attribute blocks.

// addHeading records a heading; its Text and Slug are filled in at the end
// (finishHeadings), once every reference definition is known.
func (s *scanner) addHeading(level int, raw string, ln, lineStart, next int) {
	if len(s.body.Headings) >= MaxHeadings {
		s.body.HeadingsDropped++
		return
	}
	s.body.Headings = append(s.body.Headings, Heading{Level: level, Raw: raw, Line: ln})
	s.heads = append(s.heads, headSpan{start: lineStart, body: next})
}

// finishHeadings computes each heading's text content, resolving reference
// links against the document's definitions (which may come after the
// heading), and hands out slugs in document order.
func (s *scanner) finishHeadings() {
	for i := range s.body.Headings {
		h := &s.body.Headings[i]
		h.Text = headingText(h.Raw, s.refs, true)
		h.Slug = s.slugs.Next(h.Text)
		if id := headingAttrID(h.Raw); id != "" && len(s.body.Anchors) < MaxHeadings {
			s.body.Anchors = append(s.body.Anchors, id)
		}
	}
}

// headingAttr is a heading's attribute block at its end, as mdBook,
// Pandoc, kramdown, Hugo and MkDocs (attr_list) read it: "## Title {
// #id .class key=value }".
var (
	headingAttr   = lazyre.MustCompile(`\{([^{}]*)\}\s*$`)
	headingAttrOK = lazyre.MustCompile(`^(?:\s*(?:#[A-Za-z0-9_:.-]+|\.[A-Za-z0-9_-]+|[A-Za-z_][A-Za-z0-9_-]*=(?:"[^"]*"|'[^']*'|[^\s"']+)))+\s*$`)
)

// headingAttrID is the id an attribute block at the end of a heading
// gives it ("" when there is none). Those renderers link #id to the
// heading: a repository written for one of them uses these anchors on
// purpose (rust-lang/rfcs, an mdBook). GitHub shows the block as text, and
// its own slug of the heading stays an anchor too.
func headingAttrID(raw string) string {
	m := headingAttr.FindStringSubmatch(raw)
	if m == nil || !headingAttrOK.MatchString(m[1]) {
		return ""
	}
	for _, f := range strings.Fields(m[1]) {
		if strings.HasPrefix(f, "#") && len(f) > 1 {
			return f[1:]
		}
	}
	return ""
}

// setext turns the open paragraph into a heading underlined with c.
func (s *scanner) setext(c byte, next int) {
	level := 1
	if c == '-' {
		level = 2
	}
	first := s.paraStarts[s.paraDefs]
	s.addHeading(level, s.paraRaw(), s.paraLine+s.paraDefs, strings.LastIndexByte(s.doc[:first], '\n')+1, next)
	s.endPara()
}

// paraRaw returns the open paragraph's content: its lines without their
// container markers and indentation, joined by "\n", the last one trimmed.
// Spaces at the end of the other lines stay: inside a code span they are
// content ("` \n`" is a code span of two spaces); elsewhere the text
// parser drops them before a line break.
func (s *scanner) paraRaw() string {
	doc := s.doc
	line := func(i int) string {
		end := s.paraEnd
		if i+1 < len(s.paraStarts) {
			end = strings.LastIndexByte(doc[:s.paraStarts[i+1]], '\n')
			return strings.TrimRight(doc[s.paraStarts[i]:end], "\r")
		}
		return strings.TrimRight(doc[s.paraStarts[i]:end], " \t\r")
	}
	if len(s.paraStarts) == s.paraDefs+1 {
		return line(s.paraDefs)
	}
	var b strings.Builder
	for i := s.paraDefs; i < len(s.paraStarts); i++ {
		if i > s.paraDefs {
			b.WriteByte('\n')
		}
		b.WriteString(line(i))
	}
	return b.String()
}
