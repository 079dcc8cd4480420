package merge

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/markdown"
)

// LineMerge is git's own three-way merge of three texts (git merge-file):
// the result, with conflict markers in the user's style where the sides
// disagree, and whether there were any.
type LineMerge func(base, ours, theirs []byte) (merged []byte, conflict bool, err error)

// Options shape Merge.
type Options struct {
	// AppendOnly are section headings, besides the note sections canon
	// log writes in (edit.NoteHeading), whose entries are only ever
	// appended (compared without case and a trailing colon).
	AppendOnly []string
	// Lines merges what is not frontmatter or an append-only section, and
	// everything when the document cannot be read.
	Lines LineMerge
	// limits replaces the bounds below (a benchmark measures past them).
	limits *limits
}

// limits are the bounds a merge keeps to.
type limits struct{ bytes, fmBytes, fields, items, lineMerges int }

var defaultLimits = limits{MaxBytes, MaxFrontmatterBytes, MaxFields, MaxItems, maxLineMerges}

// Result is one merged document.
type Result struct {
	Merged   []byte
	Conflict bool // markers are in Merged: a person must decide
	// Fallback says why the whole file went through the line merge ("" when
	// it did not).
	Fallback string
	// Fields are the frontmatter fields both sides changed and the driver
	// merged (a set, the later date); Sections the append-only sections
	// whose entries it joined.
	Fields, Sections []string
}

// Bounds past which the driver merges a file line by line with git
// merge-file, saying why. Every step is linear in the size of the file;
// the frontmatter, parsed as YAML four times (three sides and the
// result), is what costs, so its bound is checked before any parse.
// Each is far above what a person writes in a canonical document.
const (
	// MaxBytes is the largest side the driver merges.
	MaxBytes = 1 << 20
	// MaxFrontmatterBytes is the largest frontmatter of a side.
	MaxFrontmatterBytes = 128 << 10
	// MaxFields is how many keys, all mappings together, one side's
	// frontmatter may have.
	MaxFields = 10_000
	// MaxItems is how many list items, all lists together, one side's
	// frontmatter may have.
	MaxItems = 20_000
	// maxLineMerges is how many pieces of a frontmatter both sides changed
	// may go through git merge-file one by one (a process each).
	maxLineMerges = 16
)

// Merge merges ours and theirs against base.
func Merge(base, ours, theirs []byte, opt Options) (*Result, error) {
	m := newMerger(opt)
	res, why, err := m.merge(base, ours, theirs)
	if err != nil {
		return nil, err
	}
	if why == "" {
		why = m.prove(res.Merged)
	}
	if why != "" {
		out, conflict, err := opt.Lines(base, ours, theirs)
		if err != nil {
			return nil, err
		}
		return &Result{Merged: out, Conflict: conflict, Fallback: why}, nil
	}
	return res, nil
}

type merger struct {
	opt      Options
	res      Result
	conflict bool
	sides    [3]*side // base, ours, theirs as read
	// why is set when a step gives up on the whole file (a bound).
	why string
	// head is the merged frontmatter with its delimiters, as it goes
	// into the line merge ("" without a frontmatter); fm its lines
	// between the delimiters and alt the same with every conflict
	// resolved as ours, which is what the proof parses.
	head    string
	fm, alt strings.Builder
	// conflicts are the pieces of the frontmatter git merge-file left
	// markers in; conflicted the fields among them (paths joined by NUL),
	// which a person decides.
	conflicts  []string
	conflicted map[string]bool
	lineMerges int
	sets       sets
	lim        limits
}

func newMerger(opt Options) *merger {
	m := &merger{opt: opt, sets: sets{}, lim: defaultLimits}
	if opt.limits != nil {
		m.lim = *opt.limits
	}
	return m
}

// side is one version: the BOM apart, lines with their own endings.
type side struct {
	bom   bool
	lines []string
	doc   *markdown.Document
	fmEnd int // index of the closing --- line; -1 when there is no frontmatter
}

