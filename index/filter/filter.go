// Package filter is the query-template filter language (docs/queries.md,
// ADR-0064): a small expression over a document's columns and frontmatter
// fields (state IN ('Ready', 'InProgress') AND priority <= 'P1'), read
// and checked (Compile, ValidName) and compiled to a parameterised
// condition on the index's docs table (aliased d), which index runs
// (index.DocSelect, Store.DocsPassing, Store.FieldValues) and graph's
// templates hand it.
//
// It owns the grammar, its limits (length, depth, IN lists) and its
// errors (Error, with the column where the filter goes wrong). Names
// become fixed column names or a JSON path passed as a parameter and
// literals become parameters: nothing from a filter's text is spliced
// into SQL.
//
// What it must not do: open a database or run a statement, read a file,
// or know of git; the condition it writes is index's to run. On the
// ladder cmd → usecase → hooks → gitsync, workset → graph → index it sits
// at the bottom with index's other sub-packages, under index (which
// imports it); it imports nothing of canon's.
package filter

import (
	"fmt"
	"strconv"
	"strings"
)

// Filters are a small expression language over a document's columns and
// frontmatter fields, compiled to a parameterised SQL condition on docs
// (aliased d). The grammar:
//
//	expr    = or
//	or      = and { OR and }
//	and     = not { AND not }
//	not     = NOT not | primary
//	primary = "(" expr ")" | operand cmp
//	cmp     = ( "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" ) operand
//	        | [ NOT ] IN "(" literal { "," literal } ")"
//	        | [ NOT ] LIKE string
//	        | IS [ NOT ] NULL
//	operand = name | literal
//	literal = 'string' ('' for a quote) | number | TRUE | FALSE
//
// A name is key, id, uid, path, kind, type, title or state (the index's
// columns; state is the frontmatter's state, else its status) or any other
// frontmatter field, dotted for nesting (external.jira_key). Keywords are
// matched without case; text compares without case. Names become fixed
// column names or a JSON path passed as a parameter, and literals are
// parameters: nothing from the filter's text is ever spliced into SQL.
// Anything else — a semicolon, a comment, a double-quoted or bracketed
// name, a function call, a second statement — is an error.

// Filter is a compiled filter.
type Filter struct {
	Text string // as written
	SQL  string // a condition on docs d, with ? parameters
	Args []any
}

// Error says where a filter goes wrong.
type Error struct {
	Text string
	Pos  int // byte offset
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("filter %q: at column %d: %s", e.Text, e.Pos+1, e.Msg)
}

// Limits that keep a hostile filter cheap.
const (
	maxFilterLen   = 2000
	maxFilterDepth = 32
	maxInList      = 200
)

// filterColumns are the names that are docs columns rather than frontmatter.
var filterColumns = map[string]string{
	"key": "d.key", "id": "d.ident", "uid": "d.uid", "path": "d.path",
	"kind": "d.kind", "type": "d.type", "title": "d.title", "state": "d.state",
}

type tokKind int

const (
	tEOF tokKind = iota
	tName
	tString
	tNumber
	tOp     // = != <> < <= > >=
	tLParen // (
	tRParen // )
	tComma  // ,
	tKeyword
)

type token struct {
	kind tokKind
	text string // for a keyword: upper case; for a string: its value
	pos  int
}

var keywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "LIKE": true, "IS": true, "NULL": true, "TRUE": true, "FALSE": true}

