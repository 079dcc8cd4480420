package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// Section names a section of a document by its heading, as canon finds
// one to append to and writes one that is missing.
type Section struct {
	// Title is the heading a new section gets. A heading names the
	// section when its text (trimmed, without a trailing colon, in any
	// case) is Title or one of Also or, with FirstWord, when its first
	// word is Title ("Risks / Dependencies" names Risks).
	Title     string
	Also      []string
	FirstWord bool
	// Items says its entries are list items ("- entry"); a worklog's are
	// lines of their own, unless the section already holds a list.
	Items bool
	// Begin and End are the comment lines a tool marks the section's
	// text with (Backlog.md's <!-- SECTION:NOTES:BEGIN -->): a new
	// section is written with them. An entry goes before the end marker
	// of a section whose text is marked so (these or any others), after
	// a blank line when text is there already, as Backlog.md appends its
	// notes.
	Begin, End string
	// Level is the heading level a new section gets; 0 is the level of
	// the document's top sections.
	Level int
	// After and Before place a new section: after the section (with its
	// subsections) of the first heading of After the document has, else
	// before the first of Before; failing both, at the end, but before a
	// worklog that ends the document: an append-only section stays last,
	// so that a line appended to the file by hand lands in it.
	After, Before []string
}

// The sections canon writes entries under (promote's findings, id fix's
// worklog line).
var (
	Worklog   = Section{Title: "Worklog", Also: []string{"Work log"}}
	Decisions = Section{Title: "Decisions", FirstWord: true, Items: true}
	Risks     = Section{Title: "Risks", FirstWord: true, Items: true}
	Findings  = Section{Title: "Findings", FirstWord: true, Items: true}
)

// canonSections are the sections canon writes under: a lone level-1
// heading that is one of them is a section, not the document's title.
var canonSections = []Section{Worklog, Decisions, Risks, Findings}

// Names reports whether a heading names the section.
func (s Section) Names(heading string) bool {
	n := strings.ToLower(strings.TrimRight(strings.TrimSpace(heading), ":"))
	if s.FirstWord {
		if i := strings.IndexFunc(n, func(r rune) bool { return !('a' <= r && r <= 'z') }); i >= 0 {
			n = n[:i]
		}
		return n == strings.ToLower(s.Title)
	}
	return n == strings.ToLower(s.Title) || slices.ContainsFunc(s.Also, func(a string) bool { return n == strings.ToLower(a) })
}

// MaxEntry is the longest entry AppendToSection writes, in bytes.
const MaxEntry = 64 << 10

// SectionEdit says where AppendToSection put an entry.
type SectionEdit struct {
	Heading string // the heading's text, as the document has it
	Line    int    // the file line (from 1) of the new entry
	Created bool   // the section was added at the end of the file
	Present bool   // an entry ending with the same text was already there: nothing written
}

var (
	bulletRE  = lazyre.MustCompile(`^( {0,3})([-*+])[ \t]+\S`)
	orderedRE = lazyre.MustCompile(`^( {0,3})(\d{1,9})([.)])[ \t]+\S`)
)

// sectionLevel is the level a new section gets: the level of the
// document's top sections. A single level-1 heading that comes first is
// the title (sections go one below it), unless it is itself one of the
// sections canon writes under ("# Worklog") or the frontmatter has a
// title that is not it ("# Context" in an item titled otherwise). Level-1
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
		known := slices.ContainsFunc(canonSections, func(s Section) bool { return s.Names(h.Text) })
		if h.Level == 1 && !known && (title == "" || strings.EqualFold(strings.TrimSpace(title), strings.TrimSpace(h.Text))) {
			return 2
		}
		return 1
	}
	return lowest
}

// findSection returns the index of the last heading that names s, or -1.
func findSection(hs []markdown.Heading, s Section) int {
	at := -1
	for i, h := range hs {
		if s.Names(h.Text) {
			at = i
		}
	}
	return at
}

// HasSection reports whether a document has the section.
func HasSection(content []byte, s Section) bool {
	return findSection(parse(content).Body.Headings, s) >= 0
}

