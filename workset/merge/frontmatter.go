package merge

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/markdown"
)

// chunk is one field of a mapping as written: its key line and every line
// up to the next key of the same mapping. The value is lines[:n]; the
// comment and blank lines after it, lines[n:], are its trailer, merged on
// their own (a comment written under a field is often about the next).
type chunk struct {
	key   string
	val   *markdown.Value
	lines []string
	n     int
	start int // index of the key line in the side's lines
	// text is the whole chunk, value the lines of its value, trailer the
	// rest.
	text, value, trailer string
}

// mapping is a block mapping cut into its fields: head is what comes
// before the first field (the key line of a nested mapping, comments).
type mapping struct {
	head   string
	fields []chunk
	index  map[string]int
}

func (mp *mapping) get(key string) *chunk {
	if i, ok := mp.index[key]; ok {
		return &mp.fields[i]
	}
	return nil
}

func (mp *mapping) has(key string) bool {
	_, ok := mp.index[key]
	return ok
}

// cut splits lines[from:to] into the fields of v, each starting on its own
// line. lines[0] is the file line offset+1; a nested mapping's lines start
// with its key line, which goes to its head. ok is false when the fields
// do not sit one per line in order (a flow mapping, two keys on a line).
func cut(lines []string, v *markdown.Value, from, to, offset int, nested bool) (mapping, bool) {
	if v == nil || v.Kind != markdown.Map {
		return mapping{}, false
	}
	mp := mapping{index: make(map[string]int, len(v.Fields))}
	prev := from - 1
	if nested {
		prev = from
	}
	for i, f := range v.Fields {
		at := f.Line - 1 - offset
		if at <= prev || at >= to {
			return mp, false
		}
		if _, dup := mp.index[f.Key]; dup {
			return mp, false
		}
		mp.index[f.Key] = i
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
		c := chunk{key: f.Key, val: f.Value, lines: lines[at:end], start: at + offset}
		c.n = valueLines(c.lines)
		c.text = strings.Join(c.lines, "")
		c.value = strings.Join(c.lines[:c.n], "")
		c.trailer = c.text[len(c.value):]
		mp.fields = append(mp.fields, c)
	}
	if len(v.Fields) == 0 {
		mp.head = strings.Join(lines[from:to], "")
	}
	return mp, true
}

// valueLines is how many of a field's lines are its value: the comment
// lines at the key's indentation and the blank lines at its end are not
// (they sit between this field and the next); a comment indented under
// the key is the value's (between a list's items, or text of a block
// scalar).
func valueLines(lines []string) int {
	ind := indent(lines[0])
	n := len(lines)
	for n > 1 {
		l := lines[n-1]
		if blank(l) || isComment(l) && indent(l) <= ind {
			n--
			continue
		}
		break
	}
	return n
}

// isComment reports a line that is only a comment.
func isComment(l string) bool { return strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") }

// keyLine is what follows a key line's colon (the value, or a comment,
// or nothing, with the line end).
func keyLine(line string) (rest string, ok bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		end, closed := quotedEnd(line[i:])
		if !closed {
			return "", false
		}
		i += end
	}
	for ; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || strings.IndexByte(" \t\r\n", line[i+1]) >= 0) {
			return line[i+1:], true
		}
	}
	return "", false
}

// frontmatter merges the three frontmatters field by field into m.fm and
// m.alt, the lines between the delimiters.
func (m *merger) frontmatter(o, a, t *side) (string, error) {
	var maps [3]mapping
	for i, s := range []*side{o, a, t} {
		mp, ok := cut(s.lines, s.doc.Frontmatter, 1, s.fmEnd, 0, false)
		if !ok {
			return "a frontmatter's fields are not one per line (a flow mapping, or keys the driver cannot place)", nil
		}
		maps[i] = mp
	}
	date := edit.UpdatedField(a.doc.Frontmatter)
	if err := m.mapping(&maps[0], &maps[1], &maps[2], nil, date); err != nil {
		return "", err
	}
	return m.why, nil
}

