package docs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// Link is a resolved link between two different documents, seen from At:
// Other is the document at its other end.
type Link struct {
	At, Other sqlstore.DocID
	OtherKey  string // Other's node key
	Type      string
	Field     string // frontmatter field; '' for a body link
	Seq       int    // position among its source document's links
	Line      int    // where it is written in its source document
	Incoming  bool   // Other → At; else At → Other
}

// KeyedLink is a resolved link between two different documents, named by
// their node keys.
type KeyedLink struct {
	Src, Dst, Type, Field string
	Line                  int
}

// Chunk is a section's place in its document.
type Chunk struct {
	ID      sqlstore.ChunkID
	Seq     int
	Slug    string // '' for the text before the first heading
	Heading string
	Level   int // 1 to 6, 0 for the text before the first heading
	Line    int
	EndLine int
}

// WorkItem is a document as the ready/blocked view reads it.
type WorkItem struct {
	sqlstore.Node
	Priority string // the frontmatter's priority as text ("" when absent)
	// Assignee is who the frontmatter says has it: assignee, else owner,
	// else assignees (a list's names joined by ", "; "" when none).
	Assignee string
	// Untyped: the frontmatter names neither a type nor an id (a plain
	// note, a proposal, a decision record written by hand).
	Untyped bool
}

// UnresolvedCount counts the links of one type whose reference named no
// document (resolve.StatusDangling) or several (resolve.StatusAmbiguous).
type UnresolvedCount struct {
	Type, Status string
	N            int
}

// DocFile is where the index holds a document: its path and blob id
// (both "" for none).
type DocFile struct{ Path, OID string }

// IdentPath is a document's frontmatter id as written ("" when it has
// none) and its path.
type IdentPath struct{ Ident, Path string }

// SectionBody is a section's heading and text.
type SectionBody struct{ Heading, Body string }

// typeCond is " AND col IN (?, ...)" for some edge types, with their
// arguments; nothing for none (every type).
func typeCond(col string, types []string) (string, []any) {
	if len(types) == 0 {
		return "", nil
	}
	return ` AND ` + col + ` IN (` + sqlstore.Marks(len(types)) + `)`, sqlstore.Anys(types)
}

// DocIDOfKey is the row id of the document of key (the first by path
// when the key is shared); ok is false when there is none.
func (s *Docs) DocIDOfKey(ctx context.Context, key string) (id sqlstore.DocID, ok bool, err error) {
	var n int64
	err = s.h.DB.QueryRowContext(ctx, `SELECT id FROM docs WHERE key = ? ORDER BY path LIMIT 1`, key).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return sqlstore.DocID(n), true, nil
}

