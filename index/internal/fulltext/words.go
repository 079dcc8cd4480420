package fulltext

import (
	"strings"
	"unicode"
)

// FTSWords keeps letters, digits and inner spaces: what the unicode61
// tokenizer of the full-text index would see as tokens anyway, the words
// of a phrase index/search's FTSQuery writes.
func FTSWords(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}

// FTSPhrases lists the phrases of a query as index/search's FTSQuery
// writes it, in order: each "..." (with its * when it is a prefix), not
// the operators between them. FTS5 numbers a query's phrases in that
// order (canon_bm25's counts, RankExpr). A phrase never holds a quote:
// FTSQuery keeps letters, digits and spaces (FTSWords).
func FTSPhrases(q string) []string {
	var out []string
	for len(q) > 0 {
		if q[0] != '"' {
			i := strings.IndexByte(q, ' ')
			if i < 0 {
				break
			}
			q = q[i+1:]
			continue
		}
		end := strings.IndexByte(q[1:], '"') + 2
		if end < 2 {
			break
		}
		if end < len(q) && q[end] == '*' {
			end++
		}
		out = append(out, q[:end])
		q = strings.TrimPrefix(q[end:], " ")
	}
	return out
}
