package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
// README or index page: the folder's name) without the number it starts
// with, its dashes and underscores spaces, its first letter upper-cased
// ("text/0617-rfc-stages.md": "Rfc stages"; "0398-RouteInfo-Metadata.md":
// "RouteInfo Metadata"). A name that is a number only is kept whole
// ("0011").
func FileTitle(filePath string) string {
	name := DisplayStem(filePath)
	rest := name
	if i := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }); i > 0 && (rest[i] == '-' || rest[i] == '_') {
		rest = rest[i+1:]
	}
	words := strings.FieldsFunc(rest, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) })
	t := strings.Join(words, " ")
	if t == "" {
		return name
	}
	r, n := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[n:]
}
