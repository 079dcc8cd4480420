package sqlstore

import (
	"database/sql"
)

// The row loop every query of the index shares. database/sql ends a
// rows.Next loop on the last row and on a failed step alike; only rows.Err
// tells them apart, and a loop that forgets it returns half an answer as
// if it were whole. Loops go through EachRow, so none forgets.

// EachRow calls fn for every row, closes rows, and returns the error that
// ended the iteration: fn's, or the one rows.Err reports.
func EachRow(rows *sql.Rows, fn func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ScanAll reads every row into a T with scan (see EachRow).
func ScanAll[T any](rows *sql.Rows, scan func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err := EachRow(rows, func(r *sql.Rows) error {
		v, err := scan(r)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// KeyValues reads a two-column key and value table (meta, a workset's
// manifest) into a map.
func KeyValues(rows *sql.Rows) (map[string]string, error) {
	out := map[string]string{}
	err := EachRow(rows, func(r *sql.Rows) error {
		var k, v string
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		out[k] = v
		return nil
	})
	return out, err
}
