package check

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Decoding what the index stored of each document (frontmatter as JSON,
// field positions), for every document of check --all: json.Unmarshal
// into maps (reflection, a map per document) was a third of its time.
// The fast paths take the JSON encoding/json writes and split it into
// members in place; anything else (an escaped or invalid key, a value of
// another shape, JSON that is not valid) goes to json.Unmarshal itself,
// errors included, so both read the same.

// fields are the top-level members of a stored JSON object, in order.
type fields []field

type field struct{ key, val []byte }

// get finds a member's value; of a key written twice, the last counts
// (as json.Unmarshal has it).
func (fs fields) get(key string) (json.RawMessage, bool) {
	for i := len(fs) - 1; i >= 0; i-- {
		if string(fs[i].key) == key {
			return fs[i].val, true
		}
	}
	return nil, false
}

// decodeObject splits a JSON object into its members, as json.Unmarshal
// into a map[string]json.RawMessage reads it.
func decodeObject(raw string) (fields, error) {
	b := []byte(raw)
	if json.Valid(b) {
		fs := make(fields, 0, 8)
		if eachMember(b, func(key, val []byte) bool {
			fs = append(fs, field{key, val})
			return true
		}) {
			return fs, nil
		}
	}
	var m map[string]json.RawMessage
	err := json.Unmarshal(b, &m)
	fs := make(fields, 0, len(m))
	for k, v := range m {
		fs = append(fs, field{[]byte(k), v})
	}
	return fs, err
}

// positions are where each top-level field of a document is written.
type positions []position

type position struct {
	key []byte
	at  [2]int // line, column
}

// get finds a field's position ([0, 0] for none).
func (ps positions) get(key string) ([2]int, bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		if string(ps[i].key) == key {
			return ps[i].at, true
		}
	}
	return [2]int{}, false
}

// decodePositions reads field positions ({"field": [line, col]}), as
// json.Unmarshal into a map[string][2]int does.
func decodePositions(raw string) (positions, error) {
	b := []byte(raw)
	if json.Valid(b) {
		ps := make(positions, 0, 8)
		if eachMember(b, func(key, val []byte) bool {
			line, rest, okLine := leadingInt(val, '[', ',')
			col, rest, okCol := leadingInt(rest, 0, ']')
			ps = append(ps, position{key, [2]int{line, col}})
			return okLine && okCol && len(rest) == 0
		}) {
			return ps, nil
		}
	}
	var m map[string][2]int
	err := json.Unmarshal(b, &m)
	ps := make(positions, 0, len(m))
	for k, v := range m {
		ps = append(ps, position{[]byte(k), v})
	}
	return ps, err
}

// leadingInt reads opener (unless 0), a decimal integer and closer from
// the front of b, and returns the rest.
func leadingInt(b []byte, opener, closer byte) (int, []byte, bool) {
	if opener != 0 {
		if len(b) == 0 || b[0] != opener {
			return 0, nil, false
		}
		b = b[1:]
	}
	end := bytes.IndexByte(b, closer)
	if end < 1 || end > 18 {
		return 0, nil, false
	}
	n, err := strconv.Atoi(string(b[:end]))
	return n, b[end+1:], err == nil
}

// eachMember calls fn with each member of b, a valid JSON object, while
// fn returns true, and reports whether it went through all: false too
// when b is not an object or a key has an escape or bytes that are not
// UTF-8 (json.Unmarshal rewrites those).
func eachMember(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if b[i] == '}' {
		return true
	}
	for {
		end := endOfString(b, i)
		key := b[i+1 : end-1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			return false
		}
		i = skipSpace(b, skipSpace(b, end)+1) // past the colon
		end = endOfValue(b, i)
		if !fn(key, b[i:end:end]) {
			return false
		}
		i = skipSpace(b, end)
		if b[i] == '}' {
			return true
		}
		i = skipSpace(b, i+1) // past the comma
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// endOfString is the index after the string that starts at b[i].
func endOfString(b []byte, i int) int {
	for i++; b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// endOfValue is the index after the value that starts at b[i].
func endOfValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return endOfString(b, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch b[i] {
			case '"':
				i = endOfString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}

// decodeValue decodes one value as json.Unmarshal into an any does: a
// string without escapes directly.
func decodeValue(raw json.RawMessage) (any, error) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var v any
	err := json.Unmarshal(raw, &v)
	return v, err
}
