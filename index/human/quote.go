package human

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from a repository (titles, ids, headings, snippets, paths, error
// messages naming them) reaches a terminal only quoted (ADR-0033): an ESC
// or a BEL in a title would otherwise run as a terminal command (OSC 52
// writes the clipboard), a newline would forge an output line. Quote is
// what every text renderer calls on such a string; Terminal is the last
// guard on the way out.

// Quote shows s as it is when it holds no control character (C0, DEL,
// C1), no invisible one (Invisible: a right-to-left override, a zero
// width space) and is UTF-8; else in double quotes with C escapes, as git
// quotes a path (core.quotePath): \t \n \r \a \b \f \v \" \\ and \ooo
// for other bytes, so "a\033]52;c;...\a" and "one\ntwo" stay on one line
// and run nothing; an invisible character is written \u202e, so that a
// branch named "main\u202e" is not shown as main, and one whose override
// turns the rest of its line around cannot pass for another.
func Quote(s string) string {
	if !needsQuote(s, false) {
		return s
	}
	return quote(s)
}

// QuotePath is Quote for a path, which git also quotes when it holds a
// double quote or a backslash: what a line-based tool splits on.
func QuotePath(p string) string {
	if !needsQuote(p, true) {
		return p
	}
	return quote(p)
}

// ShellQuote makes paths arguments of a command a person can paste: in
// single quotes when a shell would split or expand them, and as QuotePath
// says them when they hold a control character (which must not reach the
// terminal raw; such a path is typed by hand anyway).
func ShellQuote(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		switch {
		case needsQuote(p, true):
			p = quote(p)
		case strings.ContainsAny(p, " \t'\"$`\\!*?[]{}()<>|&;#~"):
			p = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
		out[i] = p
	}
	return out
}

func needsQuote(s string, path bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || path && (c == '"' || c == '\\') {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || control(r) || hidden(s, i, r, size) {
			return true
		}
		i += size
	}
	return false
}

// Invisible reports a character that shows nothing, or changes how the
// characters around it show, without a mark of its own: Unicode's format
// characters (Cf: the bidirectional overrides and isolates U+202A-U+202E,
// U+2066-U+2069, the marks U+200E, U+200F, U+061C, the zero width space,
// joiners and no-break space U+200B-U+200D, U+2060, U+FEFF, the soft
// hyphen, tag characters), the variation selectors and the other default
// ignorable code points (the Hangul fillers U+115F, U+1160, U+3164,
// U+FFA0, the combining grapheme joiner). Such a character in a name lets
// it pass for another.
func Invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// hidden reports an invisible character at s[i:i+size] that is not part
// of an emoji as it is written: a zero width joiner between two symbols
// (👩‍💻) and a variation selector after one (❤️) show as one picture.
func hidden(s string, i int, r rune, size int) bool {
	if !Invisible(r) {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	switch {
	case r == '\u200d':
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		return !(unicode.Is(unicode.So, prev) && unicode.Is(unicode.So, next))
	case unicode.Is(unicode.Variation_Selector, r):
		return !unicode.Is(unicode.So, prev)
	}
	return true
}

// control reports C0, DEL and C1 control characters, and the Unicode
// line and paragraph separators some terminals and editors break at.
func control(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\u2028' || r == '\u2029'
}

var cEscapes = map[byte]string{'\a': `\a`, '\b': `\b`, '\t': `\t`, '\n': `\n`, '\v': `\v`, '\f': `\f`, '\r': `\r`, '"': `\"`, '\\': `\\`}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if e, ok := cEscapes[c]; ok {
			b.WriteString(e)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 || control(r):
			for _, x := range []byte(s[i : i+size]) {
				octal(&b, x)
			}
		case hidden(s, i, r, size) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case hidden(s, i, r, size):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

func octal(b *strings.Builder, c byte) {
	b.Write([]byte{'\\', '0' + c>>6, '0' + c>>3&7, '0' + c&7})
}

// Terminal wraps a command's standard output or error so that no control
// character reaches the terminal but the line breaks and tabs the text
// is laid out with: any other is written as its escape (ESC \033, BEL
// \a, a CR not before a LF \r; DEL and C1 \u007f, \u009b), whatever
// renderer forgot to quote it. JSON passes through as it is: its encoder
// escapes every C0 character itself, and DEL and C1 occur only inside a
// string, where \u007f and \u009b read back as what they were.
func Terminal(w io.Writer) io.Writer { return &terminal{w: w} }

type terminal struct {
	w    io.Writer
	held []byte // a lead byte of C1 at the end of the last write
}

func (t *terminal) Write(p []byte) (int, error) {
	data := append(t.held, p...)
	t.held = nil
	var out []byte
	clean := 0 // data[clean:i] is copied as it is
	flush := func(i int, esc string) {
		out = append(append(out, data[clean:i]...), esc...)
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
		case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
			// A CRLF line end (a document shown as it is).
		case c == 0xc2:
			if i+1 == len(data) {
				flush(i, "")
				clean, t.held = len(data), []byte{0xc2}
				continue
			}
			if n := data[i+1]; n >= 0x80 && n < 0xa0 {
				flush(i, `\u00`+string("0123456789abcdef"[n>>4])+string("0123456789abcdef"[n&15]))
				clean = i + 2
				i++
			}
		case c >= 0x80:
		default: // C0 but \t \n \r, and DEL
			esc, ok := cEscapes[c]
			if !ok {
				var b strings.Builder
				octal(&b, c)
				esc = b.String()
			}
			if c == 0x7f {
				esc = `\u007f`
			}
			flush(i, esc)
			clean = i + 1
		}
	}
	out = append(out, data[clean:]...)
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
