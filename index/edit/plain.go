package edit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What canon writes into canonical files is one line of plain text of a
// bounded length (ADR-0033). This is the one predicate: a value that is
// not plain is refused with the reason where a person or an agent gave
// it (an item, a replacement, a field's value), and flattened where canon
// only reads it back.

// ErrNotPlain says a value canon would write into a file is not one line
// of plain text of a bounded length.
var ErrNotPlain = errors.New("not one line of plain text")

// MaxValue is the longest value an edit writes into a frontmatter field or
// a list, in bytes.
const MaxValue = 1024

// Unplain reports a character that has no place in one line of text: a
// control character (C0, DEL, C1: newlines, ESC, BEL) or a Unicode line
// or paragraph separator.
func Unplain(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
}

// Plain says why s is no plain line of at most most bytes, or nil. what
// names the value in the sentence ("the agent name").
func Plain(what, s string, most int) error {
	switch {
	case len(s) > most:
		return fmt.Errorf("%w: %s is %d bytes long, more than %d; shorten it", ErrNotPlain, what, len(s), most)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: %s is not UTF-8 text", ErrNotPlain, what)
	case strings.ContainsFunc(s, Unplain):
		i := strings.IndexFunc(s, Unplain)
		r, _ := utf8.DecodeRuneInString(s[i:])
		return fmt.Errorf("%w: %s holds the control character %U; write it on one line, without control characters", ErrNotPlain, what, r)
	}
	return nil
}

// Flatten makes s one line: every control character and line separator a
// space, whitespace collapsed, invalid UTF-8 replaced.
func Flatten(s string) string {
	return collapse(strings.Map(func(r rune) rune {
		if Unplain(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " ")))
}

// Shown is s quoted for an error message, cut to 60 bytes with "…" when
// longer: a refusal names the value, never repeats 64 KB of it.
func Shown(s string) string {
	if len(s) > 60 {
		return strconv.Quote(Clip(s, 60)) + "…"
	}
	return strconv.Quote(s)
}

// Clip cuts s to at most n bytes at a character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// collapse is s with every run of white space one space, trimmed.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
