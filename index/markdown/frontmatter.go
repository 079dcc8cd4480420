package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/adrg/frontmatter"
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
		return strconv.AppendQuote(b, v.Text)
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
			b = strconv.AppendQuote(b, f.Key)
			b = append(b, ':')
			b = f.Value.AppendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// frontmatterResult is what the adrg/frontmatter unmarshal hooks fill in. The
// hooks never fail, so the body is returned even when the YAML is broken.
type frontmatterResult struct {
	format string
	root   *Value
	err    error // a *SyntaxError for broken YAML or TOML
	dups   []Problem
}

// SyntaxError is a frontmatter that does not parse, with its position in the
// file.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// fmFirstLine is the file line of the first frontmatter line: the opening
// delimiter is always line 1.
const fmFirstLine = 2

var formats = []*frontmatter.Format{
	frontmatter.NewFormat("---", "---", unmarshalYAML),
	frontmatter.NewFormat("+++", "+++", unmarshalTOML),
}

func unmarshalYAML(data []byte, v any) error {
	res := v.(*frontmatterResult)
	res.format = "yaml"
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
	res.root = c.convert(&node)
	res.dups = c.dups
	return nil
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

type yamlConverter struct {
	dups []Problem
}

func (c *yamlConverter) convert(n *yaml.Node) *Value {
	line, col := n.Line+fmFirstLine-1, n.Column
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &Value{Kind: Null, Line: line, Col: col}
		}
		return c.convert(n.Content[0])
	case yaml.AliasNode:
		if n.Alias != nil {
			v := c.convert(n.Alias)
			v.Line, v.Col = line, col
			return v
		}
		return &Value{Kind: Null, Line: line, Col: col}
	case yaml.SequenceNode:
		v := &Value{Kind: List, Line: line, Col: col, Items: make([]*Value, 0, len(n.Content))}
		for _, it := range n.Content {
			v.Items = append(v.Items, c.convert(it))
		}
		return v
	case yaml.MappingNode:
		v := &Value{Kind: Map, Line: line, Col: col, Fields: make([]Field, 0, len(n.Content)/2)}
		var seen map[string]int
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			key := k.Value
			if k.Kind != yaml.ScalarNode {
				key = fmt.Sprintf("%v", c.convert(k).AppendJSON(nil))
			}
			if seen == nil {
				seen = make(map[string]int, len(n.Content)/2)
			}
			if first, dup := seen[key]; dup {
				c.dups = append(c.dups, Problem{
					Line: k.Line + fmFirstLine - 1, Col: k.Column, Rule: RuleYAMLSyntax, Severity: Error,
					Message: fmt.Sprintf("key %q appears twice (first on line %d); YAML keeps only one, remove the other", key, first),
				})
				continue
			}
			seen[key] = k.Line + fmFirstLine - 1
			v.Fields = append(v.Fields, Field{Key: key, Line: k.Line + fmFirstLine - 1, Col: k.Column, Value: c.convert(n.Content[i+1])})
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

func unmarshalTOML(data []byte, v any) error {
	res := v.(*frontmatterResult)
	res.format = "toml"
	var m map[string]any
	md, err := toml.Decode(string(data), &m)
	if err != nil {
		se := &SyntaxError{Line: fmFirstLine, Col: 1, Msg: err.Error()}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			se.Line = pe.Position.Line + fmFirstLine - 1
			se.Col = pe.Position.Col
			se.Msg = pe.Message
		}
		res.err = se
		return nil
	}
	lines := tomlKeyLines(data)
	res.root = tomlValue(m, nil, md.Keys(), lines)
	return nil
}

// tomlKeyLines finds the file line of each top-level `key =` so that edges
// declared in TOML frontmatter still point somewhere useful.
func tomlKeyLines(data []byte) map[string]int {
	out := map[string]int{}
	section := ""
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = strings.Trim(t, "[] ") + "."
			continue
		}
		if eq := strings.IndexByte(t, '='); eq > 0 {
			key := section + strings.Trim(strings.TrimSpace(t[:eq]), `"'`)
			if _, ok := out[key]; !ok {
				out[key] = i + fmFirstLine
			}
		}
	}
	return out
}

