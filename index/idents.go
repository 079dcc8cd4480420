package index

import (
	"context"
	"database/sql"
	"sort"

	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/resolve"
)

// The index's reads of ids: what canon id next, rename and fix and the
// hooks' collision checks hand to index/ids.

// IdentDocs lists every document that has an id, by path.
func (s *Store) IdentDocs(ctx context.Context) ([]ids.Doc, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT key, path, ident, uid, kind, ident_line FROM docs WHERE ident <> '' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (ids.Doc, error) {
		var d ids.Doc
		return d, r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
	})
}

// FileIDDocs lists, by path, the documents without an id whose file name
// carries one (resolve.FileID: Backlog.md's archived "task-35 - Fix-x.md"
// without frontmatter): canon id next and id fix count those names as
// taken.
func (s *Store) FileIDDocs(ctx context.Context) ([]ids.Doc, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT key, path, kind FROM docs WHERE ident = '' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	all, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (ids.Doc, error) {
		var d ids.Doc
		return d, r.Scan(&d.Key, &d.Path, &d.Kind)
	})
	out := all[:0]
	for _, d := range all {
		if resolve.FileID(d.Path) != "" {
			out = append(out, d)
		}
	}
	return out, err
}

// IdentDocsSharing lists, by path, the documents whose id one of the
// documents at paths carries (those documents included): what the hooks
// read to tell a collision the sync made, through the ident index rather
// than every document.
func (s *Store) IdentDocsSharing(ctx context.Context, paths []string) ([]ids.Doc, error) {
	var out []ids.Doc
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT key, path, ident, uid, kind, ident_line FROM docs
		WHERE ident IN (SELECT ident FROM docs WHERE path IN (%s) AND ident <> '')`, nil, sqlstore.Anys(paths), nil, func(r *sql.Rows) error {
		var d ids.Doc
		err := r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
		out = append(out, d)
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// RecordPaths lists the paths of the documents of kind that have no id
// (numbered records: 0007-use-x.md, as adr-tools and MADR name them), for
// canon id next when no document of kind has a numbered id.
func (s *Store) RecordPaths(ctx context.Context, kind string) ([]string, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT path FROM docs WHERE ident = '' AND kind = ? ORDER BY path`, kind)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		return p, r.Scan(&p)
	})
}
