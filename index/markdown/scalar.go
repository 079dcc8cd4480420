package markdown

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// ErrScalar says a value cannot be written as a frontmatter scalar.
var ErrScalar = errors.New("cannot be written as a frontmatter value")

// Scalar writes s as one scalar of frontmatter in format ("yaml", or
// "toml"), so that the parser reads back exactly s and nothing else,
// wherever canon puts it: a field's value, an item of a block list, an
// item of a flow list ([a, b]). It is what canon uses for every value it
// writes into someone's frontmatter (check --fix, id rename, promote).
//
// In YAML s is written plain, as a repository writes its ids (T-9,
// KB-1@01943c8b, items/a.md), when it is letters, digits and marks, with
// "_ . / @ + -" and single spaces inside, and the parser reads those
// characters as that text and as neither null nor a boolean (null, ~,
// true and False are quoted; a date and an integer stay plain, canon reads
// their text, and a fraction only when a number parser gives back the same
// text: 1.5, not 1.10). Anything else is quoted: with quote (a single or a double
// quote) when that quote can hold s (a list whose items are quoted gets
// one more so written, even where plain would do), else in double quotes,
// whose escapes hold any text (a tab, a newline, "\u0085").
//
// In TOML a string is always quoted (a literal '...' string only where
// quote asks for it and s has neither ' nor a control character); a
// decimal integer with quote 0 stays bare.
//
// Text that is not UTF-8 cannot be written: ErrScalar.
func Scalar(s, format string, quote byte) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%w: %q is not UTF-8 text", ErrScalar, s)
	}
	if format == "toml" {
		switch {
		case quote == 0 && tomlInteger(s):
			return s, nil
		case quote == '\'' && !strings.ContainsRune(s, '\'') && !strings.ContainsFunc(s, unprintable):
			return "'" + s + "'", nil
		}
		return doubleQuoted(s), nil
	}
	switch {
	case quote == 0 && plainScalar(s):
		return s, nil
	case quote == '\'' && !strings.ContainsFunc(s, unprintable):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
	}
	return doubleQuoted(s), nil
}

// plainScalar reports whether YAML reads s, written plain, as the text s
// in a block value, a block list and a flow list alike: the characters
// are those no context gives a meaning to (no ": ", " #", comma,
// bracket, quote or leading indicator), and the parser resolves them to a
// string, a number or a date, not null or a boolean.
func plainScalar(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
		case i > 0 && (unicode.IsMark(r) || strings.ContainsRune("./@+- ", r)):
		default:
			return false
		}
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte("["+s+"]"), &doc) != nil || len(doc.Content) != 1 {
		return false
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 {
		return false
	}
	n := seq.Content[0]
	if n.Kind != yaml.ScalarNode || n.Style != 0 || n.Value != s {
		return false
	}
	switch n.ShortTag() {
	case "!!str", "!!int", "!!timestamp":
		return true
	case "!!float":
		return floatAsWritten(s)
	}
	return false
}

// floatAsWritten reports a decimal fraction another reader gives back as
// the same text: 1.5, not 1.10 (1.1, a version's minor number lost) or
// 1e3. canon reads either as its text, but a repository's own tools read
// a number, so a value that would change on the way is quoted. Integers
// stay plain as repositories write their ids (0097, ADR numbers).
func floatAsWritten(s string) bool {
	if strings.Trim(s, "0123456789") == "" {
		return true // digits alone (0097, which the parser calls a float): an id
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && strconv.FormatFloat(f, 'f', -1, 64) == s
}

// tomlInteger is a TOML decimal integer without sign or underscores.
func tomlInteger(s string) bool {
	if s == "" || len(s) > 18 || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// unprintable is a character a one-line quoted scalar cannot hold as it
// is: a control character (tab, newline, C1), a line or paragraph
// separator, a byte-order mark or a noncharacter YAML does not print.
func unprintable(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' || r == '\uFFFE' || r == '\uFFFF'
}

// doubleQuoted is s in double quotes with the escapes YAML and TOML share:
// \" \\ \t \n \r, and \uXXXX for any other character unprintable says a
// line cannot hold.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unprintable(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
