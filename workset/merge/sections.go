package merge

import (
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/lazyre"
)

// section is an append-only section of one side: the lines under its
// heading, [start, end).
type section struct{ start, end int }

// findSections lists the append-only sections of s by normalised heading,
// those named once only (two Worklogs: which one grew is a guess).
func (m *merger) findSections(s *side) map[string]section {
	hs := s.doc.Body.Headings
	out := map[string]section{}
	twice := map[string]bool{}
	for i, h := range hs {
		at := h.Line - 1
		if at <= s.fmEnd || at >= len(s.lines) || !strings.HasPrefix(strings.TrimLeft(s.lines[at], " "), "#") {
			continue
		}
		end := len(s.lines)
		for _, n := range hs[i+1:] {
			if n.Level <= h.Level {
				end = n.Line - 1
				break
			}
		}
		if end <= at || !m.appendOnly(h.Text, s.lines[at+1:end]) {
			continue
		}
		name := edit.HeadingKey(h.Text)
		if _, ok := out[name]; ok {
			twice[name] = true
		}
		out[name] = section{start: at + 1, end: end}
	}
	for name := range twice {
		delete(out, name)
	}
	return out
}

// entry is one entry of an append-only section: a list item or a
// paragraph with its continuation lines and fenced blocks, and the blank
// lines after it.
type entry struct {
	body []string
	gap  []string
	// tight: a list item, or a line that starts with a date (Kano's
	// "2026-01-02 10:00 [agent=x] text" lines): such entries follow each
	// other without a blank line.
	tight bool
	text  string // body joined, the entry's identity
	// last: the side's last entry, whose gap (none) says nothing of the
	// separator the section uses.
	last bool
}

var (
	itemStartRE = lazyre.MustCompile(`^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|\r?\n$)`)
	fenceRE     = lazyre.MustCompile("^ {0,3}(`{3,}|~{3,})")
	headingRE   = lazyre.MustCompile(`^ {0,3}#{1,6}([ \t]|\r?\n|$)`)
	stampLineRE = lazyre.MustCompile(`^\d{4}-\d{2}-\d{2}\b`)
	stampRE     = lazyre.MustCompile("^\\s{0,3}(?:[-*+]|\\d{1,9}[.)])?\\s*(?:\\*\\*|__|`|\\[)?(\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?)")
)

func indent(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// entries cuts a section's lines: blank lines before the first entry,
// the entries, blank lines after the last.
func entries(lines []string) (lead []string, es []entry, tail []string) {
	i, end := 0, len(lines)
	for i < end && blank(lines[i]) {
		i++
	}
	for end > i && blank(lines[end-1]) {
		end--
	}
	lead, tail = lines[:i], lines[end:]
	for i < end {
		start := i
		i = entryEnd(lines, i, end)
		e := entry{body: lines[start:i], tight: itemStartRE.MatchString(lines[start]) || stampLineRE.MatchString(lines[start])}
		e.text = strings.Join(e.body, "")
		g := i
		for i < end && blank(lines[i]) {
			i++
		}
		e.gap = lines[g:i]
		es = append(es, e)
	}
	if len(es) > 0 {
		es[len(es)-1].last = true
	}
	return lead, es, tail
}

// entryEnd is the index after the entry that starts at lines[i].
func entryEnd(lines []string, i, end int) int {
	if headingRE.MatchString(lines[i]) {
		return i + 1
	}
	list := false
	content := 0
	if mt := itemStartRE.FindStringSubmatch(lines[i]); mt != nil {
		list, content = true, len(mt[1])+len(mt[2])+1
	}
	fence := ""
	for j := i; j < end; j++ {
		line := lines[j]
		if fence != "" {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), fence[:1])) == "" {
				fence = ""
			}
			continue
		}
		if j > i {
			if blank(line) {
				k := j
				for k < end && blank(lines[k]) {
					k++
				}
				if k < end && list && indent(lines[k]) >= content {
					j = k - 1
					continue
				}
				return j
			}
			if headingRE.MatchString(line) || itemStartRE.MatchString(line) && (!list || indent(line) < content) || stampLineRE.MatchString(line) {
				return j
			}
		}
		t := strings.TrimLeft(line, " \t")
		if list && j == i {
			t = strings.TrimLeft(line[min(content, len(line)):], " \t") // "- ```" opens a fence in the item
		}
		if mt := fenceRE.FindStringSubmatch(t); mt != nil {
			fence = mt[1]
		}
	}
	return end
}

