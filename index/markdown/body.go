package markdown

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/canon-md/canon/index/lazyre"
)

// LinkForm is how a link is written.
type LinkForm uint8

const (
	FormMarkdown LinkForm = iota + 1 // [text](dest "title") and reference definitions [label]: dest
	FormImage                        // ![alt](src)
	FormAutolink                     // <https://...> and bare http(s):// URLs in text (also ftp:// and www., as GFM)
	FormWiki                         // [[target]], [[target|alias]], [[target#Heading]], [[#Heading]]
	FormEmbed                        // ![[target]]
)

func (f LinkForm) String() string {
	switch f {
	case FormMarkdown:
		return "markdown"
	case FormImage:
		return "image"
	case FormAutolink:
		return "autolink"
	case FormWiki:
		return "wiki"
	case FormEmbed:
		return "embed"
	}
	return "LinkForm(" + strconv.Itoa(int(f)) + ")"
}

// Link is one link in a document body.
type Link struct {
	Form LinkForm
	// Dest is the target as written, without the #fragment; angle brackets
	// are stripped, backslash escapes and %-escapes are not decoded. It is ""
	// for a same-file [x](#anchor) or [[#Heading]]. An email autolink
	// <a@b.example> gets "mailto:a@b.example".
	Dest string
	// Anchor is the text after the first '#', as written ("" if none); a
	// wiki block reference keeps its "^id".
	Anchor string
	// Text is the link text or wiki alias as plain text (HeadingText); an
	// image's alt text; a wiki link without alias gets its target as
	// written; a reference definition gets its label; an autolink its URL.
	Text string
	Line int // 1-based line in the file
	Col  int // 1-based column in code points of the first character ('[', '!', '<' or the URL's)
	// Rel is the relation the words before the link on its line name:
	// "supersedes" after "Superseded by" or "Supersedes" (adr-tools',
	// MADR's and log4brains' status lines); "" for a plain reference.
	Rel string
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level int    // 1..6
	Raw   string // heading inline source, trimmed, closing #s removed; setext lines joined by "\n"
	Text  string // Raw's text content: HeadingText(Raw), with reference links resolved against the document's definitions
	Slug  string // unique within the document (Slugger)
	Line  int    // file line of the heading (the first line of a setext heading's text)
}

// Section is the text under one heading, up to the next heading of any level.
type Section struct {
	Heading int    // index into Body.Headings, -1 for the preamble
	Slug    string // "" for the preamble
	Start   int    // first line (the heading line, or the first body line for the preamble)
	End     int    // last line, inclusive
	Text    string // the section's lines after the heading line, as written (CRLF normalised to LF), trimmed of leading/trailing blank lines
}

// Body is what ScanBody finds in a document body.
type Body struct {
	Headings []Heading
	Sections []Section // the preamble only when it has non-blank text; then one per heading, in order; every heading level starts a new section
	Links    []Link    // in source order
	// Anchors are the id and name attributes of HTML tags (<a id="fn1">,
	// <a name="x">, <span id="7">): GitHub keeps them, so #fn1 links work.
	Anchors []string
	// UnusedDefinitions are link reference definitions ([label]: dest)
	// nothing in the document uses: no link on GitHub, so none here.
	UnusedDefinitions []Link
	// Headings and links past MaxHeadings and MaxLinks are counted here,
	// not recorded: a heading beyond the budget is text of the section
	// before it.
	HeadingsDropped, LinksDropped int
}

// Budgets per document. Generous for any document people write (a long
// changelog has a few thousand links), they keep what one hostile file can
// cost every later step (rows, checks, problems) bounded.
const (
	MaxHeadings = 10_000
	MaxLinks    = 20_000
)

// ScanBody scans the Markdown body src, whose first line is line firstLine of the file.
//
// Blocks are recognised line by line as CommonMark does (fenced and indented
// code, HTML blocks, block quotes, list items, ATX and setext headings,
// thematic breaks, link reference definitions, GFM tables); the inline
// content of each paragraph, heading and table row is then scanned once for
// links, skipping code spans, autolinks and raw HTML. Nothing inside code or
// HTML is a link or a heading.
func ScanBody(src []byte, firstLine int) Body {
	if len(src) == 0 {
		return Body{}
	}
	s := scanners.Get().(*scanner)
	*s = scanner{
		doc: loneCRs(string(src)), first: firstLine, commentAt: -1,
		// Keep the scratch slices of the last document.
		heads: s.heads[:0], stack: s.stack[:0], paraStarts: s.paraStarts[:0], openers: s.openers[:0], segs: s.segs[:0],
	}
	s.scan()
	body := s.body
	if cap(s.heads)+cap(s.stack)+cap(s.paraStarts)+cap(s.openers)+cap(s.segs) <= 4096 {
		// Retain nothing of the document.
		s.doc, s.src, s.body, s.refs, s.used, s.defs, s.wikiLabels, s.unlessDefined, s.textLater = "", "", Body{}, nil, nil, nil, nil, nil, nil
		scanners.Put(s)
	}
	return body
}

