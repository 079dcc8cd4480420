package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// The id series in SQL (ADR-0085): canon new and canon id next at 100k
// documents read the few rows they need through expression indexes
// (schema.go: docs_series, docs_series_width, docs_kind_series,
// docs_named) instead of every id. SQL only narrows and orders: the
// callers split each id they read with ids.Split as before, so an id
// the expressions read otherwise (no digits, more than 18) is told
// apart in Go.

// seriesPrefix is an id without its trailing digits, lower-cased (ASCII):
// kb-tsk- of KB-TSK-0012, back-12. of BACK-12.1.
const seriesPrefix = `lower(rtrim(ident, '0123456789'))`

// seriesNumber is the number of an id's trailing digits (0 for none).
const seriesNumber = `CAST(substr(ident, length(rtrim(ident, '0123456789')) + 1) AS INTEGER)`

// namedPath holds every path whose file name may carry an id
// (resolve.FileID): "task-35 - Fix-x.md", adr-004-x.md, a stem ending in
// a digit (task-35.md); more, never fewer.
const namedPath = `(path LIKE '% - %' OR path LIKE '%adr-%' OR substr(path, -4, 1) GLOB '[0-9]' OR substr(path, -1, 1) GLOB '[0-9]')`

// fileName is a path's file name (what follows its last slash),
// lower-cased (ASCII): the key of docs_named, so that the names that
// start with one series' prefix are a range of it.
const fileName = `lower(substr(path, length(rtrim(path, replace(path, '/', ''))) + 1))`

// namedOfSeries is NamedPathsOf's statement: a range of docs_named.
const namedOfSeries = `SELECT path FROM docs WHERE ` + namedPath + ` AND ` + fileName + ` >= ? AND ` + fileName + ` < ?`

// SeriesCount is how many documents of a kind carry ids that, without
// their trailing digits, read Prefix (as written), with Digits digits.
type SeriesCount struct {
	Prefix    string
	Digits, N int
}

// SeriesCounts counts the ids of the documents whose kind is kind
// (lower-cased, ASCII) by prefix and number of digits: ids.PrefixOf's
// count, from the docs_kind_series index.
func (s *Store) SeriesCounts(ctx context.Context, kind string) ([]SeriesCount, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT rtrim(ident, '0123456789'), length(ident), count(*) FROM docs
		WHERE lower(kind) = ? AND ident <> '' GROUP BY rtrim(ident, '0123456789'), length(ident)`, kind)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (SeriesCount, error) {
		var c SeriesCount
		var n int
		err := r.Scan(&c.Prefix, &n, &c.N)
		c.Digits = n - len(c.Prefix)
		return c, err
	})
}

// OnlyPrefix is the one prefix (as written, trailing digits off) the ids
// of the documents of kind (lower-cased, ASCII) carry with 1 to 18 digits,
// from two ends of docs_kind_series and a lookup: ok is false when they
// carry two or more prefixes, or none (SeriesCounts counts them).
func (s *Store) OnlyPrefix(ctx context.Context, kind string) (prefix string, ok bool, err error) {
	var lo, hi sql.NullString
	const q = `SELECT %s(rtrim(ident, '0123456789')) FROM docs WHERE lower(kind) = ? AND rtrim(ident, '0123456789') > ''`
	if err := s.h.DB.QueryRowContext(ctx, fmt.Sprintf(q, "min"), kind).Scan(&lo); err != nil || !lo.Valid {
		return "", false, err
	}
	if err := s.h.DB.QueryRowContext(ctx, fmt.Sprintf(q, "max"), kind).Scan(&hi); err != nil || hi.String != lo.String {
		return "", false, err
	}
	var one int
	err = s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM docs WHERE lower(kind) = ? AND rtrim(ident, '0123456789') = ? AND length(ident) BETWEEN ? AND ? LIMIT 1`,
		kind, lo.String, len(lo.String)+1, len(lo.String)+18).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return lo.String, err == nil, err
}

// EachOfSeries calls fn with the ids (and paths and kinds) whose prefix
// is prefix (lower-cased), the highest number first, then by path, until
// fn says stop.
func (s *Store) EachOfSeries(ctx context.Context, prefix string, fn func(ident, path, kind string) (bool, error)) error {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT ident, path, kind FROM docs WHERE `+seriesPrefix+` = ? ORDER BY `+seriesNumber+` DESC, path`, prefix)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var ident, p, kind string
		if err := rows.Scan(&ident, &p, &kind); err != nil {
			return err
		}
		if more, err := fn(ident, p, kind); err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

// LongestOfSeries is the longest id whose prefix is prefix (lower-cased)
// and that is shorter than below: "" when none.
func (s *Store) LongestOfSeries(ctx context.Context, prefix string, below int) (string, error) {
	var ident string
	err := s.h.DB.QueryRowContext(ctx, `SELECT ident FROM docs WHERE `+seriesPrefix+` = ? AND length(ident) < ? ORDER BY length(ident) DESC LIMIT 1`, prefix, below).Scan(&ident)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return ident, err
}

// IdentsUnder lists the ids (with paths and kinds) whose prefix starts
// with prefix (lower-cased) and is longer: the children of a series
// (back-12. of BACK-12.1 under back-) and the longer prefixes beside it.
func (s *Store) IdentsUnder(ctx context.Context, prefix string) ([]IdentKind, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT ident, path, kind FROM docs WHERE `+seriesPrefix+` > ? AND `+seriesPrefix+` < ? ORDER BY path`, prefix, prefix+"\U0010FFFF")
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (IdentKind, error) {
		var d IdentKind
		return d, r.Scan(&d.Ident, &d.Path, &d.Kind)
	})
}

// IdentKind is a document's id, path and kind.
type IdentKind struct{ Ident, Path, Kind string }

// NamedPathsOf lists the paths whose file names may carry an id (namedPath:
// a superset of those resolve.FileID reads one from) and start with prefix
// (lower-cased, ASCII, not empty), from a range of the partial index
// docs_named: the few that can hold an id of one series, however many
// documents the repository has.
func (s *Store) NamedPathsOf(ctx context.Context, prefix string) ([]string, error) {
	end := prefix[:len(prefix)-1] + string(rune(prefix[len(prefix)-1]+1))
	rows, err := s.h.DB.QueryContext(ctx, namedOfSeries, prefix, end)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		return p, r.Scan(&p)
	})
}
