package index

import (
	"database/sql"
	"fmt"
	"strings"
)

// batchSize bounds the number of values in one IN (...) list.
const batchSize = 500

// anys turns a slice into query arguments.
func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// inList fills the %s of query with placeholders for up to batchSize
// values at a time: one statement per batch instead of one per value,
// which is what makes an update touching a thousand documents cheap.
func inList(query string, n int) string {
	return fmt.Sprintf(query, strings.TrimSuffix(strings.Repeat("?, ", n), ", "))
}

// queryIn runs query (with one %s for the IN list) over vals in batches,
// calling scan for every row.
func (w *writer) queryIn(query string, vals []any, scan func(*sql.Rows) error) error {
	for start := 0; start < len(vals); start += batchSize {
		part := vals[start:min(start+batchSize, len(vals))]
		rows, err := w.tx.Query(inList(query, len(part)), part...)
		if err != nil {
			return err
		}
		if err := eachRow(rows, scan); err != nil {
			return err
		}
	}
	return nil
}

// execIn runs a statement (with one %s for the IN list) over vals in batches.
func (w *writer) execIn(query string, vals []any) error {
	for start := 0; start < len(vals); start += batchSize {
		part := vals[start:min(start+batchSize, len(vals))]
		if _, err := w.tx.Exec(inList(query, len(part)), part...); err != nil {
			return err
		}
	}
	return nil
}

// prefetchAliases loads every document named by the given alias terms in a
// few statements, so that resolving a batch of links needs no query per link.
func (w *writer) prefetchAliases(terms map[string]bool) (memAliases, error) {
	m := make(memAliases, len(terms))
	want := map[string]bool{}
	for t := range terms {
		alias, _ := stored(t)
		want[alias] = true
	}
	vals := make([]any, 0, len(want))
	for t := range want {
		m[t] = nil // known: absent unless a row says otherwise
		vals = append(vals, t)
	}
	err := w.queryIn(`SELECT a.term, a.doc, d.uid, d.path FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term IN (%s) ORDER BY a.doc`, vals,
		func(rows *sql.Rows) error {
			var t string
			var d aliasDoc
			if err := rows.Scan(&t, &d.id, &d.uid, &d.path); err != nil {
				return err
			}
			m[t] = append(m[t], d)
			return nil
		})
	return m, err
}
