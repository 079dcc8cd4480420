package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inline syntax shared by the body scanner and HeadingText. Every helper
// works on a string and an end offset, never past it, and returns -1 (or
// false) when the construct is not there, so that callers fall back to
// treating the first character as text, as CommonMark does.

func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

func isASCIIAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isASCIIAlnum(c byte) bool { return isASCIIAlpha(c) || '0' <= c && c <= '9' }

// isSpaceTab is CommonMark's "space or tab", the only indentation characters.
func isSpaceTab(c byte) bool { return c == ' ' || c == '\t' }

// isCmarkSpace is cmark's isspace: the ASCII whitespace bytes.
func isCmarkSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isBlank reports whether s holds only spaces, tabs and line-ending bytes
// (CommonMark's blank; a vertical tab or form feed is content).
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// isUnicodeSpace is CommonMark's Unicode whitespace (Zs plus tab, line
// feed, form feed and carriage return).
func isUnicodeSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
	}
	return unicode.Is(unicode.Zs, r)
}

// isUnicodePunct is CommonMark 0.31's Unicode punctuation: P* and S*.
func isUnicodePunct(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// backtickRun returns the length of the run of backticks at s[i:end].
func backtickRun(s string, i, end int) int {
	n := 0
	for i+n < end && s[i+n] == '`' {
		n++
	}
	return n
}

// maxCodeTicks is the longest backtick run that opens a code span, as in
// cmark and on GitHub (MAXBACKTICKS): a longer run is text. It bounds
// codeCloser's table.
const maxCodeTicks = 1000

// codeCloser finds the closing backtick runs of the code spans of one
// inline run, in time linear in the run's length however many backtick
// runs it holds (cmark's scan_to_closing_backticks). A search passes runs
// of other lengths and records where; once one has reached the end, the
// last run of every length after where it started is known, and an opener
// of a length with none after it is answered at once instead of by
// another scan to the end (which made 4.5 MB of backtick runs of growing
// length take 8 s). A zero codeCloser is ready; reset it for the next run.
type codeCloser struct {
	last    []int // last[n]-1: offset of the last run of n backticks a search passed; 0: none
	touched []int // the lengths last holds, so that reset clears only those
	atEnd   bool  // a search that started at endFrom reached the end
	endFrom int
	work    int // bytes the searches passed, for the test that holds them linear
}

func (c *codeCloser) reset() {
	for _, n := range c.touched {
		c.last[n] = 0
	}
	c.touched, c.atEnd = c.touched[:0], false
}

// close returns the offset of the run of exactly n backticks in s[from:end]
// that closes a code span whose opening run ends at from, or -1.
func (c *codeCloser) close(s string, from, end, n int) int {
	if n > maxCodeTicks {
		return -1
	}
	if c.atEnd && from >= c.endFrom && (n >= len(c.last) || c.last[n]-1 < from) {
		return -1 // known: no run of n backticks after from
	}
	for i := from; i < end; {
		j := strings.IndexByte(s[i:end], '`')
		if j < 0 {
			c.work += end - i
			break
		}
		i += j
		m := backtickRun(s, i, end)
		c.work += j + m
		c.record(m, i)
		if m == n {
			return i
		}
		i += m
	}
	c.atEnd, c.endFrom = true, from
	return -1
}

func (c *codeCloser) record(n, at int) {
	if n > maxCodeTicks {
		return
	}
	if n >= len(c.last) {
		c.last = append(c.last, make([]int, n+1-len(c.last))...)
	}
	if c.last[n] == 0 {
		c.touched = append(c.touched, n)
	}
	c.last[n] = at + 1
}

// autolinkEnd parses a CommonMark autolink <scheme:...> or <user@host> at
// s[i] == '<'. It returns the offset just past '>' and the text between the
// brackets, or -1.
func autolinkEnd(s string, i, end int) (int, string, bool) {
	j := i + 1
	if j < end && isASCIIAlpha(s[j]) {
		k := j + 1
		for k < end && k-j <= 32 && (isASCIIAlnum(s[k]) || s[k] == '+' || s[k] == '.' || s[k] == '-') {
			k++
		}
		if k < end && s[k] == ':' && k-j >= 2 && k-j <= 32 {
			for m := k + 1; m < end; m++ {
				c := s[m]
				if c == '>' {
					return m + 1, s[j:m], false
				}
				if c <= ' ' || c == '<' || c == 0x7f {
					break
				}
			}
		}
	}
	if m := emailAutolinkEnd(s, j, end); m > 0 {
		return m + 1, s[j:m], true
	}
	return -1, "", false
}

// emailAutolinkEnd returns the offset of the '>' closing an email autolink
// whose address starts at s[j], or -1.
func emailAutolinkEnd(s string, j, end int) int {
	k := j
	for k < end && (isASCIIAlnum(s[k]) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", s[k]) >= 0) {
		k++
	}
	if k == j || k >= end || s[k] != '@' {
		return -1
	}
	k++
	for {
		// A label: alphanumerics and inner hyphens, at most 63 characters.
		start := k
		for k < end && (isASCIIAlnum(s[k]) || s[k] == '-') && k-start < 63 {
			k++
		}
		if k == start || s[start] == '-' || s[k-1] == '-' {
			return -1
		}
		if k < end && s[k] == '>' {
			return k
		}
		if k >= end || s[k] != '.' {
			return -1
		}
		k++
	}
}

// htmlEnd returns the offset just past the raw HTML (an open or closing tag,
// a comment, a processing instruction, a declaration or CDATA) that starts
// at s[i] == '<', or -1.
func htmlEnd(s string, i, end int) int {
	if i+1 >= end {
		return -1
	}
	switch s[i+1] {
	case '!':
		rest := s[i:end]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			// GitHub's renderer follows CommonMark 0.29 here: the text of
			// a comment does not start with '>' or "->" and holds no "--"
			// (0.31 made <!--> and <!-- a -- b --> comments).
			body := rest[4:]
			if strings.HasPrefix(body, ">") || strings.HasPrefix(body, "->") {
				return -1
			}
			if k := strings.Index(body, "--"); k >= 0 && k+2 < len(body) && body[k+2] == '>' {
				return i + 4 + k + 3
			}
		case strings.HasPrefix(rest, "<![CDATA["):
			if k := strings.Index(rest, "]]>"); k >= 0 {
				return i + k + 3
			}
		case len(rest) > 2 && 'A' <= rest[2] && rest[2] <= 'Z':
			// 0.29: an upper-case name, white space, anything but '>', '>'.
			j := 3
			for j < len(rest) && 'A' <= rest[j] && rest[j] <= 'Z' {
				j++
			}
			if j < len(rest) && isCmarkSpace(rest[j]) {
				if k := strings.IndexByte(rest[j:], '>'); k >= 0 {
					return i + j + k + 1
				}
			}
		}
		return -1
	case '?':
		if k := strings.Index(s[i+2:end], "?>"); k >= 0 {
			return i + 2 + k + 2
		}
		return -1
	case '/':
		j := tagNameEnd(s, i+2, end)
		if j < 0 {
			return -1
		}
		for j < end && isCmarkSpace(s[j]) {
			j++
		}
		if j < end && s[j] == '>' {
			return j + 1
		}
		return -1
	}
	j := tagNameEnd(s, i+1, end)
	if j < 0 {
		return -1
	}
	for {
		k := j
		for k < end && isCmarkSpace(s[k]) {
			k++
		}
		if k >= end {
			return -1
		}
		if s[k] == '>' {
			return k + 1
		}
		if s[k] == '/' {
			if k+1 < end && s[k+1] == '>' {
				return k + 2
			}
			return -1
		}
		if k == j { // attributes must be separated by whitespace
			return -1
		}
		if j = attributeEnd(s, k, end); j < 0 {
			return -1
		}
	}
}

