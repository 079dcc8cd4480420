package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// GFM's extended autolinks in text: bare http(s) and ftp URLs, www. and
// email addresses, found and trimmed as cmark-gfm does.

// bareURL recognises a GFM extended autolink around the ':' at doc[i]
// (cmark-gfm's url_match: the scheme is the letters before ':', one of
// http, https or ftp; never inside link text).
func (s *scanner) bareURL(i, end int) int {
	doc := s.src
	if len(s.openers) > 0 || i+3 >= end || doc[i+1] != '/' || doc[i+2] != '/' {
		return i + 1
	}
	r := i
	for r > s.runStart && isASCIIAlpha(doc[r-1]) {
		r--
	}
	if !isURLScheme(doc[r:i]) || !isHostChar(doc, i+3, end) {
		return i + 1
	}
	n := domainEnd(doc[i+3:end], true)
	if n == 0 {
		return i + 1
	}
	e := i + 3 + n
	for e < end && !isCmarkSpace(doc[e]) && doc[e] != '<' {
		e++
	}
	n = autolinkTrim(doc[i:e])
	if n == 0 {
		return i + 1
	}
	e = i + n
	url := doc[r:e]
	s.emit(FormAutolink, r, url, url)
	return e
}

// bareEmail recognises a GFM extended email autolink around the '@' at
// src[i] (cmark-gfm's postprocess_text): letters, digits and ".+-_" before
// it, after it a domain of letters, digits, '-' and '_' with at least one
// '.' followed by a letter or digit, ending in a letter (trailing
// punctuation trimmed). Its Dest gets "mailto:", unless "mailto:" is
// written before it, which is then part of the link. Never inside link text.
func (s *scanner) bareEmail(i, end int) int {
	doc := s.src
	if len(s.openers) > 0 {
		return i + 1
	}
	r := i
	for r > s.runStart && (isASCIIAlnum(doc[r-1]) || strings.IndexByte(".+-_", doc[r-1]) >= 0) {
		r--
	}
	if r == i || r > s.runStart && doc[r-1] == '\\' { // "foo\+@x.com": escapes end it
		return i + 1
	}
	if m := r - len("mailto:"); m >= s.runStart && doc[m:r] == "mailto:" {
		for r = m; r > s.runStart && isASCIIAlnum(doc[r-1]); r-- {
		}
		if r != m {
			r = m + len("mailto:") // "xmailto:" is no scheme
		}
	}
	k, dots := i+1, 0
	for ; k < end; k++ {
		c := doc[k]
		switch {
		case isASCIIAlnum(c), c == '-', c == '_':
			continue
		case c == '.' && k+1 < end && isASCIIAlnum(doc[k+1]):
			dots++
			continue
		case c == '@': // a second '@': not this one, maybe that one
			return k
		}
		break
	}
	if k-i < 2 || dots == 0 || !isASCIIAlpha(doc[k-1]) && doc[k-1] != '.' {
		return i + 1
	}
	n := autolinkTrim(doc[i:k])
	if n == 0 {
		return i + 1
	}
	text := doc[r : i+n]
	dest := text
	if !strings.HasPrefix(text, "mailto:") {
		dest = "mailto:" + text
	}
	s.emit(FormAutolink, r, dest, text)
	return i + n
}

// wwwURL recognises a GFM extended www autolink whose "www." ends with the
// '.' at src[i] (cmark-gfm's www_match). Its Dest gets "http://", as the
// rendered href does.
func (s *scanner) wwwURL(i, end int) int {
	doc := s.src
	w := i - 3
	if len(s.openers) > 0 || w < s.runStart || doc[w:i] != "www" {
		return i + 1
	}
	if w > s.runStart {
		if c := doc[w-1]; !isCmarkSpace(c) && c != '*' && c != '_' && c != '~' && c != '(' {
			return i + 1
		}
	}
	n := domainEnd(doc[w:end], false)
	if n == 0 {
		return i + 1
	}
	e := w + n
	for e < end && !isCmarkSpace(doc[e]) && doc[e] != '<' {
		e++
	}
	if n = autolinkTrim(doc[w:e]); n == 0 {
		return i + 1
	}
	url := doc[w : w+n]
	s.emit(FormAutolink, w, "http://"+url, url)
	return w + n
}

func isURLScheme(s string) bool {
	return strings.EqualFold(s, "http") || strings.EqualFold(s, "https") || strings.EqualFold(s, "ftp")
}

// isHostChar reports whether the character at s[i] may be part of a host
// name: not whitespace, not punctuation.
func isHostChar(s string, i, end int) bool {
	if i >= end {
		return false
	}
	r, size := utf8.DecodeRuneInString(s[i:end])
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	return !isUnicodeSpace(r) && !isUnicodePunctOnly(r)
}

// isUnicodePunctOnly is cmark's punctuation test: ASCII punctuation and the
// Unicode P categories (symbols outside ASCII are not punctuation to it).
func isUnicodePunctOnly(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r)
}

// domainEnd mirrors cmark-gfm's check_domain: it returns how far the host
// name goes, or 0 when an underscore sits in one of its last two labels or,
// unless allowShort, when it has no dot.
func domainEnd(d string, allowShort bool) int {
	i, dots, under1, under2 := 1, 0, 0, 0
	for ; i < len(d)-1; i++ {
		if d[i] == '\\' && i < len(d)-2 {
			i++
		}
		switch {
		case d[i] == '_':
			under2++
		case d[i] == '.':
			under1, under2 = under2, 0
			dots++
		case d[i] != '-' && !isHostChar(d, i, len(d)):
			return domainCheck(i, dots, under1, under2, allowShort)
		}
	}
	return domainCheck(i, dots, under1, under2, allowShort)
}

func domainCheck(n, dots, under1, under2 int, allowShort bool) int {
	if (under1 > 0 || under2 > 0) && dots <= 10 || !allowShort && dots == 0 {
		return 0
	}
	return n
}

// autolinkTrim mirrors cmark-gfm's autolink_delim: it drops trailing
// punctuation, unbalanced closing parentheses and a trailing entity-like
// "&name;" from the candidate URL u, and returns the length kept.
func autolinkTrim(u string) int {
	n := len(u)
	opening, closing := 0, 0
	for i := 0; i < n; i++ {
		switch u[i] {
		case '<':
			n = i
		case '(':
			opening++
		case ')':
			closing++
		}
	}
	for n > 0 {
		switch u[n-1] {
		case ')':
			if closing <= opening {
				return n
			}
			closing--
			n--
		case '?', '!', '.', ',', ':', '*', '_', '~', '\'', '"':
			n--
		case ';':
			e := n - 2
			for e > 0 && isASCIIAlpha(u[e]) {
				e--
			}
			if e >= 0 && e < n-2 && u[e] == '&' {
				n = e
			} else {
				n--
			}
		default:
			return n
		}
	}
	return n
}
