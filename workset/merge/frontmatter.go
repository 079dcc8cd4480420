package merge

import (
	"github.com/canon-md/canon/index/lazyre"
	"strings"
	"time"

	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/workset"
)

// chunk is one field of a mapping as written: its key line and every line
// up to the next key of the same mapping (comments and blank lines after
// it included).
type chunk struct {
	key   string
	text  string
	val   *markdown.Value
	lines []string
	start int // index of the key line in the side's lines
}

// mapping is a block mapping cut into its fields: head is what comes
// before the first field (the key line of a nested mapping, comments).
type mapping struct {
	head   string
	fields []chunk
}

// cut splits lines[from:to] into the fields of v, each starting on its own
// line. lines[0] is the file line offset+1; a nested mapping's lines start
// with its key line, which goes to its head. ok is false when the fields
// do not sit one per line in order (a flow mapping, two keys on a line).
func cut(lines []string, v *markdown.Value, from, to, offset int, nested bool) (mapping, bool) {
	var mp mapping
	if v == nil || v.Kind != markdown.Map {
		return mp, false
	}
	prev := from - 1
	if nested {
		prev = from
	}
	seen := map[string]bool{}
	for i, f := range v.Fields {
		at := f.Line - 1 - offset
		if at <= prev || at >= to || seen[f.Key] {
			return mp, false
		}
		seen[f.Key] = true
		if i == 0 {
			mp.head = strings.Join(lines[from:at], "")
		}
		prev = at
	}
	for i, f := range v.Fields {
		end := to
		if i+1 < len(v.Fields) {
			end = v.Fields[i+1].Line - 1 - offset
		}
		at := f.Line - 1 - offset
		mp.fields = append(mp.fields, chunk{key: f.Key, text: strings.Join(lines[at:end], ""), val: f.Value, lines: lines[at:end], start: at + offset})
	}
	if len(v.Fields) == 0 {
		mp.head = strings.Join(lines[from:to], "")
	}
	return mp, true
}

func (mp mapping) get(key string) *chunk {
	for i := range mp.fields {
		if mp.fields[i].key == key {
			return &mp.fields[i]
		}
	}
	return nil
}

// frontmatter merges the three frontmatters field by field; it returns
// the lines between the delimiters.
func (m *merger) frontmatter(o, a, t *side) (string, string, error) {
	var maps [3]mapping
	for i, s := range []*side{o, a, t} {
		mp, ok := cut(s.lines, s.doc.Frontmatter, 1, s.fmEnd, 0, false)
		if !ok {
			return "", "a frontmatter's fields are not one per line (a flow mapping, or keys the driver cannot place)", nil
		}
		maps[i] = mp
	}
	date := workset.UpdatedField(a.doc.Frontmatter)
	out, err := m.mapping(maps[0], maps[1], maps[2], "", date)
	return out, "", err
}

