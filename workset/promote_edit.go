package workset

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// The line edits promote makes to a canonical document. Each one re-parses
// the content, changes or inserts whole lines, and leaves every other byte
// as it was: the BOM, each line's own ending (CRLF or LF), the YAML of
// every other field, flow or block. Nothing is ever re-serialised.

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// lines is a file cut into lines for editing.
type lines struct {
	bom  bool
	text []string // without line endings
	eol  []string // each line's ending: "\n", "\r\n", or "" for a last line without one
	nl   string   // the ending inserted lines get: the file's first one, else "\n"
}

func splitLines(content []byte) *lines {
	l := &lines{nl: "\n"}
	if bytes.HasPrefix(content, utf8BOM) {
		l.bom, content = true, content[len(utf8BOM):]
	}
	s := string(content)
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		l.nl = "\r\n"
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			l.text, l.eol = append(l.text, s), append(l.eol, "")
			break
		}
		line, end := s[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, end = line[:len(line)-1], "\r\n"
		}
		l.text, l.eol = append(l.text, line), append(l.eol, end)
		s = s[i+1:]
	}
	return l
}

func (l *lines) bytes() []byte {
	var b bytes.Buffer
	if l.bom {
		b.Write(utf8BOM)
	}
	for i, t := range l.text {
		b.WriteString(t)
		b.WriteString(l.eol[i])
	}
	return b.Bytes()
}