var bomBytes = []byte{0xEF, 0xBB, 0xBF}

func (m *merger) read(src []byte) (*side, string) {
	s := &side{fmEnd: -1}
	if bytes.HasPrefix(src, bomBytes) {
		s.bom = true
	}
	s.doc = markdown.Parse("", src, &markdown.Options{})
	text := string(bytes.TrimPrefix(src, bomBytes))
	s.lines = strings.SplitAfter(text, "\n")
	if s.lines[len(s.lines)-1] == "" {
		s.lines = s.lines[:len(s.lines)-1]
	}
	switch s.doc.Format {
	case "":
		if len(s.lines) > 0 && strings.TrimRight(s.lines[0], " \t\r\n") == "---" {
			for _, p := range s.doc.Problems {
				if p.Rule == markdown.RuleFrontmatter {
					return nil, "its frontmatter is not key: value fields, or never closed"
				}
			}
		}
		return s, ""
	case "toml":
		return nil, "the driver merges YAML frontmatter, not TOML"
	}
	if why := unreadable(s.doc); why != "" {
		return nil, why
	}
	s.fmEnd = s.doc.BodyLine - 2
	if s.fmEnd < 1 || s.fmEnd >= len(s.lines) || strings.TrimRight(s.lines[s.fmEnd], " \t\r\n") != "---" {
		return nil, "the end of a frontmatter could not be located"
	}
	var fields, items int
	countValues(s.doc.Frontmatter, &fields, &items)
	switch {
	case fields > m.lim.fields:
		return nil, fmt.Sprintf("a frontmatter has %s keys, more than the %s the driver merges field by field", human.Thousands(fields), human.Thousands(m.lim.fields))
	case items > m.lim.items:
		return nil, fmt.Sprintf("a frontmatter has %s list items, more than the %s the driver merges field by field", human.Thousands(items), human.Thousands(m.lim.items))
	}
	return s, ""
}

// unreadable says why a parsed YAML frontmatter cannot be merged field by
// field ("" when it can).
func unreadable(doc *markdown.Document) string {
	for _, p := range doc.Problems {
		if p.Rule == markdown.RuleYAMLSyntax || p.Severity == markdown.Error && p.Line < doc.BodyLine {
			return "a frontmatter does not parse (" + p.Message + ")"
		}
		if strings.Contains(p.Message, "appears twice") {
			return "a frontmatter has a key twice"
		}
	}
	return ""
}

// countValues adds up the keys and list items of a value.
func countValues(v *markdown.Value, fields, items *int) {
	if v == nil {
		return
	}
	*fields += len(v.Fields)
	*items += len(v.Items)
	for _, f := range v.Fields {
		countValues(f.Value, fields, items)
	}
	for _, it := range v.Items {
		countValues(it, fields, items)
	}
}

func (m *merger) merge(base, ours, theirs []byte) (*Result, string, error) {
	for _, src := range [][]byte{base, ours, theirs} {
		if len(src) > m.lim.bytes {
			return nil, fmt.Sprintf("a side is %s, more than the %s the driver merges field by field", human.Bytes(int64(len(src))), human.Bytes(int64(m.lim.bytes))), nil
		}
		if n := markdown.FrontmatterSize(src); n > m.lim.fmBytes {
			return nil, fmt.Sprintf("a side's frontmatter is %s, more than the %s the driver merges field by field", human.Bytes(int64(n)), human.Bytes(int64(m.lim.fmBytes))), nil
		}
	}
	var sides [3]*side
	for i, src := range [][]byte{base, ours, theirs} {
		s, why := m.read(src)
		if why != "" {
			return nil, why, nil
		}
		sides[i] = s
	}
	m.sides = sides
	o, a, t := sides[0], sides[1], sides[2]
	if o.bom != a.bom || o.bom != t.bom {
		return nil, "one side added or removed the byte order mark", nil
	}
	if (o.fmEnd < 0) != (a.fmEnd < 0) || (o.fmEnd < 0) != (t.fmEnd < 0) {
		return nil, "one side added or removed the frontmatter", nil
	}
	if a.fmEnd >= 0 {
		why, err := m.frontmatter(o, a, t)
		if err != nil || why != "" {
			return nil, why, err
		}
		m.head = a.lines[0] + m.fm.String() + a.lines[a.fmEnd]
	}
	bodies := [3]string{}
	for i, s := range sides {
		bodies[i] = m.head + strings.Join(s.lines[s.fmEnd+1:], "")
	}
	m.sections(o, a, t, &bodies, m.head)
	var bom string
	if a.bom {
		bom = string(bomBytes)
	}
	out, conflict, err := m.opt.Lines([]byte(bom+bodies[0]), []byte(bom+bodies[1]), []byte(bom+bodies[2]))
	if err != nil {
		return nil, "", err
	}
	m.res.Merged, m.res.Conflict = out, conflict || m.conflict
	return &m.res, "", nil
}

