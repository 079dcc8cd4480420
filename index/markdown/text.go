package markdown

import (
	"html"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// HeadingText returns the text content of a heading's inline Markdown, the
// string GitHub slugs: what the browser's textContent gives for the rendered
// heading. Code spans keep their content, links and reference links keep
// their text, images give nothing (an <img> has no text content), autolinks
// give their URL, HTML tags are dropped but the text between them is kept,
// entities and backslash escapes are decoded, and emphasis and
// strikethrough delimiters are removed where CommonMark's delimiter rules
// pair them (so the underscores in snake_case_name stay).
//
// Reference links depend on the document's definitions, which raw alone
// does not give: "[text][label]" and "[text][]" are taken as links to a
// defined label, and a shortcut reference such as "[WIP]" as literal text
// (the brackets do not change the slug). ScanBody resolves them against the
// document's own definitions instead.
func HeadingText(raw string) string {
	return headingText(raw, nil, false)
}

// headingText is HeadingText; when known is set, a reference link is a
// link only if refs holds its normalised label (see labelKey).
func headingText(raw string, refs map[string]bool, known bool) string {
	if !hasInlineSyntax(raw) {
		return raw
	}
	p := textParser{src: raw, refs: refs, known: known}
	p.parse()
	return p.render()
}

// linkTextOf is the plain text of a link's text as written: as HeadingText,
// but an image inside gives its alt text ([![build](badge.svg)](ci) has
// the text "build"), as does an image in an image's alt text.
func linkTextOf(raw string, refs map[string]bool) string {
	if !hasInlineSyntax(raw) {
		return raw
	}
	p := textParser{src: raw, alt: true, bracketed: true, refs: refs, known: refs != nil}
	p.parse()
	return p.render()
}

// labelKey normalises a link label for matching, as CommonMark does:
// Unicode case folded (ẞ and ss match), inner whitespace collapsed,
// trimmed.
func labelKey(label string) string {
	plain := label != "" && label[0] != ' ' && label[len(label)-1] != ' '
	for i := 0; plain && i < len(label); i++ {
		c := label[i]
		plain = c < utf8.RuneSelf && !('A' <= c && c <= 'Z') && c != '\t' && c != '\n' && c != '\r' &&
			!(c == ' ' && label[i+1] == ' ')
	}
	if plain {
		return label
	}
	folded := strings.Join(strings.Fields(label), " ")
	for i := 0; i < len(folded); i++ {
		if folded[i] >= utf8.RuneSelf {
			return cases.Fold().String(folded)
		}
	}
	return strings.ToLower(folded)
}

// textSpecial marks the bytes that can start inline syntax in HeadingText.
var textSpecial = [256]bool{'\\': true, '`': true, '*': true, '_': true, '~': true,
	'[': true, ']': true, '<': true, '&': true, '\r': true, '\n': true}

func hasInlineSyntax(s string) bool {
	for i := 0; i < len(s); i++ {
		if textSpecial[s[i]] {
			return true
		}
	}
	return false
}

type pieceKind uint8

const (
	pieceText   pieceKind = iota // literal text
	pieceDelim                   // a run of *, _ or ~ that may pair
	pieceOpen                    // '[' or "![" that may open a link
	pieceHidden                  // rendered as nothing
)

type piece struct {
	kind  pieceKind
	text  string // pieceText: the text; pieceDelim, pieceOpen: the source
	ch    byte   // pieceDelim: the delimiter character
	n     int    // pieceDelim: characters not yet paired
	orig  int    // pieceDelim: the run's length as written
	open  bool   // pieceDelim: can open; pieceOpen: still active
	close bool   // pieceDelim: can close
	image bool   // pieceOpen: "![" rather than "["
	pos   int    // pieceOpen: offset of the '[' in src
	after bool   // pieceOpen: another bracket opened after it
	code  bool   // pieceText: a code span's content, kept as it is
}

// textParser is a small CommonMark inline parser that keeps only what
// becomes text: the "look for link or image" and "process emphasis"
// procedures of the spec's appendix, without building nodes.
type textParser struct {
	src     string
	pieces  []piece
	openers []int // indexes of pieceOpen pieces, innermost last
	refs    map[string]bool
	known   bool // refs holds the document's definitions
	alt     bool // an image gives its alt text (a link's text), not nothing (a heading's)
	// bracketed: src is a link's text, so emphasis sees the '[' before it
	// and the ']' after it (punctuation), not the white space that stands
	// for the start and end of a heading's line.
	bracketed bool
	linked    bool // a link (not an image) formed in src
	code      codeCloser
}

func (p *textParser) pushOpener(pc piece) {
	if n := len(p.openers); n > 0 {
		p.pieces[p.openers[n-1]].after = true
	}
	p.openers = append(p.openers, len(p.pieces))
	p.add(pc)
}

// defined reports whether a reference to label resolves; shortcut tells a
// "[label]" alone from "[text][label]".
func (p *textParser) defined(label string, shortcut bool) bool {
	if !p.known {
		return !shortcut
	}
	return p.refs[labelKey(label)]
}

func (p *textParser) add(pc piece) { p.pieces = append(p.pieces, pc) }

func (p *textParser) addText(s string) {
	if s != "" {
		p.add(piece{kind: pieceText, text: s})
	}
}

func (p *textParser) parse() {
	s, end := p.src, len(p.src)
	text := 0 // start of pending literal text
	flush := func(i int) { p.addText(s[text:i]) }
	for i := 0; i < end; {
		c := s[i]
		if !textSpecial[c] && c != '!' {
			i++
			continue
		}
		switch c {
		case '\\':
			if i+1 < end && isASCIIPunct(s[i+1]) {
				flush(i)
				p.addText(s[i+1 : i+2])
				i += 2
				text = i
				continue
			}
			if i+1 < end && (s[i+1] == '\n' || s[i+1] == '\r') { // hard line break
				flush(i)
				i++
				text = i
				continue
			}
		case '`':
			n := backtickRun(s, i, end)
			if j := p.code.close(s, i+n, end, n); j >= 0 {
				flush(i)
				p.add(piece{kind: pieceText, text: codeText(s[i+n : j]), code: true})
				i = j + n
				text = i
				continue
			}
			i += n
			continue
		case '&':
			if j, dec := entityAt(s, i, end); j > 0 {
				flush(i)
				p.addText(dec)
				i = j
				text = i
				continue
			}
		case '<':
			if j, url, _ := autolinkEnd(s, i, end); j > 0 {
				flush(i)
				p.addText(url)
				i = j
				text = i
				continue
			}
			if j := htmlEnd(s, i, end); j > 0 {
				flush(i)
				i = j
				text = i
				continue
			}
		case '*', '_', '~':
			flush(i)
			i = p.delimRun(i)
			text = i
			continue
		case '!':
			if i+1 < end && s[i+1] == '[' {
				flush(i)
				p.pushOpener(piece{kind: pieceOpen, text: "![", open: true, image: true, pos: i + 1})
				i += 2
				text = i
				continue
			}
		case '[':
			flush(i)
			p.pushOpener(piece{kind: pieceOpen, text: "[", open: true, pos: i})
			i++
			text = i
			continue
		case ']':
			flush(i)
			i = p.closeBracket(i)
			text = i
			continue
		case '\r':
			if i+1 < end && s[i+1] == '\n' {
				flush(i)
				i++
				text = i
				continue
			}
		}
		i++
	}
	flush(end)
	p.emphasis(-1)
}

// delimRun adds the delimiter run starting at src[i] and returns its end.
func (p *textParser) delimRun(i int) int {
	s := p.src
	c := s[i]
	j := i
	for j < len(s) && s[j] == c {
		j++
	}
	before, after := ' ', ' ' // the start and end of a line count as white space
	if p.bracketed {
		before, after = '[', ']'
	}
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if j < len(s) {
		after, _ = utf8.DecodeRuneInString(s[j:])
	}
	left := !isUnicodeSpace(after) && (!isUnicodePunct(after) || isUnicodeSpace(before) || isUnicodePunct(before))
	right := !isUnicodeSpace(before) && (!isUnicodePunct(before) || isUnicodeSpace(after) || isUnicodePunct(after))
	pc := piece{kind: pieceDelim, text: s[i:j], ch: c, n: j - i, orig: j - i, open: left, close: right}
	switch {
	case c == '_':
		pc.open = left && (!right || isUnicodePunct(before))
		pc.close = right && (!left || isUnicodePunct(after))
	case c == '~' && j-i > 2: // GFM strikethrough takes one or two tildes
		pc.kind = pieceText
	}
	p.add(pc)
	return j
}

// closeBracket handles the ']' at src[i] and returns where to go on.
func (p *textParser) closeBracket(i int) int {
	s, end := p.src, len(p.src)
	if len(p.openers) == 0 {
		p.addText("]")
		return i + 1
	}
	o := p.openers[len(p.openers)-1]
	p.openers = p.openers[:len(p.openers)-1]
	opener := &p.pieces[o]
	if !opener.open {
		p.addText("]")
		return i + 1
	}
	next := -1
	if i+1 < end && s[i+1] == '(' {
		if _, j, ok := linkTail(s, i+2, end); ok {
			next = j
		}
	}
	if next < 0 {
		// cmark's order: a following [label] (a full reference, or a
		// collapsed one when empty), else the text itself as a shortcut
		// label unless it holds brackets.
		label, shortcut, after := "", true, i+1
		if i+1 < end && s[i+1] == '[' {
			if k := strings.IndexByte(s[i+2:end], ']'); k >= 0 && !strings.ContainsRune(s[i+2:i+2+k], '[') {
				label, shortcut, after = s[i+2:i+2+k], false, i+2+k+1
			}
		}
		if strings.TrimSpace(label) == "" {
			label = ""
			if !opener.after {
				label = s[opener.pos+1 : i]
			}
		}
		if label != "" && p.defined(label, shortcut) {
			next = after
		}
	}
	if next < 0 {
		p.addText("]")
		return i + 1
	}
	p.emphasis(o)
	p.linked = p.linked || !opener.image
	opener.kind = pieceHidden
	if opener.image && !p.alt {
		// Alt text is an attribute, not text content.
		for k := o + 1; k < len(p.pieces); k++ {
			p.pieces[k].kind = pieceHidden
		}
	} else {
		// Links may not contain links: earlier openers become literal.
		for _, k := range p.openers {
			if !p.pieces[k].image {
				p.pieces[k].open = false
			}
		}
	}
	return next
}

// emphasis pairs the delimiter runs after pieces[bottom] (CommonMark's
// "process emphasis"), then takes them all off the delimiter stack.
func (p *textParser) emphasis(bottom int) {
	// openersBottom[char][closer can open][closer length % 3]
	var openersBottom [3][2][3]int
	for a := range openersBottom {
		for b := range openersBottom[a] {
			for c := range openersBottom[a][b] {
				openersBottom[a][b][c] = bottom
			}
		}
	}
	for c := bottom + 1; c < len(p.pieces); c++ {
		cl := &p.pieces[c]
		if cl.kind != pieceDelim || !cl.close || cl.n == 0 {
			continue
		}
		ci, oi := delimIndex(cl.ch), 0
		if cl.open {
			oi = 1
		}
		floor := openersBottom[ci][oi][cl.orig%3]
		found := -1
		for o := c - 1; o > floor; o-- {
			op := &p.pieces[o]
			if op.kind != pieceDelim || !op.open || op.n == 0 || op.ch != cl.ch {
				continue
			}
			if cl.ch == '~' {
				if op.n != cl.n {
					continue
				}
			} else if (op.close || cl.open) && (op.orig+cl.orig)%3 == 0 && !(op.orig%3 == 0 && cl.orig%3 == 0) {
				continue
			}
			found = o
			break
		}
		if found < 0 {
			openersBottom[ci][oi][cl.orig%3] = c - 1
			if !cl.open {
				cl.close = false
			}
			continue
		}
		op := &p.pieces[found]
		use := 1
		switch {
		case cl.ch == '~':
			use = cl.n
		case cl.n >= 2 && op.n >= 2:
			use = 2
		}
		op.n -= use
		cl.n -= use
		for k := found + 1; k < c; k++ {
			if p.pieces[k].kind == pieceDelim {
				p.pieces[k].open, p.pieces[k].close = false, false
			}
		}
		if cl.n > 0 {
			c-- // the same closer may close again
		}
	}
	for k := bottom + 1; k < len(p.pieces); k++ {
		if p.pieces[k].kind == pieceDelim {
			p.pieces[k].open, p.pieces[k].close = false, false
		}
	}
}

func delimIndex(c byte) int {
	switch c {
	case '*':
		return 0
	case '_':
		return 1
	}
	return 2
}

// render is the text content of the pieces. Spaces and tabs around a
// line break are not part of it (the lines of a paragraph are stripped,
// and "  \n" is a hard break), except inside a code span, whose content
// is kept as it is.
func (p *textParser) render() string {
	b := make([]byte, 0, len(p.src))
	keep := 0          // b[:keep] ends with a code span: no trimming into it
	lineStart := false // spaces and tabs here start a line: dropped
	for _, pc := range p.pieces {
		switch pc.kind {
		case pieceText, pieceOpen:
			if pc.code {
				b = append(b, pc.text...)
				keep, lineStart = len(b), false
				continue
			}
			for t := pc.text; t != ""; {
				if lineStart {
					if t = strings.TrimLeft(t, " \t"); t == "" {
						break
					}
					lineStart = false
				}
				k := strings.IndexByte(t, '\n')
				if k < 0 {
					b = append(b, t...)
					break
				}
				b = append(b, t[:k]...)
				for len(b) > keep && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
					b = b[:len(b)-1]
				}
				b = append(b, '\n')
				t, lineStart = t[k+1:], true
			}
		case pieceDelim:
			for range pc.n {
				b = append(b, pc.ch)
			}
			lineStart = lineStart && pc.n == 0
		}
	}
	return string(b)
}