// insert puts new lines before index at (len(text) appends). A last line
// without an ending gets one first.
func (l *lines) insert(at int, add ...string) {
	if at == len(l.text) && at > 0 && l.eol[at-1] == "" {
		l.eol[at-1] = l.nl
	}
	eols := make([]string, len(add))
	for i := range eols {
		eols[i] = l.nl
	}
	l.text = append(l.text[:at], append(add, l.text[at:]...)...)
	l.eol = append(l.eol[:at], append(eols, l.eol[at:]...)...)
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func parse(content []byte) *markdown.Document {
	return markdown.Parse("", content, &markdown.Options{})
}

// errNoFrontmatter and errBrokenFrontmatter say why a frontmatter edit
// cannot be made.
var (
	errNoFrontmatter     = errors.New("it has no frontmatter")
	errBrokenFrontmatter = errors.New("its frontmatter does not parse")
	errFlowFrontmatter   = errors.New("its frontmatter is one flow mapping ({...}), which promote does not edit")
)

// frontmatter locates the frontmatter of a parsed document in its lines:
// the index of the closing delimiter. It refuses what promote must not
// touch.
func frontmatter(d *markdown.Document, l *lines) (closing int, err error) {
	if d.Format == "" {
		return 0, errNoFrontmatter
	}
	for _, p := range d.Problems {
		if p.Rule == markdown.RuleYAMLSyntax && p.Severity == markdown.Error {
			return 0, errBrokenFrontmatter
		}
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
		return 0, errNoFrontmatter
	}
	if d.Format == "yaml" {
		for i := 1; i < closing; i++ {
			t := strings.TrimSpace(l.text[i])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if strings.HasPrefix(t, "{") {
				return 0, errFlowFrontmatter
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
			return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
		}
	}
	return ""
}

// keyLineRE splits a top-level `key: value` (YAML) or `key = value` (TOML)
// line: indent, key (quoted or not), separator, the rest.
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
		end := strings.IndexByte(rest[1:], q)
		if end < 0 {
			return "", "", false
		}
		return rest[:end+2], rest[end+2:], true
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

var (
	dateTimeRE  = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$`)
	dateMinRE   = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$`)
	tomlDateRE  = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2}`)
	bulletRE    = lazyre.MustCompile(`^( {0,3})([-*+])[ \t]+\S`)
	orderedRE   = lazyre.MustCompile(`^( {0,3})(\d{1,9})([.)])[ \t]+\S`)
	listIndexRE = lazyre.MustCompile(`^[ \t]*-[ \t]+`)
)

// stamp writes now in the layout of old: a date stays a date, a date-time
// stays a date-time of the same shape. Anything else becomes a date.
func stamp(old string, now time.Time) string {
	switch {
	case dateTimeRE.MatchString(old):
		m := dateTimeRE.FindStringSubmatch(old)
		s := now.Format("2006-01-02" + m[1] + "15:04:05Z07:00")
		if m[3] != "Z" && !strings.Contains(m[3], ":") {
			s = now.Format("2006-01-02" + m[1] + "15:04:05Z0700")
		}
		return s
	case dateMinRE.MatchString(old):
		return now.Format("2006-01-02 15:04")
	}
	return now.Format("2006-01-02")
}

// updatedFields are the names a repository may give the date of a
// document's last change; SetUpdated sets the first one the document has
// with a date in it.
var datedRE = lazyre.MustCompile(`^\s*['"]?[0-9]{4}-[0-9]{2}-[0-9]{2}`)

var updatedFields = []string{"updated", "updated_date", "updated_at", "last_updated", "lastmod", "last_modified_at", "modified", "date_modified"}

// UpdatedField is the name of the frontmatter field that holds the date of
// a document's last change: the first of updatedFields the frontmatter has
// with a date in it (the repository's own: Backlog.md's updated_date,
// Hugo's lastmod; "modified: false" is no date), else "updated". The merge
// driver takes the later date of this field.
func UpdatedField(fm *markdown.Value) string {
	for _, n := range updatedFields {
		if f := fm.Field(n); f != nil && (n == "updated" || f.Value != nil && datedRE.MatchString(f.Value.Text)) {
			return n
		}
	}
	return "updated"
}

// createdUpdated pairs the field of a document's creation date with the
// one its tool writes for the last change: a Backlog.md task has
// created_date: '2025-07-23 10:05' and gets updated_date at its first
// edit, in the same layout.
var createdUpdated = [][2]string{{"created_date", "updated_date"}, {"created_at", "updated_at"}}

// absentUpdated is the field and value SetUpdated adds where the document
// has none: the partner of its creation date's field, written as that
// date is (its quotes, its date-time layout), else updated and the day.
func absentUpdated(d *markdown.Document, l *lines, now time.Time) (name, value string) {
	for _, p := range createdUpdated {
		f := d.Frontmatter.Field(p[0])
		if f == nil || f.Value == nil || !datedRE.MatchString(f.Value.Text) || f.Line < 2 || f.Line > len(l.text) {
			continue
		}
		m := keyLineRE(d.Format, p[0]).FindStringSubmatch(l.text[f.Line-1])
		if m == nil {
			continue
		}
		token, _, ok := scalarToken(m[3])
		if !ok {
			continue
		}
		inner, quote := token, ""
		if token != "" && (token[0] == '"' || token[0] == '\'') && len(token) > 1 {
			inner, quote = token[1:len(token)-1], token[:1]
		}
		return p[1], quote + stamp(inner, now) + quote
	}
	return "updated", now.Format("2006-01-02")
}

// SetUpdated sets the frontmatter field `updated` (or the first of
// updatedFields the document has) to now's date by editing its one line, keeping quotes, a trailing comment and the layout
// of a date-time; it adds the line after the last field when there is
// none. A document without frontmatter, or whose frontmatter does not
// parse, is left alone (changed false, and the reason in err).
func SetUpdated(content []byte, now time.Time) (out []byte, changed bool, err error) {
	d := parse(content)
	l := splitLines(content)
	closing, err := frontmatter(d, l)
	if err != nil {
		return content, false, err
	}
	name := UpdatedField(d.Frontmatter)
	f := d.Frontmatter.Field(name)
	if f == nil {
		name, v := absentUpdated(d, l, now)
		line := fieldIndent(d, l) + name + ": " + v
		if d.Format == "toml" {
			line = fieldIndent(d, l) + name + " = " + v
		}
		l.insert(newFieldAt(d, l, closing), line)
		return l.bytes(), true, nil
	}
	if f.Value != nil && (f.Value.Kind == markdown.List || f.Value.Kind == markdown.Map) {
		return content, false, fmt.Errorf("its %s field is not a date", name)
	}
	i := f.Line - 1
	if i < 1 || i >= closing {
		return content, false, fmt.Errorf("its %s field could not be located", name)
	}
	m := keyLineRE(d.Format, name).FindStringSubmatch(l.text[i])
	if m == nil {
		return content, false, fmt.Errorf("its %s field is not on a line of its own", name)
	}
	token, after, ok := scalarToken(m[3])
	if !ok {
		return content, false, fmt.Errorf("its %s field is not a plain date", name)
	}
	inner, quote := token, ""
	if token != "" && (token[0] == '"' || token[0] == '\'') {
		inner, quote = token[1:len(token)-1], token[:1]
	}
	v := quote + stamp(inner, now) + quote
	if d.Format == "toml" && quote == "" && inner != "" && !tomlDateRE.MatchString(inner) {
		v = `"` + stamp(inner, now) + `"`
	}
	sep := m[2]
	if token == "" && !strings.HasSuffix(sep, " ") && !strings.HasSuffix(sep, "\t") {
		sep += " " // `updated:` with nothing after it
	}
	if after != "" && token == "" {
		after = " " + strings.TrimLeft(after, " \t")
	}
	line := m[1] + sep + v + after
	if line == l.text[i] {
		return content, false, nil
	}
	l.text[i] = line
	return l.bytes(), true, nil
}

// AppendToList adds item to the list in the frontmatter field
// (decisions:, related_items:, or a nested one such as links.blocked_by)
// with a one-line edit: inside the brackets of a flow list (`[a, b]` →
// `[a, b, item]`), as one more `- item` line of a block list, `field:
// [item]` for an empty or null field, `[old, item]` for a single scalar; a
// new top-level `field: [item]` line after the last field when there is
// none (a nested field must exist: where a new one goes would be a guess).
// An item already listed (without case) changes nothing. The item is
// written as markdown.Scalar writes it (plain, or quoted as the list's
// items are, or as YAML needs), and the result is read again: the list
// must hold what it held and the item, nothing else, or nothing is
// changed.
func AppendToList(content []byte, field, item string) (out []byte, changed bool, err error) {
	if err := plainError("the item "+strconv.Quote(item), item, 1024); err != nil {
		return content, false, err
	}
	out, changed, err = appendToList(content, field, item)
	if err != nil || !changed {
		return content, false, err
	}
	if err := listGrew(content, out, field, item); err != nil {
		return content, false, fmt.Errorf("the item %s cannot be added to its %s field with a one-line edit (%w); add it by hand", strconv.Quote(item), field, err)
	}
	return out, true, nil
}

// listField is the field AppendToList edits: top-level, or nested as
// links.blocked_by (the key on its line is then the leaf).
func listField(d *markdown.Document, field string) (f *markdown.Field, key string, nested bool) {
	parent, leaf, nested := strings.Cut(field, ".")
	if nested {
		return d.Frontmatter.Get(parent).Field(leaf), leaf, true
	}
	return d.Frontmatter.Field(field), field, false
}

// listGrew checks an edit of AppendToList by reading both versions: the
// field of after lists the items of before's (a scalar counts as one
// item, null as none), then item, and the rest of the frontmatter reads
// as it did.
func listGrew(before, after []byte, field, item string) error {
	db, da := parse(before), parse(after)
	for _, p := range da.Problems {
		if p.Rule == markdown.RuleYAMLSyntax && p.Severity == markdown.Error {
			return fmt.Errorf("the frontmatter would not parse: %s", p.Message)
		}
	}
	fb, _, _ := listField(db, field)
	fa, _, _ := listField(da, field)
	if fa == nil || fa.Value == nil || fa.Value.Kind != markdown.List {
		return errors.New("the field would not be a list")
	}
	var want []string
	if fb != nil && fb.Value != nil {
		switch v := fb.Value; v.Kind {
		case markdown.List:
			for _, it := range v.Items {
				want = append(want, scalarOf(it))
			}
		case markdown.Null:
		default:
			want = append(want, scalarOf(v))
		}
	}
	want = append(want, item)
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

// scalarOf is a list item's text as canon reads it; a list or a mapping
// is its JSON, so that it compares as itself.
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

// appendToList is AppendToList's edit, before the check.
func appendToList(content []byte, field, item string) (out []byte, changed bool, err error) {
	d := parse(content)
	l := splitLines(content)
	closing, err := frontmatter(d, l)
	if err != nil {
		return content, false, err
	}
	toml := d.Format == "toml"
	f, key, nested := listField(d, field)
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
		line := fieldIndent(d, l) + field + ": [" + w + "]"
		if toml {
			line = fieldIndent(d, l) + field + " = [" + w + "]"
		}
		l.insert(newFieldAt(d, l, closing), line)
		return l.bytes(), true, nil
	}
	v := f.Value
	if v != nil && v.Kind == markdown.List {
		for _, it := range v.Items {
			if s, ok := it.Scalar(); ok && strings.EqualFold(strings.TrimSpace(s), item) {
				return content, false, nil
			}
		}
	}
	if s, ok := v.Scalar(); ok && strings.EqualFold(strings.TrimSpace(s), item) {
		return content, false, nil
	}
	i := f.Line - 1
	if i < 1 || i >= closing {
		return content, false, fmt.Errorf("its %s field could not be located", field)
	}
	m := keyLineRE(d.Format, key).FindStringSubmatch(l.text[i])
	if m == nil {
		return content, false, fmt.Errorf("its %s field is not on a line of its own", field)
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

// plainKeyRE is a field name written as it is as a key, in YAML and TOML.
var plainKeyRE = lazyre.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

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
		return "", fmt.Errorf("the item %s: %w", strconv.Quote(item), err)
	}
	return w, nil
}

// appendFlow inserts item before the closing bracket of the flow list that
// opens at byte start of line i (it may close on a later line): after the
// last item, or between the brackets of an empty list. Only the line
// holding the last item (or the brackets) changes.
func appendFlow(l *lines, i, start int, item string, format string) error {
	depth, quote := 0, byte(0)
	lastLine, lastAt := -1, -1 // the last non-space character inside the brackets
	first := ""                // the first item as written, for its quotes
	for li := i; li < len(l.text); li++ {
		s := l.text[li]
		from := 0
		if li == i {
			from = start
		}
		for j := from; j < len(s); j++ {
			c := s[j]
			inside := depth >= 1
			switch {
			case quote == '"' && c == '\\':
				j++ // an escape: the next character is not the closing quote
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '#' && (j == 0 || s[j-1] == ' ' || s[j-1] == '\t'):
				j = len(s) // a comment runs to the end of the line
				continue
			case c == '[' || c == '{':
				depth++
				inside = depth > 1
			case c == ']' || c == '}':
				depth--
				if depth > 0 {
					break
				}
				if lastLine < 0 {
					w, err := quoteItem(item, "", format)
					if err != nil {
						return err
					}
					l.text[li] = s[:j] + w + s[j:]
					if li == i { // [ ] on one line: [item]
						l.text[li] = s[:start+1] + w + s[j:]
					}
					return nil
				}
				w, err := quoteItem(item, first, format)
				if err != nil {
					return err
				}
				ls := l.text[lastLine]
				add := ", " + w
				if ls[lastAt] == ',' {
					add = " " + w + ","
				}
				l.text[lastLine] = ls[:lastAt+1] + add + ls[lastAt+1:]
				return nil
			}
			if inside && c != ' ' && c != '\t' {
				if lastLine < 0 {
					first = s[j:]
				}
				lastLine, lastAt = li, j
			}
		}
		if depth == 0 {
			break
		}
	}
	return errors.New("its list is not closed")
}

// appendBlock adds a `- item` line after the last item of a block list,
// written with the same indentation and marker.
func appendBlock(l *lines, v *markdown.Value, closing int, item string) error {
	last := v.Items[len(v.Items)-1]
	li := last.Line - 1
	if li < 1 || li >= closing {
		return errors.New("its last item could not be located")
	}
	s := l.text[li]
	m := listIndexRE.FindString(s)
	if m == "" {
		return errors.New("its last item is not a `- item` line")
	}
	dash := len(m) - len(strings.TrimLeft(m, " \t"))
	rest := s[len(m):]
	at := li + 1
	// Lines indented deeper than the dash continue the last item.
	for at < closing && !blank(l.text[at]) {
		t := l.text[at]
		if ind := len(t) - len(strings.TrimLeft(t, " \t")); ind <= dash {
			break
		}
		at++
	}
	w, err := quoteItem(item, rest, "yaml")
	if err != nil {
		return err
	}
	l.insert(at, m+w)
	return nil
}

// SectionEdit says where AppendToSection put an entry.
type SectionEdit struct {
	Heading string // the heading's text, as the document has it
	Line    int    // the file line (from 1) of the new entry
	Created bool   // the section was added at the end of the file
	Present bool   // an entry ending with the same text was already there: nothing written
}

// sectionMatcher says whether a heading names the section of a kind.
type sectionMatcher func(text string) bool

// kindSection is the heading a finding of each kind goes under, and how an
// existing heading is recognised: "Worklog" (or "Work log"); the others by
// their first word, so that "## Risks / Dependencies" takes risks.
func kindSection(kind string) (title string, match sectionMatcher) {
	norm := func(s string) string {
		return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ":"))
	}
	firstWord := func(s string) string {
		s = norm(s)
		if i := strings.IndexFunc(s, func(r rune) bool { return !('a' <= r && r <= 'z') }); i >= 0 {
			return s[:i]
		}
		return s
	}
	switch kind {
	case KindDecision:
		return "Decisions", func(s string) bool { return firstWord(s) == "decisions" }
	case KindRisk:
		return "Risks", func(s string) bool { return firstWord(s) == "risks" }
	case KindFinding:
		return "Findings", func(s string) bool { return firstWord(s) == "findings" }
	}
	return "Worklog", func(s string) bool { n := norm(s); return n == "worklog" || n == "work log" }
}

