package search

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index"
)

// ErrLongQuery is index.ErrBadQuery for a text past MaxQueryBytes or
// MaxQueryWords.
var ErrLongQuery = fmt.Errorf("%w", index.ErrBadQuery)

// A query is a few words: a long one is a pasted page, not a question.
// FTS5 builds the AND of n phrases by
// copying the children gathered so far at every phrase (its parser's
// fts5ExprAddChildren): n²/2 copies and as many bytes allocated, which
// made a search of 64k words take minutes. Bounded, the copies are at
// most 2,016 and a parse is linear in the text.
const (
	MaxQueryWords = 64
	MaxQueryBytes = 4096
)

// FTSQuery turns what a person types into an FTS5 query: every word must
// occur (in any form the stemmer folds together), "quoted phrases" stay
// phrases, a trailing * makes a prefix, and OR / AND / NOT between words
// work as in FTS5 (operands says how). Everything else is quoted, so no
// input is an FTS5 syntax error (FuzzFTSQuery). A text longer than
// MaxQueryBytes or of more than MaxQueryWords words is refused.
func FTSQuery(text string) (string, error) {
	if len(text) > MaxQueryBytes {
		return "", fmt.Errorf("%w: the query is %d bytes; a query is at most %d bytes (%d words): ask with fewer words", ErrLongQuery, len(text), MaxQueryBytes, MaxQueryWords)
	}
	var parts []string
	rest := strings.TrimSpace(text)
	for rest != "" {
		if rest[0] == '"' {
			end := strings.IndexByte(rest[1:], '"')
			phrase := rest[1:]
			if end >= 0 {
				phrase = rest[1 : end+1]
				rest = rest[end+2:]
			} else {
				rest = ""
			}
			if t := index.FTSWords(phrase); t != "" {
				parts = append(parts, `"`+t+`"`)
			}
			rest = strings.TrimSpace(rest)
			continue
		}
		word := rest
		if i := strings.IndexAny(rest, " \t\n\""); i >= 0 {
			word, rest = rest[:i], strings.TrimSpace(rest[i:])
		} else {
			rest = ""
		}
		switch word {
		case "OR", "NOT", "AND":
			parts = append(parts, word)
			continue
		}
		prefix := strings.HasSuffix(word, "*")
		t := index.FTSWords(strings.TrimRight(word, "*"))
		if t == "" {
			continue
		}
		p := `"` + t + `"`
		if prefix {
			p += "*"
		}
		parts = append(parts, p)
	}
	parts = operands(parts)
	if len(parts) == 0 {
		return "", fmt.Errorf("%w: %q has no words to search for", index.ErrBadQuery, text)
	}
	words := 0
	for _, p := range parts {
		if p[0] == '"' {
			words += strings.Count(p, " ") + 1
		}
	}
	if words > MaxQueryWords {
		return "", fmt.Errorf("%w: the query has %d words; at most %d are searched: ask with fewer words", ErrLongQuery, words, MaxQueryWords)
	}
	return strings.Join(parts, " "), nil
}

// operands makes FTS5 operators of the OR, AND and NOT in parts that stand
// between two phrases: several in a row are one (NOT if any is: "a AND NOT
// b" is FTS5's "a NOT b"; else the last), and one with no phrase before or
// after it is dropped ("OR b" is "b"). When there is no phrase at all,
// the operators are the words searched for ("NOT", "OR OR").
func operands(parts []string) []string {
	isOp := func(p string) bool { return p == "OR" || p == "AND" || p == "NOT" }
	var out []string
	op := ""
	for _, p := range parts {
		if isOp(p) {
			if op != "NOT" {
				op = p
			}
			continue
		}
		if op != "" && len(out) > 0 {
			out = append(out, op)
		}
		op = ""
		out = append(out, p)
	}
	if len(out) == 0 {
		for _, p := range parts {
			out = append(out, `"`+strings.ToLower(p)+`"`)
		}
	}
	return out
}
