package workset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/lazyre"
)

// Finding kinds. A finding without a kind prefix is a worklog entry.
const (
	KindWorklog  = "worklog"
	KindDecision = "decision"
	KindRisk     = "risk"
	KindFinding  = "finding"
)

// Finding is one statement in notes.md addressed to a canonical document,
// for promote to append there.
type Finding struct {
	Target string `json:"target"` // as written, without brackets: an id, a uid, a path or a wiki-link target
	Wiki   bool   `json:"wiki,omitempty"`
	Kind   string `json:"kind"` // worklog, decision, risk or finding
	Text   string `json:"text"` // without the target and the kind prefix, whitespace collapsed
	Line   int    `json:"line"` // first line in notes.md, from 1
	// Section says the finding sits under a "## TARGET" heading rather
	// than on a tagged list item.
	Section bool   `json:"section,omitempty"`
	Hash    string `json:"hash"`
}

// FindingHash identifies a finding by what it says, not where: the target
// (without case), the kind and the text with whitespace collapsed. Moving
// a finding or reflowing its lines keeps its hash; editing its words makes
// it a new finding. Promote records the hashes it promoted
// (RecordPromoted), so that promoting twice adds nothing.
func FindingHash(target, kind, text string) string {
	sum := sha256.Sum256([]byte("canon-finding-v1\x00" + strings.ToLower(strings.TrimSpace(target)) + "\x00" + kind + "\x00" + collapse(text)))
	return hex.EncodeToString(sum[:])
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

var (
	headingRE = lazyre.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	itemRE    = lazyre.MustCompile(`^([ \t]*)(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+(.*))?$`)
	fenceRE   = lazyre.MustCompile("^ {0,3}(```+|~~~+)")
	kindRE    = lazyre.MustCompile(`(?i)^(decision|risk|finding)[ \t]*:[ \t]*`)
)

// ParseNotes reads the findings of a notes.md (see NotesHeader for the
// format). It is purely syntactic: whether a target names a document is for
// the caller to find out. HTML comments (the header is one) and fenced
// code are skipped, but only where they hide nothing a note holds: a
// comment that opens at the start of a line and ends (withoutComments), a
// fence that closes; an unterminated "<!--" or fence is text.
func ParseNotes(text string) []Finding {
	return parseNotes(withoutComments(noteLines(text)), true)
}

func noteLines(text string) []string {
	return strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
}

// HiddenFindings are what looks like a finding in notes.md but is none
// by ParseNotes' reading: tagged items and target sections inside HTML
// comments and fenced code (the header comment canon writes aside). No
// tool writes them there; a person may have, or a note that opened a
// comment before notes were escaped. gc, rm and list count them as not
// promoted, so that a workset holding one is never called done.
//
// shown are the findings ParseNotes read from text.
func HiddenFindings(text string, shown []Finding) []Finding {
	lines := noteLines(text)
	revealed := make([]string, len(lines))
	header := headerEnd(lines)
	for i, line := range lines {
		if i > header {
			revealed[i] = commentMarkers.Replace(line)
		}
	}
	// By the line a finding starts on: a comment after a finding
	// ("- [X] text" then "<!-- why -->") lengthens it when revealed, but
	// it is the same finding.
	starts := map[int]bool{}
	for _, f := range shown {
		starts[f.Line] = true
	}
	var out []Finding
	for _, f := range parseNotes(revealed, false) {
		if !starts[f.Line] {
			out = append(out, f)
		}
	}
	return out
}

var commentMarkers = strings.NewReplacer("<!--", "", "-->", "")

// headerEnd is the index of the last line of the comment NotesHeader
// writes, when notes.md starts with it (a title and blank lines above it
// at most); else -1.
func headerEnd(lines []string) int {
	for i, line := range lines {
		switch {
		case strings.TrimSpace(line) == "" || headingRE.MatchString(line):
			continue
		case !strings.HasPrefix(line, NotesMarker):
			return -1
		}
		for j := i; j < len(lines); j++ {
			if strings.Contains(lines[j], "-->") {
				return j
			}
		}
		return -1
	}
	return -1
}

// parseNotes reads the findings of lines; fenced says whether fenced code
// is skipped (a fence that never closes is not one).
func parseNotes(lines []string, fenced bool) []Finding {
	// The last line that can close a fence of each kind: a fence opened
	// after it never closes, and hides nothing.
	lastClose := map[byte]int{'`': -1, '~': -1}
	for i, line := range lines {
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			lastClose[t[0]] = i
		}
	}
	r := notesReader{curIndent: -1}
	fence := ""
	for i, line := range lines {
		n := i + 1
		if fence != "" {
			if strings.HasPrefix(strings.TrimLeft(line, " "), fence) {
				fence = ""
			}
			continue
		}
		if m := fenceRE.FindStringSubmatch(line); m != nil && fenced && lastClose[m[1][0]] > i {
			r.flush()
			fence = m[1][:3]
			continue
		}
		if strings.TrimSpace(line) == "" {
			r.flush()
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			r.flush()
			r.section, r.sectionWiki = "", false
			if len(m[1]) >= 2 {
				r.section, r.sectionWiki = headingTarget(m[2])
			}
			continue
		}
		if m := itemRE.FindStringSubmatch(line); m != nil {
			r.item(m, n)
			continue
		}
		r.text(line, n)
	}
	r.flush()
	return r.out
}