// DocByKey is the document of key as the index holds it (the first by
// path when a key is shared), with its blob id; nil when there is none.
func (s *Docs) DocByKey(ctx context.Context, key string) (*sqlstore.DocRef, string, error) {
	row := s.h.DB.QueryRowContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.oid FROM docs d WHERE d.key = ? ORDER BY d.path LIMIT 1`, key)
	var oid string
	ref, err := sqlstore.ScanDocRef(row, &oid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	return &ref, oid, nil
}

// DocRefs reads the DocRefs of some documents by row id.
func (s *Docs) DocRefs(ctx context.Context, ids []sqlstore.DocID) (map[sqlstore.DocID]sqlstore.DocRef, error) {
	return DocRefsOf(ctx, sqlstore.QuerierOf(s.h.DB), ids)
}

// DocRefsOf reads the DocRefs of some documents by row id, on the live
// database or a preview (an id no document has is left out).
func DocRefsOf(ctx context.Context, q sqlstore.Querier, ids []sqlstore.DocID) (map[sqlstore.DocID]sqlstore.DocRef, error) {
	out := make(map[sqlstore.DocID]sqlstore.DocRef, len(ids))
	var id int64
	err := sqlstore.EachIn(ctx, sqlstore.Reads(q), `SELECT `+sqlstore.DocRefCols+`, d.id FROM docs d WHERE d.id IN (%s)`, nil, sqlstore.IDArgs(ids), nil, func(r *sql.Rows) error {
		ref, err := sqlstore.ScanDocRef(r, &id)
		if err != nil {
			return err
		}
		out[sqlstore.DocID(id)] = ref
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read documents: %w", err)
	}
	return out, nil
}

// LinksOf reads the resolved links of some documents, of the given types
// (none: every type), by the document they were read for: the links it
// writes when out is set, those that point at it when in is set. A
// document's links come in no particular order.
func (s *Docs) LinksOf(ctx context.Context, ids []sqlstore.DocID, types []string, out, in bool) (map[sqlstore.DocID][]Link, error) {
	m := make(map[sqlstore.DocID][]Link, len(ids))
	if out {
		if err := s.links(ctx, m, ids, types, false); err != nil {
			return nil, err
		}
	}
	if in {
		if err := s.links(ctx, m, ids, types, true); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// links adds to m the links whose source (or, incoming, target) is one of
// ids.
func (s *Docs) links(ctx context.Context, m map[sqlstore.DocID][]Link, ids []sqlstore.DocID, types []string, incoming bool) error {
	at, other := "l.src", "l.dst"
	if incoming {
		at, other = "l.dst", "l.src"
	}
	cond, typeArgs := typeCond("l.type", types)
	q := `SELECT ` + at + `, ` + other + `, o.key, l.type, l.field, l.seq, l.line
		FROM links l JOIN docs o ON o.id = ` + other + `
		WHERE ` + at + ` IN (%s) AND l.dst IS NOT NULL AND l.status = 'ok'` + cond
	// Scan targets live across rows: one allocation a query, not a row.
	var l Link
	var a, o int64
	err := sqlstore.EachIn(ctx, s.h.DB, q, nil, sqlstore.IDArgs(ids), typeArgs, func(r *sql.Rows) error {
		if err := r.Scan(&a, &o, &l.OtherKey, &l.Type, &l.Field, &l.Seq, &l.Line); err != nil {
			return err
		}
		if a != o {
			l.At, l.Other, l.Incoming = sqlstore.DocID(a), sqlstore.DocID(o), incoming
			m[l.At] = append(m[l.At], l)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read links: %w", err)
	}
	return nil
}

// ChunksOf reads the sections of some documents, by document, each
// document's in no particular order.
func (s *Docs) ChunksOf(ctx context.Context, docs []sqlstore.DocID) (map[sqlstore.DocID][]Chunk, error) {
	out := make(map[sqlstore.DocID][]Chunk, len(docs))
	var c Chunk
	var doc, id int64
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT doc, id, seq, slug, heading, level, line, end_line FROM chunks WHERE doc IN (%s)`, nil, sqlstore.IDArgs(docs), nil, func(r *sql.Rows) error {
		if err := r.Scan(&doc, &id, &c.Seq, &c.Slug, &c.Heading, &c.Level, &c.Line, &c.EndLine); err != nil {
			return err
		}
		c.ID = sqlstore.ChunkID(id)
		out[sqlstore.DocID(doc)] = append(out[sqlstore.DocID(doc)], c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read sections: %w", err)
	}
	return out, nil
}

// ChunkTexts reads the text of some sections.
func (s *Docs) ChunkTexts(ctx context.Context, ids []sqlstore.ChunkID) (map[sqlstore.ChunkID]string, error) {
	args := sqlstore.IDArgs(ids)
	out := make(map[sqlstore.ChunkID]string, len(ids))
	var id int64
	var body string
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT rowid, body FROM chunks_fts WHERE rowid IN (%s)`, nil, args, nil, func(r *sql.Rows) error {
		if err := r.Scan(&id, &body); err != nil {
			return err
		}
		out[sqlstore.ChunkID(id)] = body
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read section text: %w", err)
	}
	return out, nil
}

// The whole-graph reads (canon ready/blocked, canon graph stats) stream:
// at 100k documents a slice of every row would double what the caller
// keeps of them.

// EachNode calls fn for every document, in node key order.
func (s *Docs) EachNode(ctx context.Context, fn func(sqlstore.Node) error) error {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id FROM docs d ORDER BY d.key`)
	if err != nil {
		return fmt.Errorf("read documents: %w", err)
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var id int64
		ref, err := sqlstore.ScanDocRef(r, &id)
		if err != nil {
			return err
		}
		return fn(sqlstore.Node{Doc: sqlstore.DocID(id), DocRef: ref})
	})
}

// EachWorkItem calls fn for every document with its priority, in no
// particular order.
func (s *Docs) EachWorkItem(ctx context.Context, fn func(WorkItem) error) error {
	return s.eachWorkItem(ctx, "", func(it WorkItem, _ string) error { return fn(it) })
}

