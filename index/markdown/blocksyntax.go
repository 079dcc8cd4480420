package markdown

import "strings"

// Block syntax on one line: indentation in columns, block quote and list
// item markers, code fences, ATX headings, setext underlines, thematic
// breaks and GFM table rows. Each helper reads doc[p:end], never past end.

// quoteSpace consumes the optional space (or one column of a tab) after a
// block quote marker.
func quoteSpace(doc string, pos, col, end int) (int, int) {
	if pos < end && isSpaceTab(doc[pos]) {
		return advanceCols(doc, pos, col, 1, end)
	}
	return pos, col
}

// indentCols returns the indentation at doc[pos:end], which starts at
// column col (possibly inside a tab), in columns (tabs stop at multiples of
// four), and the offset of the first character that is not a space or tab.
func indentCols(doc string, pos, col, end int) (int, int) {
	c := col
	for ; pos < end; pos++ {
		switch doc[pos] {
		case ' ':
			c++
		case '\t':
			c = (c/4 + 1) * 4
		default:
			return c - col, pos
		}
	}
	return c - col, pos
}

// advanceCols consumes n columns of spaces and tabs from doc[pos:], which
// starts at column col; a tab may be consumed in part, leaving pos on it.
func advanceCols(doc string, pos, col, n, end int) (int, int) {
	for n > 0 && pos < end {
		switch doc[pos] {
		case ' ':
			pos, col, n = pos+1, col+1, n-1
		case '\t':
			stop := (col/4 + 1) * 4
			if stop-col > n {
				return pos, col + n
			}
			pos, n, col = pos+1, n-(stop-col), stop
		default:
			return pos, col
		}
	}
	return pos, col
}

// fenceOpen returns the length of the code fence opening at doc[p], or 0.
func fenceOpen(doc string, p, end int) int {
	c := doc[p]
	n := 0
	for p+n < end && doc[p+n] == c {
		n++
	}
	if n < 3 || c == '`' && strings.IndexByte(doc[p+n:end], '`') >= 0 {
		return 0
	}
	return n
}

func fenceClose(doc string, p, end int, c byte, n int) bool {
	m := 0
	for p+m < end && doc[p+m] == c {
		m++
	}
	return m >= n && isBlank(doc[p+m:end])
}

// atxHeading parses an ATX heading at doc[p:end]; it returns its level and
// the bounds of its content, or level 0.
func atxHeading(doc string, p, end int) (level, a, b int) {
	n := 0
	for p+n < end && doc[p+n] == '#' {
		n++
	}
	if n > 6 || p+n < end && !isSpaceTab(doc[p+n]) {
		return 0, 0, 0
	}
	a, b = p+n, end
	for a < b && isSpaceTab(doc[a]) {
		a++
	}
	for b > a && isSpaceTab(doc[b-1]) {
		b--
	}
	e := b
	for e > a && doc[e-1] == '#' {
		e--
	}
	switch {
	case e == b:
	case e == a:
		b = a
	case isSpaceTab(doc[e-1]):
		b = e
		for b > a && isSpaceTab(doc[b-1]) {
			b--
		}
	}
	return n, a, b
}

func setextUnderline(doc string, p, end int) bool {
	c := doc[p]
	for p < end && doc[p] == c {
		p++
	}
	return isBlank(doc[p:end])
}

func thematicBreak(doc string, p, end int) bool {
	c, n := doc[p], 0
	for ; p < end; p++ {
		switch doc[p] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// listMarker parses a list item marker at doc[p:end]: -, + or *, or one to
// nine digits and '.' or ')', followed by a space, a tab or the line's end.
// It returns the offset after the marker, or -1.
func listMarker(doc string, p, end int) (m int, ordered, one bool) {
	switch c := doc[p]; {
	case c == '-' || c == '+' || c == '*':
		m = p + 1
	case '0' <= c && c <= '9':
		i := p
		for i < end && i-p < 10 && '0' <= doc[i] && doc[i] <= '9' {
			i++
		}
		if i-p > 9 || i >= end || doc[i] != '.' && doc[i] != ')' {
			return -1, false, false
		}
		ordered, one = true, strings.TrimLeft(doc[p:i], "0") == "1"
		m = i + 1
	default:
		return -1, false, false
	}
	if m < end && !isSpaceTab(doc[m]) {
		return -1, false, false
	}
	return m, ordered, one
}

// rowCells counts the cells of a table row as GFM does: split at each
// '|' that no backslash escapes (code spans do not protect one), a
// leading and a trailing '|' aside.
func rowCells(row string) int {
	row = strings.Trim(row, " \t")
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	n := 1
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// tableDelimiterRow reports whether doc[p:end] is a GFM table delimiter row
// such as "| --- | :-: |".
func tableDelimiterRow(doc string, p, end int) bool {
	i, cells := p, 0
	if doc[i] == '|' {
		i++
	}
	for {
		for i < end && isSpaceTab(doc[i]) {
			i++
		}
		if i >= end {
			return cells > 0
		}
		if doc[i] == ':' {
			i++
		}
		dashes := 0
		for i < end && doc[i] == '-' {
			i++
			dashes++
		}
		if dashes == 0 {
			return false
		}
		if i < end && doc[i] == ':' {
			i++
		}
		for i < end && isSpaceTab(doc[i]) {
			i++
		}
		cells++
		if i >= end {
			return true
		}
		if doc[i] != '|' {
			return false
		}
		i++
	}
}