// lineMerge merges three pieces of the frontmatter line by line into the
// output (a field both sides changed in ways no rule joins, comments both
// changed). field is the field's path joined by NUL, "" for what is no
// field's value.
func (m *merger) lineMerge(base, ours, theirs, field string) error {
	if m.lineMerges++; m.lineMerges > m.lim.lineMerges {
		m.why = fmt.Sprintf("both sides changed more than %d pieces of the frontmatter that only a line merge joins", m.lim.lineMerges)
		return nil
	}
	out, conflict, err := m.opt.Lines([]byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		return err
	}
	m.fm.Write(out)
	if !conflict {
		m.alt.Write(out)
		return nil
	}
	m.conflict = true
	m.alt.WriteString(ours)
	m.conflicts = append(m.conflicts, string(out))
	if field != "" {
		if m.conflicted == nil {
			m.conflicted = map[string]bool{}
		}
		m.conflicted[field] = true
	}
	return nil
}

// write puts merged text into the frontmatter.
func (m *merger) write(s string) {
	m.fm.WriteString(s)
	m.alt.WriteString(s)
}

// lostLine is a safety net under every rule of the driver: a non-blank
// line either side added to the body (as many times as it added it) must
// be in the merged body. It returns the first one that is not, or "".
func lostLine(sides [3]*side, body string) string {
	count := func(ls []string) map[string]int {
		n := map[string]int{}
		for _, l := range ls {
			if l = strings.TrimRight(l, "\r\n"); strings.TrimSpace(l) != "" {
				n[l]++
			}
		}
		return n
	}
	bodyOf := func(s *side) []string { return s.lines[s.fmEnd+1:] }
	return lost(count(bodyOf(sides[0])), count(bodyOf(sides[1])), count(bodyOf(sides[2])), count(strings.SplitAfter(body, "\n")))
}

// lost returns the first (in sort order) of the things ours or theirs
// added, counted against the base, that the result holds fewer times
// than that side added it; "" when there is none.
func lost(o, a, t, r map[string]int) string {
	var out []string
	for _, s := range []map[string]int{a, t} {
		for l, n := range s {
			if n-o[l] > r[l] {
				out = append(out, l)
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	sort.Strings(out)
	return out[0]
}

// appendOnly reports a heading whose section only ever grows at its end,
// lines its text: the sections canon log may write in (edit.NoteHeading;
// a loose one, "Notes", while its entries are dated lines) and those the
// configuration names.
func (m *merger) appendOnly(heading string, lines []string) bool {
	if ok, datedOnly := edit.NoteHeading(heading); ok {
		return !datedOnly || datedLines(lines)
	}
	n := edit.HeadingKey(heading)
	for _, name := range m.opt.AppendOnly {
		if edit.HeadingKey(name) == n {
			return true
		}
	}
	return false
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func eolOf(lines []string) string {
	for _, l := range lines {
		if strings.HasSuffix(l, "\r\n") {
			return "\r\n"
		}
		if strings.HasSuffix(l, "\n") {
			return "\n"
		}
	}
	return "\n"
}
