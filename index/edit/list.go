package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// AddToList adds item to the list in the frontmatter field (decisions:,
// related_items:, or a nested one such as links.blocked_by) with a
// one-line edit: inside the brackets of a flow list (`[a, b]` → `[a, b,
// item]`), as one more `- item` line of a block list, `field: [item]` for
// an empty or null field, `[old, item]` for a single scalar; a new
// top-level `field: [item]` line after the last field when there is none
// (a nested field must exist: where a new one goes would be a guess). An
// item already listed (without case) changes nothing. The item is written
// as markdown.Scalar writes it (plain, or quoted as the list's items are,
// or as YAML needs), and the result is read again: the list must hold
// what it held and the item, nothing else, or nothing is changed.
func AddToList(content []byte, field, item string) (out []byte, changed bool, err error) {
	if err := Plain("the item "+Shown(item), item, MaxValue); err != nil {
		return content, false, err
	}
	out, changed, err = addToList(content, field, item)
	if err != nil || !changed {
		return content, false, err
	}
	if err := listReads(content, out, field, append(listed(content, field), item)); err != nil {
		return content, false, fmt.Errorf("the item %s cannot be added to its %s field with a one-line edit (%w); add it by hand", Shown(item), field, err)
	}
	return out, true, nil
}

// RemoveFromList takes item (compared without case, as AddToList
// compares) out of the list in the frontmatter field: its `- item` line
// of a block list (with the lines that continue it), or its place inside
// the brackets of a flow list with the comma that separated it; a list
// left empty reads `field: []`, and so does a single scalar that was the
// item. Every other byte stays. A field that does not list it changes
// nothing. The result is read again: the list must hold what it held
// without the item, nothing else, or nothing is changed.
func RemoveFromList(content []byte, field, item string) (out []byte, changed bool, err error) {
	if err := Plain("the item "+Shown(item), item, MaxValue); err != nil {
		return content, false, err
	}
	var want []string
	for _, it := range listed(content, field) {
		if !sameItem(it, item) {
			want = append(want, it)
		}
	}
	out = content
	for range len(want) + 1 {
		next, more, err := removeOne(out, field, item)
		if err != nil {
			return content, false, err
		}
		if !more {
			break
		}
		out, changed = next, true
	}
	if !changed {
		return content, false, nil
	}
	if err := listReads(content, out, field, want); err != nil {
		return content, false, fmt.Errorf("the item %s cannot be removed from its %s field with a line edit (%w); remove it by hand", Shown(item), field, err)
	}
	return out, true, nil
}

// sameItem is how a list item is compared with one to add or remove:
// without case and the spaces around either.
func sameItem(have, item string) bool {
	return strings.EqualFold(strings.TrimSpace(have), strings.TrimSpace(item))
}

// listed are the items field holds as canon reads them: a scalar counts
// as one item, null or an absent field as none.
func listed(content []byte, field string) []string {
	f, _, _ := lookup(parse(content), field)
	if f == nil || f.Value == nil {
		return nil
	}
	var out []string
	switch v := f.Value; v.Kind {
	case markdown.List:
		for _, it := range v.Items {
			out = append(out, scalarOf(it))
		}
	case markdown.Null:
	default:
		out = append(out, scalarOf(v))
	}
	return out
}

// listReads checks a list edit by reading the result: it parses, the
// field is a list of want, and the rest of the frontmatter reads as it
// did.
func listReads(before, after []byte, field string, want []string) error {
	db, da := parse(before), parse(after)
	if err := broken(da); err != nil {
		return err
	}
	fa, _, _ := lookup(da, field)
	if fa == nil || fa.Value == nil || fa.Value.Kind != markdown.List {
		return errors.New("the field would not be a list")
	}
	got := make([]string, len(fa.Value.Items))
	for i, it := range fa.Value.Items {
		got[i] = scalarOf(it)
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("it would list %q", got)
	}
	if !sameFields(db.Frontmatter, da.Frontmatter, field) {
		return errors.New("its other fields would change")
	}
	return nil
}