// loneCRs returns doc with each carriage return that is not followed by a
// line feed made one: a lone CR ends a line in CommonMark (and on GitHub),
// and the scanner splits lines at line feeds only. Offsets do not move.
func loneCRs(doc string) string {
	for i := strings.IndexByte(doc, '\r'); i >= 0; {
		if i+1 < len(doc) && doc[i+1] == '\n' {
			k := strings.IndexByte(doc[i+1:], '\r')
			if k < 0 {
				return doc
			}
			i += 1 + k
			continue
		}
		b := []byte(doc)
		for j := i; j < len(b); j++ {
			if b[j] == '\r' && (j+1 == len(b) || b[j+1] != '\n') {
				b[j] = '\n'
			}
		}
		return string(b)
	}
	return doc
}

// scanners keeps scanners, for their scratch slices, across documents.
var scanners = sync.Pool{New: func() any { return new(scanner) }}

// htmlBlock is the kind of HTML block the scanner is inside.
type htmlBlock uint8

const (
	htmlNone       htmlBlock = iota
	htmlUntil                // ends on the line containing scanner.htmlClose (comments, <? ?>, <!X >, CDATA)
	htmlRaw                  // <pre>, <script>, <style>, <textarea>: ends on a line holding a closing tag of one of them
	htmlUntilBlank           // other block-level and lone tags: ends before a blank line
)

// maxDepth bounds the nesting of block quotes and list items; markers
// beyond it are text. It keeps absurd input (a line of a million "- ")
// linear, and no document nests a hundred deep.
const maxDepth = 100

// container is an open block quote or list item.
type container struct {
	quote   bool // a block quote; else a list item
	indent  int  // list item: the column its content starts at
	content bool // it holds a block (a blank line ends an item that holds none)
}

type scanner struct {
	// doc is the whole body as one string; every Raw, Dest, Text and
	// section Text is a substring of it, so that scanning costs one copy
	// (a section that holds a comment block is put together from pieces).
	doc string
	// comments are the byte spans of doc (whole lines, line endings
	// included) of the HTML blocks outside any container that hold one
	// comment and nothing else (<!-- SECTION:PLAN:BEGIN -->): GitHub shows
	// nothing of them, so section texts leave them out. commentAt is where
	// an open one began, -1 when none is open.
	comments  [][2]int
	commentAt int
	first     int // file line of doc's first line
	last      int // file line of doc's last line
	body      Body
	slugs     Slugger
	heads     []headSpan      // one per heading
	refs      map[string]bool // labels of the reference definitions (labelKey)
	used      map[string]bool // labels references use (labelKey)
	defs      []defLink       // definitions recorded as links
	// wikiLabels holds the text between "[[" and "]]" of each wiki link,
	// by position: where it is a defined reference label, CommonMark sees
	// a reference link in brackets, so there is no wiki link.
	wikiLabels map[[2]int]string
	// unlessDefined holds the links of "[a][b](c)", by position, with the
	// label whose definition would make them a reference instead.
	unlessDefined map[[2]int]string
	// textLater holds, by position, the raw text of links whose text holds
	// brackets: whether "[b]" in "[a [b] c](d.md)" is a reference (and so
	// no link may hold it) is known once every definition is.
	textLater map[[2]int]string

	stack []container // open containers, outermost first

	// The open leaf block, if any, and how many containers hold it.
	fenceChar  byte // inside a fenced code block when != 0
	fenceLen   int
	fenceDepth int
	html       htmlBlock
	htmlClose  string
	htmlDepth  int
	table      bool // inside a GFM table (after its delimiter row)
	// The open paragraph, whose inline content is scanned when it ends. It
	// always belongs to the innermost container.
	para       bool
	paraLine   int   // file line of its first line
	paraEnd    int   // end offset of its last line's content
	paraStarts []int // offset of each line's content, after container markers
	paraDefs   int   // how many of its first lines are link reference definitions (takeDefinitions)

	// Inline scanning state, reused across runs. src is the run's text:
	// doc, or for a paragraph whose lines carry block quote markers, its
	// lines joined without them (then segs maps it back to doc).
	src       string
	segs      []segment
	runStart  int    // where the run starts in src
	cur       cursor // the last position computed in it
	openers   []linkOpener
	textSpent int        // bytes of link text made plain so far (textBudget)
	floor     int        // link openers below this index are inactive (a link may not contain a link)
	code      codeCloser // the closing backtick runs of its code spans
}

// headSpan locates a heading in doc for its section.
type headSpan struct {
	start int // offset of the heading's first line
	body  int // offset of the line after the heading (after a setext underline)
}

// segment is one line of a joined run: src[at:] comes from doc[doc:] on file line line.
type segment struct{ at, doc, line int }