// notesReader is what parseNotes knows as it reads the lines.
type notesReader struct {
	out         []Finding
	cur         *Finding // the finding being read
	parts       []string // its text so far
	curIndent   int      // the indent of its list marker; -1 for a paragraph
	ignoring    bool     // inside a list item or paragraph that is not a finding
	section     string   // the target of the current "## TARGET" section
	sectionWiki bool
}

// flush ends the finding being read: it is kept, with the kind its text
// starts with, when it has text.
func (r *notesReader) flush() {
	if cur := r.cur; cur != nil {
		t := collapse(strings.Join(r.parts, " "))
		if m := kindRE.FindStringSubmatch(t); m != nil {
			cur.Kind = strings.ToLower(m[1])
			t = t[len(m[0]):]
		}
		if t != "" {
			cur.Text = t
			cur.Hash = FindingHash(cur.Target, cur.Kind, cur.Text)
			r.out = append(r.out, *cur)
		}
	}
	r.cur, r.parts, r.curIndent, r.ignoring = nil, nil, -1, false
}

// item reads the list item on line n (m is itemRE's match): a nested item
// belongs to the item above it; another starts a finding when it names its
// target, or sits in a target's section and is no checkbox.
func (r *notesReader) item(m []string, n int) {
	indent := width(m[1])
	if (r.cur != nil || r.ignoring) && r.curIndent >= 0 && indent > r.curIndent {
		// A nested item belongs to the item above it.
		if r.cur != nil {
			r.parts = append(r.parts, m[2])
		}
		return
	}
	r.flush()
	target, wiki, rest := tag(m[2])
	switch {
	case target != "":
		r.cur = &Finding{Target: target, Wiki: wiki, Kind: KindWorklog, Line: n}
		r.parts = []string{rest}
	case r.section != "" && !checkbox(m[2]):
		r.cur = &Finding{Target: r.section, Wiki: r.sectionWiki, Kind: KindWorklog, Line: n, Section: true}
		r.parts = []string{m[2]}
	default:
		r.ignoring = true
	}
	r.curIndent = indent
}

// text reads line n, a line of text: it continues the item or paragraph
// above it, or starts a paragraph; an error line at the margin under a
// list item ("error: build broke", appended under a finding) is the
// agent's own record, as resume reads it: it ends the finding and is none.
func (r *notesReader) text(line string, n int) {
	if r.cur != nil && r.curIndent >= 0 && line == strings.TrimLeft(line, " \t") && errorLineRE.MatchString(line) {
		r.flush() // under a list item only: a paragraph keeps Markdown's reading
		return
	}
	switch {
	case r.cur != nil:
		r.parts = append(r.parts, line)
	case r.ignoring:
	case r.section != "":
		r.cur = &Finding{Target: r.section, Wiki: r.sectionWiki, Kind: KindWorklog, Line: n, Section: true}
		r.parts = []string{line}
	default:
		r.ignoring = true
	}
}

func width(indent string) int {
	w := 0
	for _, r := range indent {
		if r == '\t' {
			w += 4 - w%4
		} else {
			w++
		}
	}
	return w
}

// checkbox reports a task-list item ("[ ] ...", "[x] ..."): the agent's
// own checklist, never a finding.
func checkbox(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 3 && s[0] == '[' && s[2] == ']' && strings.ContainsRune(" xX", rune(s[1]))
}

// tag reads a target at the start of a list item's text: [[wiki-link]] or
// [REF], where REF looks like a reference (see refLike), so that a
// checkbox ("[ ]", "[x]") or a plain bracketed word is not one.
func tag(s string) (target string, wiki bool, rest string) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[[") {
		end := strings.Index(s, "]]")
		if end < 0 {
			return "", false, s
		}
		t := wikiTarget(s[2:end])
		if t == "" {
			return "", false, s
		}
		return t, true, afterTag(s[end+2:])
	}
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || strings.HasPrefix(s[end+1:], "(") {
			return "", false, s // [text](link) is a link, not a tag
		}
		if t := strings.TrimSpace(s[1:end]); refLike(t) {
			return t, false, afterTag(s[end+1:])
		}
	}
	return "", false, s
}

