package layout

import (
	"slices"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// descriptionWords are the headings of the section a new document's
// body goes in, by preference; failing them, its first section.
var descriptionWords = []string{"description", "summary", "context", "goal", "overview", "problem", "background", "motivation", "details"}

// titleHeading is the heading most samples write their title in ("#
// KB-TSK-9: Title"), and its level; nil when most write none.
func titleHeading(group []*sample) (pattern, int) {
	level := 0
	p := vote(group, func(s *sample) (pattern, bool) {
		h, ok := firstHeading(s)
		if !ok {
			return nil, false
		}
		p, ok := learnName(h.Raw, s.ID, strconv.Itoa(s.num), s.title, []titleForm{verbatim})
		if !ok || !p.has(partTitle) {
			return nil, false
		}
		level = h.Level
		return p, true
	})
	if p == nil {
		return nil, 0
	}
	n := 0
	for _, s := range group {
		if h, ok := firstHeading(s); ok {
			if q, ok := learnName(h.Raw, s.ID, strconv.Itoa(s.num), s.title, []titleForm{verbatim}); ok && q.key() == p.key() {
				n++
			}
		}
	}
	if 2*n <= len(group) {
		return nil, 0
	}
	return p, level
}

// firstHeading is a document's first heading when nothing but blank
// lines comes before it.
func firstHeading(s *sample) (markdown.Heading, bool) {
	b := s.doc.Body
	if len(b.Headings) == 0 || len(b.Sections) > 0 && b.Sections[0].Heading == -1 {
		return markdown.Heading{}, false
	}
	return b.Headings[0], true
}

// sectionKey names a section across documents: its level and heading.
func sectionKey(h markdown.Heading) string {
	return strconv.Itoa(h.Level) + " " + strings.ToLower(strings.TrimSpace(h.Text))
}

// placed is a section of a sample, as a new document writes it.
type placed struct {
	from *sample
	sec  markdown.Section
}

func (p placed) heading() markdown.Heading { return p.from.doc.Body.Headings[p.sec.Heading] }

// describes reports a section whose heading is a description's.
func (p placed) describes() bool {
	return slices.ContainsFunc(descriptionWords, func(w string) bool { return strings.EqualFold(strings.TrimSpace(p.heading().Text), w) })
}

// status reports a Status section (adr-tools' records keep their state
// in it).
func (p placed) status() bool {
	return strings.EqualFold(strings.TrimSpace(p.heading().Text), "status")
}

// body writes the new document's title heading and the sections most
// samples have, in the newest's order: each empty, or with what most
// samples hold in it (Backlog.md's Definition of Done), or with the
// comment lines its tool marks it with; the body goes in the
// description's section (one the samples have when few do: Backlog.md
// writes it only for a task with a description).
func (l *Layout) body(it Item) string {
	newest := l.group[0]
	var b strings.Builder
	if l.heading != nil {
		b.WriteString("\n" + strings.Repeat("#", l.level) + " " + l.heading.write(it.ID, strconv.Itoa(numberOf(it.ID)), it.Title) + "\n")
		if dates := l.datedLines(it); dates != "" {
			b.WriteString("\n" + dates + "\n")
		}
	}
	body := strings.TrimSpace(it.Body)
	secs := l.usual()
	target := slices.IndexFunc(secs, placed.describes)
	if target < 0 && body != "" {
		if d, ok := l.description(); ok {
			secs, target = append([]placed{d}, secs...), 0
		} else if len(secs) > 0 {
			target = 0
		}
	}
	if body != "" && target < 0 {
		b.WriteString("\n" + body + "\n")
	}
	for i, p := range secs {
		h := p.heading()
		b.WriteString("\n" + strings.Repeat("#", h.Level) + " " + strings.TrimSpace(h.Raw) + "\n")
		text := l.sectionText(p)
		if p.status() && it.State != "" && l.group[0].doc.Format == "" {
			text = it.State // a record's state is its Status section's text
		}
		if i == target && body != "" {
			text = within(text, body)
		}
		if text == "" {
			continue
		}
		if p.sec.Start < len(p.from.lines) && strings.TrimSpace(p.from.lines[p.sec.Start]) == "" {
			b.WriteString("\n") // the sample leaves a blank line under its headings
		}
		b.WriteString(text + "\n")
	}
	out := strings.TrimPrefix(b.String(), "\n")
	if out == "" {
		return "" // no body: no blank line after the frontmatter either
	}
	if newest.doc.Format != "" && newest.doc.BodyLine >= 1 && newest.doc.BodyLine <= len(newest.lines) && strings.TrimSpace(newest.lines[newest.doc.BodyLine-1]) == "" {
		out = "\n" + out // a blank line under the frontmatter, as the sample has
	}
	return out
}

// description is the description section of the newest sample that has
// one.
func (l *Layout) description() (placed, bool) {
	for _, s := range l.group {
		for _, sec := range s.doc.Body.Sections {
			if p := (placed{s, sec}); sec.Heading >= 0 && p.describes() {
				return p, true
			}
		}
	}
	return placed{}, false
}

// dateLineRE is a line that dates a document under its title: "Date:
// 2018-02-02" (adr-tools).
var dateLineRE = lazyre.MustCompile(`^([A-Za-z][A-Za-z ]{0,30}:\s*)[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$`)

// datedLines are the lines under the newest sample's title heading that
// date it, dated now.
func (l *Layout) datedLines(it Item) string {
	newest := l.group[0]
	var out []string
	for _, sec := range newest.doc.Body.Sections {
		if sec.Heading != 0 {
			continue
		}
		for _, line := range strings.Split(rawSection(newest, sec), "\n") {
			if m := dateLineRE.FindStringSubmatch(line); m != nil {
				out = append(out, m[1]+it.Now.Format("2006-01-02"))
			}
		}
	}
	return strings.Join(out, "\n")
}

// usual are the newest sample's sections that most samples have (every
// one, when it is the only sample), the title heading's aside.
func (l *Layout) usual() []placed {
	newest := l.group[0]
	count := map[string]int{}
	for _, s := range l.group {
		seen := map[string]bool{}
		for _, h := range s.doc.Body.Headings {
			k := sectionKey(h)
			if !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	var out []placed
	for _, s := range newest.doc.Body.Sections {
		if s.Heading < 0 || l.heading != nil && s.Heading == 0 {
			continue
		}
		if k := sectionKey(newest.doc.Body.Headings[s.Heading]); len(l.group) == 1 || 2*count[k] > len(l.group) {
			out = append(out, placed{newest, s})
		}
	}
	return out
}

// sectionText is what a new document's section holds: the checklist
// (or the state of a Status section) most samples hold in it, or the comment lines that open and close it
// in the newest.
func (l *Layout) sectionText(p placed) string {
	k := sectionKey(p.heading())
	count := map[string]int{}
	for _, o := range l.group {
		for _, os := range o.doc.Body.Sections {
			if os.Heading >= 0 && sectionKey(o.doc.Body.Headings[os.Heading]) == k {
				count[unchecked(rawSection(o, os))]++
				break
			}
		}
	}
	text := unchecked(rawSection(p.from, p.sec))
	if n := count[text]; text != "" && n >= 2 && 2*n > len(l.group) && (checklist(text) || p.status() && !strings.Contains(text, "\n")) && !p.describes() {
		return text
	}
	lines := strings.Split(text, "\n")
	if len(lines) >= 2 && comment(lines[0]) && comment(lines[len(lines)-1]) {
		return lines[0] + "\n" + lines[len(lines)-1]
	}
	return ""
}

// taskItemRE is an item of a task list: "- [ ] tests pass".
var taskItemRE = lazyre.MustCompile(`^\s*[-*+] \[[ xX]\] `)

// checklist reports text that is a task list (a definition of done),
// marker comments aside: the one kind of text a new item takes from the
// others (a worklog or a description is the item's own).
func checklist(text string) bool {
	items := 0
	for _, line := range strings.Split(text, "\n") {
		switch {
		case taskItemRE.MatchString(line):
			items++
		case comment(line), strings.TrimSpace(line) == "":
		default:
			return false
		}
	}
	return items > 0
}

// comment reports a line that is one HTML comment (a tool's marker).
func comment(s string) bool { return edit.MarkerLine(s) }

// within puts body inside a section's text: between its markers when it
// has them, else after what it holds.
func within(text, body string) string {
	if text == "" {
		return body
	}
	lines := strings.Split(text, "\n")
	if len(lines) == 2 && comment(lines[0]) && comment(lines[1]) {
		return lines[0] + "\n" + body + "\n" + lines[1]
	}
	return text + "\n\n" + body
}

// rawSection is a section's lines under its heading as written (HTML
// comments kept), without blank lines around them.
func rawSection(s *sample, sec markdown.Section) string {
	from, to := sec.Start, min(sec.End, len(s.lines))
	if from > to {
		return ""
	}
	return strings.Trim(strings.Join(s.lines[from:to], "\n"), "\n \t")
}

// checkedRE is a ticked task-list item.
var checkedRE = lazyre.MustCompile(`(?m)^(\s*[-*+] )\[[xX]\]`)

// unchecked is text with its task-list items unticked: a list every item
// of the kind starts with (a definition of done) is the same list ticked
// or not.
func unchecked(text string) string { return checkedRE.ReplaceAllString(text, "${1}[ ]") }