// mapping merges one mapping's fields: ours' order, a field only theirs
// added after the field it follows in theirs.
func (m *merger) mapping(o, a, t mapping, path, date string) (string, error) {
	var b strings.Builder
	head, err := m.piece(o.head, a.head, t.head)
	if err != nil {
		return "", err
	}
	b.WriteString(head)
	// Theirs' additions, keyed by the field they follow in theirs.
	after := map[string][]*chunk{}
	for i := range t.fields {
		f := &t.fields[i]
		if a.get(f.key) != nil || o.get(f.key) != nil {
			continue
		}
		prev := ""
		for j := i - 1; j >= 0; j-- {
			if a.get(t.fields[j].key) != nil {
				prev = t.fields[j].key
				break
			}
		}
		after[prev] = append(after[prev], f)
	}
	// Pending additions of theirs go in after the fields ours added at the
	// same place: ours first.
	pending := after[""]
	flush := func() {
		for _, g := range pending {
			b.WriteString(g.text)
		}
		pending = nil
	}
	for i := range a.fields {
		f := &a.fields[i]
		if o.get(f.key) != nil || t.get(f.key) != nil {
			flush()
		}
		text, err := m.field(o.get(f.key), f, t.get(f.key), join(path, f.key), date)
		if err != nil {
			return "", err
		}
		b.WriteString(text)
		pending = append(pending, after[f.key]...)
	}
	flush()
	// Fields ours removed: gone unless theirs changed them (then git
	// decides, as for any removal against an edit).
	for i := range o.fields {
		f := &o.fields[i]
		if a.get(f.key) != nil {
			continue
		}
		if tf := t.get(f.key); tf != nil && tf.text != f.text {
			text, err := m.lineMerge(f.text, "", tf.text)
			if err != nil {
				return "", err
			}
			b.WriteString(text)
		}
	}
	return b.String(), nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// piece merges text that has no rule of its own: taken when one side
// changed it, line merged when both did.
func (m *merger) piece(o, a, t string) (string, error) {
	switch {
	case a == t, o == t:
		return a, nil
	case o == a:
		return t, nil
	}
	return m.lineMerge(o, a, t)
}

// field merges one field ours has; o or t is nil where that side has none.
func (m *merger) field(o, a, t *chunk, path, date string) (string, error) {
	ot := ""
	if o != nil {
		ot = o.text
	}
	switch {
	case t == nil && o != nil && ot == a.text:
		return "", nil // theirs removed it, ours left it alone
	case t == nil && o == nil:
		return a.text, nil // ours added it
	case t == nil:
		return m.lineMerge(ot, a.text, "") // ours changed what theirs removed: git decides
	case a.text == t.text || ot == t.text:
		return a.text, nil
	case ot == a.text && o != nil:
		return t.text, nil
	}
	// Both changed it, differently.
	if path == date {
		if text, ok := later(a, t); ok {
			m.res.Fields = append(m.res.Fields, path)
			return text, nil
		}
	}
	if text, ok := m.set(o, a, t); ok {
		m.res.Fields = append(m.res.Fields, path)
		return text, nil
	}
	if o != nil && o.val.Kind == markdown.Map && a.val.Kind == markdown.Map && t.val.Kind == markdown.Map {
		mo, ok1 := cut(o.lines, o.val, 0, len(o.lines), o.start, true)
		ma, ok2 := cut(a.lines, a.val, 0, len(a.lines), a.start, true)
		mt, ok3 := cut(t.lines, t.val, 0, len(t.lines), t.start, true)
		if ok1 && ok2 && ok3 {
			return m.mapping(mo, ma, mt, path, date)
		}
	}
	return m.lineMerge(ot, a.text, t.text)
}

var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// later takes the field with the later date; ours on a tie.
func later(a, t *chunk) (string, bool) {
	da, ok1 := parseDate(a.val.Text)
	dt, ok2 := parseDate(t.val.Text)
	if !ok1 || !ok2 || a.val.Kind == markdown.List || t.val.Kind == markdown.List {
		return "", false
	}
	if dt.After(da) {
		return t.text, true
	}
	return a.text, true
}

// list is a list field as written: its items' texts and, for each, the
// token as written (quotes kept).
type list struct {
	items  []string
	tokens []string
	flow   bool
	lineOf []int // block: the item's index in the chunk's lines
}

var (
	blockItemRE = lazyre.MustCompile(`^([ \t]*-[ \t]+)(.*?)[ \t]*(?:#.*)?\r?\n?$`)
	flowLineRE  = lazyre.MustCompile(`^([^\[]*\[)(.*)(\][ \t]*(?:#.*)?\r?\n?)$`)
)

// readList reads a field's list; an empty or null field is an empty list.
func readList(c *chunk) (*list, bool) {
	l := &list{}
	if c == nil {
		return l, true
	}
	switch c.val.Kind {
	case markdown.Null:
		return l, true
	case markdown.List:
	default:
		return nil, false
	}
	seen := map[string]bool{}
	for _, it := range c.val.Items {
		if _, ok := it.Scalar(); !ok || seen[it.Text] {
			return nil, false
		}
		seen[it.Text] = true
		l.items = append(l.items, it.Text)
	}
	if len(l.items) == 0 {
		return l, true
	}
	if c.val.Items[0].Line-1 == c.start {
		// A flow list: all on the key line, the rest of the chunk blank or
		// comments.
		for _, ln := range c.lines[1:] {
			if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "#") {
				return nil, false
			}
		}
		mt := flowLineRE.FindStringSubmatch(c.lines[0])
		if mt == nil {
			return nil, false
		}
		toks := splitFlow(mt[2])
		if len(toks) != len(l.items) {
			return nil, false
		}
		l.flow, l.tokens = true, toks
		return l, true
	}
	taken := map[int]bool{}
	for _, it := range c.val.Items {
		i := it.Line - 1 - c.start
		if i <= 0 || i >= len(c.lines) || taken[i] {
			return nil, false
		}
		taken[i] = true
		mt := blockItemRE.FindStringSubmatch(c.lines[i])
		if mt == nil || mt[2] == "" {
			return nil, false
		}
		l.tokens, l.lineOf = append(l.tokens, mt[2]), append(l.lineOf, i)
	}
	// Every other line is blank or a comment: each item is one line.
	for i, ln := range c.lines[1:] {
		if t := strings.TrimSpace(ln); !taken[i+1] && t != "" && !strings.HasPrefix(t, "#") {
			return nil, false
		}
	}
	if t := strings.TrimSpace(strings.SplitN(c.lines[0], ":", 2)[1]); t != "" && !strings.HasPrefix(t, "#") {
		return nil, false
	}
	return l, true
}