// afterTag drops the separator people put after a tag: "[X]: text",
// "[X] - text", "[X] — text".
func afterTag(s string) string {
	s = strings.TrimSpace(s)
	for _, sep := range []string{":", "—", "–", "- "} {
		if strings.HasPrefix(s, sep) {
			return strings.TrimSpace(s[len(sep):])
		}
	}
	return s
}

func wikiTarget(inner string) string {
	t, _, _ := strings.Cut(inner, "|")
	return strings.TrimSpace(t)
}

// headingTarget reads the target a heading starts with: "KB-TSK-0042",
// "[[ADR-0007]]", "[KB-TSK-0042]", optionally followed by words ("##
// KB-TSK-0042 Retry webhooks").
func headingTarget(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "[") {
		t, wiki, _ := tag(text)
		return t, wiki
	}
	first := text
	if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
		first = text[:i]
	}
	first = strings.TrimRight(first, ":")
	if refLike(first) {
		return first, false
	}
	return "", false
}

// refLike says whether a bracketed or heading token can be a reference: no
// spaces, and a letter and a digit (ids such as KB-TSK-0042 and ADR-0007,
// uids) or a path ending in .md. Dates, checkboxes and words ([WIP],
// [follow-up], [n/a]) are not: a stem without a digit is written as a
// wiki-link, [[checkout-runbook]], as the note tool writes it.
func refLike(t string) bool {
	if t == "" || len(t) > 200 || strings.ContainsFunc(t, unicode.IsSpace) {
		return false
	}
	if strings.HasSuffix(strings.ToLower(t), ".md") {
		return true
	}
	return strings.ContainsFunc(t, unicode.IsLetter) && strings.ContainsFunc(t, unicode.IsDigit)
}

// NotesMarker starts the comment that explains notes.md; promote and the
// parser skip the whole comment.
const NotesMarker = "<!-- canon:notes"

// NotesHeader is the start of a new notes.md: a title and, in an HTML
// comment, how to write findings that canon promote can take back into
// the canonical documents. seeds are offered as example targets.
func NotesHeader(name string, seeds []index.DocRef) string {
	ex1, ex2 := "KB-TSK-0042", "ADR-0007"
	took1, took2 := false, false
	for _, s := range seeds {
		switch {
		case !refLike(s.ID):
		case s.Kind == "adr" && !took2:
			ex2, took2 = s.ID, true
		case s.Kind != "adr" && !took1:
			ex1, took1 = s.ID, true
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Notes: %s\n\n", name)
	fmt.Fprintf(&b, `%s
How to write findings here so that "canon promote %s" can append them to
the canonical documents. This comment is never promoted.

Address a finding to a document by its id, its uid, its path or a
wiki-link, in either of two forms:

1. A tagged list item, one finding per item (indented lines continue it):

   - [%s] the webhook retries never reset attempts
   - [[%s]] decision: keep the inbox table, drop the queue
   - [01JD3Q8Z6M2V9K4T7R5N1B0C8X] risk: the alert fires during PSP maintenance

2. A section per target: a heading (## or deeper) that starts with the
   target, then one finding per list item or paragraph up to the next
   heading:

   ## %s
   - finding: the retry column is never reset
   - risk: nobody owns the replay runbook

A finding may start with a kind: "decision:", "risk:" or "finding:".
Without one it becomes a worklog line of the target
(YYYY-MM-DD HH:MM [agent=NAME] text); with one it goes under the section
of that kind, and promote --adr turns a decision into a new ADR.

Everything else is yours and never promoted: other headings, plain
paragraphs outside a target section, list items without a tag, checkboxes
("- [ ]", "- [x]"), fenced code. Promoted findings are recorded in
workset.db by a hash of target, kind and text: promoting again adds nothing,
and an edited finding is a new one. canon workset gc keeps a workset whose
findings are not all promoted (unless --force).
`, NotesMarker, name, ex1, ex2, ex1)
	if len(seeds) > 0 {
		b.WriteString("\nSeeds of this workset:\n")
		for _, s := range seeds {
			// One line each that cannot end the comment: a title is the
			// repository's text, not a finding.
			fmt.Fprintf(&b, "  %s  %s\n", uncommentable(flatten(s.ID)), uncommentable(flatten(s.Title)))
		}
	}
	b.WriteString("-->\n\n")
	return b.String()
}