// cursor is a position in doc with its file line and code point column.
type cursor struct{ at, line, col int }

type linkOpener struct {
	pos   int // offset of '[' or of the '!' of "!["
	image bool
}

func (s *scanner) scan() {
	s.src = s.doc
	doc, ln := s.doc, s.first
	// Room for a typical backlog item, so that most documents allocate
	// each slice once.
	s.body.Headings = make([]Heading, 0, 8)
	s.body.Links = make([]Link, 0, 16)
	for off := 0; off < len(doc); ln++ {
		end, next := len(doc), len(doc)
		if k := strings.IndexByte(doc[off:], '\n'); k >= 0 {
			end, next = off+k, off+k+1
		}
		content := end
		if content > off && doc[content-1] == '\r' {
			content--
		}
		s.line(off, content, next, ln)
		off = next
	}
	s.last = ln - 1
	s.endPara()
	if s.commentAt >= 0 && s.html == htmlUntil {
		s.comments = append(s.comments, [2]int{s.commentAt, len(s.doc)}) // never closed: it runs to the end
	}
	s.settleLinks()
	s.finishHeadings()
	s.sections()
	if len(s.body.Headings) == 0 {
		s.body.Headings = nil
	}
	if len(s.body.Links) == 0 {
		s.body.Links = nil
	}
}

// line handles one line, doc[start:end] without its line ending, as
// CommonMark's block parsing does: match the open containers, continue or
// close the open leaf block, open new containers, then start a leaf block.
// next is the offset of the following line.
func (s *scanner) line(start, end, next, ln int) {
	doc := s.doc
	pos, col, matched := s.matchContainers(start, end)
	blank := isBlank(doc[pos:end])

	if s.fenceChar != 0 {
		if matched >= s.fenceDepth {
			if ind, p := indentCols(doc, pos, col, end); ind <= 3 && p < end && fenceClose(doc, p, end, s.fenceChar, s.fenceLen) {
				s.fenceChar = 0
			}
			return
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
					return // declarations, processing instructions, CDATA: no tags
				}
				if s.htmlClose != "-->" {
					s.htmlAnchors(doc[pos:end])
				}
				return
			case htmlRaw:
				if hasRawClose(doc[pos:end]) {
					s.html = htmlNone
				}
				return
			}
			if !blank {
				s.htmlAnchors(doc[pos:end])
				return
			}
		}
		s.html = htmlNone
	}
	if blank {
		s.endPara()
		s.table = false
		s.stack = s.stack[:matched] // a block quote needs its '>' on blank lines too
		return
	}

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
	s.leaf(start, end, next, ln, pos, col, matched)
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

// takeDefinitions records the link reference definitions at the start of
// the open paragraph, from line paraDefs on, and returns how many of its
// lines they take. CommonMark takes them out of a paragraph's text when it
// ends (or meets a setext underline); a definition may span lines (the
// label, the destination on the next line, a title on the lines after).
// isFootnoteLabel reports whether "[label]:" starts a GFM footnote
// definition rather than a link reference definition: '^' and then no
// white space (cmark-gfm's scanner; "[^a b]: x" defines a link).
func isFootnoteLabel(label string) bool {
	return len(label) > 1 && label[0] == '^' && !strings.ContainsAny(label[1:], " \t\r\n")
}

// Later definitions of a label are ignored, as the first one wins.
func (s *scanner) takeDefinitions() int {
	if s.paraDefs >= len(s.paraStarts) || s.doc[s.paraStarts[s.paraDefs]] != '[' {
		return s.paraDefs
	}
	first := s.paraStarts[s.paraDefs]
	start, end := s.paraRun(s.paraDefs)
	src := s.src
	s.beginRun(start, s.paraLine+s.paraDefs, strings.LastIndexByte(s.doc[:first], '\n')+1)
	for i := start; i < end && src[i] == '['; {
		label, dest, next, ok := definition(src, i, end)
		if !ok || isFootnoteLabel(label) { // [^1]: is a GFM footnote
			break
		}
		if s.refs == nil {
			s.refs = make(map[string]bool)
		}
		// A definition is recorded as a link, for now: settleLinks takes
		// it out again if nothing uses it.
		if key := labelKey(label); !s.refs[key] {
			s.refs[key] = true
			if n := len(s.body.Links); s.emit(FormMarkdown, i, dest, label) {
				s.defs = append(s.defs, defLink{link: n, key: key})
			}
		}
		s.paraDefs += strings.Count(src[i:next], "\n")
		if next >= end {
			s.paraDefs++
			break
		}
		for i = next; i < end && isSpaceTab(src[i]); i++ {
		}
	}
	s.src, s.segs = s.doc, s.segs[:0]
	return s.paraDefs
}

// defLink is a recorded definition: its index in Body.Links and its label.
type defLink struct {
	link int
	key  string
}