// sectionLevel is the level a new section gets: the level of the
// document's top sections. A single level-1 heading that comes first is
// the title (sections go one below it), unless it is itself one of the
// sections promote writes ("# Worklog") or the frontmatter has a title
// that is not it ("# Context" in an item titled otherwise). Level-1
// headings are the sections when there are several (Kano-style items) or
// when there are no headings at all.
func sectionLevel(hs []markdown.Heading, title string) int {
	if len(hs) == 0 {
		return 1
	}
	ones, lowest := 0, 6
	for _, h := range hs {
		if h.Level == 1 {
			ones++
		}
		if h.Level < lowest {
			lowest = h.Level
		}
	}
	switch {
	case ones >= 2:
		return 1
	case ones == 1:
		h := hs[0]
		if h.Level == 1 && !promoteSection(h.Text) && (title == "" || strings.EqualFold(strings.TrimSpace(title), strings.TrimSpace(h.Text))) {
			return 2
		}
		return 1
	}
	return lowest
}

// promoteSection reports a heading promote writes under.
func promoteSection(text string) bool {
	for _, k := range []string{KindWorklog, KindDecision, KindRisk, KindFinding} {
		if _, match := kindSection(k); match(text) {
			return true
		}
	}
	return false
}

// findSection returns the index of the last heading matching, or -1.
func findSection(hs []markdown.Heading, match sectionMatcher) int {
	at := -1
	for i, h := range hs {
		if match(h.Text) {
			at = i
		}
	}
	return at
}

