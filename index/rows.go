package index

import (
	"context"
	"database/sql"
	"strings"
)

// The row loop every query of the index shares. database/sql ends a
// rows.Next loop on the last row and on a failed step alike; only rows.Err
// tells them apart, and a loop that forgets it returns half an answer as
// if it were whole. Loops go through eachRow, so none forgets.

// eachRow calls fn for every row, closes rows, and returns the error that
// ended the iteration: fn's, or the one rows.Err reports.
func eachRow(rows *sql.Rows, fn func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanAll reads every row into a T with scan (see eachRow).
func scanAll[T any](rows *sql.Rows, scan func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err := eachRow(rows, func(r *sql.Rows) error {
		v, err := scan(r)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// marks is n comma-separated placeholders.
func marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// eachIn runs query, whose first %s stands for an IN list, over vals in
// batches of batchSize, with pre before and post after the list's
// arguments, calling fn for every row of every batch.
func eachIn(ctx context.Context, q Querier, query string, pre, vals, post []any, fn func(*sql.Rows) error) error {
	for start := 0; start < len(vals); start += batchSize {
		part := vals[start:min(start+batchSize, len(vals))]
		args := make([]any, 0, len(pre)+len(part)+len(post))
		args = append(append(append(args, pre...), part...), post...)
		rows, err := q.QueryContext(ctx, strings.Replace(query, "%s", marks(len(part)), 1), args...)
		if err != nil {
			return err
		}
		if err := eachRow(rows, fn); err != nil {
			return err
		}
	}
	return nil
}

// keyValues reads a two-column key and value table (meta, a workset's
// manifest) into a map.
func keyValues(rows *sql.Rows) (map[string]string, error) {
	out := map[string]string{}
	err := eachRow(rows, func(r *sql.Rows) error {
		var k, v string
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		out[k] = v
		return nil
	})
	return out, err
}
