package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// ValueKind says what a frontmatter value is.
type ValueKind uint8

const (
	Null ValueKind = iota
	String
	Number
	Bool
	List
	Map
)

// Value is one frontmatter value with its position in the file. Scalars keep
// the text as written, so `created: 2025-01-12` stays "2025-01-12" and
// `owner: 'None'` stays "None".
type Value struct {
	Kind   ValueKind
	Text   string   // scalars: as written (quotes removed)
	Items  []*Value // List
	Fields []Field  // Map, in source order
	Line   int      // 1-based line in the file; 0 when unknown
	Col    int      // 1-based column in code points; 0 when unknown
}

// Field is one key of a mapping.
type Field struct {
	Key   string
	Line  int
	Col   int
	Value *Value
}

// Get returns the value at a dotted path ("links.blocks"), or nil.
func (v *Value) Get(path string) *Value {
	cur := v
	for _, part := range strings.Split(path, ".") {
		if cur == nil || cur.Kind != Map {
			return nil
		}
		var next *Value
		for i := range cur.Fields {
			if cur.Fields[i].Key == part {
				next = cur.Fields[i].Value
				break
			}
		}
		cur = next
	}
	return cur
}

// Field returns the field named key of a mapping, or nil.
func (v *Value) Field(key string) *Field {
	if v == nil || v.Kind != Map {
		return nil
	}
	for i := range v.Fields {
		if v.Fields[i].Key == key {
			return &v.Fields[i]
		}
	}
	return nil
}

// Scalar returns the text of a scalar value and whether it is one.
func (v *Value) Scalar() (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case String, Number, Bool:
		return v.Text, true
	}
	return "", false
}

// AppendJSON writes v as JSON, mappings in source order. The output is a pure
// function of the value, so it is the same on every build.
func (v *Value) AppendJSON(b []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return append(b, v.Text...)
	case Number:
		return append(b, v.Text...)
	case String:
		return appendJSONString(b, v.Text)
	case List:
		b = append(b, '[')
		for i, it := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.AppendJSON(b)
		}
		return append(b, ']')
	case Map:
		b = append(b, '{')
		for i, f := range v.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, f.Key)
			b = append(b, ':')
			b = f.Value.AppendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// appendJSONString writes s as a JSON string. (strconv.AppendQuote writes
// Go's escapes, \x7f among them, which are not JSON.) Invalid UTF-8
// becomes U+FFFD, as encoding/json does.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// frontmatterResult is what the unmarshal hooks (unmarshalYAML,
// unmarshalTOML) fill in. The hooks never fail, so the body is returned
// even when the YAML is broken.
type frontmatterResult struct {
	format string
	root   *Value
	err    error // a *SyntaxError for broken YAML or TOML
	dups   []Problem
	// dropped are top-level fields left out (their value null) because
	// they crossed a bound: the other fields are still read.
	dropped []Problem
	// textFields are quoted before YAML parses them (QuoteTextFields).
	textFields []string
}