func tomlValue(x any, prefix toml.Key, order []toml.Key, lines map[string]int) *Value {
	line := lines[prefix.String()]
	col := 0
	if line > 0 {
		col = 1
	}
	switch t := x.(type) {
	case nil:
		return &Value{Kind: Null, Line: line, Col: col}
	case map[string]any:
		v := &Value{Kind: Map, Line: line, Col: col}
		for _, key := range childKeys(t, prefix, order) {
			child := append(append(toml.Key{}, prefix...), key)
			cl := lines[child.String()]
			v.Fields = append(v.Fields, Field{Key: key, Line: cl, Col: min(cl, 1), Value: tomlValue(t[key], child, order, lines)})
		}
		return v
	case []map[string]any:
		v := &Value{Kind: List, Line: line, Col: col}
		for _, it := range t {
			v.Items = append(v.Items, tomlValue(it, prefix, order, lines))
		}
		return v
	case []any:
		v := &Value{Kind: List, Line: line, Col: col}
		for _, it := range t {
			item := tomlValue(it, prefix, order, lines)
			v.Items = append(v.Items, item)
		}
		return v
	case string:
		return &Value{Kind: String, Text: t, Line: line, Col: col}
	case bool:
		return &Value{Kind: Bool, Text: strconv.FormatBool(t), Line: line, Col: col}
	case int64:
		return &Value{Kind: Number, Text: strconv.FormatInt(t, 10), Line: line, Col: col}
	case float64:
		return &Value{Kind: Number, Text: strconv.FormatFloat(t, 'g', -1, 64), Line: line, Col: col}
	case time.Time:
		return &Value{Kind: String, Text: tomlTime(t), Line: line, Col: col}
	}
	return &Value{Kind: String, Text: fmt.Sprint(x), Line: line, Col: col}
}

func tomlTime(t time.Time) string {
	// BurntSushi/toml marks local dates and times by the zone's name.
	switch t.Location().String() {
	case "date-local":
		return t.Format("2006-01-02")
	case "time-local":
		return t.Format("15:04:05.999999999")
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}

// childKeys lists a table's keys in the order the TOML source declares them.
func childKeys(m map[string]any, prefix toml.Key, order []toml.Key) []string {
	pos := make(map[string]int, len(m))
	for i, k := range order {
		if len(k) == len(prefix)+1 && k[:len(prefix)].String() == prefix.String() {
			if _, ok := pos[k[len(prefix)]]; !ok {
				pos[k[len(prefix)]] = i
			}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, oki := pos[keys[i]]
		pj, okj := pos[keys[j]]
		if oki != okj {
			return oki
		}
		if pi != pj {
			return pi < pj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// splitFrontmatter separates the frontmatter from the body. The opening
// delimiter must be the first line (after a BOM), as on GitHub. It returns
// the body, the file line the body starts on, and the parse result (nil when
// there is no frontmatter).
func splitFrontmatter(src []byte) (body []byte, bodyLine int, res *frontmatterResult, unclosed bool) {
	if !startsWithDelimiter(src) {
		return src, 1, nil, false
	}
	res = &frontmatterResult{}
	rest, err := frontmatter.Parse(bytes.NewReader(src), res, formats...)
	if err != nil || res.format == "" {
		// The opening delimiter has no closing one: GitHub shows such a
		// file as a thematic break followed by text, so index it all as body.
		return src, 1, nil, true
	}
	consumed := src[:len(src)-len(rest)]
	return rest, 1 + bytes.Count(consumed, []byte("\n")), res, false
}

func startsWithDelimiter(src []byte) bool {
	line := src
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		line = src[:i]
	}
	line = bytes.TrimRight(line, " \t\r")
	return bytes.Equal(line, []byte("---")) || bytes.Equal(line, []byte("+++"))
}
