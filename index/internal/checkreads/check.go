package checkreads

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/internal/fulltext"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/resolve"
)

// DocIDsOfPaths finds the documents at the given paths: path → row id.
func DocIDsOfPaths(ctx context.Context, q sqlstore.Querier, paths []string) (map[string]sqlstore.DocID, error) {
	out := make(map[string]sqlstore.DocID, len(paths))
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT id, path FROM docs WHERE path IN (%s)`, nil, sqlstore.Anys(paths), nil, func(r *sql.Rows) error {
		var id sqlstore.DocID
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
func SkippedAmong(ctx context.Context, q sqlstore.Querier, paths []string) ([]string, error) {
	return pathsIn(ctx, sqlstore.Reads(q), `SELECT path FROM skipped WHERE path IN (%s) ORDER BY path`, paths)
}

// PathsOfKeys lists the paths of the documents with the given node keys
// (a duplicated key has several).
func PathsOfKeys(ctx context.Context, q sqlstore.Querier, keys []string) ([]string, error) {
	return pathsIn(ctx, sqlstore.Reads(q), `SELECT path FROM docs WHERE key IN (%s)`, keys)
}

// pathsIn runs a query whose %s is an IN list of vals and returns its
// one column of paths.
func pathsIn(ctx context.Context, q sqlstore.Q, query string, vals []string) ([]string, error) {
	var out []string
	err := sqlstore.EachIn(ctx, q, query, nil, sqlstore.Anys(vals), nil, func(r *sql.Rows) error {
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
func AllPaths(ctx context.Context, q sqlstore.Querier) ([]string, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT path FROM docs UNION SELECT path FROM skipped ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		err := r.Scan(&p)
		return p, err
	})
}

// DependsOn is one resolved depends_on edge, with what the rules need of
// its target.
type DependsOn struct {
	Src, Dst                   sqlstore.DocID
	Line, Col                  int
	Raw                        string
	DstIdent, DstPath, DstKind string
}

// DependsOnFrom lists the resolved depends_on edges of the given
// documents, by source and in the order they are written: an indexed
// lookup per source (links_src), never a pass over every link.
func DependsOnFrom(ctx context.Context, q sqlstore.Querier, srcs []sqlstore.DocID) ([]DependsOn, error) {
	var out []DependsOn
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT l.src, l.dst, l.line, l.col, l.raw, d.ident, d.path, d.kind
		FROM links l JOIN docs d ON d.id = l.dst
		WHERE l.src IN (%s) AND l.type = 'depends_on' AND l.status = 'ok' ORDER BY l.src, l.seq`, nil, sqlstore.Anys(srcs), nil, func(r *sql.Rows) error {
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
func NamedByGroupField(ctx context.Context, q sqlstore.Querier, ids []sqlstore.DocID) (map[sqlstore.DocID]bool, error) {
	out := map[sqlstore.DocID]bool{}
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT DISTINCT dst FROM links WHERE dst IN (%s) AND type = 'group' AND status = 'ok'`, nil, sqlstore.Anys(ids), nil, func(r *sql.Rows) error {
		var id sqlstore.DocID
		if err := r.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	})
	return out, err
}

// CheckDoc is a document as check's rules read it: its names, where its id
// and uid are written, and its frontmatter (FM), the positions of its
// top-level fields (FieldPos) and its inline opt-outs (Disables) as the
// index stores them, in JSON: check decodes them, and reports a document
// whose stored data it cannot read.
type CheckDoc struct {
	ID                     sqlstore.DocID
	Path, Key, Ident, UID  string
	IdentLine, UIDLine     int
	Kind, Type             string
	FM, FieldPos, Disables string
	Title                  string // the frontmatter's title, else the first level-1 heading's
	State                  string // the frontmatter's state, else a decision record's Status section or line
}

const checkDocCols = `id, path, key, ident, ident_line, uid, uid_line, kind, type, fm, fm_pos, disables, title, state`

func scanCheckDoc(r *sql.Rows) (CheckDoc, error) {
	var d CheckDoc
	err := r.Scan(&d.ID, &d.Path, &d.Key, &d.Ident, &d.IdentLine, &d.UID, &d.UIDLine, &d.Kind, &d.Type, &d.FM, &d.FieldPos, &d.Disables, &d.Title, &d.State)
	return d, err
}

// CheckDocs reads the documents with the given row ids, in path order.
func CheckDocs(ctx context.Context, q sqlstore.Querier, ids []sqlstore.DocID) ([]CheckDoc, error) {
	var out []CheckDoc
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT `+checkDocCols+` FROM docs WHERE id IN (%s)`, nil, sqlstore.IDArgs(sqlstore.Distinct(ids)), nil, func(r *sql.Rows) error {
		d, err := scanCheckDoc(r)
		out = append(out, d)
		return err
	})
	slices.SortFunc(out, func(a, b CheckDoc) int { return strings.Compare(a.Path, b.Path) })
	return out, err
}

// EachCheckDoc calls fn with every document, in path order (check
// --all: a stream, not a slice of every row).
func EachCheckDoc(ctx context.Context, q sqlstore.Querier, fn func(CheckDoc) error) error {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT `+checkDocCols+` FROM docs ORDER BY path`)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		d, err := scanCheckDoc(r)
		if err != nil {
			return err
		}
		return fn(d)
	})
}

// StoredProblems reads the problems the parser stored for the given
// documents and skipped files (by path), in no particular order. The
// Severity of each is left to the caller's configuration.
func StoredProblems(ctx context.Context, q sqlstore.Querier, docs []sqlstore.DocID, skipped []string) ([]sqlstore.Problem, error) {
	var out []sqlstore.Problem
	scan := problemScanner(&out)
	if err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT `+problemCols+` FROM problems WHERE doc IN (%s)`, nil, sqlstore.IDArgs(sqlstore.Distinct(docs)), nil, scan); err != nil {
		return nil, err
	}
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT `+problemCols+` FROM problems WHERE doc IS NULL AND path IN (%s)`, nil, sqlstore.Anys(sqlstore.Distinct(skipped)), nil, scan)
	return out, err
}

// AllStoredProblems reads every problem the parser stored (check --all).
func AllStoredProblems(ctx context.Context, q sqlstore.Querier) ([]sqlstore.Problem, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT `+problemCols+` FROM problems`)
	if err != nil {
		return nil, err
	}
	var out []sqlstore.Problem
	return out, sqlstore.EachRow(rows, problemScanner(&out))
}

