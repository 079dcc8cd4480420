package index

import (
	"context"
	"database/sql"
	"errors"
)

// Helpers for the packages that read the index's tables directly (graph,
// workset): they build the same DocRef every other output shows.

// DocRefColumns selects, from docs aliased d, the columns ScanDocRef reads.
const DocRefColumns = docRefCols

// MakeDocRef builds a DocRef from docs columns, with the display-id and
// title fallbacks (the file stem) that every output uses.
func MakeDocRef(key, ident, path, kind, title, state string) DocRef {
	return docRef(key, ident, path, kind, title, state)
}

// ScanDocRef reads the DocRefColumns of a row, then extra columns into extra.
func ScanDocRef(sc interface{ Scan(...any) error }, extra ...any) (DocRef, error) {
	return scanDocRef(sc, extra...)
}

// DocByKey is the document of key as the index holds it (the first by
// path when a key is shared), with its path and blob id; nil when there
// is none.
func (s *Store) DocByKey(ctx context.Context, key string) (*DocRef, string, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+docRefCols+`, d.oid FROM docs d WHERE d.key = ? ORDER BY d.path LIMIT 1`, key)
	var oid string
	ref, err := scanDocRef(row, &oid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	return &ref, oid, nil
}
