package markdown

import "strings"

// Sections: the body cut at its headings, each section's text as written,
// less the comment blocks GitHub shows nothing of.

// endComment ends the comment block open since s.commentAt (if any) on
// the line whose rest is tail, before offset next: it is recorded when
// nothing follows its "-->".
func (s *scanner) endComment(tail string, next int) {
	if s.commentAt < 0 {
		return
	}
	k := strings.Index(tail, "-->")
	if k >= 0 && isBlank(tail[k+3:]) {
		s.comments = append(s.comments, [2]int{s.commentAt, next})
	}
	s.commentAt = -1
}

// uncommented is doc[from:to] without the comment blocks in it.
func (s *scanner) uncommented(from, to int) string {
	var b strings.Builder
	at := from
	for _, c := range s.comments {
		if c[1] <= at || c[0] >= to {
			continue
		}
		b.WriteString(s.doc[at:max(at, c[0])])
		at = min(c[1], to)
	}
	if at == from {
		return s.doc[from:to]
	}
	b.WriteString(s.doc[at:to])
	return b.String()
}

// sections cuts the body into the preamble and one section per heading.
func (s *scanner) sections() {
	hs := s.body.Headings
	if len(hs) == 0 {
		if text := sectionText(s.uncommented(0, len(s.doc))); text != "" {
			s.body.Sections = []Section{{Heading: -1, Start: s.first, End: s.last, Text: text}}
		}
		return
	}
	s.body.Sections = make([]Section, 0, len(hs)+1)
	if text := sectionText(s.uncommented(0, s.heads[0].start)); text != "" {
		s.body.Sections = append(s.body.Sections, Section{Heading: -1, Start: s.first, End: hs[0].Line - 1, Text: text})
	}
	for i, h := range hs {
		end, endOff := s.last, len(s.doc)
		if i+1 < len(hs) {
			end, endOff = hs[i+1].Line-1, s.heads[i+1].start
		}
		text := ""
		if from := s.heads[i].body; from < endOff {
			text = sectionText(s.uncommented(from, endOff))
		}
		s.body.Sections = append(s.body.Sections, Section{Heading: i, Slug: h.Slug, Start: h.Line, End: end, Text: text})
	}
}

// sectionText trims leading and trailing blank lines from text, keeping the
// indentation of the first line and the trailing spaces of the last, and
// normalises CRLF line endings to LF.
func sectionText(text string) string {
	first := -1
	for i := 0; i < len(text); i++ {
		if !isCmarkSpace(text[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return ""
	}
	lastNonSpace := len(text) - 1
	for isCmarkSpace(text[lastNonSpace]) {
		lastNonSpace--
	}
	from := strings.LastIndexByte(text[:first], '\n') + 1
	to := len(text)
	if k := strings.IndexByte(text[lastNonSpace:], '\n'); k >= 0 {
		to = lastNonSpace + k
	}
	text = strings.TrimSuffix(text[from:to], "\r")
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	return text
}