const problemCols = `path, line, col, rule, message`

func problemScanner(out *[]sqlstore.Problem) func(*sql.Rows) error {
	return func(r *sql.Rows) error {
		var p sqlstore.Problem
		err := r.Scan(&p.Path, &p.Line, &p.Col, &p.Rule, &p.Message)
		*out = append(*out, p)
		return err
	}
}

// AnyIdentLike reports whether some document's id is LIKE one of the
// patterns and satisfies match, stopping at the first that does. An infix
// pattern has no index: the ids are read until one matches.
func AnyIdentLike(ctx context.Context, q sqlstore.Querier, patterns []string, match func(ident string) bool) (bool, error) {
	if len(patterns) == 0 {
		return false, nil
	}
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT ident FROM docs WHERE `+strings.TrimSuffix(strings.Repeat("ident LIKE ? OR ", len(patterns)), " OR "), sqlstore.Anys(patterns)...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return false, err
		}
		if match(id) {
			return true, nil
		}
	}
	return false, rows.Err()
}

// SharedIdents lists which of the ids more than one document carries.
func SharedIdents(ctx context.Context, q sqlstore.Querier, idents []string) ([]string, error) {
	return shared(ctx, sqlstore.Reads(q), "ident", idents)
}

// SharedUIDs lists which of the uids more than one document carries.
func SharedUIDs(ctx context.Context, q sqlstore.Querier, uids []string) ([]string, error) {
	return shared(ctx, sqlstore.Reads(q), "uid", uids)
}

// shared runs the grouped lookup of SharedIdents and SharedUIDs over the
// column's index, sorted within each batch.
func shared(ctx context.Context, q sqlstore.Q, col string, vals []string) ([]string, error) {
	var out []string
	err := sqlstore.EachIn(ctx, q, `SELECT `+col+` FROM docs WHERE `+col+` IN (%s) GROUP BY `+col+` HAVING count(*) > 1 ORDER BY 1`, nil, sqlstore.Anys(vals), nil, func(r *sql.Rows) error {
		var v string
		err := r.Scan(&v)
		out = append(out, v)
		return err
	})
	return out, err
}

// Holder is a document that carries an id or a uid: where it is written
// (Line; FieldPos as CheckDoc's), and the document's uid.
type Holder struct {
	Path          string
	Line          int
	FieldPos, UID string
}

// IdentHolders lists the documents whose id is ident, by path.
func IdentHolders(ctx context.Context, q sqlstore.Querier, ident string) ([]Holder, error) {
	return holders(ctx, sqlstore.Reads(q), `SELECT path, ident_line, fm_pos, uid FROM docs WHERE ident = ? ORDER BY path`, ident)
}

// UIDHolders lists the documents whose uid is uid, by path.
func UIDHolders(ctx context.Context, q sqlstore.Querier, uid string) ([]Holder, error) {
	return holders(ctx, sqlstore.Reads(q), `SELECT path, uid_line, fm_pos, uid FROM docs WHERE uid = ? ORDER BY path`, uid)
}

func holders(ctx context.Context, q sqlstore.Q, query, val string) ([]Holder, error) {
	rows, err := q.QueryContext(ctx, query, val)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (Holder, error) {
		var h Holder
		return h, r.Scan(&h.Path, &h.Line, &h.FieldPos, &h.UID)
	})
}

// KeysOfPaths finds the node keys of the documents at the given paths:
// path → key (a path no document has is left out).
func KeysOfPaths(ctx context.Context, q sqlstore.Querier, paths []string) (map[string]string, error) {
	out := make(map[string]string, len(paths))
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT path, key FROM docs WHERE path IN (%s)`, nil, sqlstore.Anys(paths), nil, func(r *sql.Rows) error {
		var p, k string
		err := r.Scan(&p, &k)
		out[p] = k
		return err
	})
	return out, err
}

