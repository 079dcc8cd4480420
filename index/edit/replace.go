package edit

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/canon-md/canon/index/markdown"
)

// Replacement replaces Old with New at the first place on Line (from 1)
// at or after column Col (from 1, in code points): a link's target, a
// reference in a frontmatter value, an id.
type Replacement struct {
	Line, Col int
	Old, New  string
	// In, when set, makes it the replacement of a link's destination in
	// the document at the path In: Old is the destination, as written, of
	// the link that starts at Line:Col, and New the path (as git names the
	// file, from the document's folder) it is to name, which Replace
	// writes as the link's syntax needs it (LinkDest: Meeting%20notes.md)
	// and reads again: the same link naming that file, and nothing else of
	// the document changed, or the replacement is not made.
	In string
}

// Replace makes replacements on one document, each on its own line and
// nothing else on it, from the last place up so that earlier ones keep
// their columns. Where one lands on a bare TOML value of the frontmatter
// (id = 12: TOML has no bare strings), New is written as markdown.Scalar
// writes it: a decimal integer stays bare, anything else is quoted. errs
// holds, for each replacement, why it was not made (nil when it was):
// its line is gone, the line no longer holds Old, New is not one line of
// plain text, or the result would not read as it should. The result is
// read again: a frontmatter that parsed still parses, and no value of it
// changes but those the replacements land in; a replacement that breaks
// that is left out.
func Replace(content []byte, rs []Replacement) (out []byte, errs []error) {
	errs = make([]error, len(rs))
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := rs[order[a]], rs[order[b]]
		if x.Line != y.Line {
			return x.Line > y.Line
		}
		return x.Col > y.Col
	})
	before := parse(content)
	out, landed := replaceAll(content, before, rs, order, errs)
	if err := replaced(before, out, landed); err == nil {
		return out, errs
	}
	// One of them breaks the document: each is made and read on its
	// own, in the same order, and one that breaks it is left out with
	// the reason.
	clear(errs)
	out = content
	for _, i := range order {
		d := parse(out)
		next, at := replaceAll(out, d, rs, []int{i}, errs)
		if len(at) == 0 {
			continue
		}
		if err := replaced(d, next, at); err != nil {
			errs[i] = err
			continue
		}
		out = next
	}
	return out, errs
}

// at is where a replacement landed: its line and column (from 1).
type at struct{ line, col int }

// replaceAll makes the replacements rs[i] for i in order on content,
// recording in errs those that cannot be made; it returns the places
// the others landed.
func replaceAll(content []byte, d *markdown.Document, rs []Replacement, order []int, errs []error) ([]byte, []at) {
	l := splitLines(content)
	var landed []at
	for _, i := range order {
		r := rs[i]
		if errs[i] != nil {
			continue
		}
		col, err := replaceAt(l, d, r)
		if err != nil {
			errs[i] = err
			continue
		}
		landed = append(landed, at{r.Line, col})
	}
	return l.bytes(), landed
}

// replaceAt makes one replacement on l and returns the column it landed
// at.
func replaceAt(l *lines, d *markdown.Document, r Replacement) (int, error) {
	i := r.Line - 1
	if i < 0 || i >= len(l.text) || r.Old == "" {
		return 0, fmt.Errorf("line %d is not in the file any more", r.Line)
	}
	if r.In != "" {
		if r.Line < d.BodyLine {
			return 0, fmt.Errorf("line %d is in the frontmatter, where no link's destination is", r.Line)
		}
		return replaceDest(l, r)
	}
	text := l.text[i]
	pos := 0
	for col := 1; col < r.Col && pos < len(text); col++ {
		_, size := utf8.DecodeRuneInString(text[pos:])
		pos += size
	}
	if err := Plain("the replacement "+Shown(r.New), r.New, MaxValue); err != nil {
		return 0, err
	}
	k := strings.Index(text[pos:], r.Old)
	if k < 0 {
		return 0, fmt.Errorf("line %d no longer holds %s", r.Line, r.Old)
	}
	pos += k
	repl := r.New
	if d.Format == "toml" && r.Line < d.BodyLine && !inTOMLString(text, pos) {
		if w, err := markdown.Scalar(r.New, "toml", 0); err == nil {
			repl = w
		}
	}
	l.text[i] = text[:pos] + repl + text[pos+len(r.Old):]
	return utf8.RuneCountInString(text[:pos]) + 1, nil
}

// inTOMLString reports whether byte at of a line of TOML is inside a
// string: "basic" (with \ escapes) or 'literal'.
func inTOMLString(line string, at int) bool {
	var quote byte
	for i := 0; i < at && i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return true // a comment: not a value to rewrite as one
		}
	}
	return quote != 0
}