// linkSpecial marks the bytes that can start inline syntax relevant to links.
var linkSpecial = [256]bool{'\\': true, '`': true, '<': true, '!': true, '[': true, ']': true, ':': true, '.': true, '@': true}

// scanInline finds the links in the inline content doc[start:end] (a
// paragraph, a heading or a table row) whose first line is file line ln,
// starting at offset lineStart.
func (s *scanner) scanInline(start, end, ln, lineStart int) {
	doc := s.src
	s.beginRun(start, ln, lineStart)
	s.openers = s.openers[:0]
	s.floor = 0
	s.code.reset()
	first := len(s.body.Links)
	for i := start; i < end; {
		c := doc[i]
		if !linkSpecial[c] {
			i++
			continue
		}
		switch c {
		case '\\':
			i++
			if i < end && isASCIIPunct(doc[i]) {
				i++
			}
		case '`':
			i = s.skipCode(i, end)
		case '<':
			if j, url, email := autolinkEnd(doc, i, end); j > 0 {
				dest := url
				if email {
					dest = "mailto:" + url
				}
				s.emit(FormAutolink, i, dest, url)
				i = j
			} else if j := htmlEnd(doc, i, end); j > 0 {
				if doc[i+1] != '!' && doc[i+1] != '?' && doc[i+1] != '/' {
					s.htmlAnchors(doc[i:j])
				}
				i = j
			} else {
				i++
			}
		case '!':
			if i+1 < end && doc[i+1] == '[' {
				if j := s.wiki(i, i+1, end); j > 0 {
					i = j
					continue
				}
				s.openers = append(s.openers, linkOpener{pos: i, image: true})
				i += 2
				continue
			}
			i++
		case '[':
			if j := s.wiki(i, i, end); j > 0 {
				i = j
				continue
			}
			s.openers = append(s.openers, linkOpener{pos: i})
			i++
		case ']':
			i = s.closeBracket(i, end)
		case ':':
			i = s.bareURL(i, end)
		case '.':
			i = s.wwwURL(i, end)
		case '@':
			i = s.bareEmail(i, end)
		}
	}
	// An image inside a link is found before the link that holds it.
	links := s.body.Links[first:]
	if !slices.IsSortedFunc(links, cmpLinkPos) {
		slices.SortStableFunc(links, cmpLinkPos)
	}
}

// Nested images can make every link's text most of the paragraph, so the
// link text made plain is bounded: maxLinkText bytes of each, and
// textBudget bytes for the whole document, after which the text is kept as
// written. No real document comes near either.
const (
	maxLinkText = 512
	textBudget  = 1 << 20
)

// emitText records a link with the plain text of raw, its text as written.
// A text holding brackets is settled with the definitions (settleLinks).
func (s *scanner) emitText(form LinkForm, at int, dest, raw string) bool {
	if len(raw) > maxLinkText {
		cut := maxLinkText
		for cut > 0 && !utf8.RuneStart(raw[cut]) {
			cut--
		}
		raw = raw[:cut]
	}
	text, later := raw, false
	if s.textSpent += len(raw); s.textSpent <= textBudget {
		if later = strings.IndexByte(raw, '[') >= 0; !later {
			text = linkTextOf(raw, nil)
		}
	}
	if !s.emit(form, at, dest, text) {
		return false
	}
	if later {
		l := s.body.Links[len(s.body.Links)-1]
		if s.textLater == nil {
			s.textLater = make(map[[2]int]string)
		}
		s.textLater[[2]int{l.Line, l.Col}] = raw
	}
	return true
}

func cmpLinkPos(a, b Link) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Col - b.Col
}

// skipCode skips the code span, or the literal backtick run, at doc[i].
func (s *scanner) skipCode(i, end int) int {
	n := backtickRun(s.src, i, end)
	if j := s.code.close(s.src, i+n, end, n); j >= 0 {
		return j + n
	}
	return i + n
}

// closeBracket handles the ']' at doc[i]: an inline link or image when an
// active opener and a valid "(dest)" follow.
func (s *scanner) closeBracket(i, end int) int {
	if len(s.openers) == 0 {
		return i + 1
	}
	idx := len(s.openers) - 1
	o := s.openers[idx]
	s.openers = s.openers[:idx]
	active := o.image || idx >= s.floor
	if s.floor > idx {
		s.floor = idx
	}
	doc := s.src
	form, text := FormMarkdown, o.pos+1
	if o.image {
		form, text = FormImage, o.pos+2
	}
	if active && i+1 < end && doc[i+1] == '(' {
		if dest, next, ok := linkTail(doc, i+2, end); ok {
			s.emitText(form, o.pos, dest, doc[text:i])
			if !o.image {
				s.floor = len(s.openers)
			}
			return next
		}
	}
	// A reference: [text][label], [text][] or [text] uses the definition
	// of its label (which may come later in the document).
	if i+1 < end && doc[i+1] == '[' {
		if j := strings.IndexAny(doc[i+2:end], "[]"); j >= 0 && doc[i+2+j] == ']' {
			closer := i + 2 + j
			label := doc[i+2 : closer]
			if isBlank(label) {
				label = doc[text:i]
			}
			s.useRef(label)
			// "[a][b](c)" is a reference and the text "(c)" when b is
			// defined, else "[a]" and a link to c. Definitions may come
			// later: the link is recorded, and settleLinks decides.
			if closer+1 < end && doc[closer+1] == '(' {
				if dest, next, ok := linkTail(doc, closer+2, end); ok && s.emitText(FormMarkdown, i+1, dest, doc[i+2:closer]) {
					l := s.body.Links[len(s.body.Links)-1]
					if s.unlessDefined == nil {
						s.unlessDefined = make(map[[2]int]string)
					}
					s.unlessDefined[[2]int{l.Line, l.Col}] = labelKey(label)
					return next
				}
			}
			return closer + 1
		}
	}
	s.useRef(doc[text:i])
	return i + 1
}

