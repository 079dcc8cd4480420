package markdown

import (
	"bytes"
	"slices"
	"strings"
)

// QuoteTextFields quotes, line by line, the values of the named fields
// that YAML would refuse or read as something else, the preprocessing
// Backlog.md applies before it parses a task's frontmatter: `assignee:
// @MrLesk` is a YAML error (@ is reserved) and is text there. A value that
// is quoted, a block list (`- x` on the next lines), null or empty is
// left as it is; in a flow list ([@a, "b"]) each unquoted item that
// starts with @ is quoted. Line and column of every value stay where they
// were written: the opening quote takes the value's first column.
func QuoteTextFields(data []byte, fields []string) []byte {
	if len(fields) == 0 {
		return data
	}
	lines := bytes.Split(data, []byte("\n"))
	changed := false
	for i, line := range lines {
		if q, ok := quoteLine(string(line), fields); ok {
			lines[i] = []byte(q)
			changed = true
		}
	}
	if !changed {
		return data
	}
	return bytes.Join(lines, []byte("\n"))
}

// quoteLine quotes the value of one "KEY: VALUE" line whose key is one of
// fields (at any indent), and reports whether it changed it.
func quoteLine(line string, fields []string) (string, bool) {
	trimmed := strings.TrimLeft(line, " \t")
	key, raw, ok := strings.Cut(trimmed, ":")
	if !ok || !slices.Contains(fields, key) {
		return "", false
	}
	prefix := line[:len(line)-len(raw)]
	cr := ""
	if strings.HasSuffix(raw, "\r") {
		raw, cr = raw[:len(raw)-1], "\r"
	}
	lead := raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]
	value, comment := splitComment(strings.TrimLeft(raw, " \t"))
	switch {
	case value == "", value[0] == '\'', value[0] == '"', value[0] == '-', value[0] == '|', value[0] == '>',
		value == "~", strings.EqualFold(value, "null"):
		return "", false
	case value[0] == '[':
		if !strings.HasSuffix(value, "]") {
			return "", false // a flow list over several lines: left to YAML
		}
		items := strings.Split(value[1:len(value)-1], ",")
		quoted := false
		for j, it := range items {
			t := strings.TrimSpace(it)
			if strings.HasPrefix(t, "@") {
				items[j] = strings.Replace(it, t, quote(t), 1)
				quoted = true
			}
		}
		if !quoted {
			return "", false
		}
		return prefix + lead + "[" + strings.Join(items, ",") + "]" + comment + cr, true
	case value[0] == '{':
		return "", false
	}
	return prefix + lead + quote(value) + comment + cr, true
}

// splitComment separates a trailing " # comment" from a plain value.
func splitComment(v string) (value, comment string) {
	if i := strings.Index(v, " #"); i >= 0 {
		return strings.TrimRight(v[:i], " \t"), v[i:]
	}
	return strings.TrimRight(v, " \t"), ""
}

// quote is s in double quotes, as Scalar writes them.
func quote(s string) string { return doubleQuoted(s) }
