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
)

// TOML frontmatter (between "+++" lines), as Hugo writes it: read with
// positions and bounded as YAML's is.

func unmarshalTOML(data []byte, v any) error {
	res := v.(*frontmatterResult)
	res.format = "toml"
	if se := pastBounds(data); se != nil {
		res.err = se
		return nil
	}
	// The TOML decoder takes time quadratic in nesting (3,000 nested
	// inline tables: 1.5 s), so depth is bounded before it runs.
	if line, col, deep := tomlTooDeep(data, MaxFrontmatterDepth); deep {
		res.err = &SyntaxError{Line: line + fmFirstLine - 1, Col: col, Bound: true,
			Msg: fmt.Sprintf("tables, arrays and dotted keys nest more than %d deep here; flatten the data", MaxFrontmatterDepth)}
		return nil
	}
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
	root := tomlValue(m, nil, md.Keys(), lines)
	if depthOf(root) > MaxFrontmatterDepth {
		res.err = &SyntaxError{Line: fmFirstLine, Col: 1, Bound: true,
			Msg: fmt.Sprintf("tables, arrays and dotted keys nest more than %d deep; flatten the data", MaxFrontmatterDepth)}
		return nil
	}
	res.root = root
	return nil
}

// depthOf is how deeply v's lists and mappings nest (a scalar is 0).
func depthOf(v *Value) int {
	d := 0
	for _, it := range v.Items {
		d = max(d, depthOf(it))
	}
	for _, f := range v.Fields {
		d = max(d, depthOf(f.Value))
	}
	if v.Kind == List || v.Kind == Map {
		d++
	}
	return d
}

// tomlTooDeep finds the first place where TOML nests more than limit deep,
// counting arrays, inline tables and the parts of dotted keys and table
// headers. Strings and comments are skipped; the count may run a little
// high (a header's own brackets count), never low.
func tomlTooDeep(data []byte, limit int) (line, col int, deep bool) {
	line, lineStart := 1, 0
	var stack []byte // open '[' and '{'
	keySide := true  // before the '=' of a key/value pair (or in a header)
	dots := 0        // parts of the current dotted key
	header := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line, lineStart = line+1, i+1
			if len(stack) == 0 || header {
				stack, header = stack[:0], false
				keySide, dots = true, 0
			}
		case c == '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = skipTOMLString(data, i, &line, &lineStart)
		case c == '[' || c == '{':
			if len(stack) == 0 && keySide && c == '[' {
				header = true
			}
			stack = append(stack, c)
			if c == '{' {
				keySide, dots = true, 0
			}
		case c == ']' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case c == ',':
			if len(stack) > 0 && stack[len(stack)-1] == '{' {
				keySide, dots = true, 0
			}
		case c == '=':
			if !header {
				keySide = false
			}
		case c == '.' && (keySide || header):
			dots++
		default:
			continue
		}
		if len(stack)+dots > limit {
			return line, i - lineStart + 1, true
		}
	}
	return 0, 0, false
}

// skipTOMLString returns the offset of the last byte of the string that
// starts at data[i]: basic "..." (with escapes), literal '...', and their
// multi-line forms (three quotes of either kind).
func skipTOMLString(data []byte, i int, line, lineStart *int) int {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	j := i + 1
	if multi {
		j = i + 3
	}
	for ; j < len(data); j++ {
		switch data[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case '\n':
			if !multi {
				return j - 1 // an unclosed string: the decoder will say so
			}
			*line, *lineStart = *line+1, j+1
		case q:
			if !multi {
				return j
			}
			if j+2 < len(data) && data[j+1] == q && data[j+2] == q {
				return j + 2
			}
		}
	}
	return len(data) - 1
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