// tagAttr finds an id or name attribute in a start tag: name = "value",
// 'value' or value (HTML's three forms).
var tagAttr = lazyre.MustCompile(`(?is)\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>` + "`" + `]+))`)

// htmlAnchors records the id and name attributes of the start tags in
// text, comments skipped.
func (s *scanner) htmlAnchors(text string) {
	if !strings.Contains(text, "id") && !strings.Contains(text, "name") && !strings.Contains(text, "ID") && !strings.Contains(text, "NAME") {
		return
	}
	for text != "" {
		lt := strings.IndexByte(text, '<')
		if lt < 0 {
			return
		}
		text = text[lt:]
		if strings.HasPrefix(text, "<!--") {
			k := strings.Index(text, "-->")
			if k < 0 {
				return
			}
			text = text[k+3:]
			continue
		}
		gt := strings.IndexByte(text, '>')
		tag := text
		if gt >= 0 {
			tag = text[:gt]
		}
		if len(tag) > 1 && isASCIIAlpha(tag[1]) {
			for _, m := range tagAttr.FindAllStringSubmatch(tag, -1) {
				if v := strings.TrimSpace(m[1] + m[2] + m[3]); v != "" && len(s.body.Anchors) < MaxHeadings {
					s.body.Anchors = append(s.body.Anchors, v)
				}
			}
		}
		if gt < 0 {
			return
		}
		text = text[gt+1:]
	}
}

// useRef notes that a reference uses the definition of label.
func (s *scanner) useRef(label string) {
	if isBlank(label) || len(label) > 999 {
		return
	}
	if s.used == nil {
		s.used = make(map[string]bool)
	}
	s.used[labelKey(label)] = true
}

// settleLinks decides, once every definition is known (they may come
// anywhere), what the links the scan recorded are:
//   - a wiki link whose inner text is a defined label is no wiki link:
//     [[foo]] with [foo]: url is "[", a reference link, "]" on GitHub
//     (wiki links are an extension only where CommonMark sees no link);
//   - "[a][b](c)" links to c only when b is not defined;
//   - a link whose text holds a reference to a defined label is no link
//     (links may not hold links): "[a [b] c](d)" with [b]: url is text
//     around a link to url; the text of every other link is computed
//     with the definitions;
//   - a reference definition nothing uses is no link either (GitHub
//     renders nothing for it): it moves to Body.UnusedDefinitions.
func (s *scanner) settleLinks() {
	var drop map[int]bool
	if len(s.textLater) > 0 {
		for i := range s.body.Links {
			l := &s.body.Links[i]
			raw, ok := s.textLater[[2]int{l.Line, l.Col}]
			if !ok {
				continue
			}
			p := textParser{src: raw, alt: true, bracketed: true, refs: s.refs, known: true}
			p.parse()
			if p.linked && l.Form == FormMarkdown {
				if drop == nil {
					drop = make(map[int]bool)
				}
				drop[i] = true
			}
			l.Text = p.render()
		}
	}
	if len(s.wikiLabels)+len(s.unlessDefined) > 0 && len(s.refs) > 0 {
		for i, l := range s.body.Links {
			at := [2]int{l.Line, l.Col}
			switch l.Form {
			case FormWiki, FormEmbed:
				label, ok := s.wikiLabels[at]
				if !ok || !s.refs[labelKey(label)] {
					continue
				}
				s.useRef(label)
			case FormMarkdown:
				if key, ok := s.unlessDefined[at]; !ok || !s.refs[key] {
					continue
				}
			default:
				continue
			}
			if drop == nil {
				drop = make(map[int]bool)
			}
			drop[i] = true
		}
	}
	var unused map[int]bool
	for _, d := range s.defs {
		if !s.used[d.key] {
			if unused == nil {
				unused = make(map[int]bool)
			}
			unused[d.link] = true
		}
	}
	if drop == nil && unused == nil {
		return
	}
	kept := s.body.Links[:0]
	for i, l := range s.body.Links {
		switch {
		case unused[i]:
			s.body.UnusedDefinitions = append(s.body.UnusedDefinitions, l)
		case !drop[i]:
			kept = append(kept, l)
		}
	}
	s.body.Links = kept
}

