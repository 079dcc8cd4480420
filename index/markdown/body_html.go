package markdown

import (
	"strings"

	"github.com/canon-md/canon/index/lazyre"
)

// HTML in the body: which HTML block a line opens, where a raw one ends,
// and the id and name attributes GitHub keeps as anchors.

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