// AppendToSection appends one entry at the end of the section (the last
// heading that names it, with its subsections), after the section's last
// non-blank line; the section is created at the end of the file when
// there is none. entry is the line without a list marker; it gets one
// when the section's last block is a list, and always for a section of
// Items. present is the text the entry carries: a section already holding
// a line that ends with it is left alone (Present). The entry must be
// one line of plain text, and the result is read again: the frontmatter
// and every heading as they were (and the one created), the entry on its
// line, or nothing is changed.
func AppendToSection(content []byte, s Section, entry, present string) ([]byte, SectionEdit, error) {
	if err := Plain("the entry", entry, MaxEntry); err != nil {
		return content, SectionEdit{}, err
	}
	out, edit, written := appendToSection(content, s, entry, present)
	if edit.Present {
		return content, edit, nil
	}
	if err := sectionReads(content, out, edit, written); err != nil {
		return content, SectionEdit{}, fmt.Errorf("the entry cannot be appended to its %s section with a line edit (%w); add it by hand", s.Title, err)
	}
	return out, edit, nil
}

// appendToSection is AppendToSection's edit, before the check: the
// content, where the entry went and its line as written.
func appendToSection(content []byte, s Section, entry, present string) ([]byte, SectionEdit, string) {
	d := parse(content)
	l := splitLines(content)
	hs := d.Body.Headings
	hi := findSection(hs, s)
	if hi < 0 {
		return createSection(l, hs, d.Title, s, entry)
	}
	h := hs[hi]
	head := h.Line - 1 // the heading's last line
	if t := strings.TrimLeft(l.text[head], " "); !strings.HasPrefix(t, "#") {
		// A setext heading: its text lines, then the underline.
		head += strings.Count(h.Raw, "\n") + 1
	}
	end := sectionEnd(l, hs, hi)
	want := collapse(present)
	last, first := -1, -1
	for i := head + 1; i < end && i < len(l.text); i++ {
		if blank(l.text[i]) {
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
		if want != "" && strings.HasSuffix(collapse(l.text[i]), want) {
			return content, SectionEdit{Heading: h.Text, Line: i + 1, Present: true}, ""
		}
	}
	if last > first && first >= 0 && comment(l.text[first]) && comment(l.text[last]) {
		// Text between a tool's markers: the entry before the end
		// marker, a blank line after the text there is.
		line := listEntry(s, entry, "")
		add := []string{line}
		at := last
		for at-1 > first && blank(l.text[at-1]) {
			at--
		}
		if at-1 > first {
			add = []string{"", line}
		}
		l.insert(at, add...)
		return l.bytes(), SectionEdit{Heading: h.Text, Line: at + len(add)}, line
	}
	if last < 0 {
		line := listEntry(s, entry, "")
		add := []string{"", line}
		if head+1 < len(l.text) && head+1 == end {
			add = append(add, "") // the next heading follows at once
		}
		l.insert(head+1, add...)
		return l.bytes(), SectionEdit{Heading: h.Text, Line: head + 3}, line
	}
	prefix, gap := blockStyle(l, head, last)
	if prefix == "" && s.Items {
		gap = true // a new list after a paragraph: a blank line between, as people write it
	}
	add := []string{}
	if gap {
		add = append(add, "")
	}
	line := listEntry(s, entry, prefix)
	add = append(add, line)
	l.insert(last+1, add...)
	return l.bytes(), SectionEdit{Heading: h.Text, Line: last + 1 + len(add)}, line
}

// sectionEnd is the index of the line that ends the section of heading
// hi, with its subsections: the next heading of its level or above, or
// the end of the file.
func sectionEnd(l *lines, hs []markdown.Heading, hi int) int {
	for _, n := range hs[hi+1:] {
		if n.Level <= hs[hi].Level {
			return n.Line - 1
		}
	}
	return len(l.text)
}

// createSection writes the section with its first entry where s places
// it (After, Before), else at the end, before a worklog that ends the
// document.
func createSection(l *lines, hs []markdown.Heading, title string, s Section, entry string) ([]byte, SectionEdit, string) {
	level := s.Level
	if level < 1 || level > 6 {
		level = sectionLevel(hs, title)
	}
	at := len(l.text)
	if i := firstNamed(hs, s.After); i >= 0 {
		at = sectionEnd(l, hs, i)
	} else if i := firstNamed(hs, s.Before); i >= 0 {
		at = hs[i].Line - 1
	} else if !Worklog.Names(s.Title) {
		for i := len(hs) - 1; i >= 0; i-- {
			if hs[i].Level <= level {
				if Worklog.Names(hs[i].Text) && hs[i].Level == level {
					at = hs[i].Line - 1
				}
				break
			}
		}
	}
	line := listEntry(s, entry, "")
	add := []string{}
	if at > 0 && !blank(l.text[at-1]) {
		add = append(add, "")
	}
	add = append(add, strings.Repeat("#", level)+" "+s.Title, "")
	if s.Begin != "" && s.End != "" {
		add = append(add, s.Begin, line, s.End)
	} else {
		add = append(add, line)
	}
	n := len(add) // the entry's line, counted from at, when unmarked
	if s.Begin != "" && s.End != "" {
		n--
	}
	if at < len(l.text) {
		add = append(add, "") // a heading follows
	}
	l.insert(at, add...)
	return l.bytes(), SectionEdit{Heading: s.Title, Line: at + n, Created: true}, line
}

// firstNamed is the index of the heading named by the first of names
// the document has (any case, a trailing colon aside), or -1.
func firstNamed(hs []markdown.Heading, names []string) int {
	for _, n := range names {
		for i, h := range hs {
			if normTitle(h.Text) == normTitle(n) {
				return i
			}
		}
	}
	return -1
}

// HeadingKey is a section heading as headings are compared: trimmed,
// without a trailing colon, lower case ("Worklog:" is "worklog").
func HeadingKey(s string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ":"))
}