// replaced checks replacements by reading the result: a frontmatter that
// parsed still parses and holds the same keys and values, but for the
// values the replacements landed in (the one that starts last at or
// before the place on its line; in TOML, whose values are placed by
// their key's line, any value on that line).
func replaced(before *markdown.Document, after []byte, landed []at) error {
	da := parse(after)
	if broken(before) != nil {
		return nil // nothing to compare with; the body is edited line by line
	}
	if err := broken(da); err != nil {
		return err
	}
	toml := before.Format == "toml"
	open := map[*markdown.Value]bool{}
	for _, a := range landed {
		var best *markdown.Value
		eachValue(before.Frontmatter, func(v *markdown.Value) {
			if v.Line != a.line || v.Kind == markdown.List || v.Kind == markdown.Map {
				return
			}
			if toml {
				open[v] = true
			} else if v.Col <= a.col && (best == nil || v.Col > best.Col) {
				best = v
			}
		})
		if best != nil {
			open[best] = true
		}
	}
	if !sameExcept(before.Frontmatter, da.Frontmatter, open) {
		return errors.New("a value it does not replace would change")
	}
	return nil
}

// eachValue calls fn with v and every value inside it.
func eachValue(v *markdown.Value, fn func(*markdown.Value)) {
	if v == nil {
		return
	}
	fn(v)
	for _, it := range v.Items {
		eachValue(it, fn)
	}
	for _, f := range v.Fields {
		eachValue(f.Value, fn)
	}
}

// sameExcept reports whether a and b are the same value, keys, items and
// texts, but for the scalars of a in open, which may read otherwise
// (a scalar still).
func sameExcept(a, b *markdown.Value, open map[*markdown.Value]bool) bool {
	switch {
	case a == nil || b == nil:
		return a == b
	case open[a]:
		_, ok := b.Scalar()
		return ok || b.Kind == markdown.Null
	case a.Kind != b.Kind || a.Text != b.Text || len(a.Items) != len(b.Items) || len(a.Fields) != len(b.Fields):
		return false
	}
	for i := range a.Items {
		if !sameExcept(a.Items[i], b.Items[i], open) {
			return false
		}
	}
	for i := range a.Fields {
		if a.Fields[i].Key != b.Fields[i].Key || !sameExcept(a.Fields[i].Value, b.Fields[i].Value, open) {
			return false
		}
	}
	return true
}

// ReplaceID replaces id in s where it stands as a whole word (no letter
// or digit either side), ignoring case: the file name task-12 - Title.md
// carries task-12, task-120.md does not. The bytes of s outside the id
// are kept as they are, and the id is written in the case of s's when
// that is all lower case (back-535 - Title.md).
func ReplaceID(s, old, repl string) (string, bool) {
	i, end, ok := findID(s, old)
	if !ok {
		return s, false
	}
	return s[:i] + CaseLike(s[i:end], repl) + s[end:], true
}

// CaseLike writes id in the case of as when as is all lower case
// (back-535 - Title.md, a reference written task-7): the repository's own
// spelling is kept.
func CaseLike(as, id string) string {
	if as == strings.ToLower(as) && as != strings.ToUpper(as) {
		return strings.ToLower(id)
	}
	return id
}

// findID is the byte range of s of the first place where id stands as a
// whole word, ignoring case as strings.EqualFold does: character by
// character, each compared with Unicode's simple case folding, over the
// bytes of s itself (never over a lower-cased copy, whose lengths differ:
// "İ" is 2 bytes, lower-cased 3; the Kelvin sign "K" 3, lower-cased 1).
// A word's letters and digits are ASCII ones or a character that is one
// without case (the Kelvin sign is the letter K): ȺT-1 and İT-1 carry
// T-1, KT-1 does not, whichever K it is written with.
func findID(s, id string) (start, end int, ok bool) {
	if id == "" {
		return 0, 0, false
	}
	for i := 0; i < len(s); {
		if n, ok := FoldPrefix(s[i:], id); ok && !wordBefore(s[:i]) && !wordAfter(s[i+n:]) {
			return i, i + n, true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return 0, 0, false
}

// FoldPrefix reports whether s starts with prefix, ignoring case as
// strings.EqualFold does, and how many bytes of s that is. A byte that is
// not UTF-8 matches only the same byte.
func FoldPrefix(s, prefix string) (n int, ok bool) {
	for prefix != "" {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		p, psize := utf8.DecodeRuneInString(prefix)
		switch {
		case r == utf8.RuneError && size == 1 || p == utf8.RuneError && psize == 1:
			if size != psize || s[n] != prefix[0] {
				return 0, false
			}
		case !foldEqual(r, p):
			return 0, false
		}
		n += size
		prefix = prefix[psize:]
	}
	return n, true
}

// foldEqual reports r and p equal under simple case folding.
func foldEqual(r, p rune) bool {
	if r == p {
		return true
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == p {
			return true
		}
	}
	return false
}

// wordRune is a letter or digit of an id's word: an ASCII one, or a
// character that folds to one (the Kelvin sign K, the long s ſ).
func wordRune(r rune) bool {
	for f := r; ; {
		if f < utf8.RuneSelf && (f >= '0' && f <= '9' || f >= 'a' && f <= 'z' || f >= 'A' && f <= 'Z') {
			return true
		}
		if f = unicode.SimpleFold(f); f == r {
			return false
		}
	}
}

func wordBefore(s string) bool {
	r, size := utf8.DecodeLastRuneInString(s)
	return size > 0 && !(r == utf8.RuneError && size == 1) && wordRune(r)
}

func wordAfter(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	return size > 0 && !(r == utf8.RuneError && size == 1) && wordRune(r)
}
