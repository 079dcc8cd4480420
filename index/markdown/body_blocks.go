package markdown

import "strings"

// The scanner's block structure, as CommonMark's block parsing reads it:
// each line is matched against the open containers (block quotes, list
// items), continues or closes the open leaf block, opens new containers and
// starts a leaf block. A paragraph it closes goes to the inline scan
// (body_links.go).

// line handles one line, doc[start:end] without its line ending, as
// CommonMark's block parsing does: match the open containers, continue or
// close the open leaf block, open new containers, then start a leaf block.
// next is the offset of the following line.
func (s *scanner) line(start, end, next, ln int) {
	pos, col, matched := s.matchContainers(start, end)
	blank := isBlank(s.doc[pos:end])
	if s.continueRaw(pos, col, end, next, matched, blank) {
		return
	}
	if blank {
		s.endPara()
		s.table = false
		s.stack = s.stack[:matched] // a block quote needs its '>' on blank lines too
		return
	}
	pos, col, matched = s.openContainers(pos, col, end, matched)
	s.leaf(start, end, next, ln, pos, col, matched)
}

// continueRaw continues the open fenced code block or HTML block, if any,
// with the line's content doc[pos:end] (column col), and reports whether
// the line belongs to it: nothing in it is a link or a heading. A block
// whose containers the line does not match is closed, and the line is then
// handled as any other.
func (s *scanner) continueRaw(pos, col, end, next, matched int, blank bool) bool {
	doc := s.doc
	if s.fenceChar != 0 {
		if matched >= s.fenceDepth {
			if ind, p := indentCols(doc, pos, col, end); ind <= 3 && p < end && fenceClose(doc, p, end, s.fenceChar, s.fenceLen) {
				s.fenceChar = 0
			}
			return true
		}
		s.fenceChar = 0 // its container ended; the line is handled below
	}
	if s.html != htmlNone {
		if matched >= s.htmlDepth {
			switch s.html {
			case htmlUntil:
				if strings.Contains(doc[pos:end], s.htmlClose) {
					s.html = htmlNone
					s.endComment(doc[pos:end], next)
				}
				if s.htmlClose == ">" || s.htmlClose == "?>" || s.htmlClose == "]]>" {
					return true // declarations, processing instructions, CDATA: no tags
				}
				if s.htmlClose != "-->" {
					s.htmlAnchors(doc[pos:end])
				}
				return true
			case htmlRaw:
				if hasRawClose(doc[pos:end]) {
					s.html = htmlNone
				}
				return true
			}
			if !blank {
				s.htmlAnchors(doc[pos:end])
				return true
			}
		}
		s.html = htmlNone
	}
	return false
}

// openContainers opens the block quotes and list items whose markers start
// the line's content at doc[pos:end] (column col), inside the matched open
// containers, and returns the offset and column after their markers and
// how many containers hold the line.
func (s *scanner) openContainers(pos, col, end, matched int) (int, int, int) {
	doc := s.doc
	allMatched := matched == len(s.stack)
	opened := false // whether this line opens containers
	open := func(c container) {
		if !opened {
			opened = true
			s.endPara()
			s.table = false
			s.stack = s.stack[:matched]
		}
		s.hold()
		s.stack = append(s.stack, c)
		matched = len(s.stack)
	}
	for len(s.stack) < maxDepth {
		ind, p := indentCols(doc, pos, col, end)
		if ind >= 4 || p >= end {
			break
		}
		if doc[p] == '>' {
			open(container{quote: true})
			pos, col = quoteSpace(doc, p+1, col+ind+1, end)
			continue
		}
		if thematicBreak(doc, p, end) ||
			s.para && allMatched && !opened && setextUnderline(doc, p, end) {
			break
		}
		m, ordered, one := listMarker(doc, p, end)
		if m < 0 {
			break
		}
		// An item interrupting a paragraph must have content and, when
		// ordered, start at 1.
		if s.para && allMatched && !opened && (isBlank(doc[m:end]) || ordered && !one) {
			break
		}
		after := col + ind + (m - p) // column after the marker
		sp, c := indentCols(doc, m, after, end)
		switch {
		case c >= end: // an item starting with a blank line
			open(container{indent: after + 1})
			pos, col = end, after+1
		case sp > 4: // the content is indented code, one column after the marker
			open(container{indent: after + 1})
			pos, col = advanceCols(doc, m, after, 1, end)
		default:
			open(container{indent: after + sp})
			pos, col = c, after+sp
		}
	}
	return pos, col, matched
}

// matchContainers matches the open containers against the line's start and
// returns the offset and column after their markers and how many matched.
func (s *scanner) matchContainers(start, end int) (pos, col, matched int) {
	doc := s.doc
	pos = start
	// p is the first non-blank character after pos, at column pcol; it
	// stays put while list items consume indentation, so that deep nesting
	// costs one pass over the line.
	ind, p := indentCols(doc, pos, col, end)
	pcol := col + ind
	for _, c := range s.stack {
		if c.quote {
			if pcol-col > 3 || p >= end || doc[p] != '>' {
				break
			}
			pos, col = quoteSpace(doc, p+1, pcol+1, end)
			ind, p = indentCols(doc, pos, col, end)
			pcol = col + ind
		} else if p < end {
			if pcol < c.indent {
				break
			}
			pos, col = advanceCols(doc, pos, col, c.indent-col, end)
		} else if !c.content { // a blank line continues an item, unless it is empty
			break
		}
		matched++
	}
	return pos, col, matched
}