// addToList is AddToList's edit, before the check.
func addToList(content []byte, field, item string) (out []byte, changed bool, err error) {
	d := parse(content)
	l := splitLines(content)
	closing, err := frontmatter(d, l)
	if err != nil {
		return content, false, err
	}
	toml := d.Format == "toml"
	f, key, nested := lookup(d, field)
	if nested && (f == nil || toml) {
		return content, false, fmt.Errorf("it has no %s field to add to", field)
	}
	if f == nil {
		w, err := quoteItem(item, "", d.Format)
		if err != nil {
			return content, false, err
		}
		if !plainKeyRE.MatchString(field) {
			return content, false, fmt.Errorf("it has no %s field, and a new one would need its name quoted; add the field by hand", field)
		}
		l.insert(newFieldAt(d, l, closing), newField(d, l, field, "["+w+"]"))
		return l.bytes(), true, nil
	}
	v := f.Value
	if v != nil && v.Kind == markdown.List {
		for _, it := range v.Items {
			if s, ok := it.Scalar(); ok && sameItem(s, item) {
				return content, false, nil
			}
		}
	}
	if s, ok := v.Scalar(); ok && sameItem(s, item) {
		return content, false, nil
	}
	i, m, err := keyLine(d, l, closing, f, key, field)
	if err != nil {
		return content, false, err
	}
	switch {
	case v == nil || v.Kind == markdown.Null:
		// `field:`, `field: ~`, `field: null`: the value becomes a list.
		_, after, ok := scalarToken(m[3])
		if !ok {
			return content, false, fmt.Errorf("its %s field is not a list", field)
		}
		sep := m[2]
		if !strings.HasSuffix(sep, " ") && !strings.HasSuffix(sep, "\t") {
			sep += " "
		}
		if after != "" && !strings.HasPrefix(after, " ") {
			after = " " + after
		}
		w, err := quoteItem(item, "", d.Format)
		if err != nil {
			return content, false, err
		}
		l.text[i] = m[1] + sep + "[" + w + "]" + after
		return l.bytes(), true, nil
	case v.Kind == markdown.List && strings.HasPrefix(m[3], "["):
		if err := appendFlow(l, i, len(m[1])+len(m[2]), item, d.Format); err != nil {
			return content, false, fmt.Errorf("its %s field: %w", field, err)
		}
		return l.bytes(), true, nil
	case v.Kind == markdown.List:
		if err := appendBlock(l, v, closing, item); err != nil {
			return content, false, fmt.Errorf("its %s field: %w", field, err)
		}
		return l.bytes(), true, nil
	case v.Kind == markdown.String || v.Kind == markdown.Number:
		token, after, ok := scalarToken(m[3])
		if !ok || token == "" {
			return content, false, fmt.Errorf("its %s field is not a list", field)
		}
		if token[0] != '"' && token[0] != '\'' {
			// A plain scalar becomes the first item of a flow list, where
			// a comma or a bracket in it would mean something else: it is
			// written as an item would be (a, b] → ["a, b]"), its text
			// unchanged.
			if token, err = markdown.Scalar(v.Text, d.Format, 0); err != nil {
				return content, false, err
			}
		}
		w, err := quoteItem(item, token, d.Format)
		if err != nil {
			return content, false, err
		}
		l.text[i] = m[1] + m[2] + "[" + token + ", " + w + "]" + after
		return l.bytes(), true, nil
	}
	return content, false, fmt.Errorf("its %s field is not a list", field)
}

var listIndexRE = lazyre.MustCompile(`^[ \t]*-[ \t]+`)

// quoteItem writes a new list item as markdown.Scalar does, the way the
// sample item is written: quoted with the same quote, or plain where YAML
// reads it as itself (in TOML always quoted, a reference is a string).
func quoteItem(item, sample, format string) (string, error) {
	var q byte
	if sample != "" && (sample[0] == '"' || sample[0] == '\'') {
		q = sample[0]
	} else if format == "toml" {
		q = '"'
	}
	w, err := markdown.Scalar(item, format, q)
	if err != nil {
		return "", fmt.Errorf("the item %s: %w", Shown(item), err)
	}
	return w, nil
}

// pos is a place in lines: the line's index and a byte of it.
type pos struct{ line, at int }

// flowItem is one item of a flow list: from its first byte to one past
// its last, and the comma after it (line -1 when none).
type flowItem struct {
	start, end, comma pos
}

// flowList is a flow list as written: its brackets and its items.
type flowList struct {
	open, close pos
	items       []flowItem
}

