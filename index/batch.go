package index

import (
	"context"
	"database/sql"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/resolve"
)

// queryIn runs query (with one %s for the IN list) over vals in batches in
// the writer's transaction, calling scan for every row.
func (w *writer) queryIn(query string, vals []any, scan func(*sql.Rows) error) error {
	return sqlstore.EachIn(context.Background(), w.tx, query, nil, vals, nil, scan)
}

// execIn runs a statement (with one %s for the IN list) over vals in batches.
func (w *writer) execIn(query string, vals []any) error {
	return sqlstore.Batches(vals, strings.Count(query, "%s"), 0, func(part []any) error {
		_, err := w.tx.Exec(sqlstore.InList(query, len(part)), part...)
		return err
	})
}

// prefetchAliases loads every document named by the given alias terms in a
// few statements, so that resolving a batch of links needs no query per link.
func (w *writer) prefetchAliases(terms map[string]bool) (resolve.MemAliases, error) {
	m := make(resolve.MemAliases, len(terms))
	want := map[string]bool{}
	for t := range terms {
		want[resolve.StoredAlias(t)] = true
	}
	vals := make([]any, 0, len(want))
	for t := range want {
		m[t] = nil // known: absent unless a row says otherwise
		if w.olds == nil && strings.HasPrefix(t, "was:") {
			continue // no prefixes configured: no document has such an alias
		}
		vals = append(vals, t)
	}
	err := w.queryIn(`SELECT a.term, a.doc, d.uid, d.path FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term IN (%s) ORDER BY a.doc`, vals,
		func(rows *sql.Rows) error {
			var t string
			var d resolve.Doc
			if err := rows.Scan(&t, &d.ID, &d.UID, &d.Path); err != nil {
				return err
			}
			m[t] = append(m[t], d)
			return nil
		})
	return m, err
}
