package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// frontmatterLines renders frontmatter JSON (in source order) as YAML-like
// lines for people: nested mappings indented, lists of scalars inline.
func frontmatterLines(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	renderObject(dec, "", &out)
	return out
}

func renderObject(dec *json.Decoder, indent string, out *[]string) {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		key := fmt.Sprint(tok)
		val, err := dec.Token()
		if err != nil {
			return
		}
		switch val {
		case json.Delim('{'):
			*out = append(*out, indent+key+":")
			renderObject(dec, indent+"  ", out)
		case json.Delim('['):
			*out = append(*out, indent+key+": "+renderArray(dec))
		default:
			*out = append(*out, indent+key+": "+scalar(val))
		}
	}
	dec.Token() // the closing }
}

func renderArray(dec *json.Decoder) string {
	var items []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('['):
			items = append(items, renderArray(dec))
		case json.Delim('{'):
			var nested []string
			renderObject(dec, "", &nested)
			items = append(items, "{"+strings.Join(nested, ", ")+"}")
		default:
			items = append(items, scalar(tok))
		}
	}
	dec.Token() // the closing ]
	return "[" + strings.Join(items, ", ") + "]"
}

func scalar(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case string:
		return v
	}
	return fmt.Sprint(tok)
}