// scanFlow reads the flow list that opens at byte start of line i (it
// may close on a later line): where each item starts and ends, the
// commas between them and the closing bracket. Quotes, nested brackets
// and comments are followed as YAML reads them.
func scanFlow(l *lines, i, start int) (*flowList, error) {
	fl := &flowList{}
	depth, quote := 0, byte(0)
	var cur *flowItem
	mark := func(li, j int) {
		if cur == nil {
			fl.items = append(fl.items, flowItem{start: pos{li, j}, comma: pos{-1, -1}})
			cur = &fl.items[len(fl.items)-1]
		}
		cur.end = pos{li, j + 1}
	}
	for li := i; li < len(l.text); li++ {
		s := l.text[li]
		from := 0
		if li == i {
			from = start
		}
		for j := from; j < len(s); j++ {
			c := s[j]
			switch {
			case quote == '"' && c == '\\':
				mark(li, j)
				if j+1 < len(s) {
					j++ // an escape: the next character is not the closing quote
					mark(li, j)
				}
			case quote != 0:
				if c == quote {
					quote = 0
				}
				mark(li, j)
			case (c == '"' || c == '\'') && (cur == nil || depth > 1):
				// A quote opens a quoted item, or a quoted value in a
				// nested collection; inside a plain item it is a letter.
				quote = c
				mark(li, j)
			case c == '#' && (j == 0 || s[j-1] == ' ' || s[j-1] == '\t'):
				j = len(s) // a comment runs to the end of the line
			case c == '[' || c == '{':
				depth++
				if depth == 1 {
					fl.open = pos{li, j}
					continue
				}
				mark(li, j)
			case c == ']' || c == '}':
				depth--
				if depth == 0 {
					fl.close = pos{li, j}
					return fl, nil
				}
				mark(li, j)
			case c == ',' && depth == 1:
				if cur == nil {
					return nil, errors.New("its list has an empty item")
				}
				cur.comma, cur = pos{li, j}, nil
			case c == ' ' || c == '\t':
			case depth >= 1:
				mark(li, j)
			}
		}
		if depth == 0 {
			break
		}
	}
	return nil, errors.New("its list is not closed")
}

// appendFlow inserts item before the closing bracket of the flow list that
// opens at byte start of line i: after the last item (and after its
// comma, when the list ends with one), or between the brackets of an
// empty list. Only the line holding the last item (or the brackets)
// changes.
func appendFlow(l *lines, i, start int, item, format string) error {
	fl, err := scanFlow(l, i, start)
	if err != nil {
		return err
	}
	if len(fl.items) == 0 {
		w, err := quoteItem(item, "", format)
		if err != nil {
			return err
		}
		c := fl.close
		s := l.text[c.line]
		if c.line == fl.open.line { // [ ] on one line: [item]
			l.text[c.line] = s[:fl.open.at+1] + w + s[c.at:]
		} else {
			l.text[c.line] = s[:c.at] + w + s[c.at:]
		}
		return nil
	}
	first := fl.items[0].start
	w, err := quoteItem(item, l.text[first.line][first.at:], format)
	if err != nil {
		return err
	}
	last := fl.items[len(fl.items)-1]
	at, add := last.end, ", "+w
	if last.comma.line >= 0 {
		at, add = pos{last.comma.line, last.comma.at + 1}, " "+w+","
	}
	s := l.text[at.line]
	l.text[at.line] = s[:at.at] + add + s[at.at:]
	return nil
}

// appendBlock adds a `- item` line after the last item of a block list,
// written with the same indentation and marker.
func appendBlock(l *lines, v *markdown.Value, closing int, item string) error {
	li, m, err := blockItem(l, v.Items[len(v.Items)-1], closing)
	if err != nil {
		return err
	}
	w, err := quoteItem(item, l.text[li][len(m):], "yaml")
	if err != nil {
		return err
	}
	l.insert(itemEnd(l, li, closing, len(m)-len(strings.TrimLeft(m, " \t"))), m+w)
	return nil
}

// blockItem locates an item of a block list: its line and its `- `
// marker with the indentation before it.
func blockItem(l *lines, it *markdown.Value, closing int) (int, string, error) {
	li := it.Line - 1
	if li < 1 || li >= closing {
		return 0, "", errors.New("its item could not be located")
	}
	m := listIndexRE.FindString(l.text[li])
	if m == "" {
		return 0, "", errors.New("its item is not a `- item` line")
	}
	return li, m, nil
}

// itemEnd is the line after a block item at line li and the lines
// indented deeper than its dash, which continue it.
func itemEnd(l *lines, li, closing, dash int) int {
	at := li + 1
	for at < closing && !blank(l.text[at]) && indentOf(l.text[at]) > dash {
		at++
	}
	return at
}