// eachWorkItem is EachWorkItem with one more column, extra (", expr"),
// read as a string beside each item ("" without one).
func (s *Docs) eachWorkItem(ctx context.Context, extra string, fn func(WorkItem, string) error) error {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id, coalesce(CAST(json_extract(d.fm, '$.priority') AS TEXT), ''),
		coalesce(json_extract(d.fm, '$.assignee', '$.owner', '$.assignees'), '[]'), d.type = '' AND d.ident = ''`+extra+`
		FROM docs d`)
	if err != nil {
		return fmt.Errorf("read items: %w", err)
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var id int64
		var prio, who, more string
		var untyped bool
		dest := []any{&id, &prio, &who, &untyped}
		if extra != "" {
			dest = append(dest, &more)
		}
		ref, err := sqlstore.ScanDocRef(r, dest...)
		if err != nil {
			return err
		}
		return fn(WorkItem{Node: sqlstore.Node{Doc: sqlstore.DocID(id), DocRef: ref}, Priority: prio, Assignee: assignee(who), Untyped: untyped}, more)
	})
}

// assignee is who a document's frontmatter says has it, from the JSON
// array json_extract gives of its assignee, owner and assignees fields:
// the first that names someone, a list's names joined by ", ".
func assignee(fields string) string {
	vs, ok := jsonArray(fields)
	if !ok {
		return ""
	}
	for _, v := range vs {
		var names []string
		switch x := v.(type) {
		case string:
			names = []string{x}
		case float64, bool:
			names = []string{fmt.Sprint(x)}
		case []any:
			for _, it := range x {
				if s, ok := it.(string); ok && s != "" && !noOne(s) {
					names = append(names, s)
				}
			}
		}
		if len(names) == 1 && noOne(names[0]) {
			names = nil
		}
		if who := strings.Join(names, ", "); strings.TrimSpace(who) != "" {
			return who
		}
	}
	return ""
}

// noOne reports a name that says no one has the item: Kano's owner: None
// (Python's None, written as text), null, nil, unassigned, a dash.
func noOne(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "none", "null", "nil", "~", "-", "unassigned", "nobody", "n/a":
		return true
	}
	return false
}

// EachEdge calls fn for every resolved link between two different
// documents of the given types (none: every type), in no particular
// order. Each type name is one string however many edges have it.
func (s *Docs) EachEdge(ctx context.Context, types []string, fn func(sqlstore.DocEdge) error) error {
	return EachEdgeOf(ctx, sqlstore.QuerierOf(s.h.DB), types, fn)
}

// EachEdgeOf is EachEdge on the live database or a preview.
func EachEdgeOf(ctx context.Context, q sqlstore.Querier, types []string, fn func(sqlstore.DocEdge) error) error {
	cond, args := typeCond("type", types)
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT src, dst, type FROM links WHERE status = 'ok' AND dst IS NOT NULL AND dst <> src`+cond, args...)
	if err != nil {
		return fmt.Errorf("read links: %w", err)
	}
	names := map[string]string{}
	var src, dst int64
	var raw sql.RawBytes // valid until the next row: copied only for a new name
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		if err := r.Scan(&src, &dst, &raw); err != nil {
			return err
		}
		typ, ok := names[string(raw)]
		if !ok {
			typ = string(raw)
			names[typ] = typ
		}
		return fn(sqlstore.DocEdge{Src: sqlstore.DocID(src), Dst: sqlstore.DocID(dst), Type: typ})
	})
}

// UnresolvedCounts counts the dangling and the ambiguous links by type.
func (s *Docs) UnresolvedCounts(ctx context.Context) ([]UnresolvedCount, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT type, status, count(*) FROM links WHERE status IN (?, ?) GROUP BY type, status`,
		resolve.StatusDangling, resolve.StatusAmbiguous)
	if err != nil {
		return nil, fmt.Errorf("count links: %w", err)
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (UnresolvedCount, error) {
		var c UnresolvedCount
		return c, r.Scan(&c.Type, &c.Status, &c.N)
	})
}

// EachDoc calls fn for every document in node key order. It streams, so
// its memory stays flat however many documents there are.
func (s *Docs) EachDoc(ctx context.Context, fn func(sqlstore.DocRef) error) error {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+` FROM docs d ORDER BY d.key`)
	if err != nil {
		return fmt.Errorf("read documents: %w", err)
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		ref, err := sqlstore.ScanDocRef(r)
		if err != nil {
			return err
		}
		return fn(ref)
	})
}

// EachLink calls fn for every resolved link between two different
// documents of the given types (none: every type), in (source key, target
// key, type, source position) order. It streams, as EachDoc does.
func (s *Docs) EachLink(ctx context.Context, types []string, fn func(KeyedLink) error) error {
	cond, args := typeCond("l.type", types)
	rows, err := s.h.DB.QueryContext(ctx, `SELECT s.key, o.key, l.type, l.field, l.line
		FROM links l JOIN docs s ON s.id = l.src JOIN docs o ON o.id = l.dst
		WHERE l.status = 'ok' AND l.dst IS NOT NULL AND l.dst <> l.src`+cond+`
		ORDER BY s.key, o.key, l.type, l.seq`, args...)
	if err != nil {
		return fmt.Errorf("read links: %w", err)
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var l KeyedLink
		if err := r.Scan(&l.Src, &l.Dst, &l.Type, &l.Field, &l.Line); err != nil {
			return err
		}
		return fn(l)
	})
}

// HasKeys says which of the node keys the index holds.
func (s *Docs) HasKeys(ctx context.Context, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, k := range keys {
		var one int
		err := s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM docs WHERE key = ? LIMIT 1`, k).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, nil
}

