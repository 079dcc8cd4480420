package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// LabelFields are the frontmatter fields that hold an item's labels, as
// repositories write them: labels (Backlog.md, GitHub's word) and tags
// (Kano's).
var LabelFields = []string{"labels", "tags"}

// Labels are the labels of every document that has any, by row id: the
// items of its labels and tags fields (a list, or one value), in the
// order written, each once.
func (s *Store) Labels(ctx context.Context) (map[DocID][]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT d.id, json_extract(d.fm, '$.labels', '$.tags') FROM docs d
		WHERE json_type(d.fm, '$.labels') IS NOT NULL OR json_type(d.fm, '$.tags') IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("read labels: %w", err)
	}
	out := map[DocID][]string{}
	err = eachRow(rows, func(r *sql.Rows) error {
		var id int64
		var fields string
		if err := r.Scan(&id, &fields); err != nil {
			return err
		}
		if ls := labelsOf(fields); len(ls) > 0 {
			out[DocID(id)] = ls
		}
		return nil
	})
	return out, err
}

// labelsOf reads the JSON array json_extract gives of the label fields:
// each a list of values or one value (a string of several, split at
// commas, as Backlog.md reads "a, b").
func labelsOf(fields string) []string {
	var vs []any
	if json.Unmarshal([]byte(fields), &vs) != nil {
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