func normTitle(s string) string { return HeadingKey(s) }

// MarkerLine reports a line that is one HTML comment, a tool's marker
// (<!-- SECTION:NOTES:BEGIN -->); "<!-->" and "<!--->" are none.
func MarkerLine(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 7 && strings.HasPrefix(s, "<!--") && strings.HasSuffix(s, "-->") && !strings.Contains(s[4:len(s)-3], "-->")
}

func comment(s string) bool { return MarkerLine(s) }

// sectionReads checks an append by reading the result: the frontmatter
// reads as it did, the headings are those there were (and the one the
// edit created, last), and the entry is on its line.
func sectionReads(before, after []byte, edit SectionEdit, written string) error {
	db, da := parse(before), parse(after)
	if broken(db) == nil {
		if err := broken(da); err != nil {
			return err
		}
	}
	if string(db.Frontmatter.AppendJSON(nil)) != string(da.Frontmatter.AppendJSON(nil)) {
		return errors.New("the frontmatter would change")
	}
	want, got := db.Body.Headings, da.Body.Headings
	if edit.Created {
		// The new heading, wherever it went, and the others as they were.
		at := slices.IndexFunc(got, func(h markdown.Heading) bool { return h.Line >= edit.Line-4 && h.Text == edit.Heading })
		if at < 0 {
			return errors.New("the new heading would not read as one")
		}
		got = slices.Delete(slices.Clone(got), at, at+1)
	}
	if len(got) != len(want) {
		return errors.New("the headings would change")
	}
	for i := range got {
		if got[i].Text != want[i].Text || got[i].Level != want[i].Level {
			return errors.New("the headings would change")
		}
	}
	al := splitLines(after)
	if edit.Line < 1 || edit.Line > len(al.text) || al.text[edit.Line-1] != written {
		return errors.New("the entry would not be a line of its own")
	}
	return nil
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

// listEntry writes an entry: a line as it is (or in the list the section
// holds), a list item in a section of Items.
func listEntry(s Section, entry, prefix string) string {
	if prefix == "" && s.Items {
		prefix = "- "
	}
	return prefix + entry
}