// datedLines reports a section's text whose entries (between markers,
// when a tool holds it so) each start with a date: a log, however it is
// titled. An empty one is a log yet to be written.
func datedLines(lines []string) bool {
	if _, inner, _, ok := peelMarkers(lines); ok {
		lines = inner
	}
	_, es, _ := entries(lines)
	for _, e := range es {
		if _, ok := stampOf(e); !ok {
			return false
		}
	}
	return true
}

// stampOf is an entry's timestamp, when its first line starts with one.
func stampOf(e entry) (time.Time, bool) {
	mt := stampRE.FindStringSubmatch(e.body[0])
	if mt == nil {
		return time.Time{}, false
	}
	return parseDate(strings.Replace(mt[1], " ", "T", 1))
}

// sections merges each append-only section the three sides have once:
// ours' entries, then those theirs added, or both sides' additions in
// time order when every one carries a timestamp. The merged section
// replaces the section in all three texts, so the line merge that follows
// sees it unchanged.
func (m *merger) sections(o, a, t *side, bodies *[3]string, head string) {
	so, sa, st := m.findSections(o), m.findSections(a), m.findSections(t)
	names := make([]string, 0, len(sa))
	for n := range sa {
		names = append(names, n)
	}
	sort.Strings(names)
	type repl struct {
		sec  section
		text string
	}
	var edits [3][]repl
	for _, n := range names {
		xo, ok1 := so[n]
		xt, ok2 := st[n]
		if !ok1 || !ok2 {
			continue
		}
		xa := sa[n]
		text, ok := m.section(o.lines[xo.start:xo.end], a.lines[xa.start:xa.end], t.lines[xt.start:xt.end], eolOf(a.lines))
		if !ok {
			continue
		}
		m.res.Sections = append(m.res.Sections, n)
		edits[0] = append(edits[0], repl{xo, text})
		edits[1] = append(edits[1], repl{xa, text})
		edits[2] = append(edits[2], repl{xt, text})
	}
	for i := range edits {
		sort.Slice(edits[i], func(x, y int) bool { return edits[i][x].sec.start < edits[i][y].sec.start })
		for k := 1; k < len(edits[i]); k++ {
			if edits[i][k].sec.start < edits[i][k-1].sec.end {
				m.res.Sections = nil
				return // one section inside another: leave both to the line merge
			}
		}
	}
	for i, s := range []*side{o, a, t} {
		if len(edits[i]) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteString(head)
		at := s.fmEnd + 1
		for _, e := range edits[i] {
			b.WriteString(strings.Join(s.lines[at:e.sec.start], ""))
			b.WriteString(e.text)
			at = e.sec.end
		}
		b.WriteString(strings.Join(s.lines[at:], ""))
		bodies[i] = b.String()
	}
}

// section merges one append-only section; ok is false when a side did
// more than append (then it is ordinary text for the line merge). A
// section whose text a tool holds between marker comments on all three
// sides (Backlog.md's <!-- SECTION:NOTES:BEGIN --> ... END -->) is merged
// between them: the entries grow before the end marker.
func (m *merger) section(o, a, t []string, eol string) (string, bool) {
	if ho, io, to, ok := peelMarkers(o); ok {
		ha, ia, ta, okA := peelMarkers(a)
		ht, it, tt, okT := peelMarkers(t)
		if !okA || !okT || !sameMarker(ho, ha, ht) || !sameMarker(to[:1], ta[:1], tt[:1]) {
			return "", false
		}
		text, ok := m.entriesMerge(io, ia, it, eol, true)
		if !ok {
			return "", false
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += eol
		}
		return strings.Join(ha, "") + text + strings.Join(ta, ""), true
	}
	return m.entriesMerge(o, a, t, eol, false)
}

