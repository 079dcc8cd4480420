package graph

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/canon-md/canon/index"
)

// FieldMove is one frontmatter field a ref changes against HEAD: added
// (Here nil), removed (Ref nil) or set to another value. Values are as
// canon branches shows them: a scalar's text, a list or map as compact
// JSON.
type FieldMove struct {
	Field string  `json:"field"`
	Here  *string `json:"here"`
	Ref   *string `json:"ref"`
}

// maxShownValue is how many characters of a value a field move shows.
const maxShownValue = 60

// fieldMoves compares two frontmatters as docs.fm and RefDoc.FMJSON hold
// them (JSON objects in source order): the fields whose value differs, in
// the ref's order, then those the ref removed in HEAD's. A frontmatter not
// read ("") moves nothing.
func fieldMoves(here, ref string) []FieldMove {
	if here == "" || ref == "" || here == ref {
		return nil
	}
	hk, hv := fieldsOf(here)
	rk, rv := fieldsOf(ref)
	var out []FieldMove
	for _, k := range rk {
		h, had := hv[k]
		if had && bytes.Equal(h, rv[k]) {
			continue
		}
		m := FieldMove{Field: k, Ref: shownValue(rv[k])}
		if had {
			m.Here = shownValue(h)
		}
		out = append(out, m)
	}
	for _, k := range hk {
		if _, has := rv[k]; !has {
			out = append(out, FieldMove{Field: k, Here: shownValue(hv[k])})
		}
	}
	return out
}

// fieldsOf reads a frontmatter's fields in order, each value as its JSON.
// A mapping's fields are fields of their own, named by their path
// ("prs.released"), so a move shows what moved in it (to maxFieldDepth);
// a list is one value. Anything but an object (null: no frontmatter) has
// none; a key written twice keeps its last value, as the index reads it.
func fieldsOf(fm string) ([]string, map[string]json.RawMessage) {
	vals := map[string]json.RawMessage{}
	var keys []string
	var walk func(prefix string, raw json.RawMessage, depth int)
	walk = func(prefix string, raw json.RawMessage, depth int) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return
			}
			k, _ := t.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return
			}
			if prefix != "" {
				k = prefix + "." + k
			}
			if depth < maxFieldDepth && len(v) > 2 && v[0] == '{' {
				walk(k, v, depth+1)
				continue
			}
			if _, seen := vals[k]; !seen {
				keys = append(keys, k)
			}
			vals[k] = v
		}
	}
	walk("", json.RawMessage(fm), 1)
	return keys, vals
}

// maxFieldDepth is how deep fieldsOf names a mapping's fields: deeper
// mappings are one value.
const maxFieldDepth = 3

// shownValue is a value as a field move shows it, cut at maxShownValue
// characters.
func shownValue(v json.RawMessage) *string {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		var c bytes.Buffer
		if json.Compact(&c, v) != nil {
			c.Reset()
			c.Write(v)
		}
		s = c.String()
	}
	if utf8.RuneCountInString(s) > maxShownValue {
		s = string([]rune(s)[:maxShownValue-1]) + "…"
	}
	return &s
}

// frontmatterMoves is what a branch move shows of its fields besides
// state, assignee and title: every other frontmatter field that moved. A
// field whose move is said already is left out: the field that holds
// the state when the state moved to its value, the assignee's fields
// when the assignee moved, the title when it moved.
func frontmatterMoves(o index.OverlayDoc, fields []string) []FieldMove {
	said := map[string]bool{}
	for _, f := range fields {
		said[f] = true
	}
	all := fieldMoves(o.Here.FMJSON, o.FMJSON)
	out := all[:0]
	for _, m := range all {
		switch {
		case said["state"] && m.Here != nil && m.Ref != nil && *m.Here == o.Here.State && *m.Ref == o.State:
		case said["assignee"] && isAssigneeField(m.Field):
		case said["title"] && m.Field == "title":
		default:
			out = append(out, m)
		}
	}
	return out
}

func isAssigneeField(f string) bool {
	for _, a := range index.AssigneeFields {
		if f == a {
			return true
		}
	}
	return false
}
