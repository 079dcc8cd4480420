package edit

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// A link's destination is not a path: CommonMark ends it at a space,
// GitHub reads a '#' as the start of an anchor and a '?' as a query's, an
// unbalanced parenthesis ends the link and a balanced pair may make one
// more, '%' starts an escape, '<' and '>' an autolink or HTML, a backtick
// a code span, '|' a table's next cell, '&' an entity. A file whose name
// holds any of them (Meeting notes.md, Hash#x.md) is named by its path
// escaped. Replace writes a replacement marked In as the link's syntax
// needs it (LinkDest) and reads the link again (destReads): the same link
// at the same place, naming that file and nothing else, every other link
// of the document as it was. A fix that cannot be written so is refused,
// never written as it comes.

// LinkDest writes the path p as the destination of a Markdown link or
// image, in the style of like, the destination it replaces: each byte a
// destination cannot hold as it is percent-encoded (a control character,
// a space, and # % ( ) < > ? \ ` | & " '), and ':' where what comes before
// it would read as an address's scheme (javascript:x.md), with the
// characters like itself encoded (a repository that writes %5B for '['
// gets %5B), non-ASCII ones when like encodes them, in the case of like's
// hexadecimal digits.
func LinkDest(p, like string) string {
	also, nonASCII, lower := destStyle(like)
	hex := "0123456789ABCDEF"
	if lower {
		hex = "0123456789abcdef"
	}
	firstColon := strings.IndexByte(p, ':')
	if firstColon >= 0 && !schemeLike(p[:firstColon]) {
		firstColon = -1
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 && nonASCII || strings.IndexByte(" #%()<>?\\`|&\"'", c) >= 0 || c < 0x80 && also[c] || i == firstColon {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// destStyle reads which characters like writes percent-encoded: the
// ASCII ones, whether any beyond ASCII, and whether in lower case.
func destStyle(like string) (also [128]bool, nonASCII, lower bool) {
	for i := 0; i+2 < len(like); i++ {
		if like[i] != '%' {
			continue
		}
		n, err := strconv.ParseUint(like[i+1:i+3], 16, 8)
		if err != nil {
			continue
		}
		if strings.ContainsAny(like[i+1:i+3], "abcdef") {
			lower = true
		}
		if n >= 0x80 {
			nonASCII = true
		} else {
			also[n] = true
		}
		i += 2
	}
	return also, nonASCII, lower
}

// schemeLike reports a text an address's scheme could be: a letter, then
// letters, digits, '+', '-' or '.'.
func schemeLike(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// wikiDest writes the path p as a wiki-link's target, which is taken as
// it is written: one that holds what ends or splits a target cannot be.
func wikiDest(p string) (string, error) {
	if strings.ContainsAny(p, "[]|#^\r\n") || strings.TrimSpace(p) != p {
		return "", fmt.Errorf("a wiki-link cannot name %s (a wiki-link's target holds no [ ] | # ^, line break or edge space); fix the link by hand", strconv.Quote(p))
	}
	return p, nil
}

// destLink is the link whose destination r replaces: the one that starts
// at r.Line:r.Col and whose destination is r.Old; -1 when there is none.
func destLink(d *markdown.Document, r Replacement) int {
	for i, l := range d.Body.Links {
		if l.Line == r.Line && l.Col == r.Col && l.Dest == r.Old {
			return i
		}
	}
	return -1
}

// destWritten is r.New as the destination of link l: escaped for a
// Markdown link or image, as it is for a wiki-link.
func destWritten(l markdown.Link, r Replacement) (string, error) {
	switch l.Form {
	case markdown.FormMarkdown, markdown.FormImage:
		// A query the destination ends with (b?plain=1, GitHub's source
		// view) stays: New names the file, not the query.
		like, query := r.Old, ""
		if i := strings.IndexByte(r.Old, '?'); i >= 0 {
			like, query = r.Old[:i], r.Old[i:]
		}
		return LinkDest(r.New, like) + query, nil
	case markdown.FormWiki, markdown.FormEmbed:
		return wikiDest(r.New)
	}
	return "", fmt.Errorf("the link at line %d is an address, not a path; canon does not rewrite it", r.Line)
}

// destTarget is the repository path a replacement's New names from the
// document at r.In, as a link's path is read (relative to its folder, from
// the root when it starts with a slash); "" when it leaves the
// repository.
func destTarget(r Replacement) string {
	base := path.Dir(r.In)
	if strings.HasPrefix(r.New, "/") || base == "." {
		base = ""
	}
	rel := path.Join(base, strings.TrimPrefix(r.New, "/"))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return rel
}

// destReads reads the document again after a destination was written:
// the same links in the same order, each as it was but the one rewritten
// (k), which is still a link of its form at the same place, with the same
// text and anchor, naming the file New names and nothing else.
func destReads(before, after *markdown.Document, k int, r Replacement) bool {
	bl, al := before.Body.Links, after.Body.Links
	if len(bl) != len(al) || before.Body.LinksDropped != after.Body.LinksDropped {
		return false
	}
	for i := range bl {
		b, a := bl[i], al[i]
		if a.Form != b.Form || a.Anchor != b.Anchor || a.Line != b.Line || a.Line != r.Line && a.Col != b.Col {
			return false
		}
		if i != k {
			if a.Dest != b.Dest || a.Text != b.Text {
				return false
			}
			continue
		}
		if a.Col != b.Col {
			return false
		}
		switch a.Form {
		case markdown.FormWiki, markdown.FormEmbed:
			if a.Dest != r.New || b.Text != b.Dest && a.Text != b.Text {
				return false // the target, and the alias it shows as
			}
		default:
			if a.Text != b.Text {
				return false
			}
			want := destTarget(r)
			if want == "" || resolve.LinkTarget(r.In, a.Dest, nil) != want {
				return false
			}
		}
	}
	return true
}

// replaceDest makes a replacement of a link's destination (r.In set) on
// l: at the first place on its line, from the link's start, where the
// written destination reads as it must (destReads). It returns the
// column it landed at.
func replaceDest(l *lines, r Replacement) (int, error) {
	before := parse(l.bytes())
	k := destLink(before, r)
	if k < 0 {
		return 0, fmt.Errorf("line %d no longer holds a link to %s", r.Line, r.Old)
	}
	repl, err := destWritten(before.Body.Links[k], r)
	if err != nil {
		return 0, err
	}
	if err := Plain("the link's destination "+Shown(repl), repl, MaxValue); err != nil {
		return 0, err
	}
	i := r.Line - 1
	text := l.text[i]
	pos := 0
	for col := 1; col < r.Col && pos < len(text); col++ {
		_, size := utf8.DecodeRuneInString(text[pos:])
		pos += size
	}
	for at := pos; ; {
		n := strings.Index(text[at:], r.Old)
		if n < 0 {
			break
		}
		at += n
		l.text[i] = text[:at] + repl + text[at+len(r.Old):]
		if destReads(before, parse(l.bytes()), k, r) {
			return utf8.RuneCountInString(text[:at]) + 1, nil
		}
		l.text[i] = text
		at++
	}
	return 0, fmt.Errorf("the link to %s cannot be written so that it names %s and nothing else; fix it by hand", r.Old, strconv.Quote(r.New))
}
