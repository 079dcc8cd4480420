package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/canon-md/canon/index/lazyre"
)

// genericHeadings are the names of sections a proposal or a record opens
// with, which name no document: 73 of emberjs/rfcs' RFCs open with
// "# Summary", rust-lang/rfcs' with "# Summary" too, MADR's records with
// "# Context" (issue 43).
var genericHeadings = map[string]bool{"summary": true, "motivation": true, "context": true, "abstract": true,
	"overview": true, "background": true, "introduction": true, "description": true, "tl;dr": true, "tldr": true,
	"problem": true, "problem statement": true, "context and problem statement": true}

// GenericHeading reports a heading that is a section's generic name
// (Summary, Motivation, Context, Abstract, Overview, Background, ...), in
// any case and with a trailing colon, which a document's first heading
// may be but its title is not.
func GenericHeading(h string) bool {
	return genericHeadings[strings.ToLower(strings.TrimRight(strings.TrimSpace(h), ": "))]
}

// FileTitle is the title a document's file name gives it when neither its
// frontmatter nor its first heading does: the file's stem (a folder's
// README or index page: the folder's name) without the number or id it
// starts with, its dashes and underscores spaces, its first letter
// upper-cased ("text/0617-rfc-stages.md": "Rfc stages";
// "KB-TSK-0006_reorder-webhook-events.md": "Reorder webhook events";
// "task-35 - Fix-x.md": "Fix x"). A name that is a number or an id alone
// is kept whole ("0011", "eip-1559").
func FileTitle(filePath string) string {
	name := DisplayStem(filePath)
	rest := name
	rest = rest[len(leadingID.FindString(rest)):]
	words := strings.FieldsFunc(rest, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) })
	t := strings.Join(words, " ")
	if t == "" {
		return name
	}
	r, n := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[n:]
}

// leadingID is the number or id a file name starts with, and the
// separator after it: 0617-, 0013.1_, KB-TSK-0006_, task-35 - , adr-004-.
var leadingID = lazyre.MustCompile(`^(?:[A-Za-z][A-Za-z0-9]*-)*[0-9]+(?:\.[0-9]+)*(?: - |[-_ ])`)