// HasSection reports whether a document has the section a finding of this
// kind goes under.
func HasSection(content []byte, kind string) bool {
	_, match := kindSection(kind)
	return findSection(parse(content).Body.Headings, match) >= 0
}

// AppendToSection appends one entry at the end of the section a finding
// of this kind goes under (the last heading that names it, with its
// subsections), after the section's last non-blank line; the section is
// created at the end of the file when there is none. entry is the line
// without a list marker; it gets one when the section's last block is a
// list, and always for kinds other than worklog. text is the finding's
// own text: a section already holding a line that ends with it is left
// alone (Present).
func AppendToSection(content []byte, kind, entry, text string) ([]byte, SectionEdit, error) {
	d := parse(content)
	l := splitLines(content)
	title, match := kindSection(kind)
	hs := d.Body.Headings
	hi := findSection(hs, match)
	if hi < 0 {
		at := len(l.text)
		add := []string{}
		if at > 0 && !blank(l.text[at-1]) {
			add = append(add, "")
		}
		add = append(add, strings.Repeat("#", sectionLevel(hs, d.Title))+" "+title, "", listEntry(kind, entry, ""))
		l.insert(at, add...)
		return l.bytes(), SectionEdit{Heading: title, Line: at + len(add), Created: true}, nil
	}
	h := hs[hi]
	head := h.Line - 1 // the heading's last line
	if t := strings.TrimLeft(l.text[head], " "); !strings.HasPrefix(t, "#") {
		// A setext heading: its text lines, then the underline.
		head += strings.Count(h.Raw, "\n") + 1
	}
	end := len(l.text)
	for _, n := range hs[hi+1:] {
		if n.Level <= h.Level {
			end = n.Line - 1
			break
		}
	}
	want := collapse(text)
	last := -1
	for i := head + 1; i < end && i < len(l.text); i++ {
		if blank(l.text[i]) {
			continue
		}
		last = i
		if want != "" && strings.HasSuffix(collapse(l.text[i]), want) {
			return content, SectionEdit{Heading: h.Text, Line: i + 1, Present: true}, nil
		}
	}
	if last < 0 {
		add := []string{"", listEntry(kind, entry, "")}
		if head+1 < len(l.text) && head+1 == end {
			add = append(add, "") // the next heading follows at once
		}
		l.insert(head+1, add...)
		return l.bytes(), SectionEdit{Heading: h.Text, Line: head + 3}, nil
	}
	prefix, gap := blockStyle(l, head, last)
	if prefix == "" && kind != KindWorklog {
		gap = true // a new list after a paragraph: a blank line between, as people write it
	}
	add := []string{}
	if gap {
		add = append(add, "")
	}
	add = append(add, listEntry(kind, entry, prefix))
	l.insert(last+1, add...)
	return l.bytes(), SectionEdit{Heading: h.Text, Line: last + 1 + len(add)}, nil
}