func lex(src string) ([]token, error) {
	fail := func(pos int, format string, args ...any) error {
		return &Error{Text: src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "--") || strings.HasPrefix(src[i:], "/*"):
			return nil, fail(i, "comments are not allowed in a filter")
		case c == ';':
			return nil, fail(i, "';' is not allowed: a filter is one expression, not SQL statements")
		case c == '"' || c == '`' || c == '[':
			return nil, fail(i, "%q: quoted or bracketed names are not allowed; write the field name bare (a-z, 0-9, _, -, dots)", string(c))
		case c == '(':
			out = append(out, token{tLParen, "(", i})
			i++
		case c == ')':
			out = append(out, token{tRParen, ")", i})
			i++
		case c == ',':
			out = append(out, token{tComma, ",", i})
			i++
		case c == '=' || c == '<' || c == '>' || c == '!':
			op := string(c)
			if i+1 < len(src) && (src[i+1] == '=' || (c == '<' && src[i+1] == '>')) {
				op += string(src[i+1])
			}
			if op == "!" || op == "==" {
				return nil, fail(i, "unknown operator %q; use = or !=", op)
			}
			out = append(out, token{tOp, op, i})
			i += len(op)
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, fail(i, "the string is not closed; end it with '")
				}
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			out = append(out, token{tString, b.String(), i})
			i = j + 1
		case c >= '0' && c <= '9' || (c == '-' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			if j < len(src) && isNameByte(src[j]) {
				return nil, fail(i, "%q is neither a number nor a name", src[i:j+1])
			}
			out = append(out, token{tNumber, src[i:j], i})
			i = j
		case isNameStart(c):
			j := i + 1
			for j < len(src) && (isNameByte(src[j]) || src[j] == '.') && !strings.HasPrefix(src[j:], "--") {
				j++
			}
			word := src[i:j]
			if strings.HasSuffix(word, ".") || strings.Contains(word, "..") {
				return nil, fail(i, "%q is not a field name", word)
			}
			if up := strings.ToUpper(word); keywords[up] {
				out = append(out, token{tKeyword, up, i})
			} else {
				out = append(out, token{tName, word, i})
			}
			i = j
		default:
			return nil, fail(i, "unexpected %q", string(rune(c)))
		}
	}
	return append(out, token{tEOF, "", len(src)}), nil
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '-'
}

// Compile compiles a filter; see the grammar above.
func Compile(text string) (*Filter, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Text: text, Msg: "the filter is empty"}
	}
	if len(text) > maxFilterLen {
		return nil, &Error{Text: text[:40] + "…", Msg: fmt.Sprintf("a filter is at most %d characters", maxFilterLen)}
	}
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{src: text, toks: toks}
	sql, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.kind == tRParen {
			return nil, p.fail(t, "')' has no matching '('")
		}
		return nil, p.fail(t, "unexpected %s after a complete expression; join conditions with AND or OR", describe(t))
	}
	return &Filter{Text: text, SQL: sql, Args: p.args}, nil
}