// codeText is the text of a code span: line endings become spaces, and one
// space is stripped from each end when both ends have one and the content
// is not all spaces.
func codeText(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.ReplaceAll(s, "\r\n", " ")
		s = strings.ReplaceAll(s, "\n", " ")
	}
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		s = s[1 : len(s)-1]
	}
	return s
}

// entityAt decodes the HTML entity or numeric character reference at
// s[i] == '&' and returns the offset past its ';' and its text, or -1.
func entityAt(s string, i, end int) (int, string) {
	j := i + 1
	switch {
	case j < end && s[j] == '#':
		j++
		hex := j < end && s[j]|0x20 == 'x'
		if hex {
			j++
		}
		k := j
		for k < end && k-j < 8 && ('0' <= s[k] && s[k] <= '9' || hex && 'a' <= s[k]|0x20 && s[k]|0x20 <= 'f') {
			k++
		}
		if n := k - j; n == 0 || hex && n > 6 || !hex && n > 7 {
			return -1, ""
		}
		j = k
	default:
		k := j
		for k < end && k-j <= 32 && isASCIIAlnum(s[k]) {
			k++
		}
		if k == j || k-j > 32 {
			return -1, ""
		}
		j = k
	}
	if j >= end || s[j] != ';' {
		return -1, ""
	}
	ent := s[i : j+1]
	dec := html.UnescapeString(ent)
	// html also decodes a legacy name that is only a prefix ("&ampx;" gives
	// "&x;"); CommonMark knows whole names only.
	if dec == ent || strings.HasSuffix(dec, ";") && ent != "&semi;" {
		return -1, ""
	}
	return j + 1, dec
}
