package edit

import (
	"slices"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/markdown"
)

// ImplementationNotes is Backlog.md's notes section.
var ImplementationNotes = Section{Title: "Implementation Notes"}

// noteTitles are the headings of the section an item keeps its running
// notes in, one dated line appended after another, by preference: canon's
// and Kano's Worklog, Backlog.md's Implementation Notes, and the names
// people give a log.
var noteTitles = []Section{
	Worklog,
	ImplementationNotes,
	{Title: "Progress Log", Also: []string{"Progress"}},
	{Title: "Notes"},
	{Title: "Log", Also: []string{"Journal", "Activity"}},
}

// looseNotes are the note titles that head prose people rewrite as often
// as a log: such a section is append-only only while every entry of it is
// a dated line.
var looseNotes = []string{"Notes"}

// NoteHeading reports whether heading names a section NoteSection may
// choose besides the configuration's (merge.append_only): the merge
// driver merges those as append-only, the entries both sides appended.
// datedOnly says it is one only while every entry is a dated line.
func NoteHeading(heading string) (ok, datedOnly bool) {
	for _, s := range noteTitles {
		if s.Names(heading) {
			return true, slices.Contains(looseNotes, s.Title)
		}
	}
	return false, false
}

// NoteSection is the section canon log writes an item's dated lines in,
// as the repository's items have it. extra are headings the
// configuration calls append-only (merge.append_only), preferred to
// canon's names; samples are the item's kind's documents, newest first.
//
//   - The item's own: of the note sections it has, the one most samples
//     have (a tie: the first by preference).
//   - Else the one most samples have, written where they put it: its
//     level (the item's own sections' level when it has some), the
//     markers its text is held between (Backlog.md's
//     <!-- SECTION:NOTES:BEGIN -->), after the heading that comes before
//     it in most of them or before the one that follows it.
//   - Else dflt (the tool's own, Backlog.md's Implementation Notes), or
//     a Worklog.
func NoteSection(item []byte, samples func() [][]byte, extra []string, dflt *Section) Section {
	cands := make([]Section, 0, len(extra)+len(noteTitles))
	for _, e := range extra {
		if t := strings.TrimSpace(e); t != "" {
			cands = append(cands, Section{Title: t})
		}
	}
	cands = append(cands, noteTitles...)
	d := parse(item)
	own := d.Body.Headings
	has := 0
	for _, c := range cands {
		if findSection(own, c) >= 0 {
			has++
		}
	}
	var bs [][]byte
	if has != 1 { // one the item has needs no vote: no sample is read
		bs = samples()
	}
	count := make([]int, len(cands))
	docs := make([]*markdown.Document, 0, len(bs))
	for _, b := range bs {
		d := parse(b)
		docs = append(docs, d)
		for i, c := range cands {
			if findSection(d.Body.Headings, c) >= 0 {
				count[i]++
			}
		}
	}
	best := -1
	for i, c := range cands {
		if findSection(own, c) >= 0 && (best < 0 || count[i] > count[best]) {
			best = i
		}
	}
	if best >= 0 {
		return cands[best]
	}
	for i := range cands {
		if count[i] > 0 && (best < 0 || count[i] > count[best]) {
			best = i
		}
	}
	switch {
	case best >= 0:
		out := placedAs(cands[best], docs, bs)
		if len(own) > 0 {
			// An item with sections of its own puts this one beside
			// them ("## Worklog" under its "# Title").
			out.Level = sectionLevel(own, d.Title)
		}
		if dflt != nil && normTitle(dflt.Title) == normTitle(out.Title) {
			// The tool's own places, after those learned.
			out.After, out.Before = union(out.After, dflt.After), union(out.Before, dflt.Before)
		}
		return out
	case dflt != nil:
		return *dflt
	}
	return Worklog
}

// placedAs is s as the samples that have it write it: the heading's
// level and text, the markers, and the headings around it, most voted
// first.
func placedAs(s Section, docs []*markdown.Document, samples [][]byte) Section {
	levels, titles, markers := map[int]int{}, map[string]int{}, map[[2]string]int{}
	after, before := map[string]int{}, map[string]int{}
	for k, d := range docs {
		hs := d.Body.Headings
		i := findSection(hs, s)
		if i < 0 {
			continue
		}
		levels[hs[i].Level]++
		titles[strings.TrimSpace(hs[i].Text)]++
		if i > 0 {
			after[strings.TrimSpace(hs[i-1].Text)]++
		}
		if i+1 < len(hs) {
			before[strings.TrimSpace(hs[i+1].Text)]++
		}
		if m, ok := markersOf(d, i, samples[k]); ok {
			markers[m]++
		}
	}
	out := s
	out.Title = mostVoted(titles)[0]
	lv := 0
	for l, n := range levels {
		if n > levels[lv] || n == levels[lv] && l < lv {
			lv = l
		}
	}
	out.Level = lv
	out.After, out.Before = mostVoted(after), mostVoted(before)
	n := 0
	for m, c := range markers {
		if c > n || c == n && m[0] < out.Begin {
			out.Begin, out.End, n = m[0], m[1], c
		}
	}
	if 2*n <= levels[lv] {
		out.Begin, out.End = "", "" // most write the section without them
	}
	return out
}

// markersOf are the comment lines that open and close the text of the
// section of heading i, when it has them.
func markersOf(d *markdown.Document, i int, content []byte) ([2]string, bool) {
	for _, sec := range d.Body.Sections {
		if sec.Heading != i {
			continue
		}
		l := splitLines(content)
		var text []string
		for j := sec.Start; j < sec.End && j < len(l.text); j++ { // Start is the heading's line, from 1: j is the next, from 0
			if !blank(l.text[j]) {
				text = append(text, strings.TrimSpace(l.text[j]))
			}
		}
		if len(text) >= 2 && comment(text[0]) && comment(text[len(text)-1]) {
			return [2]string{text[0], text[len(text)-1]}, true
		}
	}
	return [2]string{}, false
}

// mostVoted are the keys of votes, most votes first (a tie: in order).
func mostVoted(votes map[string]int) []string {
	out := make([]string, 0, len(votes))
	for k := range votes {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if votes[out[i]] != votes[out[j]] {
			return votes[out[i]] > votes[out[j]]
		}
		return out[i] < out[j]
	})
	return slices.Clip(out)
}

// union is a with the names of b it lacks (any case) after it.
func union(a, b []string) []string {
	for _, n := range b {
		if !slices.ContainsFunc(a, func(m string) bool { return normTitle(m) == normTitle(n) }) {
			a = append(a, n)
		}
	}
	return a
}
