package docs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// LabelFields are the frontmatter fields that hold an item's labels, as
// repositories write them: labels (Backlog.md, GitHub's word) and tags
// (Kano's).
var LabelFields = []string{"labels", "tags"}

// EachWorkItemLabels is EachWorkItem with each document's labels: the
// items of its labels and tags fields (a list, or one value), in the
// order written, each once. They are read in the same pass over the
// documents, which parses each frontmatter once.
func (s *Docs) EachWorkItemLabels(ctx context.Context, fn func(WorkItem, []string) error) error {
	return s.eachWorkItem(ctx, `, coalesce(json_extract(d.fm, '$.labels', '$.tags'), '[]')`, func(it WorkItem, ls string) error {
		return fn(it, labelsOf(ls))
	})
}

// labelsOf reads the JSON array json_extract gives of the label fields:
// each a list of values or one value (a string of several, split at
// commas, as Backlog.md reads "a, b").
func labelsOf(fields string) []string {
	vs, ok := jsonArray(fields)
	if !ok {
		return nil
	}
	var out []string
	add := func(v any) {
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case float64, bool:
			s = fmt.Sprint(x)
		default:
			return
		}
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" && !containsFold(out, p) {
				out = append(out, p)
			}
		}
	}
	for _, v := range vs {
		if list, ok := v.([]any); ok {
			for _, it := range list {
				add(it)
			}
			continue
		}
		add(v)
	}
	return out
}

func containsFold(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
}

// jsonArray decodes the JSON array json_extract gives of several paths:
// plain strings, nulls and lists of them without encoding/json, anything
// else (an escape, a number, an object) with it.
func jsonArray(s string) ([]any, bool) {
	if vs, ok := plainArray(s, 0); ok {
		return vs, true
	}
	var vs []any
	return vs, json.Unmarshal([]byte(s), &vs) == nil
}

// plainArray reads an array of strings without escapes, nulls and (at
// depth 0) arrays of them; ok false for anything else.
func plainArray(s string, depth int) ([]any, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	var out []any
	for body != "" {
		var v any
		switch {
		case strings.HasPrefix(body, "null"):
			body = body[4:]
		case body[0] == '"':
			end := strings.IndexAny(body[1:], "\\\"")
			if end < 0 || body[1+end] != '"' {
				return nil, false
			}
			v, body = body[1:1+end], body[2+end:]
		case body[0] == '[' && depth == 0:
			end := strings.IndexByte(body, ']')
			if end < 0 {
				return nil, false
			}
			inner, ok := plainArray(body[:end+1], depth+1)
			if !ok {
				return nil, false
			}
			if inner == nil {
				inner = []any{}
			}
			v, body = inner, body[end+1:]
		default:
			return nil, false
		}
		out = append(out, v)
		body = strings.TrimSpace(body)
		if body == "" {
			break
		}
		if body[0] != ',' {
			return nil, false
		}
		body = strings.TrimSpace(body[1:])
		if body == "" {
			return nil, false // a trailing comma
		}
	}
	return out, true
}