// removeOne takes the first item that is item out of field's list, or
// reports there is none.
func removeOne(content []byte, field, item string) ([]byte, bool, error) {
	d := parse(content)
	l := splitLines(content)
	closing, err := frontmatter(d, l)
	if err != nil {
		return content, false, err
	}
	f, key, _ := lookup(d, field)
	if f == nil || f.Value == nil {
		return content, false, nil
	}
	v := f.Value
	k := -1
	if v.Kind == markdown.List {
		k = slices.IndexFunc(v.Items, func(it *markdown.Value) bool { s, ok := it.Scalar(); return ok && sameItem(s, item) })
	} else if s, ok := v.Scalar(); !ok || !sameItem(s, item) {
		return content, false, nil
	}
	if v.Kind == markdown.List && k < 0 {
		return content, false, nil
	}
	i, m, err := keyLine(d, l, closing, f, key, field)
	if err != nil {
		return content, false, err
	}
	switch {
	case v.Kind != markdown.List:
		// A single scalar that is the item: the list is left empty.
		token, after, ok := scalarToken(m[3])
		if !ok || token == "" {
			return content, false, fmt.Errorf("its %s field is not a list", field)
		}
		l.text[i] = m[1] + m[2] + "[]" + after
	case strings.HasPrefix(m[3], "["):
		if err := removeFlow(l, i, len(m[1])+len(m[2]), k, len(v.Items)); err != nil {
			return content, false, fmt.Errorf("its %s field: %w", field, err)
		}
	default:
		li, mark, err := blockItem(l, v.Items[k], closing)
		if err != nil {
			return content, false, fmt.Errorf("its %s field: %w", field, err)
		}
		l.remove(li, itemEnd(l, li, closing, len(mark)-len(strings.TrimLeft(mark, " \t"))))
		if len(v.Items) == 1 {
			l.text[i] = m[1] + valueSep(m[2], "") + "[]" + valueAfter(m[3], "")
		}
	}
	return l.bytes(), true, nil
}

// removeFlow takes item k of the flow list that opens at byte start of
// line i out, with the comma that separated it from its neighbour; a
// line it leaves blank goes too.
func removeFlow(l *lines, i, start, k, n int) error {
	fl, err := scanFlow(l, i, start)
	if err != nil {
		return err
	}
	if len(fl.items) != n {
		return errors.New("its items could not be told apart")
	}
	it := fl.items[k]
	if it.start.line != it.end.line {
		return errors.New("the item runs over several lines")
	}
	type cut struct{ line, from, to int }
	var cuts []cut
	switch {
	case n == 1 && fl.open.line == fl.close.line:
		cuts = append(cuts, cut{i, fl.open.at + 1, fl.close.at})
	case k == n-1 && k > 0 && it.comma.line == it.start.line && fl.items[k-1].comma.line == it.start.line:
		// The last item, and the list ends with a comma: the comma of the
		// one before it is the list's last now.
		cuts = append(cuts, cut{it.start.line, fl.items[k-1].comma.at + 1, it.comma.at + 1})
	case it.comma.line == it.start.line:
		// Up to the next item on the line, else the comma and the spaces
		// after it.
		to := it.comma.at + 1
		if k+1 < n && fl.items[k+1].start.line == it.start.line {
			to = fl.items[k+1].start.at
		} else {
			s := l.text[it.start.line]
			for to < len(s) && (s[to] == ' ' || s[to] == '\t') {
				to++
			}
		}
		cuts = append(cuts, cut{it.start.line, it.start.at, to})
	case it.comma.line >= 0:
		return errors.New("its comma is on another line than the item")
	case k == 0:
		cuts = append(cuts, cut{it.start.line, it.start.at, it.end.at})
	default:
		prev := fl.items[k-1]
		if prev.comma.line == it.start.line {
			cuts = append(cuts, cut{it.start.line, prev.comma.at, it.end.at})
		} else {
			cuts = append(cuts, cut{it.start.line, it.start.at, it.end.at}, cut{prev.comma.line, prev.comma.at, prev.comma.at + 1})
		}
	}
	var emptied []int
	for _, c := range cuts {
		s := l.text[c.line]
		l.text[c.line] = s[:c.from] + s[c.to:]
		if !blank(s) && blank(l.text[c.line]) {
			emptied = append(emptied, c.line)
		}
	}
	slices.Sort(emptied)
	for j := len(emptied) - 1; j >= 0; j-- {
		l.remove(emptied[j], emptied[j]+1)
	}
	return nil
}
