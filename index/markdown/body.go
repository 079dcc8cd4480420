package markdown

import (
	"strconv"
	"strings"
	"sync"
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
