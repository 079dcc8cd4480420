package merge

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/workset"
)

// LineMerge is git's own three-way merge of three texts (git merge-file):
// the result, with conflict markers in the user's style where the sides
// disagree, and whether there were any.
type LineMerge func(base, ours, theirs []byte) (merged []byte, conflict bool, err error)

// Options shape Merge.
type Options struct {
	// AppendOnly are section headings, besides the Worklog, whose entries
	// are only ever appended (compared without case and a trailing colon).
	AppendOnly []string
	// Lines merges what is not frontmatter or an append-only section, and
	// everything when the document cannot be read.
	Lines LineMerge
}

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

// Merge merges ours and theirs against base.
func Merge(base, ours, theirs []byte, opt Options) (*Result, error) {
	m := &merger{opt: opt}
	res, why, err := m.merge(base, ours, theirs)
	if err != nil {
		return nil, err
	}
	if why == "" {
		if l := lostLine(m.sides, res.Merged); l != "" {
			why = fmt.Sprintf("the merged text lacked the line %q one side added", l)
		}
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
}

// lines is one side: the BOM apart, lines with their own endings.
type side struct {
	bom   bool
	lines []string
	doc   *markdown.Document
	fmEnd int // index of the closing --- line; -1 when there is no frontmatter
}

var bomBytes = []byte{0xEF, 0xBB, 0xBF}

func read(src []byte) (*side, string) {
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
	for _, p := range s.doc.Problems {
		if p.Rule == markdown.RuleYAMLSyntax || p.Severity == markdown.Error && p.Line < s.doc.BodyLine {
			return nil, "a frontmatter does not parse (" + p.Message + ")"
		}
		if strings.Contains(p.Message, "appears twice") {
			return nil, "a frontmatter has a key twice"
		}
	}
	s.fmEnd = s.doc.BodyLine - 2
	if s.fmEnd < 1 || s.fmEnd >= len(s.lines) || strings.TrimRight(s.lines[s.fmEnd], " \t\r\n") != "---" {
		return nil, "the end of a frontmatter could not be located"
	}
	return s, ""
}

func (m *merger) merge(base, ours, theirs []byte) (*Result, string, error) {
	var sides [3]*side
	for i, src := range [][]byte{base, ours, theirs} {
		s, why := read(src)
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
	var head string
	if a.fmEnd >= 0 {
		fm, why, err := m.frontmatter(o, a, t)
		if err != nil || why != "" {
			return nil, why, err
		}
		head = a.lines[0] + fm + a.lines[a.fmEnd]
	}
	bodies := [3]string{}
	for i, s := range sides {
		bodies[i] = head + strings.Join(s.lines[s.fmEnd+1:], "")
	}
	m.sections(o, a, t, &bodies, head)
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

// lineMerge merges three pieces of text line by line (a frontmatter
// field both sides changed in ways the driver does not join).
func (m *merger) lineMerge(base, ours, theirs string) (string, error) {
	out, conflict, err := m.opt.Lines([]byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		return "", err
	}
	m.conflict = m.conflict || conflict
	return string(out), nil
}

// lostLine is a safety net under every rule of the driver: a non-blank
// line either side added to the body (as many times as it added it) must
// be in the result. It returns the first one that is not, or "".
func lostLine(sides [3]*side, merged []byte) string {
	count := func(ls []string) map[string]int {
		n := map[string]int{}
		for _, l := range ls {
			if l = strings.TrimRight(l, "\r\n"); strings.TrimSpace(l) != "" {
				n[l]++
			}
		}
		return n
	}
	body := func(s *side) []string { return s.lines[s.fmEnd+1:] }
	o := count(body(sides[0]))
	r := count(strings.SplitAfter(string(bytes.TrimPrefix(merged, bomBytes)), "\n"))
	var lost []string
	for _, s := range sides[1:] {
		for l, n := range count(body(s)) {
			if n-o[l] > r[l] {
				lost = append(lost, l)
			}
		}
	}
	if len(lost) == 0 {
		return ""
	}
	sort.Strings(lost)
	return lost[0]
}

// appendOnly reports a heading whose section only ever grows at its end.
func (m *merger) appendOnly(heading string) bool {
	if workset.IsWorklog(heading) {
		return true
	}
	n := normHeading(heading)
	for _, name := range m.opt.AppendOnly {
		if normHeading(name) == n {
			return true
		}
	}
	return false
}

func normHeading(s string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ":"))
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
