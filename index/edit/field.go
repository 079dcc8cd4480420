package edit

import (
	"fmt"
	"strings"
	"time"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// SetField sets a frontmatter field (top-level, or nested as links.owner
// when links exists) to value with a one-line edit: the value's token on
// its line is replaced, keeping the key as written, a trailing comment
// and the quote the old value had where that quote can hold the new one;
// an absent top-level field becomes a new `field: value` line after the
// last field (an absent nested one is refused: where it goes would be a
// guess). The value is written as markdown.Scalar writes it (plain, or
// quoted as YAML or TOML needs), and the result is read again: the field
// must read as value and every other field as it did, or nothing is
// changed. A field already holding value changes nothing. A list, a
// mapping or a block scalar (|, >) is refused: a list takes AddToList and
// RemoveFromList.
func SetField(content []byte, field, value string) (out []byte, changed bool, err error) {
	if err := Plain("the value "+Shown(value), value, MaxValue); err != nil {
		return content, false, err
	}
	d := parse(content)
	l := splitLines(content)
	closing, err := frontmatter(d, l)
	if err != nil {
		return content, false, err
	}
	f, key, nested := lookup(d, field)
	switch {
	case f == nil && (nested || d.Format == "toml" && strings.Contains(field, ".")):
		return content, false, fmt.Errorf("it has no %s field to set", field)
	case f == nil:
		if !plainKeyRE.MatchString(field) {
			return content, false, fmt.Errorf("it has no %s field, and a new one would need its name quoted; add the field by hand", field)
		}
		w, err := markdown.Scalar(value, d.Format, 0)
		if err != nil {
			return content, false, err
		}
		l.insert(newFieldAt(d, l, closing), newField(d, l, field, w))
	default:
		if s, ok := f.Value.Scalar(); ok && s == value {
			return content, false, nil
		}
		if f.Value != nil && (f.Value.Kind == markdown.List || f.Value.Kind == markdown.Map) {
			return content, false, fmt.Errorf("its %s field is not a single value", field)
		}
		i, m, err := keyLine(d, l, closing, f, key, field)
		if err != nil {
			return content, false, err
		}
		token, after, ok := scalarToken(m[3])
		if !ok {
			return content, false, fmt.Errorf("its %s field is not a value on one line", field)
		}
		_, quote := unquote(token)
		w, err := markdown.Scalar(value, d.Format, quote)
		if err != nil {
			return content, false, err
		}
		l.text[i] = m[1] + valueSep(m[2], token) + w + valueAfter(after, token)
	}
	out = l.bytes()
	if err := fieldReads(content, out, field, func(s string) bool { return s == value }); err != nil {
		return content, false, fmt.Errorf("its %s field cannot be set to %s with a one-line edit (%w); set it by hand", field, Shown(value), err)
	}
	return out, true, nil
}

// valueSep is the separator before a value written where token was: a
// space after `key:` when there was no value.
func valueSep(sep, token string) string {
	if token == "" && !strings.HasSuffix(sep, " ") && !strings.HasSuffix(sep, "\t") {
		return sep + " "
	}
	return sep
}

// valueAfter is what follows a value written where token was: a comment
// after an empty value gets a space before it.
func valueAfter(after, token string) string {
	if after != "" && token == "" {
		return " " + strings.TrimLeft(after, " \t")
	}
	return after
}

// fieldReads checks a field edit by reading both versions: after parses,
// its field is a single value that ok takes, and every other field reads
// as it did.
func fieldReads(before, after []byte, field string, ok func(string) bool) error {
	db, da := parse(before), parse(after)
	if err := broken(da); err != nil {
		return err
	}
	fa, _, _ := lookup(da, field)
	if fa == nil || fa.Value == nil {
		return fmt.Errorf("the field would not be there")
	}
	s, scalar := fa.Value.Scalar()
	if !scalar || !ok(s) {
		return fmt.Errorf("it would read %s", scalarOf(fa.Value))
	}
	if !sameFields(db.Frontmatter, da.Frontmatter, field) {
		return fmt.Errorf("its other fields would change")
	}
	return nil
}

var (
	dateTimeRE = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$`)
	dateMinRE  = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$`)
	tomlDateRE = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2}`)
	// datedRE is a value that starts with a date.
	datedRE = lazyre.MustCompile(`^\s*['"]?[0-9]{4}-[0-9]{2}-[0-9]{2}`)
)

// Stamp writes now in the layout of old: a date stays a date, a date-time
// stays a date-time of the same shape. Anything else becomes a date.
func Stamp(old string, now time.Time) string {
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
// document's last change (a KEP's kep.yaml: last-updated); SetUpdated sets the first one the document has
// with a date in it.
var updatedFields = []string{"updated", "updated_date", "updated_at", "last_updated", "last-updated", "lastmod", "last_modified_at", "modified", "date_modified"}

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
		inner, quote := unquote(token)
		q := ""
		if quote != 0 {
			q = string(quote)
		}
		return p[1], q + Stamp(inner, now) + q
	}
	return "updated", now.Format("2006-01-02")
}

// SetUpdated sets the frontmatter field `updated` (or the first of
// updatedFields the document has) to now's date by editing its one line,
// keeping quotes, a trailing comment and the layout of a date-time; it
// adds the line after the last field when there is none. A document
// without frontmatter (ErrNoFrontmatter), or whose frontmatter does not
// parse, is left alone (changed false, and the reason in err). The
// result is read again: the field must hold now's date and every other
// field read as it did.
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
		var v string
		name, v = absentUpdated(d, l, now)
		l.insert(newFieldAt(d, l, closing), newField(d, l, name, v))
	} else {
		if f.Value != nil && (f.Value.Kind == markdown.List || f.Value.Kind == markdown.Map) {
			return content, false, fmt.Errorf("its %s field is not a date", name)
		}
		i, m, err := keyLine(d, l, closing, f, name, name)
		if err != nil {
			return content, false, err
		}
		token, after, ok := scalarToken(m[3])
		if !ok {
			return content, false, fmt.Errorf("its %s field is not a plain date", name)
		}
		inner, quote := unquote(token)
		v := Stamp(inner, now)
		switch {
		case quote != 0:
			v = string(quote) + v + string(quote)
		case d.Format == "toml" && inner != "" && !tomlDateRE.MatchString(inner):
			v = `"` + v + `"`
		}
		line := m[1] + valueSep(m[2], token) + v + valueAfter(after, token)
		if line == l.text[i] {
			return content, false, nil
		}
		l.text[i] = line
	}
	out = l.bytes()
	day := now.Format("2006-01-02")
	if err := fieldReads(content, out, name, func(s string) bool { return strings.HasPrefix(s, day) }); err != nil {
		return content, false, fmt.Errorf("its %s field cannot be set with a one-line edit (%w)", name, err)
	}
	return out, true, nil
}
