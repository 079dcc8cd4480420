package edit

import (
	"bytes"
	"strings"

	"github.com/canon-md/canon/index/markdown"
)

// Every edit cuts the content into lines, changes, inserts or removes
// whole lines, and leaves every other byte as it was: the BOM, each
// line's own ending (CRLF or LF), the YAML of every other field, flow or
// block. Nothing is ever re-serialised.

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// lines is a file cut into lines for editing.
type lines struct {
	bom  bool
	text []string // without line endings
	eol  []string // each line's ending: "\n", "\r\n", or "" for a last line without one
	nl   string   // the ending inserted lines get: the file's first one, else "\n"
}

func splitLines(content []byte) *lines {
	l := &lines{nl: "\n"}
	if bytes.HasPrefix(content, utf8BOM) {
		l.bom, content = true, content[len(utf8BOM):]
	}
	s := string(content)
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		l.nl = "\r\n"
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			l.text, l.eol = append(l.text, s), append(l.eol, "")
			break
		}
		line, end := s[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, end = line[:len(line)-1], "\r\n"
		}
		l.text, l.eol = append(l.text, line), append(l.eol, end)
		s = s[i+1:]
	}
	return l
}

func (l *lines) bytes() []byte {
	var b bytes.Buffer
	if l.bom {
		b.Write(utf8BOM)
	}
	for i, t := range l.text {
		b.WriteString(t)
		b.WriteString(l.eol[i])
	}
	return b.Bytes()
}

// insert puts new lines before index at (len(text) appends). A last line
// without an ending gets one first.
func (l *lines) insert(at int, add ...string) {
	if at == len(l.text) && at > 0 && l.eol[at-1] == "" {
		l.eol[at-1] = l.nl
	}
	eols := make([]string, len(add))
	for i := range eols {
		eols[i] = l.nl
	}
	l.text = append(l.text[:at], append(add, l.text[at:]...)...)
	l.eol = append(l.eol[:at], append(eols, l.eol[at:]...)...)
}

// remove takes out the lines from index from up to index to. The last
// line keeps its ending as it was: a file that ended without one still
// does.
func (l *lines) remove(from, to int) {
	if to >= len(l.text) && from > 0 && l.eol[len(l.text)-1] == "" {
		l.eol[from-1] = ""
	}
	l.text = append(l.text[:from], l.text[to:]...)
	l.eol = append(l.eol[:from], l.eol[to:]...)
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// indentOf is the width of a line's leading spaces and tabs.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func parse(content []byte) *markdown.Document {
	return markdown.Parse("", content, &markdown.Options{})
}