// peelMarkers cuts a section's lines around the marker comments its text
// is held between: the lines up to the opening one, those between, and
// the closing one with what follows; ok is false when the text is not so
// held.
func peelMarkers(ls []string) (head, inner, tail []string, ok bool) {
	i, j := 0, len(ls)
	for i < j && blank(ls[i]) {
		i++
	}
	for j > i && blank(ls[j-1]) {
		j--
	}
	if j-i < 2 || !edit.MarkerLine(ls[i]) || !edit.MarkerLine(ls[j-1]) {
		return nil, nil, nil, false
	}
	return ls[:i+1], ls[i+1 : j-1], ls[j-1:], true
}

// sameMarker reports that the three sides' last lines of head are one
// marker.
func sameMarker(o, a, t []string) bool {
	last := func(ls []string) string { return strings.TrimSpace(ls[len(ls)-1]) }
	return last(o) == last(a) && last(a) == last(t)
}

// entriesMerge merges the entries of one append-only section's text.
// An entry that ended its side and is now followed by the other side's
// is parted from it as the section parts its entries (Backlog.md's notes
// by a blank line, a Worklog's dated lines by none); where no side shows
// two entries, text held between markers (para) takes a paragraph each,
// as Backlog.md and canon log write there.
func (m *merger) entriesMerge(o, a, t []string, eol string, para bool) (string, bool) {
	_, eo, _ := entries(o)
	leadA, ea, tailA := entries(a)
	_, et, _ := entries(t)
	prefix := func(es []entry) bool {
		if len(es) < len(eo) {
			return false
		}
		for i := range eo {
			if strings.TrimRight(eo[i].text, "\r\n") != strings.TrimRight(es[i].text, "\r\n") {
				return false
			}
		}
		return true
	}
	if !prefix(ea) || !prefix(et) {
		return "", false
	}
	addA, addT := ea[len(eo):], et[len(eo):]
	if len(addT) == 0 {
		return strings.Join(a, ""), true
	}
	added := append(append([]entry{}, addA...), addT...)
	if timed(addA) && timed(addT) {
		added = byTime(addA, addT)
	}
	all := append(append([]entry{}, ea[:len(eo)]...), added...)
	sep, seen := separator(eo, ea, et)
	if !seen && para {
		sep, seen = []string{eol}, true
	}
	endsNL := len(a) == 0 || strings.HasSuffix(a[len(a)-1], "\n")
	var b strings.Builder
	b.WriteString(strings.Join(leadA, ""))
	for i, e := range all {
		body := strings.Join(e.body, "")
		last := i == len(all)-1
		if !strings.HasSuffix(body, "\n") && (!last || endsNL || len(tailA) > 0) {
			body += eol
		}
		b.WriteString(body)
		if last {
			break
		}
		switch next := all[i+1]; {
		case len(e.gap) > 0:
			b.WriteString(strings.Join(e.gap, ""))
		case e.last && seen:
			b.WriteString(strings.Join(sep, ""))
		case !(e.tight && next.tight):
			b.WriteString(eol) // two paragraphs stay two
		}
	}
	b.WriteString(strings.Join(tailA, ""))
	return b.String(), true
}

// separator is what parts two entries of the section where a side has
// two: the blank lines after the first that is not its side's last; seen
// is false when no side has two.
func separator(sides ...[]entry) (gap []string, seen bool) {
	for _, es := range sides {
		for _, e := range es {
			if !e.last {
				return e.gap, true
			}
		}
	}
	return nil, false
}

func timed(es []entry) bool {
	for _, e := range es {
		if _, ok := stampOf(e); !ok {
			return false
		}
	}
	return true
}

// byTime interleaves two sides' additions by timestamp, each side's own
// order kept, ours first on a tie.
func byTime(a, t []entry) []entry {
	out := make([]entry, 0, len(a)+len(t))
	i, j := 0, 0
	for i < len(a) && j < len(t) {
		ta, _ := stampOf(a[i])
		tt, _ := stampOf(t[j])
		if tt.Before(ta) {
			out = append(out, t[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	return append(append(out, a[i:]...), t[j:]...)
}