// SyntaxError is a frontmatter that does not parse, with its position in the
// file.
type SyntaxError struct {
	Line, Col int
	Msg       string
	// Bound is set when the frontmatter may be valid but crosses one of
	// canon's bounds (size, depth, aliases): Msg then carries its own fix.
	Bound bool
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// fmFirstLine is the file line of the first frontmatter line: the opening
// delimiter is always line 1.
const fmFirstLine = 2

// Bounds on what a frontmatter may make canon do. A cloned repository is
// input from whoever wrote it: nine lines of YAML aliases can stand for
// billions of values, and a self-referencing alias for infinitely many.
// Each bound is far above anything a person writes and far below what a
// later consumer tolerates (SQLite's JSON functions stop at depth 1,000).
const (
	// MaxFrontmatterBytes is the largest frontmatter canon parses.
	MaxFrontmatterBytes = 1 << 20
	// MaxFrontmatterDepth is how deeply lists and mappings may nest.
	MaxFrontmatterDepth = 64
	// MaxAliasValues is how many values all alias expansions of one
	// frontmatter may produce together.
	MaxAliasValues = 10_000
	// MaxFrontmatterValues is how many values a frontmatter may write
	// out: a 1 MB flow list of 500,000 one-letter items cost a second of
	// CPU and 90 MB to read, and 62 of them in one merge two minutes of
	// the post-merge hook; 100,000 cost a fifth of that. Counted before
	// the parse (frontmatterValues).
	MaxFrontmatterValues = 100_000
)

// frontmatterValues is at most how many values data can write: each one
// but the first follows a comma, a line break or an opening bracket. A
// comma inside a quoted text counts too: a frontmatter of prose would
// need more bytes than MaxFrontmatterBytes to reach the bound.
func frontmatterValues(data []byte) int {
	n := 1
	for _, c := range data {
		switch c {
		case ',', '\n', '[', '{':
			n++
		}
	}
	return n
}

func unmarshalYAML(data []byte, v any) error {
	res := v.(*frontmatterResult)
	res.format = "yaml"
	if se := pastBounds(data); se != nil {
		res.err = se
		return nil
	}
	if len(res.textFields) > 0 {
		data = QuoteTextFields(data, res.textFields)
	}
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		res.err = yamlSyntaxError(err)
		return nil
	}
	if node.Kind == 0 || (node.Kind == yaml.DocumentNode && len(node.Content) == 0) {
		res.root = &Value{Kind: Map, Line: fmFirstLine, Col: 1}
		return nil
	}
	c := yamlConverter{}
	root := c.convert(&node, 0)
	if c.err != nil {
		res.err = c.err
		return nil
	}
	res.root = root
	res.dups = c.dups
	res.dropped = c.droppedProblems()
	return nil
}

// pastBounds says why data is not parsed when it is longer than
// MaxFrontmatterBytes or may write more than MaxFrontmatterValues values;
// nil when it may be. YAML's and TOML's readers ask it first.
func pastBounds(data []byte) *SyntaxError {
	if len(data) > MaxFrontmatterBytes {
		return tooLarge(len(data))
	}
	if n := frontmatterValues(data); n > MaxFrontmatterValues {
		return &SyntaxError{Line: fmFirstLine, Col: 1, Bound: true, Msg: fmt.Sprintf("it holds up to %s values, more than the %s canon reads; move the data into the body or a file of its own",
			thousands(n), thousands(MaxFrontmatterValues))}
	}
	return nil
}

func tooLarge(n int) *SyntaxError {
	return &SyntaxError{Line: fmFirstLine, Col: 1, Bound: true, Msg: fmt.Sprintf("it is %s, larger than the %s canon reads; move the data into the body or a file of its own",
		byteSize(n), byteSize(MaxFrontmatterBytes))}
}

func byteSize(n int) string {
	return thousands((n+1023)>>10) + " KiB"
}

func yamlSyntaxError(err error) *SyntaxError {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		line, col := le.Mark.Line, le.Mark.Column
		if line < 1 {
			line = 1
		}
		if col < 1 {
			col = 1
		}
		return &SyntaxError{Line: line + fmFirstLine - 1, Col: col, Msg: le.Message}
	}
	return &SyntaxError{Line: fmFirstLine, Col: 1, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
}

// yamlConverter turns a YAML node tree into Values within the bounds above.
// The first bound crossed stops it: err says where, and the frontmatter
// counts as unreadable, as a syntax error would.
type yamlConverter struct {
	dups        []Problem
	err         *SyntaxError
	aliasValues int                 // values made while expanding aliases
	expanding   map[*yaml.Node]bool // anchored nodes being expanded (a cycle when met again)
	inAlias     int                 // how many alias expansions enclose the current node
	outer       *yaml.Node          // the outermost alias being expanded: where a budget error points
	dropped     []droppedField      // top-level fields that crossed a bound
}