// DisablesAt reads the inline opt-outs of the document at path, as
// CheckDoc holds them ("" for none, or no document there).
func DisablesAt(ctx context.Context, q sqlstore.Querier, path string) (string, error) {
	var dis string
	err := sqlstore.Reads(q).QueryRowContext(ctx, `SELECT disables FROM docs WHERE path = ?`, path).Scan(&dis)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return dis, err
}

// CheckLink is a stored link as check's rules read it: where and how it
// is written, how it resolved, and the row id of its target (0 when it
// names no one document); DocRefsOf names the targets.
type CheckLink struct {
	Src                                    sqlstore.DocID
	Type, Field, Form, Raw, Anchor, Status string
	Line, Col                              int
	Dst                                    sqlstore.DocID
}

// EachCheckLink calls fn with each link of the given documents, by source
// (in row id order) and in the order they are written.
func EachCheckLink(ctx context.Context, q sqlstore.Querier, srcs []sqlstore.DocID, fn func(CheckLink) error) error {
	// Batches in id order keep the order across batches.
	return sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT `+checkLinkCols+` FROM links WHERE src IN (%s) ORDER BY src, seq`, nil, sqlstore.IDArgs(sqlstore.Distinct(srcs)), nil, checkLinkScanner(fn))
}

// EachLinkToCheck calls fn with every link, as EachCheckLink orders them
// (check --all).
func EachLinkToCheck(ctx context.Context, q sqlstore.Querier, fn func(CheckLink) error) error {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT `+checkLinkCols+` FROM links ORDER BY src, seq`)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, checkLinkScanner(fn))
}

const checkLinkCols = `src, type, field, form, raw, anchor, status, line, col, coalesce(dst, 0)`

// checkLinkScanner reads a link row for fn. Type, field, form and status
// take a few values: each is one string however many links have it.
func checkLinkScanner(fn func(CheckLink) error) func(*sql.Rows) error {
	names := map[string]string{}
	name := func(b []byte) string {
		s, ok := names[string(b)]
		if !ok {
			s = string(b)
			names[s] = s
		}
		return s
	}
	var typ, field, form, status sql.RawBytes
	return func(r *sql.Rows) error {
		var l CheckLink
		if err := r.Scan(&l.Src, &typ, &field, &form, &l.Raw, &l.Anchor, &status, &l.Line, &l.Col, &l.Dst); err != nil {
			return err
		}
		l.Type, l.Field, l.Form, l.Status = name(typ), name(field), name(form), name(status)
		return fn(l)
	}
}

