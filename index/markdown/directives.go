package markdown

import (
	"bytes"
	"strings"
)

// Disable is an inline opt-out written in a document:
//
//	<!-- canon:disable RULE[, RULE] -->            the whole file
//	<!-- canon:disable-line RULE -->               the line it is on
//	<!-- canon:disable-next-line RULE -->          the line after it
//
// In frontmatter the same words go in a YAML comment:
// `created: 2025-13-45  # canon:disable-line date-format`. Without rules, a
// directive covers every rule.
type Disable struct {
	Line  int      `json:"line,omitempty"` // 0: the whole file
	Rules []string `json:"rules,omitempty"`
}

var directive = []byte("canon:disable")

// Covers reports whether the opt-outs silence rule at line.
func Covers(ds []Disable, rule string, line int) bool {
	for _, d := range ds {
		if d.Line != 0 && d.Line != line {
			continue
		}
		if len(d.Rules) == 0 {
			return true
		}
		for _, r := range d.Rules {
			if r == rule {
				return true
			}
		}
	}
	return false
}

// parseDisables finds the opt-out directives of a file. It is a plain text
// scan: a directive is honoured wherever it is written, so quoting one in a
// code block disables too; that is the price of not parsing twice.
func parseDisables(src []byte) []Disable {
	if !bytes.Contains(src, directive) {
		return nil
	}
	var out []Disable
	line := 1
	for len(src) > 0 {
		end := bytes.IndexByte(src, '\n')
		cur := src
		if end >= 0 {
			cur = src[:end]
		}
		if i := bytes.Index(cur, directive); i >= 0 {
			rest := string(cur[i+len(directive):])
			d := Disable{}
			switch {
			case strings.HasPrefix(rest, "-next-line"):
				d.Line, rest = line+1, rest[len("-next-line"):]
			case strings.HasPrefix(rest, "-line"):
				d.Line, rest = line, rest[len("-line"):]
			}
			if rest == "" || rest[0] == ' ' || rest[0] == '\t' || strings.HasPrefix(rest, "-->") || rest[0] == '\r' {
				if j := strings.Index(rest, "-->"); j >= 0 {
					rest = rest[:j]
				}
				d.Rules = append(d.Rules, strings.FieldsFunc(rest, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' || c == '\r' })...)
				out = append(out, d)
			}
		}
		if end < 0 {
			break
		}
		src = src[end+1:]
		line++
	}
	return out
}
