package markdown

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Slug returns GitHub's anchor for a heading's plain text, without duplicate handling.
//
// It reproduces github-slugger 2.0.0 (the npm package GitHub's own heading
// ids are modelled on and that most Markdown tools use): lower-case the text
// the way JavaScript's String.prototype.toLowerCase does, delete every
// character of the Unicode general categories
//
//	No (Other_Number); Pd, Ps, Pe, Pi, Pf, Po (all punctuation but Pc);
//	Sm, Sc, Sk, So (all symbols); Zs, Zl, Zp (all separators);
//	Cc (Control), Cf (Format), Co (Private_Use), Cn (Unassigned)
//
// except the ASCII space, the ASCII hyphen-minus and characters with the
// Alphabetic property (some So characters such as Ⓐ are Alphabetic), then
// turn each remaining space into '-'. What survives is therefore letters
// (L*), marks (M*), Nd and Nl numbers, connector punctuation (Pc, e.g. '_'),
// '-', and Other_Alphabetic characters. Nothing is trimmed and runs of spaces
// are not collapsed: " a  b " gives "-a--b-".
//
// The categories are taken from Go's unicode tables (Unicode 15.0.0 at the
// time of writing) where github-slugger's generated regex.js uses Unicode
// 13.0.0: a character first assigned in Unicode 14 or 15 is deleted by
// github-slugger (it was Cn) but kept here if it is a letter, mark or digit.
func Slug(text string) string {
	if isSlugAlready(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i, r := range text {
		if r < utf8.RuneSelf {
			c := byte(r)
			switch {
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '_', c == '-':
				b.WriteByte(c)
			case c == ' ':
				b.WriteByte('-')
			}
			continue
		}
		switch r {
		case 'İ': // U+0130: toLowerCase gives "i" + U+0307 COMBINING DOT ABOVE (SpecialCasing.txt)
			b.WriteString("i\u0307")
			continue
		case 'Σ': // U+03A3: toLowerCase applies the Final_Sigma rule
			if finalSigma(text, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
			continue
		}
		// An invalid byte decodes as U+FFFD, a symbol (So), and is dropped.
		if r = unicode.ToLower(r); keptInSlug(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isSlugAlready reports whether Slug would return text unchanged because it
// holds only lower-case ASCII letters, digits, '_' and '-'.
func isSlugAlready(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// keptInSlug reports whether a non-ASCII, already lower-cased rune survives
// github-slugger's regex (see Slug for the categories).
func keptInSlug(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) ||
		unicode.In(r, unicode.Nd, unicode.Nl, unicode.Pc, unicode.Other_Alphabetic)
}

// finalSigma reports whether the capital sigma at text[i] lower-cases to the
// final form ς under Unicode's Final_Sigma condition (Unicode §3.13): it
// follows a cased letter, skipping case-ignorable characters, and is not
// followed by one.
func finalSigma(text string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(text[:j])
		if isCased(r) {
			before = true
			break
		}
		if !isCaseIgnorable(r) {
			break
		}
		j -= size
	}
	if !before {
		return false
	}
	for j := i + len("Σ"); j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if isCased(r) {
			return false
		}
		if !isCaseIgnorable(r) {
			return true
		}
		j += size
	}
	return true
}

// isCased is Unicode's Cased property: Lu, Ll, Lt, Other_Lowercase, Other_Uppercase.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk
// and the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00B7', '\u0387', '\u055F', '\u05F4', '\u2018', '\u2019',
		'\u2024', '\u2027', '\uFE13', '\uFE52', '\uFE55', '\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// Slugger hands out unique slugs the way GitHub does for one document:
// a repeated slug gets -1, -2, ... (github-slugger's occurrences loop exactly,
// so "echo","echo","echo 1","echo-1" give echo, echo-1, echo-1-1, echo-1-2).
// The zero value is ready to use; a Slugger is not safe for concurrent use.
type Slugger struct {
	// seen maps every slug handed out to how many times its base slug was
	// asked for again since (github-slugger's occurrences object).
	seen map[string]int
}

// Next returns the unique slug for the next heading whose plain text is text.
func (s *Slugger) Next(text string) string {
	base := Slug(text)
	if s.seen == nil {
		s.seen = make(map[string]int)
	}
	slug := base
	for {
		if _, taken := s.seen[slug]; !taken {
			break
		}
		s.seen[base]++
		slug = base + "-" + strconv.Itoa(s.seen[base])
	}
	s.seen[slug] = 0
	return slug
}