// FragmentsOf lists the fragments a link may name in each of the given
// documents: the slugs of its headings and the ids HTML tags in it define
// (<a id="fn1">), which GitHub serves too. Every id asked has a set.
func FragmentsOf(ctx context.Context, q sqlstore.Querier, ids []sqlstore.DocID) (map[sqlstore.DocID]map[string]bool, error) {
	out := make(map[sqlstore.DocID]map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = map[string]bool{}
	}
	var id sqlstore.DocID
	var s string
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT doc, slug FROM chunks WHERE doc IN (%s) AND slug <> ''`, nil, sqlstore.IDArgs(ids), nil, func(r *sql.Rows) error {
		if err := r.Scan(&id, &s); err != nil {
			return err
		}
		out[id][s] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT id, anchors FROM docs WHERE id IN (%s) AND anchors <> ''`, nil, sqlstore.IDArgs(ids), nil, func(r *sql.Rows) error {
		if err := r.Scan(&id, &s); err != nil {
			return err
		}
		for _, a := range strings.Fields(s) {
			out[id][a] = true
		}
		return nil
	})
	return out, err
}

// FrontmatterOf reads a document's frontmatter as CheckDoc holds it (ok
// false when no document has the id).
func FrontmatterOf(ctx context.Context, q sqlstore.Querier, id sqlstore.DocID) (fm string, ok bool, err error) {
	err = sqlstore.Reads(q).QueryRowContext(ctx, `SELECT fm FROM docs WHERE id = ?`, id).Scan(&fm)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return fm, err == nil, err
}

// HasEdge reports whether src names dst in a resolved link of the type.
func HasEdge(ctx context.Context, q sqlstore.Querier, src, dst sqlstore.DocID, typ string) (bool, error) {
	var n int
	err := sqlstore.Reads(q).QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM links WHERE src = ? AND dst = ? AND type = ? AND status = 'ok')`, src, dst, typ).Scan(&n)
	return n == 1, err
}

// ParentEdges lists every resolved parent link, by source (in row id
// order) and in the order they are written (check --all: a document's
// first parent is its parent).
func ParentEdges(ctx context.Context, q sqlstore.Querier) ([]sqlstore.DocEdge, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT src, dst FROM links WHERE type = 'parent' AND status = 'ok' ORDER BY src, seq`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (sqlstore.DocEdge, error) {
		e := sqlstore.DocEdge{Type: "parent"}
		return e, r.Scan(&e.Src, &e.Dst)
	})
}

// FirstParent reads the first resolved parent of a document (ok false for
// none).
func FirstParent(ctx context.Context, q sqlstore.Querier, id sqlstore.DocID) (parent sqlstore.Node, ok bool, err error) {
	row := sqlstore.Reads(q).QueryRowContext(ctx, `SELECT `+sqlstore.DocRefCols+`, l.dst FROM links l JOIN docs d ON d.id = l.dst
		WHERE l.src = ? AND l.type = 'parent' AND l.status = 'ok' ORDER BY l.seq LIMIT 1`, id)
	parent.DocRef, err = sqlstore.ScanDocRef(row, &parent.Doc)
	if errors.Is(err, sql.ErrNoRows) {
		return sqlstore.Node{}, false, nil
	}
	return parent, err == nil, err
}

// TitledCount counts the documents a frontmatter reference names by their
// title (TitleKey, the resolution's title alias).
func TitledCount(ctx context.Context, q sqlstore.Querier, title string) (int, error) {
	key := resolve.TitleKey(title)
	if key == "" {
		return 0, nil
	}
	var n int
	err := sqlstore.Reads(q).QueryRowContext(ctx, `SELECT count(*) FROM aliases WHERE term = ?`, "title:"+key).Scan(&n)
	return n, err
}

// HasTitle reports whether some document is titled title, case aside: the
// full-text index finds the documents whose title holds its words, the
// shortest titles first (a title holding the words is at least as long
// as they are), and the whole title is compared (at most 20 read).
func HasTitle(ctx context.Context, q sqlstore.Querier, title string) (bool, error) {
	title = strings.TrimSpace(title)
	words := fulltext.FTSWords(title)
	if words == "" {
		return false, nil
	}
	found := false
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT d.title FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN docs d ON d.id = c.doc
		WHERE chunks_fts MATCH ? ORDER BY length(d.title) LIMIT 20`, `title : "`+words+`"`)
	if err != nil {
		return false, err
	}
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var t string
		if err := r.Scan(&t); err != nil {
			return err
		}
		found = found || strings.EqualFold(strings.TrimSpace(t), title)
		return nil
	})
	return found, err
}