// tagNameEnd returns the end of an HTML tag name (a letter, then letters,
// digits and hyphens) starting at s[i], or -1.
func tagNameEnd(s string, i, end int) int {
	if i >= end || !isASCIIAlpha(s[i]) {
		return -1
	}
	i++
	for i < end && (isASCIIAlnum(s[i]) || s[i] == '-') {
		i++
	}
	return i
}

// attributeEnd returns the end of one HTML attribute (name, optionally
// = value) starting at s[i], or -1.
func attributeEnd(s string, i, end int) int {
	c := s[i]
	if !isASCIIAlpha(c) && c != '_' && c != ':' {
		return -1
	}
	i++
	for i < end && (isASCIIAlnum(s[i]) || strings.IndexByte("_.:-", s[i]) >= 0) {
		i++
	}
	k := i
	for k < end && isCmarkSpace(s[k]) {
		k++
	}
	if k >= end || s[k] != '=' {
		return i
	}
	k++
	for k < end && isCmarkSpace(s[k]) {
		k++
	}
	if k >= end {
		return -1
	}
	if q := s[k]; q == '"' || q == '\'' {
		m := strings.IndexByte(s[k+1:end], q)
		if m < 0 {
			return -1
		}
		return k + 1 + m + 1
	}
	m := k
	for m < end && !isCmarkSpace(s[m]) && strings.IndexByte("\"'=<>`", s[m]) < 0 {
		m++
	}
	if m == k {
		return -1
	}
	return m
}