// blockStyle looks at the block that ends a section at line last: the list
// marker a new entry continues it with (a bullet's marker and indentation,
// the next number of an ordered list), and whether a blank line must come
// first (after a table or an HTML block, a plain line would join it).
func blockStyle(l *lines, head, last int) (prefix string, gap bool) {
	start := last
	for start-1 > head && !blank(l.text[start-1]) && !bulletRE.MatchString(l.text[start]) && !orderedRE.MatchString(l.text[start]) {
		start--
	}
	// The block's first line if the last lines continue an item.
	for i := last; i >= start; i-- {
		s := l.text[i]
		if m := bulletRE.FindStringSubmatch(s); m != nil {
			return m[1] + m[2] + " ", false
		}
		if m := orderedRE.FindStringSubmatch(s); m != nil {
			n := 0
			_, _ = fmt.Sscan(m[2], &n) // digits, by the pattern
			return fmt.Sprintf("%s%d%s ", m[1], n+1, m[3]), false
		}
		if !strings.HasPrefix(s, " ") && !strings.HasPrefix(s, "\t") {
			break // a paragraph line, not an item's continuation
		}
	}
	t := strings.TrimSpace(l.text[last])
	return "", strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<")
}

// listEntry writes an entry: worklog lines as they are (or in the list the
// section holds), other kinds as list items.
func listEntry(kind, entry, prefix string) string {
	if prefix == "" && kind != KindWorklog {
		prefix = "- "
	}
	return prefix + entry
}

// IsWorklog reports a heading that names the Worklog section promote
// appends to ("Worklog", "Work log"): the merge driver merges it as
// append-only.
func IsWorklog(heading string) bool {
	_, match := kindSection(KindWorklog)
	return match(heading)
}
