package markdown

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// The body's links: the inline scan of paragraphs, headings and table rows
// (inline links and images, references, wiki-links), link reference
// definitions, what each link is once every definition is known
// (settleLinks), and the file line and column each link is recorded at.

// isFootnoteLabel reports whether "[label]:" starts a GFM footnote
// definition rather than a link reference definition: '^' and then no
// white space (cmark-gfm's scanner; "[^a b]: x" defines a link).
func isFootnoteLabel(label string) bool {
	return len(label) > 1 && label[0] == '^' && !strings.ContainsAny(label[1:], " \t\r\n")
}

// takeDefinitions records the link reference definitions at the start of
// the open paragraph, from line paraDefs on, and returns how many of its
// lines they take. CommonMark takes them out of a paragraph's text when it
// ends (or meets a setext underline); a definition may span lines (the
// label, the destination on the next line, a title on the lines after).
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
