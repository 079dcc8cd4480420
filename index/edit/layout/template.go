package layout

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// ErrTemplate says a template cannot be filled in.
var ErrTemplate = errors.New("bad template")

// placeholderRE is {{name}} in a template.
var placeholderRE = lazyre.MustCompile(`\{\{\s*([a-z_]+)\s*\}\}`)

// wholeRE is a frontmatter line whose value is one placeholder, quoted
// or not: "title: {{title}}", "  - '{{parent}}'".
var wholeRE = lazyre.MustCompile(`^(\s*(?:- |[^:#]+:\s+))(["']?)\{\{\s*([a-z_]+)\s*\}\}(["']?)\s*$`)

// FromTemplate fills a repository's template in (.canon/templates/
// KIND.md): {{id}}, {{title}}, {{uid}}, {{date}}, {{state}}, {{parent}}
// and {{body}}. In the frontmatter a placeholder is a field's whole
// value (or a list item's) and is written as YAML needs it; in the body
// it is the text.
func FromTemplate(tmpl []byte, it Item) ([]byte, error) {
	vals := map[string]string{"id": it.ID, "title": it.Title, "uid": it.UID, "date": it.Now.Format("2006-01-02"),
		"state": it.State, "parent": it.Parent, "body": strings.TrimSpace(it.Body)}
	lines := strings.Split(strings.ReplaceAll(string(tmpl), "\r\n", "\n"), "\n")
	inFront := len(lines) > 0 && strings.TrimSpace(lines[0]) == "---"
	for i := range lines {
		if i > 0 && inFront && strings.TrimSpace(lines[i]) == "---" {
			inFront = false
			continue
		}
		var err error
		if lines[i], err = fill(lines[i], inFront && i > 0, vals); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrTemplate, i+1, err)
		}
	}
	return []byte(strings.Join(lines, "\n")), nil
}

// fill replaces the placeholders of one line.
func fill(line string, front bool, vals map[string]string) (string, error) {
	if !strings.Contains(line, "{{") {
		return line, nil
	}
	if front {
		m := wholeRE.FindStringSubmatch(line)
		if m == nil || m[2] != m[4] {
			return "", errors.New("a placeholder in the frontmatter must be a field's whole value, as in title: {{title}}")
		}
		v, ok := vals[m[3]]
		if !ok {
			return "", fmt.Errorf("{{%s}} is no placeholder (id, title, uid, date, state, parent, body)", m[3])
		}
		if v == "" && m[3] != "title" {
			return strings.TrimRight(m[1], " "), nil
		}
		var q byte
		if m[2] != "" {
			q = m[2][0]
		}
		w, err := markdown.Scalar(v, "yaml", q)
		if err != nil {
			return "", err
		}
		return m[1] + w, nil
	}
	var bad string
	out := placeholderRE.Regexp().ReplaceAllStringFunc(line, func(s string) string {
		name := placeholderRE.FindStringSubmatch(s)[1]
		v, ok := vals[name]
		if !ok {
			bad = name
		}
		return v
	})
	if bad != "" {
		return "", fmt.Errorf("{{%s}} is no placeholder (id, title, uid, date, state, parent, body)", bad)
	}
	return out, nil
}

// Newest names the item the layout's style is read from.
func (l *Layout) Newest() string { return path.Base(l.group[0].Path) }

// StateField is the field the newest sample writes its state in: the
// learned one (states.field: stage) when it has it, else state or status
// ("" when it has none).
func (l *Layout) StateField(learned string) string {
	fs := l.group[0].doc.Frontmatter.Fields
	for _, f := range fs {
		if learned != "" && strings.EqualFold(f.Key, learned) {
			return f.Key
		}
	}
	for _, f := range fs {
		if k := strings.ToLower(f.Key); k == "state" || k == "status" {
			return f.Key
		}
	}
	return ""
}
