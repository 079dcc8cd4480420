package index

import (
	"context"
	"database/sql"
)

// Reads canon check needs of the index, on the live database or on a
// preview of it (Store.Read, Store.Preview): both hand out a Querier, and
// these functions are the only SQL run over it outside index/check.

// Read hands fn the database as it is, for reads that also run over a
// preview (the check's functions below, index/check's Run).
func (s *Store) Read(fn func(q Querier) error) error { return fn(s.db) }

// DocIDsOfPaths finds the documents at the given paths: path → row id.
func DocIDsOfPaths(ctx context.Context, q Querier, paths []string) (map[string]DocID, error) {
	out := make(map[string]DocID, len(paths))
	err := eachIn(ctx, q, `SELECT id, path FROM docs WHERE path IN (%s)`, nil, anys(paths), nil, func(r *sql.Rows) error {
		var id DocID
		var p string
		if err := r.Scan(&id, &p); err != nil {
			return err
		}
		out[p] = id
		return nil
	})
	return out, err
}

// SkippedAmong lists which of the paths are files the index skipped, in
// path order.
func SkippedAmong(ctx context.Context, q Querier, paths []string) ([]string, error) {
	return pathsIn(ctx, q, `SELECT path FROM skipped WHERE path IN (%s) ORDER BY path`, paths)
}

// PathsOfKeys lists the paths of the documents with the given node keys
// (a duplicated key has several).
func PathsOfKeys(ctx context.Context, q Querier, keys []string) ([]string, error) {
	return pathsIn(ctx, q, `SELECT path FROM docs WHERE key IN (%s)`, keys)
}

// pathsIn runs a query whose %s is an IN list of vals and returns its
// one column of paths.
func pathsIn(ctx context.Context, q Querier, query string, vals []string) ([]string, error) {
	var out []string
	err := eachIn(ctx, q, query, nil, anys(vals), nil, func(r *sql.Rows) error {
		var p string
		if err := r.Scan(&p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// AllPaths lists every document and skipped file, in path order: what
// check --all looked at.
func AllPaths(ctx context.Context, q Querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT path FROM docs UNION SELECT path FROM skipped ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		err := r.Scan(&p)
		return p, err
	})
}

// DependsOn is one resolved depends_on edge, with what the rules need of
// its target.
type DependsOn struct {
	Src, Dst                   DocID
	Line, Col                  int
	Raw                        string
	DstIdent, DstPath, DstKind string
}

// DependsOnFrom lists the resolved depends_on edges of the given
// documents, by source and in the order they are written: an indexed
// lookup per source (links_src), never a pass over every link.
func DependsOnFrom(ctx context.Context, q Querier, srcs []DocID) ([]DependsOn, error) {
	var out []DependsOn
	err := eachIn(ctx, q, `SELECT l.src, l.dst, l.line, l.col, l.raw, d.ident, d.path, d.kind
		FROM links l JOIN docs d ON d.id = l.dst
		WHERE l.src IN (%s) AND l.type = 'depends_on' AND l.status = 'ok' ORDER BY l.src, l.seq`, nil, anys(srcs), nil, func(r *sql.Rows) error {
		var e DependsOn
		if err := r.Scan(&e.Src, &e.Dst, &e.Line, &e.Col, &e.Raw, &e.DstIdent, &e.DstPath, &e.DstKind); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// NamedByGroupField reports which of the documents a resolved group:
// reference names (each is then a group, whatever its kind): by the
// targets' index (links_dst), never a pass over every link.
func NamedByGroupField(ctx context.Context, q Querier, ids []DocID) (map[DocID]bool, error) {
	out := map[DocID]bool{}
	err := eachIn(ctx, q, `SELECT DISTINCT dst FROM links WHERE dst IN (%s) AND type = 'group' AND status = 'ok'`, nil, anys(ids), nil, func(r *sql.Rows) error {
		var id DocID
		if err := r.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	})
	return out, err
}
