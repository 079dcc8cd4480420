package edit

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// Where a frontmatter edit goes, and what it must leave as it was.

// ErrNoFrontmatter, ErrBrokenFrontmatter and ErrFlowFrontmatter say why
// a frontmatter edit cannot be made.
var (
	ErrNoFrontmatter     = errors.New("it has no frontmatter")
	ErrBrokenFrontmatter = errors.New("its frontmatter does not parse")
	ErrFlowFrontmatter   = errors.New("its frontmatter is one flow mapping ({...}), which promote does not edit")
)

// broken reports a frontmatter that does not parse.
func broken(d *markdown.Document) error {
	for _, p := range d.Problems {
		if p.Rule == markdown.RuleYAMLSyntax && p.Severity == markdown.Error {
			return fmt.Errorf("the frontmatter would not parse: %s", p.Message)
		}
	}
	return nil
}

// frontmatter locates the frontmatter of a parsed document in its lines:
// the index of the closing delimiter. It refuses what an edit must not
// touch.
func frontmatter(d *markdown.Document, l *lines) (closing int, err error) {
	if d.Format == "" {
		return 0, ErrNoFrontmatter
	}
	if broken(d) != nil {
		return 0, ErrBrokenFrontmatter
	}
	delim := "---"
	if d.Format == "toml" {
		delim = "+++"
	}
	closing = -1
	for i := 1; i < len(l.text); i++ {
		if strings.TrimRight(l.text[i], " \t") == delim {
			closing = i
			break
		}
	}
	if closing < 0 {
		return 0, ErrNoFrontmatter
	}
	if d.Format == "yaml" {
		for i := 1; i < closing; i++ {
			t := strings.TrimSpace(l.text[i])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if strings.HasPrefix(t, "{") {
				return 0, ErrFlowFrontmatter
			}
			break
		}
	}
	return closing, nil
}

// newFieldAt is where a new top-level field goes: after the last field,
// before blank lines that end the frontmatter and, in TOML, before the
// first table (a key after a [table] header would belong to the table).
func newFieldAt(d *markdown.Document, l *lines, closing int) int {
	at := closing
	if d.Format == "toml" {
		for i := 1; i < closing; i++ {
			if strings.HasPrefix(strings.TrimSpace(l.text[i]), "[") {
				at = i
				break
			}
		}
	}
	for at > 1 && blank(l.text[at-1]) {
		at--
	}
	return at
}

// fieldIndent is the indentation of the top-level keys.
func fieldIndent(d *markdown.Document, l *lines) string {
	for _, f := range d.Frontmatter.Fields {
		if f.Line >= 1 && f.Line <= len(l.text) {
			s := l.text[f.Line-1]
			return s[:indentOf(s)]
		}
	}
	return ""
}

// newField is the line of a new top-level field holding token.
func newField(d *markdown.Document, l *lines, field, token string) string {
	if d.Format == "toml" {
		return fieldIndent(d, l) + field + " = " + token
	}
	return fieldIndent(d, l) + field + ": " + token
}

// plainKeyRE is a field name written as it is as a key, in YAML and TOML.
var plainKeyRE = lazyre.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// keyLineRE splits a `key: value` (YAML) or `key = value` (TOML) line:
// indent, key (quoted or not), separator, the rest.
func keyLineRE(format, key string) *regexp.Regexp {
	sep := `[ \t]*:(?:[ \t]+|$)`
	if format == "toml" {
		sep = `[ \t]*=[ \t]*`
	}
	q := regexp.QuoteMeta(key)
	return regexp.MustCompile(`^([ \t]*(?:` + q + `|"` + q + `"|'` + q + `'))(` + sep + `)(.*)$`)
}

// scalarToken splits the value part of a key line into the scalar token
// and what follows it (spaces and a comment): `'2025-01-02'  # x` gives
// `'2025-01-02'` and `  # x`.
func scalarToken(rest string) (token, after string, ok bool) {
	if rest == "" || rest[0] == '#' {
		return "", rest, true
	}
	if q := rest[0]; q == '"' || q == '\'' {
		// "..." ends at a quote no backslash escapes, '...' at a quote
		// that is not doubled ('it''s').
		for i := 1; i < len(rest); i++ {
			switch {
			case q == '"' && rest[i] == '\\':
				i++
			case rest[i] != q:
			case q == '\'' && i+1 < len(rest) && rest[i+1] == '\'':
				i++
			default:
				return rest[:i+1], rest[i+1:], true
			}
		}
		return "", "", false
	}
	switch rest[0] {
	case '[', '{', '|', '>', '&', '*', '!':
		return "", "", false // not a plain scalar
	}
	cut := len(rest)
	for i := 1; i < len(rest); i++ {
		if rest[i] == '#' && (rest[i-1] == ' ' || rest[i-1] == '\t') {
			cut = i
			break
		}
	}
	token = strings.TrimRight(rest[:cut], " \t")
	return token, rest[len(token):], true
}

// unquote is a scalar token's text and its quote (0 for none).
func unquote(token string) (inner string, quote byte) {
	if len(token) > 1 && (token[0] == '"' || token[0] == '\'') {
		return token[1 : len(token)-1], token[0]
	}
	return token, 0
}

// lookup is the field an edit changes: top-level, or nested as
// links.blocked_by (the key on its line is then the leaf).
func lookup(d *markdown.Document, field string) (f *markdown.Field, key string, nested bool) {
	parent, leaf, nested := strings.Cut(field, ".")
	if nested {
		return d.Frontmatter.Get(parent).Field(leaf), leaf, true
	}
	return d.Frontmatter.Field(field), field, false
}

// keyLine is the line of field f and its parts (indent and key,
// separator, the rest), which must lie inside the frontmatter.
func keyLine(d *markdown.Document, l *lines, closing int, f *markdown.Field, key, field string) (int, []string, error) {
	i := f.Line - 1
	if i < 1 || i >= closing {
		return 0, nil, fmt.Errorf("its %s field could not be located", field)
	}
	m := keyLineRE(d.Format, key).FindStringSubmatch(l.text[i])
	if m == nil {
		return 0, nil, fmt.Errorf("its %s field is not on a line of its own", field)
	}
	return i, m, nil
}

// sameFields reports whether the mappings before and after hold the same
// fields with the same values, but for field (a dotted path: links.blocks
// leaves the other fields of links to compare), which after may have and
// before not.
func sameFields(before, after *markdown.Value, field string) bool {
	head, rest, nested := strings.Cut(field, ".")
	n := 0
	for _, fa := range after.Fields {
		if fa.Key != head || nested {
			n++
		}
	}
	if n != len(before.Fields)-boolInt(!nested && before.Field(head) != nil) {
		return false
	}
	for _, fb := range before.Fields {
		fa := after.Field(fb.Key)
		switch {
		case fb.Key == head && !nested:
		case fa == nil:
			return false
		case fb.Key == head:
			if fb.Value.Kind != markdown.Map || fa.Value.Kind != markdown.Map || !sameFields(fb.Value, fa.Value, rest) {
				return false
			}
		case string(fa.Value.AppendJSON(nil)) != string(fb.Value.AppendJSON(nil)):
			return false
		}
	}
	return true
}

// scalarOf is a value's text as canon reads it; a list or a mapping is its
// JSON, so that it compares as itself.
func scalarOf(v *markdown.Value) string {
	if s, ok := v.Scalar(); ok {
		return s
	}
	return string(v.AppendJSON(nil))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