type droppedField struct {
	key       string
	line, col int
	why       string
}

// droppedProblems reports the dropped fields, one problem per cause at its
// first place: once the alias budget is spent, every later alias trips it.
func (c *yamlConverter) droppedProblems() []Problem {
	var out []Problem
	var keys [][]string
	at := map[string]int{}
	for _, d := range c.dropped {
		i, ok := at[d.why]
		if !ok {
			i = len(out)
			at[d.why] = i
			out = append(out, Problem{Line: d.line, Col: d.col, Rule: RuleYAMLSyntax, Severity: Error, Message: d.why})
			keys = append(keys, nil)
		}
		keys[i] = append(keys[i], d.key)
	}
	for i := range out {
		if k := keys[i]; len(k) == 1 {
			out[i].Message = fmt.Sprintf("field %s is not read: %s", k[0], out[i].Message)
		} else {
			out[i].Message = fmt.Sprintf("fields %s and %s are not read: %s", strings.Join(k[:len(k)-1], ", "), k[len(k)-1], out[i].Message)
		}
	}
	return out
}

func (c *yamlConverter) fail(n *yaml.Node, format string, args ...any) *Value {
	if c.inAlias > 0 {
		n = c.outer // inside an expansion: point at the alias that asked for it
	}
	if c.err == nil {
		c.err = &SyntaxError{Line: n.Line + fmFirstLine - 1, Col: max(n.Column, 1), Msg: fmt.Sprintf(format, args...), Bound: true}
	}
	return &Value{Kind: Null}
}

func (c *yamlConverter) convert(n *yaml.Node, depth int) *Value {
	if c.err != nil {
		return &Value{Kind: Null}
	}
	if c.inAlias > 0 {
		if c.aliasValues++; c.aliasValues > MaxAliasValues {
			return c.fail(n, "aliases expand to more than 10,000 values; write the values out instead of nesting aliases")
		}
	}
	line, col := n.Line+fmFirstLine-1, n.Column
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &Value{Kind: Null, Line: line, Col: col}
		}
		return c.convert(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return &Value{Kind: Null, Line: line, Col: col}
		}
		if _, cycle := c.expanding[n.Alias]; cycle {
			return c.fail(n, "alias *%s refers to a value that contains it, so it never ends; replace the alias with the values", n.Value)
		}
		if c.expanding == nil {
			c.expanding = map[*yaml.Node]bool{}
		}
		c.expanding[n.Alias] = true
		if c.inAlias == 0 {
			c.outer = n
		}
		c.inAlias++
		v := c.convert(n.Alias, depth)
		c.inAlias--
		delete(c.expanding, n.Alias)
		if c.err != nil {
			return v
		}
		// The alias is a copy placed here: the copy gets this position,
		// the anchored original keeps its own.
		cp := *v
		cp.Line, cp.Col = line, col
		return &cp
	case yaml.SequenceNode:
		if depth >= MaxFrontmatterDepth {
			return c.fail(n, "lists and mappings nest more than %d deep here; flatten the data", MaxFrontmatterDepth)
		}
		v := &Value{Kind: List, Line: line, Col: col, Items: make([]*Value, 0, len(n.Content))}
		for _, it := range n.Content {
			v.Items = append(v.Items, c.convert(it, depth+1))
		}
		return v
	case yaml.MappingNode:
		if depth >= MaxFrontmatterDepth {
			return c.fail(n, "lists and mappings nest more than %d deep here; flatten the data", MaxFrontmatterDepth)
		}
		v := &Value{Kind: Map, Line: line, Col: col, Fields: make([]Field, 0, len(n.Content)/2)}
		var seen map[string]int
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			key := k.Value
			if k.Kind != yaml.ScalarNode {
				key = string(c.convert(k, depth+1).AppendJSON(nil))
			}
			if c.err != nil {
				return v
			}
			if seen == nil {
				seen = make(map[string]int, len(n.Content)/2)
			}
			if first, dup := seen[key]; dup {
				if c.inAlias == 0 { // reported once, where it is written
					c.dups = append(c.dups, Problem{
						Line: k.Line + fmFirstLine - 1, Col: k.Column, Rule: RuleYAMLSyntax, Severity: Error,
						Message: fmt.Sprintf("key %q appears twice (first on line %d); YAML keeps only one, remove the other", key, first),
					})
				}
				continue
			}
			seen[key] = k.Line + fmFirstLine - 1
			val := c.convert(n.Content[i+1], depth+1)
			if c.err != nil && depth == 0 && c.inAlias == 0 {
				// One field crossed a bound: keep the others.
				c.dropped = append(c.dropped, droppedField{key: key, line: c.err.Line, col: c.err.Col, why: c.err.Msg})
				c.err = nil
				val = &Value{Kind: Null, Line: k.Line + fmFirstLine - 1, Col: k.Column}
			}
			v.Fields = append(v.Fields, Field{Key: key, Line: k.Line + fmFirstLine - 1, Col: k.Column, Value: val})
		}
		return v
	case yaml.ScalarNode:
		return scalarValue(n, line, col)
	}
	return &Value{Kind: Null, Line: line, Col: col}
}