// linkTail parses the "(destination "title")" of an inline link, starting
// just after the '('. It returns the destination as written (angle brackets
// stripped) and the offset just past ')'.
func linkTail(s string, i, end int) (dest string, next int, ok bool) {
	i = skipLinkSpace(s, i, end)
	if i >= end {
		return "", 0, false
	}
	if s[i] == ')' {
		return "", i + 1, true
	}
	dest, destEnd, ok := linkDest(s, i, end)
	if !ok {
		return "", 0, false
	}
	j := skipLinkSpace(s, destEnd, end)
	if j < end && s[j] == ')' {
		return dest, j + 1, true
	}
	if j == destEnd || j >= end {
		return "", 0, false
	}
	t := titleEnd(s, j, end)
	if t < 0 {
		return "", 0, false
	}
	t = skipLinkSpace(s, t, end)
	if t < end && s[t] == ')' {
		return dest, t + 1, true
	}
	return "", 0, false
}

// linkDest parses a link destination at s[i]: <...> on one line, or a run
// without white space whose parentheses balance (control characters are
// part of it, as in cmark-gfm, GitHub's renderer). It
// returns the destination as written (without angle brackets) and the
// offset after it; a run may be empty (the caller decides whether that is
// a destination). A run may leave parentheses open, as in cmark-gfm:
// "[x]: b(c" links to "b(c", and so does "[x](b( )".
func linkDest(s string, i, end int) (dest string, next int, ok bool) {
	if s[i] == '<' {
		j := i + 1
		for ; j < end; j++ {
			c := s[j]
			if c == '\\' && j+1 < end && isASCIIPunct(s[j+1]) {
				j++
				continue
			}
			if c == '>' || c == '<' || c == '\n' || c == '\r' {
				break
			}
		}
		if j >= end || s[j] != '>' {
			return "", 0, false
		}
		return s[i+1 : j], j + 1, true
	}
	depth, j := 0, i
loop:
	for ; j < end; j++ {
		c := s[j]
		switch {
		case c == '\\' && j+1 < end && isASCIIPunct(s[j+1]):
			j++
		case c == '(':
			if depth++; depth > 32 { // cmark's limit, which keeps "[a](((((..." linear
				return "", 0, false
			}
		case c == ')':
			if depth == 0 {
				break loop
			}
			depth--
		case isCmarkSpace(c): // control characters are taken, as cmark-gfm does
			break loop
		}
	}
	return s[i:j], j, true
}

