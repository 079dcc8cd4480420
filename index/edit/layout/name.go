package layout

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A titleForm is how a repository writes a title into a file name or a
// heading.
type titleForm uint8

const (
	// slugLower: "Partial refund endpoint" → partial-refund-endpoint
	// (Kano, adr-tools, most static sites).
	slugLower titleForm = iota + 1
	// slugUnderscore: partial_refund_endpoint.
	slugUnderscore
	// slugCase: Partial-refund-endpoint (Backlog.md: the case kept, every
	// run of other characters one dash).
	slugCase
	// verbatim: the title as written (a heading "# KB-TSK-9: Title").
	verbatim
)

// render writes title in form f.
func (f titleForm) render(title string) string {
	switch f {
	case verbatim:
		return strings.Join(strings.Fields(title), " ")
	case slugLower:
		return slugOf(strings.ToLower(title), '-')
	case slugUnderscore:
		return slugOf(strings.ToLower(title), '_')
	case slugCase:
		return slugOf(title, '-')
	}
	return ""
}

// slugOf keeps letters and digits and makes every other run one sep.
func slugOf(s string, sep rune) string {
	var b strings.Builder
	gap := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				b.WriteRune(sep)
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return b.String()
}

// part is one piece of a learned name: literal text, or a placeholder.
type part struct {
	lit string
	// what: 0 literal, partID (the id as written), partIDLower, partNum
	// (the number, zero-padded to width), partTitle (in form, cut at max
	// bytes when max > 0).
	what  int
	width int
	form  titleForm
	max   int
}

const (
	partID = iota + 1
	partIDLower
	partNum
	partTitle
)

// pattern is a learned name: "{idLower} - {title:slugCase}".
type pattern []part

// key tells patterns apart for a vote: two samples written alike give
// equal keys (a cut title's length aside).
func (p pattern) key() string {
	var b strings.Builder
	for _, x := range p {
		b.WriteString(x.lit)
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(x.what*100 + x.width*10 + int(x.form)))
		b.WriteByte(0)
	}
	return b.String()
}

// has reports whether the pattern writes the placeholder what.
func (p pattern) has(what ...int) bool {
	for _, x := range p {
		for _, w := range what {
			if x.what == w {
				return true
			}
		}
	}
	return false
}

// write fills the pattern in.
func (p pattern) write(id, num, title string) string {
	var b strings.Builder
	for _, x := range p {
		switch x.what {
		case 0:
			b.WriteString(x.lit)
		case partID:
			b.WriteString(id)
		case partIDLower:
			b.WriteString(strings.ToLower(id))
		case partNum:
			b.WriteString(pad(num, x.width))
		case partTitle:
			b.WriteString(cut(x.form.render(title), x.max, x.form))
		}
	}
	return b.String()
}

// pad writes the number num zero-padded to width digits.
func pad(num string, width int) string {
	n := strings.TrimLeft(num, "0")
	if n == "" {
		n = "0"
	}
	for len(n) < width {
		n = "0" + n
	}
	return n
}

// cut shortens a rendered title to at most limit bytes, at a word's end
// when the form has words.
func cut(s string, limit int, f titleForm) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	s = s[:limit]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	if f != verbatim {
		if i := strings.LastIndexAny(s, "-_"); i > limit/2 {
			s = s[:i]
		}
	}
	return strings.TrimRight(s, "-_ ")
}

// learnName reads how s writes a document's id (or number) and title:
// "back-637 - Fix-the-bug" with id BACK-637 and title "Fix the bug" is
// {idLower} - {title:slugCase}. ok is false when s holds neither.
func learnName(s, id, num, title string, forms []titleForm) (pattern, bool) {
	var p pattern
	rest := s
	at, n, what, width := findID(rest, id, num)
	if at >= 0 {
		if at > 0 {
			p = append(p, part{lit: rest[:at]})
		}
		p = append(p, part{what: what, width: width})
		rest = rest[at+n:]
	}
	if title != "" {
		if t, i, n, ok := findTitle(rest, title, forms); ok {
			if i > 0 {
				p = append(p, part{lit: rest[:i]})
			}
			p = append(p, t)
			rest = rest[i+n:]
		}
	}
	if rest != "" {
		p = append(p, part{lit: rest})
	}
	if !p.has(partID, partIDLower, partNum, partTitle) {
		return nil, false
	}
	return p, true
}

// findID finds the id in s (as written, or lower-cased), else its
// number's digits: where, how long, and which placeholder.
func findID(s, id, num string) (at, n, what, width int) {
	if id != "" {
		if i := strings.Index(s, id); i >= 0 {
			return i, len(id), partID, 0
		}
		if i := strings.Index(s, strings.ToLower(id)); i >= 0 {
			return i, len(id), partIDLower, 0
		}
	}
	if num == "" {
		return -1, 0, 0, 0
	}
	want := strings.TrimLeft(num, "0")
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if got := strings.TrimLeft(s[i:j], "0"); got == want {
			w := 0
			if s[i] == '0' {
				w = j - i
			}
			return i, j - i, partNum, w
		}
		i = j
	}
	return -1, 0, 0, 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// findTitle finds title in s written in one of forms, whole or cut at a
// word's end (a slug kept short): the placeholder, where, how long.
func findTitle(s, title string, forms []titleForm) (part, int, int, bool) {
	for _, f := range forms {
		r := f.render(title)
		if r == "" {
			continue
		}
		if i := strings.Index(s, r); i >= 0 {
			return part{what: partTitle, form: f}, i, len(r), true
		}
	}
	// A cut title: the longest prefix (of at least 8 bytes) of a form
	// that ends s, or s up to an extension.
	for _, f := range forms {
		if f == verbatim {
			continue
		}
		r := f.render(title)
		for n := len(r) - 1; n >= 8; n-- {
			if strings.HasSuffix(s, r[:n]) {
				return part{what: partTitle, form: f, max: n}, len(s) - n, n, true
			}
		}
	}
	return part{}, 0, 0, false
}