// wiki recognises [[...]] at doc[lb] (![[...]] when at < lb) on one line.
func (s *scanner) wiki(at, lb, end int) int {
	doc := s.src
	if lb+1 >= end || doc[lb+1] != '[' {
		return -1
	}
	// The target holds no bracket and no line break, so the first of
	// those after "[[" must be the closing "]]".
	from := lb + 2
	k := strings.IndexAny(doc[from:end], "[]\n")
	if k <= 0 || doc[from+k] != ']' || from+k+1 >= end || doc[from+k+1] != ']' {
		return -1
	}
	// Wiki-links are an extension: where CommonMark sees a link, it is
	// one. [[1]](https://example.com) is a link whose text is [1].
	if after := from + k + 2; after < end && doc[after] == '(' {
		if _, _, ok := linkTail(doc, after+1, end); ok {
			return -1
		}
	}
	inner := doc[from : from+k]
	target, alias, hasAlias := strings.Cut(inner, "|")
	if hasAlias {
		target = strings.TrimSuffix(target, `\`) // [[a\|b]] inside a table cell
		alias = strings.TrimSpace(alias)
	}
	target = strings.TrimSpace(target)
	if target == "" {
		return -1
	}
	if !hasAlias {
		alias = target
	}
	form := FormWiki
	if at < lb {
		form = FormEmbed
	}
	if s.emit(form, at, target, alias) {
		if s.wikiLabels == nil {
			s.wikiLabels = make(map[[2]int]string)
		}
		l := s.body.Links[len(s.body.Links)-1]
		s.wikiLabels[[2]int{l.Line, l.Col}] = inner
	}
	return from + k + 2
}

// bareURL recognises a GFM extended autolink around the ':' at doc[i]
// (cmark-gfm's url_match: the scheme is the letters before ':', one of
// http, https or ftp; never inside link text).
func (s *scanner) bareURL(i, end int) int {
	doc := s.src
	if len(s.openers) > 0 || i+3 >= end || doc[i+1] != '/' || doc[i+2] != '/' {
		return i + 1
	}
	r := i
	for r > s.runStart && isASCIIAlpha(doc[r-1]) {
		r--
	}
	if !isURLScheme(doc[r:i]) || !isHostChar(doc, i+3, end) {
		return i + 1
	}
	n := domainEnd(doc[i+3:end], true)
	if n == 0 {
		return i + 1
	}
	e := i + 3 + n
	for e < end && !isCmarkSpace(doc[e]) && doc[e] != '<' {
		e++
	}
	n = autolinkTrim(doc[i:e])
	if n == 0 {
		return i + 1
	}
	e = i + n
	url := doc[r:e]
	s.emit(FormAutolink, r, url, url)
	return e
}

// bareEmail recognises a GFM extended email autolink around the '@' at
// src[i] (cmark-gfm's postprocess_text): letters, digits and ".+-_" before
// it, after it a domain of letters, digits, '-' and '_' with at least one
// '.' followed by a letter or digit, ending in a letter (trailing
// punctuation trimmed). Its Dest gets "mailto:", unless "mailto:" is
// written before it, which is then part of the link. Never inside link text.
func (s *scanner) bareEmail(i, end int) int {
	doc := s.src
	if len(s.openers) > 0 {
		return i + 1
	}
	r := i
	for r > s.runStart && (isASCIIAlnum(doc[r-1]) || strings.IndexByte(".+-_", doc[r-1]) >= 0) {
		r--
	}
	if r == i || r > s.runStart && doc[r-1] == '\\' { // "foo\+@x.com": escapes end it
		return i + 1
	}
	if m := r - len("mailto:"); m >= s.runStart && doc[m:r] == "mailto:" {
		for r = m; r > s.runStart && isASCIIAlnum(doc[r-1]); r-- {
		}
		if r != m {
			r = m + len("mailto:") // "xmailto:" is no scheme
		}
	}
	k, dots := i+1, 0
	for ; k < end; k++ {
		c := doc[k]
		switch {
		case isASCIIAlnum(c), c == '-', c == '_':
			continue
		case c == '.' && k+1 < end && isASCIIAlnum(doc[k+1]):
			dots++
			continue
		case c == '@': // a second '@': not this one, maybe that one
			return k
		}
		break
	}
	if k-i < 2 || dots == 0 || !isASCIIAlpha(doc[k-1]) && doc[k-1] != '.' {
		return i + 1
	}
	n := autolinkTrim(doc[i:k])
	if n == 0 {
		return i + 1
	}
	text := doc[r : i+n]
	dest := text
	if !strings.HasPrefix(text, "mailto:") {
		dest = "mailto:" + text
	}
	s.emit(FormAutolink, r, dest, text)
	return i + n
}

// wwwURL recognises a GFM extended www autolink whose "www." ends with the
// '.' at src[i] (cmark-gfm's www_match). Its Dest gets "http://", as the
// rendered href does.
func (s *scanner) wwwURL(i, end int) int {
	doc := s.src
	w := i - 3
	if len(s.openers) > 0 || w < s.runStart || doc[w:i] != "www" {
		return i + 1
	}
	if w > s.runStart {
		if c := doc[w-1]; !isCmarkSpace(c) && c != '*' && c != '_' && c != '~' && c != '(' {
			return i + 1
		}
	}
	n := domainEnd(doc[w:end], false)
	if n == 0 {
		return i + 1
	}
	e := w + n
	for e < end && !isCmarkSpace(doc[e]) && doc[e] != '<' {
		e++
	}
	if n = autolinkTrim(doc[w:e]); n == 0 {
		return i + 1
	}
	url := doc[w : w+n]
	s.emit(FormAutolink, w, "http://"+url, url)
	return w + n
}

func isURLScheme(s string) bool {
	return strings.EqualFold(s, "http") || strings.EqualFold(s, "https") || strings.EqualFold(s, "ftp")
}

// isHostChar reports whether the character at s[i] may be part of a host
// name: not whitespace, not punctuation.
func isHostChar(s string, i, end int) bool {
	if i >= end {
		return false
	}
	r, size := utf8.DecodeRuneInString(s[i:end])
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	return !isUnicodeSpace(r) && !isUnicodePunctOnly(r)
}

// isUnicodePunctOnly is cmark's punctuation test: ASCII punctuation and the
// Unicode P categories (symbols outside ASCII are not punctuation to it).
func isUnicodePunctOnly(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r)
}

// domainEnd mirrors cmark-gfm's check_domain: it returns how far the host
// name goes, or 0 when an underscore sits in one of its last two labels or,
// unless allowShort, when it has no dot.
func domainEnd(d string, allowShort bool) int {
	i, dots, under1, under2 := 1, 0, 0, 0
	for ; i < len(d)-1; i++ {
		if d[i] == '\\' && i < len(d)-2 {
			i++
		}
		switch {
		case d[i] == '_':
			under2++
		case d[i] == '.':
			under1, under2 = under2, 0
			dots++
		case d[i] != '-' && !isHostChar(d, i, len(d)):
			return domainCheck(i, dots, under1, under2, allowShort)
		}
	}
	return domainCheck(i, dots, under1, under2, allowShort)
}

func domainCheck(n, dots, under1, under2 int, allowShort bool) int {
	if (under1 > 0 || under2 > 0) && dots <= 10 || !allowShort && dots == 0 {
		return 0
	}
	return n
}

// autolinkTrim mirrors cmark-gfm's autolink_delim: it drops trailing
// punctuation, unbalanced closing parentheses and a trailing entity-like
// "&name;" from the candidate URL u, and returns the length kept.
func autolinkTrim(u string) int {
	n := len(u)
	opening, closing := 0, 0
	for i := 0; i < n; i++ {
		switch u[i] {
		case '<':
			n = i
		case '(':
			opening++
		case ')':
			closing++
		}
	}
	for n > 0 {
		switch u[n-1] {
		case ')':
			if closing <= opening {
				return n
			}
			closing--
			n--
		case '?', '!', '.', ',', ':', '*', '_', '~', '\'', '"':
			n--
		case ';':
			e := n - 2
			for e > 0 && isASCIIAlpha(u[e]) {
				e--
			}
			if e >= 0 && e < n-2 && u[e] == '&' {
				n = e
			} else {
				n--
			}
		default:
			return n
		}
	}
	return n
}

// beginRun starts an inline run at src[start], on file line ln whose
// first byte is doc[lineStart].
func (s *scanner) beginRun(start, ln, lineStart int) {
	col := 1
	if len(s.segs) == 0 {
		col += utf8.RuneCountInString(s.doc[lineStart:start])
	}
	s.runStart = start
	s.cur = cursor{at: start, line: ln, col: col}
}

// emit records a link whose first character is src[at]; false when the
// document's budget of links is spent.
func (s *scanner) emit(form LinkForm, at int, dest, text string) bool {
	if len(s.body.Links) >= MaxLinks {
		s.body.LinksDropped++
		return false
	}
	line, col := s.position(at)
	dest, anchor := splitAnchor(dest)
	s.body.Links = append(s.body.Links, Link{Form: form, Dest: dest, Anchor: anchor, Text: text, Line: line, Col: col, Rel: relBefore(s.src, s.runStart, at)})
	return true
}

// relBefore reads the relation a link's line names before it (src[at] is
// the link's first character, src[start:] its inline run), when the line
// says only that: "Superseded by [2. Use X](0002-use-x.md)", "- Status:
// superseded by [ADR-5](…)", "Supersedes [1. …](…)". Prose is no relation:
// "is not superseded by [x]", "ADR-7, which supersedes [ADR-3]". At most
// 80 bytes before the link are read.
func relBefore(src string, start, at int) string {
	if at <= start || at > len(src) {
		return ""
	}
	lead := src[max(start, at-80):at]
	if i := strings.LastIndexByte(lead, '\n'); i >= 0 {
		lead = lead[i+1:]
	}
	lead = strings.ToLower(strings.Trim(lead, " \t:*_-+>"))
	if rest, ok := strings.CutPrefix(lead, "status"); ok {
		lead = strings.Trim(rest, " \t:*_-")
	}
	if lead == "superseded by" || lead == "supersedes" {
		return "supersedes"
	}
	return ""
}

// position returns the file line and code point column of src[at]. It
// goes on from the last position it computed, forward or back, so that a
// run's links cost one pass over it.
func (s *scanner) position(at int) (int, int) {
	if len(s.segs) > 0 {
		i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].at > at }) - 1
		seg := s.segs[max(i, 0)]
		off := seg.doc + at - seg.at
		lineStart := strings.LastIndexByte(s.doc[:off], '\n') + 1
		return seg.line, utf8.RuneCountInString(s.doc[lineStart:off]) + 1
	}
	if at < s.cur.at { // an outer link, emitted after what it holds
		back := s.doc[at:s.cur.at]
		if n := strings.Count(back, "\n"); n > 0 {
			s.cur.line -= n
			s.cur.col = utf8.RuneCountInString(s.doc[strings.LastIndexByte(s.doc[:at], '\n')+1:at]) + 1
		} else {
			s.cur.col -= utf8.RuneCountInString(back)
		}
		s.cur.at = at
		return s.cur.line, s.cur.col
	}
	gap := s.doc[s.cur.at:at]
	if k := strings.LastIndexByte(gap, '\n'); k >= 0 {
		s.cur.line += strings.Count(gap[:k], "\n") + 1
		s.cur.col = utf8.RuneCountInString(gap[k+1:]) + 1
	} else {
		s.cur.col += utf8.RuneCountInString(gap)
	}
	s.cur.at = at
	return s.cur.line, s.cur.col
}

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

// htmlBlockStart reports which HTML block, if any, the line starting with
// '<' opens, and the string that ends an htmlUntil block.
func htmlBlockStart(line string, inPara bool) (htmlBlock, string) {
	switch {
	case strings.HasPrefix(line, "<!--"):
		return htmlUntil, "-->"
	case strings.HasPrefix(line, "<?"):
		return htmlUntil, "?>"
	case strings.HasPrefix(line, "<![CDATA["):
		return htmlUntil, "]]>"
	case len(line) > 2 && line[1] == '!' && 'A' <= line[2] && line[2] <= 'Z': // GitHub: CommonMark 0.29's upper-case name
		return htmlUntil, ">"
	}
	i, closing := 1, false
	if i < len(line) && line[i] == '/' {
		i, closing = 2, true
	}
	j := tagNameEnd(line, i, len(line))
	if j < 0 {
		return htmlNone, ""
	}
	var buf [16]byte
	name := buf[:0]
	if j-i <= len(buf) {
		for _, c := range []byte(line[i:j]) {
			name = append(name, c|0x20)
		}
	}
	endsName := j == len(line) || isSpaceTab(line[j]) || line[j] == '>'
	if !closing && endsName && rawTags[string(name)] {
		return htmlRaw, ""
	}
	if (endsName || strings.HasPrefix(line[j:], "/>")) && blockTags[string(name)] {
		return htmlUntilBlank, ""
	}
	// Any other complete tag alone on its line, except inside a paragraph.
	if !inPara && !rawTags[string(name)] {
		if e := htmlEnd(line, 0, len(line)); e > 0 && isBlank(line[e:]) {
			return htmlUntilBlank, ""
		}
	}
	return htmlNone, ""
}

// hasRawClose reports whether line holds </pre>, </script>, </style> or
// </textarea>, in any case.
func hasRawClose(line string) bool {
	for {
		k := strings.Index(line, "</")
		if k < 0 {
			return false
		}
		line = line[k+2:]
		for name := range rawTags {
			if len(line) > len(name) && strings.EqualFold(line[:len(name)], name) && line[len(name)] == '>' {
				return true
			}
		}
	}
}

var rawTags = map[string]bool{"pre": true, "script": true, "style": true, "textarea": true}

// blockTags are the HTML block names of CommonMark's type 6 HTML blocks
// (0.31, plus "source" from earlier versions).
var blockTags = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range strings.Fields(`address article aside base basefont blockquote body
		caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure
		footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link
		main menu menuitem nav noframes ol optgroup option p param search section source summary
		table tbody td tfoot th thead title tr track ul`) {
		m[name] = true
	}
	return m
}()