// mapping merges one mapping's fields: ours' order, a field only theirs
// added after the field it follows in theirs. Each field is looked up by
// its key, so the merge is linear in the number of fields.
func (m *merger) mapping(o, a, t *mapping, path []string, date string) error {
	if err := m.piece(o.head, a.head, t.head); err != nil {
		return err
	}
	// Theirs' additions, keyed by the field of ours they follow in theirs.
	after := map[string][]*chunk{}
	prev := ""
	for i := range t.fields {
		f := &t.fields[i]
		switch {
		case a.has(f.key):
			prev = f.key
		case !o.has(f.key):
			after[prev] = append(after[prev], f)
		}
	}
	// Pending additions of theirs go in after the fields ours added at the
	// same place: ours first.
	pending := after[""]
	flush := func() {
		for _, g := range pending {
			m.write(g.text)
		}
		pending = nil
	}
	for i := range a.fields {
		if m.why != "" {
			return nil
		}
		f := &a.fields[i]
		of, tf := o.get(f.key), t.get(f.key)
		if of != nil || tf != nil {
			flush()
		}
		if err := m.field(of, f, tf, append(path[:len(path):len(path)], f.key), date); err != nil {
			return err
		}
		pending = append(pending, after[f.key]...)
	}
	flush()
	// Fields ours removed: gone unless theirs changed them (then git
	// decides, as for any removal against an edit).
	for i := range o.fields {
		f := &o.fields[i]
		if a.has(f.key) {
			continue
		}
		if tf := t.get(f.key); tf != nil && tf.text != f.text {
			if err := m.lineMerge(f.text, "", tf.text, fieldKey(append(path[:len(path):len(path)], f.key))); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldKey names a field's path for the proof (keys may hold dots).
func fieldKey(path []string) string { return strings.Join(path, "\x00") }

// piece merges text that has no rule of its own: taken when one side
// changed it, line merged when both did.
func (m *merger) piece(o, a, t string) error {
	switch {
	case a == t, o == t:
		m.write(a)
	case o == a:
		m.write(t)
	default:
		return m.lineMerge(o, a, t, "")
	}
	return nil
}

// field merges one field ours has; o or t is nil where that side has none.
// The value goes by the rules, the trailer after it as a piece.
func (m *merger) field(o, a, t *chunk, path []string, date string) error {
	var ot, ov, otr string
	if o != nil {
		ot, ov, otr = o.text, o.value, o.trailer
	}
	switch {
	case t == nil && o != nil && ot == a.text:
		return nil // theirs removed it, ours left it alone
	case t == nil && o == nil:
		m.write(a.text) // ours added it
		return nil
	case t == nil:
		return m.lineMerge(ot, a.text, "", fieldKey(path)) // ours changed what theirs removed: git decides
	}
	var value string
	switch {
	case a.value == t.value || o != nil && ov == t.value:
		value = a.value
	case o != nil && ov == a.value:
		value = t.value
	default: // both changed the value, differently
		show := strings.Join(path, ".")
		if len(path) == 1 && path[0] == date {
			if text, ok := later(a, t); ok {
				m.res.Fields = append(m.res.Fields, show)
				value = text
				break
			}
		}
		if text, ok := m.set(o, a, t); ok {
			m.res.Fields = append(m.res.Fields, show)
			value = text
			break
		}
		if o != nil && o.val.Kind == markdown.Map && a.val.Kind == markdown.Map && t.val.Kind == markdown.Map {
			mo, ok1 := cut(o.lines, o.val, 0, o.n, o.start, true)
			ma, ok2 := cut(a.lines, a.val, 0, a.n, a.start, true)
			mt, ok3 := cut(t.lines, t.val, 0, t.n, t.start, true)
			if ok1 && ok2 && ok3 {
				if err := m.mapping(&mo, &ma, &mt, path, date); err != nil {
					return err
				}
				return m.piece(otr, a.trailer, t.trailer)
			}
		}
		return m.lineMerge(ot, a.text, t.text, fieldKey(path))
	}
	m.write(value)
	return m.piece(otr, a.trailer, t.trailer)
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

// later takes the value with the later date; ours on a tie. The lines
// under the keys (a comment indented there) must be the same on both
// sides, so that nothing goes with the earlier date.
func later(a, t *chunk) (string, bool) {
	if strings.Join(a.lines[1:a.n], "") != strings.Join(t.lines[1:t.n], "") {
		return "", false
	}
	if _, ok := a.val.Scalar(); !ok {
		return "", false
	}
	if _, ok := t.val.Scalar(); !ok {
		return "", false
	}
	da, ok1 := parseDate(a.val.Text)
	dt, ok2 := parseDate(t.val.Text)
	if !ok1 || !ok2 {
		return "", false
	}
	if dt.After(da) {
		return t.value, true
	}
	return a.value, true
}

// list is a list field as written: each item's identity (its kind and
// decoded text) and the item as written.
type list struct {
	ids   []item
	index map[item]bool
	flow  bool
	// flow: the tokens inside [ ], the key line before and after them,
	// and how the tokens are separated.
	tokens         []string
	before, behind string
	sep            string
	// block: each item's line in the chunk, its token and the rest of the
	// line after the token (a comment and the line end); prefix is the
	// first item's "  - ".
	lineOf []int
	rest   []string
	prefix string
	// comment is the comment on the key line, trimmed ("" when none).
	comment string
}

// item is a list item's identity: its kind and decoded text ("1" and
// '1' are two items).
type item struct {
	kind markdown.ValueKind
	text string
}

func itemID(v *markdown.Value) item { return item{v.Kind, v.Text} }

// readList reads a field's list; an empty or null field is an empty
// list. ok is false for anything but a list of distinct one-line scalars
// written one item a line, or all on the key line.
func readList(c *chunk, ss sets) (*list, bool) {
	l := &list{}
	if c == nil {
		l.index, _ = ss.of(nil)
		return l, true
	}
	var ok bool
	if l.index, ok = ss.of(c.val); !ok {
		return nil, false
	}
	if c.val.Kind == markdown.Null {
		return l, true
	}
	l.ids = make([]item, 0, len(c.val.Items))
	for _, it := range c.val.Items {
		l.ids = append(l.ids, itemID(it))
	}
	if len(l.ids) == 0 {
		return l, true
	}
	if c.val.Items[0].Line-1 == c.start {
		// A flow list: all on the key line.
		if c.n != 1 {
			return nil, false
		}
		at := byteCol(c.lines[0], c.val.Col)
		if at < 0 || c.lines[0][at] != '[' {
			return nil, false
		}
		toks, end, ok := scanFlow(c.lines[0][at+1:])
		if !ok || len(toks) != len(l.ids) {
			return nil, false
		}
		behind := c.lines[0][at+1+end:]
		comment, ok := trailing(behind[1:])
		if !ok {
			return nil, false
		}
		l.flow, l.tokens, l.before, l.behind, l.comment = true, toks, c.lines[0][:at+1], behind, comment
		l.sep = ", "
		if len(toks) > 1 && !strings.Contains(c.lines[0][at+1:at+1+end], ", ") {
			l.sep = ","
		}
		return l, true
	}
	taken := make([]bool, c.n)
	l.tokens = make([]string, 0, len(c.val.Items))
	l.rest = make([]string, 0, len(c.val.Items))
	l.lineOf = make([]int, 0, len(c.val.Items))
	for _, it := range c.val.Items {
		i := it.Line - 1 - c.start
		if i <= 0 || i >= c.n || taken[i] {
			return nil, false
		}
		taken[i] = true
		prefix, tok, rest, ok := blockItem(c.lines[i])
		if !ok {
			return nil, false
		}
		if l.prefix == "" {
			l.prefix = prefix
		}
		l.tokens, l.rest, l.lineOf = append(l.tokens, tok), append(l.rest, rest), append(l.lineOf, i)
	}
	// Every other line of the value is blank or a comment: each item is
	// one line.
	for i := 1; i < c.n; i++ {
		if !taken[i] && !blank(c.lines[i]) && !isComment(c.lines[i]) {
			return nil, false
		}
	}
	rest, ok := keyLine(c.lines[0])
	if !ok {
		return nil, false
	}
	if l.comment, ok = trailing(rest); !ok {
		return nil, false
	}
	return l, true
}

// byteCol is the byte offset of a 1-based column in code points, or -1.
func byteCol(line string, col int) int {
	if col < 1 {
		return -1
	}
	i := 0
	for n := 1; n < col; n++ {
		if i >= len(line) {
			return -1
		}
		_, w := utf8.DecodeRuneInString(line[i:])
		i += w
	}
	if i >= len(line) {
		return -1
	}
	return i
}

// trailing reads what may follow a value on its line: blanks, then a
// comment or nothing, then the line end. It returns the comment.
func trailing(s string) (string, bool) {
	s = strings.TrimRight(s, "\r\n")
	t := strings.TrimLeft(s, " \t")
	switch {
	case t == "":
		return "", true
	case t[0] == '#' && len(t) < len(s):
		return strings.TrimSpace(t), true
	}
	return "", false
}

// blockItem cuts a block list's item line "  - token  # comment" into its
// prefix up to the token, the token and the rest after it.
func blockItem(line string) (prefix, tok, rest string, ok bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	if i >= len(line) || line[i] != '-' {
		return "", "", "", false
	}
	i++
	j := i
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if j == i || j >= len(line) {
		return "", "", "", false
	}
	end, ok := tokenEnd(line[j:], false)
	if !ok || end == 0 {
		return "", "", "", false
	}
	tok, rest = line[j:j+end], line[j+end:]
	if _, ok := trailing(rest); !ok {
		return "", "", "", false
	}
	return line[:j], tok, rest, true
}

// tokenEnd is the length of the scalar that starts s: a quoted one to its
// closing quote (ok is false when it does not close on the line), a plain
// one to a comment (" #"), the line end or, in a flow list, a comma or
// bracket, trailing blanks excluded.
func tokenEnd(s string, flow bool) (int, bool) {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		return quotedEnd(s)
	}
	end := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r' || c == '\n':
			return end, true
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return end, true
		case flow && (c == ',' || c == ']'):
			return end, true
		case flow && (c == '[' || c == '{' || c == '}'):
			return 0, false
		case c != ' ' && c != '\t':
			end = i + 1
		}
	}
	return end, true
}

// quotedEnd is the length of the quoted scalar s starts with, its quotes
// included: a quote written twice is one inside single quotes, and a
// backslash escapes inside double quotes.
func quotedEnd(s string) (int, bool) {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && q == '"':
			i++
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case c == q:
			return i + 1, true
		case c == '\n':
			return 0, false
		}
	}
	return 0, false
}