// definition parses a link reference definition at s[i] ('['), the start
// of a line, within s[:end] (CommonMark 4.7): a label of at most 999
// characters, ':', a destination (on the next line if need be), an
// optional title separated by white space (on the next line if need be),
// then nothing but spaces to the end of the line. next is the offset after
// the definition's last line ending (end when it has none).
func definition(s string, i, end int) (label, dest string, next int, ok bool) {
	j := i + 1
	for ; j < end && s[j] != ']'; j++ {
		switch {
		case j-i > 999:
			return "", "", 0, false
		case s[j] == '\\' && j+1 < end && isASCIIPunct(s[j+1]):
			j++
		case s[j] == '[':
			return "", "", 0, false
		}
	}
	if j+1 >= end || s[j+1] != ':' || isBlank(s[i+1:j]) {
		return "", "", 0, false
	}
	label = s[i+1 : j]
	d := skipDefSpace(s, j+2, end)
	if d >= end {
		return "", "", 0, false
	}
	dest, destEnd, ok := linkDest(s, d, end)
	if !ok || destEnd == d {
		return "", "", 0, false
	}
	// A title, if it is one and nothing follows it on its line; else the
	// definition ends with the destination's line, if nothing follows it.
	if t := skipDefSpace(s, destEnd, end); t > destEnd && t < end {
		if e := titleEnd(s, t, end); e > 0 {
			if n := restOfLine(s, e, end); n >= 0 {
				return label, dest, n, true
			}
		}
	}
	if n := restOfLine(s, destEnd, end); n >= 0 {
		return label, dest, n, true
	}
	return "", "", 0, false
}

// skipDefSpace skips spaces and tabs with at most one line ending among them.
func skipDefSpace(s string, i, end int) int {
	for i < end && isSpaceTab(s[i]) {
		i++
	}
	if i < end && s[i] == '\r' {
		i++
	}
	if i < end && s[i] == '\n' {
		i++
		for i < end && isSpaceTab(s[i]) {
			i++
		}
	}
	return i
}

// restOfLine returns the offset after the line ending that ends s[i:]'s
// line when only spaces come before it (end when the text ends first), or
// -1.
func restOfLine(s string, i, end int) int {
	for i < end && (isSpaceTab(s[i]) || s[i] == '\r') {
		i++
	}
	switch {
	case i >= end:
		return end
	case s[i] == '\n':
		return i + 1
	}
	return -1
}

// skipLinkSpace skips spaces and tabs and at most one line ending.
func skipLinkSpace(s string, i, end int) int {
	newline := false
	for i < end {
		switch s[i] {
		case ' ', '\t':
		case '\r':
			if i+1 < end && s[i+1] == '\n' {
				i++
			}
			fallthrough
		case '\n':
			if newline {
				return i
			}
			newline = true
		default:
			return i
		}
		i++
	}
	return i
}

// titleEnd returns the offset just past a link title ("...", '...' or
// (...)) starting at s[i], or -1. A title may span lines but not a blank one.
func titleEnd(s string, i, end int) int {
	closer := s[i]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return -1
	}
	for j := i + 1; j < end; j++ {
		c := s[j]
		switch {
		case c == '\\' && j+1 < end && isASCIIPunct(s[j+1]):
			j++
		case c == closer:
			return j + 1
		case c == '(' && closer == ')':
			return -1
		case c == '\n' && isBlank(lineAt(s, j+1, end)):
			return -1
		}
	}
	return -1
}

// lineAt returns the line starting at s[i], without its line ending.
func lineAt(s string, i, end int) string {
	if k := strings.IndexByte(s[i:end], '\n'); k >= 0 {
		return s[i : i+k]
	}
	return s[i:end]
}

// splitAnchor splits a link destination at its first '#'.
func splitAnchor(dest string) (target, anchor string) {
	if i := strings.IndexByte(dest, '#'); i >= 0 {
		return dest[:i], dest[i+1:]
	}
	return dest, ""
}