func scalarValue(n *yaml.Node, line, col int) *Value {
	v := &Value{Kind: String, Text: n.Value, Line: line, Col: col}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return v
	}
	switch n.ShortTag() {
	case "!!null":
		v.Kind, v.Text = Null, ""
	case "!!bool":
		if b, err := strconv.ParseBool(strings.ToLower(n.Value)); err == nil {
			v.Kind, v.Text = Bool, strconv.FormatBool(b)
		}
	case "!!int", "!!float":
		if jsonNumber(n.Value) {
			v.Kind = Number
		}
	}
	return v
}

// jsonNumber reports whether s is already a valid JSON number, so it can be
// written as one without changing a character.
func jsonNumber(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
		return false // leading zero: keep "007" as text
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// splitFrontmatter separates the frontmatter from the body. The opening
// delimiter must be the first line (after a BOM), as on GitHub. It returns
// the body, the file line the body starts on, and the parse result (nil when
// there is no frontmatter).
//
// It reads the lines as adrg/frontmatter did (frontmatter_test.go holds it
// to that): the opening line must end in a newline, and the closing one is
// the first line that is the same delimiter once spaces are trimmed from
// both ends. The body is the rest of src, not a copy: the library copied
// every file whole, a sixth of what a full build allocated.
func splitFrontmatter(src []byte, textFields []string) (body []byte, bodyLine int, res *frontmatterResult, unclosed bool) {
	if !startsWithDelimiter(src) {
		return src, 1, nil, false
	}
	open := bytes.IndexByte(src, '\n')
	if open < 0 {
		return src, 1, nil, true // the delimiter alone: nothing closes it
	}
	delim, unmarshal := "---", unmarshalYAML
	if string(bytes.TrimSpace(src[:open])) == "+++" {
		delim, unmarshal = "+++", unmarshalTOML
	}
	start := open + 1
	for at := start; ; {
		next, last := len(src), true
		if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
			next, last = at+i+1, false
		}
		if string(bytes.TrimSpace(src[at:next])) == delim {
			res = &frontmatterResult{textFields: textFields}
			if err := unmarshal(src[start:at:at], res); err != nil || res.format == "" {
				return src, 1, nil, true
			}
			return src[next:], 1 + bytes.Count(src[:next], []byte("\n")), res, false
		}
		if last {
			// The opening delimiter has no closing one: GitHub shows such
			// a file as a thematic break followed by text, so index it all
			// as body.
			return src, 1, nil, true
		}
		at = next
	}
}

func startsWithDelimiter(src []byte) bool {
	line := src
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		line = src[:i]
	}
	line = bytes.TrimRight(line, " \t\r")
	return bytes.Equal(line, []byte("---")) || bytes.Equal(line, []byte("+++"))
}