// splitFlow cuts the inside of [a, "b, c", 'd'] at its commas.
func splitFlow(s string) []string {
	var toks []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == ']' || c == '{' || c == '}':
			return nil
		case c == ',':
			toks = append(toks, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		toks = append(toks, last)
	}
	return toks
}

func (l *list) has(item string) bool {
	for _, x := range l.items {
		if x == item {
			return true
		}
	}
	return false
}

// set merges a list both sides changed as a set: ours' items less those
// theirs removed, then theirs' additions. It keeps ours' lines and style
// (theirs' when ours has no item); ok is false for a list that is not a
// set of one-line scalars.
func (m *merger) set(o, a, t *chunk) (string, bool) {
	lo, ok1 := readList(o)
	la, ok2 := readList(a)
	lt, ok3 := readList(t)
	if !ok1 || !ok2 || !ok3 || o != nil && o.val.Kind != markdown.List && o.val.Kind != markdown.Null ||
		a.val.Kind != markdown.List || t.val.Kind != markdown.List && t.val.Kind != markdown.Null {
		return "", false
	}
	keep := func(x string) bool { return !(lo.has(x) && !lt.has(x)) }
	var add []int
	for i, x := range lt.items {
		if !la.has(x) && !lo.has(x) {
			add = append(add, i)
		}
	}
	var kept []int
	for i, x := range la.items {
		if keep(x) {
			kept = append(kept, i)
		}
	}
	if len(kept) == 0 && len(add) == 0 {
		return "", false // nothing left: how to write an empty list is a guess
	}
	if len(la.items) == 0 {
		return "", false
	}
	if la.flow {
		toks := make([]string, 0, len(kept)+len(add))
		for _, i := range kept {
			toks = append(toks, la.tokens[i])
		}
		for _, i := range add {
			tok := lt.tokens[i]
			if !lt.flow && strings.ContainsAny(tok, ",[]{}") && tok[0] != '"' && tok[0] != '\'' {
				return "", false // a plain block scalar that is no flow scalar
			}
			toks = append(toks, tok)
		}
		sep := ", "
		if len(la.tokens) > 1 && !strings.Contains(flowLineRE.FindStringSubmatch(a.lines[0])[2], ", ") {
			sep = ","
		}
		mt := flowLineRE.FindStringSubmatch(a.lines[0])
		return mt[1] + strings.Join(toks, sep) + mt[3] + strings.Join(a.lines[1:], ""), true
	}
	drop := map[int]bool{}
	for i := range la.items {
		if !keep(la.items[i]) {
			drop[la.lineOf[i]] = true
		}
	}
	lastItem := la.lineOf[len(la.lineOf)-1]
	prefix := blockItemRE.FindStringSubmatch(a.lines[la.lineOf[0]])[1]
	eol := eolOf(a.lines)
	var b strings.Builder
	for i, ln := range a.lines {
		if !drop[i] {
			b.WriteString(ln)
		}
		if i == lastItem {
			if !strings.HasSuffix(ln, "\n") {
				b.WriteString(eol)
			}
			for _, j := range add {
				b.WriteString(prefix + lt.tokens[j] + eol)
			}
		}
	}
	return b.String(), true
}