type parser struct {
	src  string
	toks []token
	i    int
	args []any
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(t token, format string, args ...any) error {
	return &Error{Text: p.src, Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) isKeyword(word string) bool {
	t := p.peek()
	return t.kind == tKeyword && t.text == word
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end"
	case tString:
		return "'" + t.text + "'"
	}
	return strconv.Quote(t.text)
}

func (p *parser) or(depth int) (string, error) {
	left, err := p.and(depth)
	if err != nil {
		return "", err
	}
	for p.isKeyword("OR") {
		p.next()
		right, err := p.and(depth)
		if err != nil {
			return "", err
		}
		left = "(" + left + " OR " + right + ")"
	}
	return left, nil
}

func (p *parser) and(depth int) (string, error) {
	left, err := p.not(depth)
	if err != nil {
		return "", err
	}
	for p.isKeyword("AND") {
		p.next()
		right, err := p.not(depth)
		if err != nil {
			return "", err
		}
		left = "(" + left + " AND " + right + ")"
	}
	return left, nil
}

func (p *parser) not(depth int) (string, error) {
	if depth > maxFilterDepth {
		return "", p.fail(p.peek(), "the filter nests deeper than %d levels", maxFilterDepth)
	}
	if p.isKeyword("NOT") {
		p.next()
		inner, err := p.not(depth + 1)
		if err != nil {
			return "", err
		}
		return "(NOT " + inner + ")", nil
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) (string, error) {
	if p.peek().kind == tLParen {
		open := p.next()
		inner, err := p.or(depth + 1)
		if err != nil {
			return "", err
		}
		if p.peek().kind != tRParen {
			return "", p.fail(open, "'(' is not closed")
		}
		p.next()
		return inner, nil
	}
	left, err := p.operand()
	if err != nil {
		return "", err
	}
	t := p.peek()
	switch {
	case t.kind == tOp:
		p.next()
		right, err := p.operand()
		if err != nil {
			return "", err
		}
		op := t.text
		if op == "<>" {
			op = "!="
		}
		if op == "=" || op == "!=" {
			// IS / IS NOT treat NULL as a value, so that a missing field
			// is != 'x' rather than unknown.
			if op == "=" {
				return "(" + left + " IS " + right + ")", nil
			}
			return "(" + left + " IS NOT " + right + ")", nil
		}
		return "(" + left + " " + op + " " + right + ")", nil
	case t.kind == tKeyword && (t.text == "IN" || t.text == "LIKE" || t.text == "NOT"):
		neg := ""
		if t.text == "NOT" {
			p.next()
			neg = "NOT "
			if !p.isKeyword("IN") && !p.isKeyword("LIKE") {
				return "", p.fail(p.peek(), "expected IN or LIKE after NOT, found %s", describe(p.peek()))
			}
		}
		if p.next().text == "LIKE" {
			s := p.next()
			if s.kind != tString {
				return "", p.fail(s, "LIKE needs a 'pattern' string, found %s", describe(s))
			}
			p.args = append(p.args, s.text)
			return "(" + left + " " + neg + "LIKE ?)", nil
		}
		open := p.next()
		if open.kind != tLParen {
			return "", p.fail(open, "IN needs a list in parentheses, found %s", describe(open))
		}
		var items []string
		for {
			v, err := p.literal()
			if err != nil {
				return "", err
			}
			items = append(items, v)
			if len(items) > maxInList {
				return "", p.fail(p.peek(), "an IN list has at most %d values", maxInList)
			}
			sep := p.next()
			if sep.kind == tRParen {
				break
			}
			if sep.kind != tComma {
				return "", p.fail(sep, "expected ',' or ')' in the IN list, found %s", describe(sep))
			}
		}
		return "(" + left + " " + neg + "IN (" + strings.Join(items, ", ") + "))", nil
	case t.kind == tKeyword && t.text == "IS":
		p.next()
		neg := ""
		if p.isKeyword("NOT") {
			p.next()
			neg = "NOT "
		}
		if n := p.next(); n.kind != tKeyword || n.text != "NULL" {
			return "", p.fail(n, "expected NULL after IS, found %s", describe(n))
		}
		return "(" + left + " IS " + neg + "NULL)", nil
	}
	return "", p.fail(t, "expected a comparison (=, !=, <, <=, >, >=, IN, LIKE, IS NULL) after the operand, found %s", describe(t))
}

// operand is a name or a literal.
func (p *parser) operand() (string, error) {
	t := p.peek()
	if t.kind != tName {
		return p.literal()
	}
	p.next()
	if p.peek().kind == tLParen {
		return "", p.fail(t, "unknown function %s: filters have no functions, only comparisons", t.text)
	}
	if col, ok := filterColumns[strings.ToLower(t.text)]; ok {
		return "(" + col + " COLLATE NOCASE)", nil
	}
	p.args = append(p.args, jsonPath(t.text))
	return "(json_extract(d.fm, ?) COLLATE NOCASE)", nil
}

func (p *parser) literal() (string, error) {
	t := p.next()
	switch {
	case t.kind == tString:
		p.args = append(p.args, t.text)
	case t.kind == tNumber:
		if n, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			p.args = append(p.args, n)
		} else if f, err := strconv.ParseFloat(t.text, 64); err == nil {
			p.args = append(p.args, f)
		} else {
			return "", p.fail(t, "%q is not a number", t.text)
		}
	case t.kind == tKeyword && (t.text == "TRUE" || t.text == "FALSE"):
		p.args = append(p.args, t.text == "TRUE")
	case t.kind == tKeyword && t.text == "NULL":
		return "NULL", nil
	case t.kind == tName:
		return "", p.fail(t, "expected a value, found the name %s; quote text like 'this'", t.text)
	default:
		return "", p.fail(t, "expected a value, found %s", describe(t))
	}
	return "?", nil
}

// jsonPath turns a dotted field name into a JSON path with every segment
// quoted, so that no segment is read as path syntax. Names only hold
// letters, digits, _ and -, so the quotes need no escaping.
func jsonPath(name string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, seg := range strings.Split(name, ".") {
		b.WriteString(`."` + seg + `"`)
	}
	return b.String()
}

// ValidName says whether s can name a column or field, as a
// template's sort_by does.
func ValidName(s string) bool {
	toks, err := lex(s)
	return err == nil && len(toks) == 2 && toks[0].kind == tName
}

// NameExpr is the SQL for a column or field name, with its argument.
func NameExpr(name string) (string, []any) {
	if col, ok := filterColumns[strings.ToLower(name)]; ok {
		return col, nil
	}
	return "json_extract(d.fm, ?)", []any{jsonPath(name)}
}