// leaf handles the line's content at doc[pos:end] (column col) once the
// containers are known: it continues the open paragraph or table, or starts
// a leaf block.
func (s *scanner) leaf(start, end, next, ln, pos, col, matched int) {
	doc := s.doc
	ind, p := indentCols(doc, pos, col, end)
	if p >= end { // an empty list item or block quote line
		return
	}
	allMatched := matched == len(s.stack)
	// startBlock closes what a new leaf block ends: the paragraph, the
	// table and the containers the line did not match.
	startBlock := func() {
		s.endPara()
		s.table = false
		s.stack = s.stack[:matched]
		s.hold()
	}
	if ind >= 4 {
		switch {
		case s.para: // indented code cannot interrupt a paragraph; this may be lazy
			s.extendPara(p, end)
			s.hold()
		default: // indented code (it ends a table too): no links, no headings
			startBlock()
		}
		return
	}
	switch c := doc[p]; c {
	case '`', '~':
		if n := fenceOpen(doc, p, end); n > 0 {
			startBlock()
			s.fenceChar, s.fenceLen, s.fenceDepth = c, n, len(s.stack)
			return
		}
	case '#':
		if level, a, b := atxHeading(doc, p, end); level > 0 {
			startBlock()
			s.addHeading(level, doc[a:b], ln, start, next)
			s.scanInline(a, b, ln, start)
			return
		}
	case '=', '-':
		if s.para && allMatched && !s.table && setextUnderline(doc, p, end) {
			if s.takeDefinitions() == len(s.paraStarts) { // nothing but definitions to underline
				if c == '-' && thematicBreak(doc, p, end) {
					startBlock()
					return
				}
				s.extendPara(p, end)
				s.hold()
				return
			}
			s.setext(c, next)
			return
		}
	case '<':
		if kind, closer := htmlBlockStart(doc[p:end], s.para && allMatched); kind != htmlNone {
			startBlock()
			s.html, s.htmlClose, s.htmlDepth = kind, closer, len(s.stack)
			if closer != "-->" && closer != "?>" && closer != "]]>" && closer != ">" {
				s.htmlAnchors(doc[p:end])
			}
			if closer == "-->" && len(s.stack) == 0 {
				s.commentAt = start
			}
			switch {
			case kind == htmlUntil && strings.Contains(doc[p:end], closer):
				s.html = htmlNone // it ends on its first line
				s.endComment(doc[p+4:end], next)
			case kind == htmlRaw && hasRawClose(doc[p:end]):
				s.html = htmlNone
			}
			return
		}
	}
	if (doc[p] == '-' || doc[p] == '*' || doc[p] == '_') && thematicBreak(doc, p, end) {
		startBlock()
		return
	}
	if s.table && allMatched {
		s.scanInline(p, end, ln, start)
		return
	}
	// A delimiter row under a header row of as many cells starts a table
	// (the header is the paragraph's last line; no pipe is needed: "a" over
	// "-:" is a table of one column on GitHub).
	if s.para && allMatched && tableDelimiterRow(doc, p, end) &&
		rowCells(doc[p:end]) == rowCells(doc[s.paraStarts[len(s.paraStarts)-1]:s.paraEnd]) &&
		s.takeDefinitions() < len(s.paraStarts) {
		s.endPara()
		s.table = true
		return
	}
	if s.para { // a continuation line, lazy or not
		s.extendPara(p, end)
		s.hold()
		return
	}
	startBlock()
	s.openPara(ln, p, end)
}

func (s *scanner) openPara(ln, p, end int) {
	s.para = true
	s.paraLine = ln
	s.paraStarts = append(s.paraStarts[:0], p)
	s.paraEnd = end
	s.paraDefs = 0
}

// hold records that the innermost container holds a block.
func (s *scanner) hold() {
	if n := len(s.stack); n > 0 {
		s.stack[n-1].content = true
	}
}

func (s *scanner) extendPara(p, end int) {
	s.paraStarts = append(s.paraStarts, p)
	s.paraEnd = end
}

// endPara closes the open paragraph: its leading link reference
// definitions are recorded, and the lines after them scanned for links.
func (s *scanner) endPara() {
	if !s.para {
		return
	}
	s.takeDefinitions()
	s.para = false
	if s.paraDefs == len(s.paraStarts) {
		return
	}
	first := s.paraStarts[s.paraDefs]
	start, end := s.paraRun(s.paraDefs)
	s.scanInline(start, end, s.paraLine+s.paraDefs, strings.LastIndexByte(s.doc[:first], '\n')+1)
	s.src, s.segs = s.doc, s.segs[:0]
}

// paraRun makes the open paragraph's lines from line i on one inline run
// and returns its bounds in src: doc itself, unless container markers sit
// between the lines (a block quote), which would otherwise be inside link
// text or a destination spanning lines; then src is the lines joined
// without them, and segs maps it back to doc. The caller resets src.
func (s *scanner) paraRun(i int) (start, end int) {
	lines := s.paraStarts[i:]
	if !s.quotedLines(lines) {
		return lines[0], s.paraEnd
	}
	var b strings.Builder
	s.segs = s.segs[:0]
	ln := s.paraLine + i
	for k, p := range lines {
		end := s.paraEnd
		if k+1 < len(lines) {
			end = strings.LastIndexByte(s.doc[:lines[k+1]], '\n')
		}
		if k > 0 {
			b.WriteByte('\n')
		}
		s.segs = append(s.segs, segment{at: b.Len(), doc: p, line: ln + k})
		b.WriteString(strings.TrimSuffix(s.doc[p:end], "\r"))
	}
	s.src = b.String()
	return 0, len(s.src)
}

// quotedLines reports whether any line after the first has something other
// than indentation before its content.
func (s *scanner) quotedLines(lines []int) bool {
	for _, p := range lines[1:] {
		for i := p - 1; i >= 0 && s.doc[i] != '\n'; i-- {
			if !isSpaceTab(s.doc[i]) {
				return true
			}
		}
	}
	return false
}