// FilesOfKeys says where the index holds the document of each key (the
// first by path when a key is shared), in the order of keys: the zero
// DocFile for a key it does not hold.
func (s *Docs) FilesOfKeys(ctx context.Context, keys []string) ([]DocFile, error) {
	const q = `SELECT path, oid FROM docs WHERE key = ? ORDER BY path LIMIT 1`
	row := func(k string) *sql.Row { return s.h.DB.QueryRowContext(ctx, q, k) }
	if len(keys) > 1 {
		stmt, err := s.h.DB.PrepareContext(ctx, q)
		if err != nil {
			return nil, err
		}
		defer stmt.Close()
		row = func(k string) *sql.Row { return stmt.QueryRowContext(ctx, k) }
	}
	out := make([]DocFile, len(keys))
	for i, k := range keys {
		err := row(k).Scan(&out[i].Path, &out[i].OID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	return out, nil
}

// KeyOfBlob is the node key of the one document whose content is the blob
// oid: "" when no document, or more than one, has it.
func (s *Docs) KeyOfBlob(ctx context.Context, oid string) (string, error) {
	var key string
	err := s.h.DB.QueryRowContext(ctx, `SELECT key FROM docs WHERE oid = ? GROUP BY oid HAVING count(*) = 1`, oid).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return key, err
}

// IdentsOfKind lists the documents of a kind by path, with their ids as
// written.
func (s *Docs) IdentsOfKind(ctx context.Context, kind string) ([]IdentPath, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT ident, path FROM docs WHERE kind = ? ORDER BY path`, kind)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (IdentPath, error) {
		var d IdentPath
		return d, r.Scan(&d.Ident, &d.Path)
	})
}

// DecisionFolders lists, sorted, the folders of indexed documents whose
// last segment says they hold decisions (markdown.IsDecisionFolder:
// decisions, adr, adrs, decision-records, ...): where a repository with no
// ADR yet keeps them (Backlog.md's backlog/decisions, docs/adr).
func (s *Docs) DecisionFolders(ctx context.Context) ([]string, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT path FROM docs WHERE path LIKE '%decisions/%' OR path LIKE '%adr/%' OR path LIKE '%adrs/%' OR path LIKE '%decision-records/%'`)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var p string
		if err := r.Scan(&p); err != nil {
			return err
		}
		if dir := path.Dir(p); markdown.IsDecisionFolder(path.Base(dir)) {
			seen[dir] = true
		}
		return nil
	})
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, err
}

// KeyLinkingTo is the node key of the first document (by path) of a kind
// and title that links to the document of key to; "" when there is none.
func (s *Docs) KeyLinkingTo(ctx context.Context, to, kind, title string) (string, error) {
	var key string
	err := s.h.DB.QueryRowContext(ctx, `SELECT d.key FROM docs d JOIN links l ON l.src = d.id
		JOIN docs t ON t.id = l.dst WHERE d.kind = ? AND d.title = ? AND t.key = ? ORDER BY d.path LIMIT 1`, kind, title, to).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return key, err
}

// PathsUnder lists the paths the index holds under a folder, documents
// and skipped files alike: a range scan of the path index ("dir/" up to
// "dir0", '0' following '/').
func (s *Docs) PathsUnder(ctx context.Context, dir string) ([]string, error) {
	lo, hi := dir+"/", dir+"0"
	rows, err := s.h.DB.QueryContext(ctx, `SELECT path FROM docs WHERE path >= ?1 AND path < ?2
		UNION ALL SELECT path FROM skipped WHERE path >= ?1 AND path < ?2`, lo, hi)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		return p, r.Scan(&p)
	})
}

// SectionBodies reads the sections of the documents of key, in order,
// with their text.
func (s *Docs) SectionBodies(ctx context.Context, key string) ([]SectionBody, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT c.heading, f.body FROM chunks c JOIN docs d ON d.id = c.doc
		JOIN chunks_fts f ON f.rowid = c.id WHERE d.key = ? ORDER BY c.seq`, key)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (SectionBody, error) {
		var b SectionBody
		return b, r.Scan(&b.Heading, &b.Body)
	})
}

// Generated reads, of the given documents, those that count as generated
// and why.
func (s *Docs) Generated(ctx context.Context, ids []sqlstore.DocID) (map[sqlstore.DocID]string, error) {
	out := map[sqlstore.DocID]string{}
	var id int64
	var why string
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT d.id, d.generated FROM docs d WHERE d.generated <> '' AND d.id IN (%s)`, nil, sqlstore.IDArgs(ids), nil, func(r *sql.Rows) error {
		if err := r.Scan(&id, &why); err != nil {
			return err
		}
		out[sqlstore.DocID(id)] = why
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read which documents are generated: %w", err)
	}
	return out, nil
}
