package index

import (
	"context"
	"database/sql"
)

// IdentDoc is a document with an id: what canon id rename, id fix and
// id next read of the index.
type IdentDoc struct {
	Key, Path, Ident, UID string
	Kind                  string
	IdentLine             int
}

// IdentDocs lists every document that has an id, by path.
func (s *Store) IdentDocs(ctx context.Context) ([]IdentDoc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, path, ident, uid, kind, ident_line FROM docs WHERE ident <> '' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (IdentDoc, error) {
		var d IdentDoc
		return d, r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
	})
}