// scanFlow reads the tokens of a flow list after its "[" up to the "]"
// that closes it, whose offset it returns; ok is false for nested flow
// collections and for tokens it cannot place.
func scanFlow(s string) (toks []string, end int, ok bool) {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	for {
		skip()
		if i < len(s) && s[i] == ']' && len(toks) == 0 {
			return nil, i, true
		}
		n, ok := tokenEnd(s[i:], true)
		if !ok || n == 0 {
			return nil, 0, false
		}
		toks = append(toks, s[i:i+n])
		i += n
		skip()
		if i >= len(s) {
			return nil, 0, false
		}
		switch s[i] {
		case ']':
			return toks, i, true
		case ',':
			i++
		default:
			return nil, 0, false
		}
	}
}

// flowSafe reports a plain or quoted token written in a block list that
// reads the same inside [ ].
func flowSafe(tok string) bool {
	if tok[0] == '"' || tok[0] == '\'' {
		return true
	}
	return !strings.ContainsAny(tok, ",[]{}") && !strings.Contains(tok, ": ") && !strings.HasSuffix(tok, ":")
}

// set merges a list both sides changed as a set: ours' items less those
// theirs removed, then theirs' additions. It keeps ours' lines and style;
// an item theirs added comes with the comment lines theirs wrote above
// it. ok is false for a list that is not a set of one-line scalars, and
// when a comment theirs added would find no place.
func (m *merger) set(o, a, t *chunk) (string, bool) {
	lo, ok1 := readList(o, m.sets)
	la, ok2 := readList(a, m.sets)
	lt, ok3 := readList(t, m.sets)
	if !ok1 || !ok2 || !ok3 || a.val.Kind != markdown.List || len(la.ids) == 0 {
		return "", false
	}
	if lt.comment != lo.comment && lt.comment != la.comment {
		return "", false // theirs changed the key line's comment
	}
	keep := func(x item) bool { return !(lo.index[x] && !lt.index[x]) }
	var add, kept []int
	for i, x := range lt.ids {
		if !la.index[x] && !lo.index[x] {
			add = append(add, i)
		}
	}
	for i, x := range la.ids {
		if keep(x) {
			kept = append(kept, i)
		}
	}
	if len(kept) == 0 && len(add) == 0 {
		return "", false // nothing left: how to write an empty list is a guess
	}
	// The comment lines theirs wrote above each added item go with it;
	// every other comment line theirs added must be in ours already.
	carried := make([]string, len(add))
	if !lt.flow && len(lt.ids) > 0 {
		from := 1
		next := 0
		for k, i := range lt.lineOf {
			if next < len(add) && add[next] == k {
				carried[next] = strings.Join(t.lines[from:i], "")
				next++
			}
			from = i + 1
		}
	}
	if !commentsPlaced(o, a, t, carried) {
		return "", false
	}
	if la.flow {
		toks := make([]string, 0, len(kept)+len(add))
		for _, i := range kept {
			toks = append(toks, la.tokens[i])
		}
		for k, i := range add {
			tok := lt.tokens[i]
			if carried[k] != "" || !lt.flow && (!flowSafe(tok) || strings.TrimSpace(lt.rest[i]) != "") {
				return "", false // a comment, or a block scalar that is no flow scalar
			}
			toks = append(toks, tok)
		}
		return la.before + strings.Join(toks, la.sep) + la.behind, true
	}
	drop := make([]bool, a.n)
	for i := range la.ids {
		if !keep(la.ids[i]) {
			drop[la.lineOf[i]] = true
		}
	}
	lastItem := la.lineOf[len(la.lineOf)-1]
	eol := eolOf(a.lines)
	var b strings.Builder
	for i, ln := range a.lines[:a.n] {
		if !drop[i] {
			b.WriteString(ln)
		}
		if i == lastItem {
			if !strings.HasSuffix(ln, "\n") {
				b.WriteString(eol)
			}
			for k, j := range add {
				b.WriteString(carried[k])
				rest := ""
				if !lt.flow {
					rest = strings.TrimRight(lt.rest[j], "\r\n")
				}
				b.WriteString(la.prefix + lt.tokens[j] + rest + eol)
			}
		}
	}
	return b.String(), true
}

// commentsPlaced reports whether every comment line theirs added inside a
// list's value is in ours' value or among the lines carried with theirs'
// additions.
func commentsPlaced(o, a, t *chunk, carried []string) bool {
	comments := func(c *chunk) map[string]int {
		n := map[string]int{}
		if c == nil {
			return n
		}
		for _, l := range c.lines[1:c.n] {
			if isComment(l) {
				n[strings.TrimRight(l, "\r\n")]++
			}
		}
		return n
	}
	ct, co, ca := comments(t), comments(o), comments(a)
	if len(ct) == 0 {
		return true
	}
	for _, c := range carried {
		for _, l := range strings.SplitAfter(c, "\n") {
			if isComment(l) {
				ca[strings.TrimRight(l, "\r\n")]++
			}
		}
	}
	for l, n := range ct {
		if n-co[l] > ca[l] {
			return false
		}
	}
	return true
}
