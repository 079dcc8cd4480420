package layout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// datedRE is a value that is a date, or starts with one.
var datedRE = lazyre.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}`)

// The roles a field plays, by its name (any case).
var (
	createdNames = map[string]bool{"created": true, "created_date": true, "created_at": true, "date": true, "createdat": true}
	updatedNames = map[string]bool{"updated": true, "updated_date": true, "updated_at": true, "last_updated": true, "lastmod": true, "last_modified_at": true, "modified": true, "date_modified": true}
	peopleNames  = map[string]bool{"assignee": true, "assignees": true, "owner": true, "owners": true}
	kindNames    = map[string]bool{"type": true, "kind": true, "category": true}
)

// nullish reports a value that says "nothing": null, ~, None, empty.
func nullish(v *markdown.Value) bool {
	if v == nil {
		return true
	}
	if v.Kind == markdown.List {
		return len(v.Items) == 0
	}
	if v.Kind == markdown.Map {
		return len(v.Fields) == 0
	}
	switch strings.ToLower(strings.TrimSpace(v.Text)) {
	case "", "null", "~", "none", "nil", "unassigned", "-", "n/a":
		return true
	}
	return false
}

// rawToken is a field's value as its line writes it, after the colon,
// without a trailing comment: 'To Do', "Title", P2.
func rawToken(lines []string, f *markdown.Field) string {
	if f.Line < 1 || f.Line > len(lines) {
		return ""
	}
	line := lines[f.Line-1]
	i := colonAfterKey(line, f.Col)
	if i < 0 {
		return ""
	}
	tok := strings.TrimSpace(line[i+1:])
	if tok != "" && tok[0] != '"' && tok[0] != '\'' {
		if j := strings.Index(tok, " #"); j >= 0 {
			tok = strings.TrimSpace(tok[:j])
		}
	}
	return tok
}

// keyText is a field's key as its line writes it (quotes kept), with its
// indentation.
func keyText(lines []string, f *markdown.Field) string {
	if f.Line >= 1 && f.Line <= len(lines) {
		line := lines[f.Line-1]
		if i := colonAfterKey(line, f.Col); i >= 0 {
			return line[:i]
		}
	}
	return strings.Repeat(" ", max(0, f.Col-1)) + f.Key
}

// colonAfterKey is the byte of the colon that ends the key starting at
// column col (1-based), or -1.
func colonAfterKey(line string, col int) int {
	start := 0
	for i := range line {
		if col <= 1 {
			start = i
			break
		}
		col--
	}
	if start < len(line) && (line[start] == '"' || line[start] == '\'') {
		if j := strings.IndexByte(line[start+1:], line[start]); j >= 0 {
			start += j + 2
		}
	}
	if j := strings.IndexByte(line[start:], ':'); j >= 0 {
		return start + j
	}
	return -1
}

// quoteOf is the quote a token is written in (0 for plain).
func quoteOf(tok string) byte {
	if tok != "" && (tok[0] == '"' || tok[0] == '\'') {
		return tok[0]
	}
	return 0
}

// frontmatter writes the new document's fields in the order the newest
// sample writes them, each as it writes it.
func (l *Layout) frontmatter(it Item) (string, error) {
	newest := l.group[0]
	sets := map[string][]string{}
	var extra []string
	for _, f := range it.Set {
		k := strings.ToLower(f.Name)
		if _, ok := sets[k]; !ok && !slices.ContainsFunc(newest.doc.Frontmatter.Fields, func(g markdown.Field) bool { return strings.EqualFold(g.Key, f.Name) }) {
			extra = append(extra, f.Name)
		}
		sets[k] = append(sets[k], f.Value)
	}
	pf, after := l.parentField(it.ParentFields, it.ParentField)
	var b strings.Builder
	parentDone := it.Parent == ""
	writeParent := func() error {
		parentDone = true
		return keyed(&b, pf, it.Parent, 0)
	}
	for i := range newest.doc.Frontmatter.Fields {
		f := &newest.doc.Frontmatter.Fields[i]
		name := strings.ToLower(f.Key)
		var err error
		switch {
		case name == strings.ToLower(pf) && it.Parent != "":
			if !parentDone {
				parentDone = true
				err = keyed(&b, keyText(newest.lines, f), it.Parent, quoteOf(rawToken(newest.lines, f)))
			}
		case sets[name] != nil:
			err = l.writeSet(&b, f, sets[name])
		default:
			err = l.writeField(&b, f, it)
		}
		if err == nil && !parentDone && strings.EqualFold(f.Key, after) {
			err = writeParent()
		}
		if err != nil {
			return "", err
		}
	}
	if !parentDone {
		if err := writeParent(); err != nil {
			return "", err
		}
	}
	for _, name := range extra {
		vals := sets[strings.ToLower(name)]
		var err error
		if len(vals) == 1 {
			err = keyed(&b, name, vals[0], 0)
		} else {
			err = list(&b, name, vals, 0, "")
		}
		if err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// parentField is the field the samples write their parent in (one of
// names; dflt, else "parent", when none has one), and the field it
// follows in the newest sample that has it.
func (l *Layout) parentField(names map[string]bool, dflt string) (field, after string) {
	count := map[string]int{}
	for _, s := range l.all {
		for _, f := range s.doc.Frontmatter.Fields {
			if k := strings.ToLower(f.Key); names[k] || k == "parent" {
				count[f.Key]++
				if field == "" || count[f.Key] > count[field] {
					field = f.Key
				}
			}
		}
	}
	if field == "" && dflt != "" {
		return dflt, ""
	}
	if field == "" {
		return "parent", ""
	}
	for _, s := range l.all {
		for i, f := range s.doc.Frontmatter.Fields {
			if f.Key == field && i > 0 {
				return field, s.doc.Frontmatter.Fields[i-1].Key
			}
		}
	}
	return field, ""
}

// writeField writes one field of the newest sample for the new document.
func (l *Layout) writeField(b *strings.Builder, f *markdown.Field, it Item) error {
	newest := l.group[0]
	name := strings.ToLower(f.Key)
	tok := rawToken(newest.lines, f)
	key := keyText(newest.lines, f)
	scalar := f.Value == nil || f.Value.Kind != markdown.List && f.Value.Kind != markdown.Map
	switch {
	case name == "id" && scalar:
		return keyed(b, key, it.ID, quoteOf(tok))
	case name == "uid" && scalar:
		if it.UID == "" {
			return nil
		}
		return keyed(b, key, it.UID, quoteOf(tok))
	case name == "title" && scalar:
		if quoteOf(tok) == 0 {
			// Plain where YAML reads it back, else quoted as the others
			// are (js-yaml's way).
			if w, err := markdown.Scalar(it.Title, "yaml", 0); err == nil && quoteOf(w) == 0 {
				b.WriteString(key + ": " + w + "\n")
				return nil
			}
		}
		return keyed(b, key, it.Title, l.quoteFor(f.Key, tok))
	case (name == "state" || name == "status" || name == it.StateField) && scalar && it.State != "":
		return keyed(b, key, it.State, quoteOf(tok))
	case name == "updated_date" && it.NoUpdated:
		return nil
	case (createdNames[name] || updatedNames[name]) && scalar && f.Value != nil && datedRE.MatchString(f.Value.Text):
		return keyed(b, key, edit.Stamp(f.Value.Text, it.Now), quoteOf(tok))
	case kindNames[name] && scalar:
		b.WriteString(key + ": " + tok + "\n")
		return nil
	}
	// A reference, a person and a state are never copied from another
	// item (a state left empty is one the kind has none of in use).
	l.writeEmpty(b, newest.lines, f, it.Refs[name] || it.ParentFields[name] || peopleNames[name] || name == "parent" || name == "state" || name == "status" || name == it.StateField, []string{f.Key})
	return nil
}

// writeEmpty writes a field the new document has no value for: a list
// empty, a mapping with its fields so written, a value most of the
// samples share (area: general) as written, a null as written; any other
// value is left out. A reference is never copied.
func (l *Layout) writeEmpty(b *strings.Builder, lines []string, f *markdown.Field, ref bool, at []string) {
	key := keyText(lines, f)
	switch {
	case f.Value != nil && f.Value.Kind == markdown.List:
		b.WriteString(key + ": []\n")
	case f.Value != nil && f.Value.Kind == markdown.Map:
		var inner strings.Builder
		for i := range f.Value.Fields {
			c := &f.Value.Fields[i]
			l.writeEmpty(&inner, lines, c, ref || refName(c.Key), append(at[:len(at):len(at)], c.Key))
		}
		if inner.Len() == 0 {
			b.WriteString(key + ": {}\n")
			return
		}
		b.WriteString(key + ":\n" + inner.String())
	case nullish(f.Value):
		if tok := rawToken(lines, f); tok != "" {
			b.WriteString(key + ": " + tok + "\n")
		} else {
			b.WriteString(key + ":\n")
		}
	case !ref:
		if tok, ok := l.shared(at); ok {
			b.WriteString(key + ": " + tok + "\n")
		}
	}
}

// quoteFor is the quote the newest sample writes a field's value in,
// else the one the others write it in when they quote it (js-yaml quotes
// a title only when it must, and in single quotes).
func (l *Layout) quoteFor(field, tok string) byte {
	if q := quoteOf(tok); q != 0 {
		return q
	}
	for _, s := range l.group {
		if f := s.doc.Frontmatter.Field(field); f != nil {
			if q := quoteOf(rawToken(s.lines, f)); q != 0 {
				return q
			}
		}
	}
	return 0
}

// refName reports a nested field that holds references by its name.
func refName(key string) bool {
	k := strings.ToLower(key)
	return peopleNames[k] || k == "parent" || k == "relates" || k == "blocks" || k == "blocked_by" || k == "depends_on"
}

// shared is the value at the path most samples of the group hold (more
// than half, and at least two), as the newest of them writes it.
func (l *Layout) shared(at []string) (string, bool) {
	count := map[string]int{}
	tokens := map[string]string{}
	best, found := "", false
	for _, s := range l.group {
		f := fieldAt(s.doc.Frontmatter, at)
		if f == nil || f.Value == nil || f.Value.Kind == markdown.List || f.Value.Kind == markdown.Map {
			continue
		}
		v := f.Value.Text
		count[v]++
		if _, ok := tokens[v]; !ok {
			tokens[v] = rawToken(s.lines, f)
		}
		if !found || count[v] > count[best] {
			best, found = v, true
		}
	}
	if n := count[best]; n >= 2 && 2*n > len(l.group) {
		return tokens[best], true
	}
	return "", false
}

// fieldAt is the field at a path of keys.
func fieldAt(v *markdown.Value, at []string) *markdown.Field {
	var f *markdown.Field
	for _, k := range at {
		if v == nil || v.Kind != markdown.Map {
			return nil
		}
		if f = v.Field(k); f == nil {
			return nil
		}
		v = f.Value
	}
	return f
}

// writeSet writes a field canon new was given a value for, in the
// samples' style: one value, or a list of the values given, flow or
// block as the samples write a list that has items.
func (l *Layout) writeSet(b *strings.Builder, f *markdown.Field, vals []string) error {
	lines := l.group[0].lines
	key := keyText(lines, f)
	if f.Value != nil && f.Value.Kind == markdown.List {
		q, indent := l.listStyle(f.Key)
		return list(b, key, vals, q, indent)
	}
	if len(vals) > 1 {
		return fmt.Errorf("%s takes one value, and was given %d", f.Key, len(vals))
	}
	return keyed(b, key, vals[0], quoteOf(rawToken(lines, f)))
}

// listStyle is how the samples write a list field that has items: the
// quote of its items, and the indentation of a block list's "- " (""
// for a flow list).
func (l *Layout) listStyle(field string) (quote byte, indent string) {
	for _, s := range l.group {
		f := s.doc.Frontmatter.Field(field)
		if f == nil || f.Value == nil || f.Value.Kind != markdown.List || len(f.Value.Items) == 0 {
			continue
		}
		item := f.Value.Items[0]
		raw := rawItem(s.lines, item)
		if item.Line != f.Line && item.Line >= 1 && item.Line <= len(s.lines) {
			line := s.lines[item.Line-1]
			indent = line[:len(line)-len(strings.TrimLeft(line, " "))]
		}
		return quoteOf(raw), indent
	}
	return 0, ""
}

// rawItem is the first character of a list item as written (its quote).
func rawItem(lines []string, v *markdown.Value) string {
	if v.Line < 1 || v.Line > len(lines) {
		return ""
	}
	line := lines[v.Line-1]
	i := 0
	for c := v.Col; c > 1 && i < len(line); c-- {
		i++
	}
	if i > 0 && i <= len(line) && (line[i-1] == '"' || line[i-1] == '\'') {
		return line[i-1:]
	}
	return line[min(i, len(line)):]
}

// keyed writes key: value, the value quoted as YAML needs (with quote
// when the sample quoted it).
func keyed(b *strings.Builder, key, value string, quote byte) error {
	w, err := markdown.Scalar(value, "yaml", quote)
	if err != nil {
		return fmt.Errorf("%s: %w", strings.TrimSpace(key), err)
	}
	b.WriteString(key + ": " + w + "\n")
	return nil
}

// list writes key: [a, b], or a block list with indent, each item
// quoted as YAML needs.
func list(b *strings.Builder, key string, vals []string, quote byte, indent string) error {
	items := make([]string, 0, len(vals))
	for _, v := range vals {
		w, err := markdown.Scalar(v, "yaml", quote)
		if err != nil {
			return fmt.Errorf("%s: %w", strings.TrimSpace(key), err)
		}
		items = append(items, w)
	}
	if indent != "" {
		b.WriteString(key + ":\n")
		for _, w := range items {
			b.WriteString(indent + "- " + w + "\n")
		}
		return nil
	}
	b.WriteString(key + ": [" + strings.Join(items, ", ") + "]\n")
	return nil
}
