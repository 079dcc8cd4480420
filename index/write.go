package index

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// bulk inserts rows many at a time: one statement per `per` rows instead of
// one per row. A full build writes hundreds of thousands of rows, and the
// per-statement cost is what dominates after the full-text index itself.
type bulk struct {
	tx     *sql.Tx
	prefix string // INSERT INTO t(a, b) VALUES
	row    string // (?, ?)
	cols   int
	per    int
	// hold, when above per, is how many rows wait before they go out, per
	// rows a statement (see ftsHold).
	hold  int
	stmts map[int]*sql.Stmt // prepared per row count: re-preparing costs more than inserting
	args  []any
	// parent is flushed before this table's rows go out, so a row never
	// references a document that is still buffered.
	parent *bulk
}

func newBulk(tx *sql.Tx, table string, cols []string, per int) *bulk {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	return &bulk{tx: tx, prefix: "INSERT INTO " + table + "(" + strings.Join(cols, ", ") + ") VALUES ",
		row: row, cols: len(cols), per: per, args: make([]any, 0, len(cols)*per)}
}

func (b *bulk) sql(rows int) string {
	return b.prefix + strings.TrimSuffix(strings.Repeat(b.row+", ", rows), ", ")
}

func (b *bulk) add(vals ...any) error {
	b.args = append(b.args, vals...)
	if len(b.args) < b.cols*max(b.per, b.hold) {
		return nil
	}
	return b.flush()
}

func (b *bulk) stmt(rows int) (*sql.Stmt, error) {
	if st, ok := b.stmts[rows]; ok {
		return st, nil
	}
	st, err := b.tx.Prepare(b.sql(rows))
	if err != nil {
		return nil, err
	}
	if b.stmts == nil {
		b.stmts = map[int]*sql.Stmt{}
	}
	b.stmts[rows] = st
	return st, nil
}

func (b *bulk) flush() error {
	if b == nil || len(b.args) == 0 {
		return nil
	}
	if err := b.parent.flush(); err != nil {
		return err
	}
	args := b.args
	b.args = b.args[:0]
	for len(args) > 0 {
		n := min(len(args)/b.cols, b.per)
		st, err := b.stmt(n)
		if err != nil {
			return err
		}
		if _, err := st.Exec(args[:n*b.cols]...); err != nil {
			return err
		}
		args = args[n*b.cols:]
	}
	return nil
}

func (b *bulk) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}

// pendingLink is a link waiting for every document of the batch to be in,
// so that it resolves against all of them. It is kept small (a full build
// holds every link of the repository until the end) and owns its strings:
// a substring of the document would keep the whole text alive. It keeps
// the plan worked out where the document was parsed (planned), so that
// the writer, the longest chain of a full build, does not plan every link
// again.
type pendingLink struct {
	seq, line, col                int32
	typ, field, form, raw, anchor string
	plan                          []string
	uidPrefix, match              string
	status, orElse                string
}

// link is the link, as planned where it was parsed or, unless planned,
// planned again for the file at srcPath.
func (p *pendingLink) link(srcPath string, pl resolve.Planner, planned bool) resolve.Link {
	l := resolve.Link{Type: p.typ, Field: p.field, Form: p.form, Raw: p.raw, Anchor: p.anchor, Line: int(p.line), Col: int(p.col)}
	if planned {
		l.Terms, l.UIDPrefix, l.Match, l.Status, l.OrElse = p.plan, p.uidPrefix, p.match, p.status, p.orElse
		return l
	}
	l.Plan(srcPath, pl)
	return l
}

// pendingDoc is one document's pending links, as prepareRows made them
// (not copied: a full build holds every one of them until the end).
type pendingDoc struct {
	src     int64
	path    string
	planned bool // planned with the writer's planner (Planner.Equal)
	links   []pendingLink
}

// writer holds the statements and buffers of one write transaction.
type writer struct {
	tx    *sql.Tx
	kinds map[string]string
	olds  map[string][]string // a prefix in use → the old prefixes that name its numbers (config.Prefixes)
	ns    resolve.NamespaceOf // the namespace of a path; nil without namespaces
	pl    resolve.Planner     // what links are planned with: the repository's addresses, its site's pages

	docs, aliases, chunks, fts, probs, skips, links *bulk

	nextDoc, nextChunk int64
	pending            []pendingDoc
	npending           int                // the links in pending
	spilled            bool               // pending links were written unresolved (status '')
	mem                resolve.MemAliases // the batch's aliases, when resolving from memory
	spillAt            int                // with mem: how many pending links to hold before spilling

	updLink, delSkip, aliasQuery *sql.Stmt
}

// newWriter prepares a writer. Row ids are handed out from the current
// maximum, so documents and chunks can be inserted many rows at a time.
func newWriter(tx *sql.Tx) (*writer, error) {
	w := &writer{tx: tx}
	w.docs = newBulk(tx, "docs", []string{"id", "path", "oid", "size", "mtime", "natural_key", "key", "ident", "ident_line",
		"uid", "uid_line", "type", "kind", "title", "state", "format", "fm", "fm_pos", "disables", "anchors", "body_line", "links_sig", "generated", "sidecar"}, 32)
	w.aliases = newBulk(tx, "aliases", []string{"term", "doc"}, 100)
	w.chunks = newBulk(tx, "chunks", []string{"id", "doc", "seq", "slug", "heading", "level", "line", "end_line", "hash"}, 64)
	// One row per statement for FTS5: a multi-row INSERT into a virtual
	// table is materialised first and costs 1.7 times as much.
	w.fts = newBulk(tx, "chunks_fts", []string{"rowid", "title", "heading", "body"}, 1)
	w.probs = newBulk(tx, "problems", []string{"doc", "path", "line", "col", "rule", "severity", "message"}, 16)
	w.skips = newBulk(tx, "skipped", []string{"path", "oid", "size", "mtime", "reason"}, 16)
	w.links = newBulk(tx, "links", []string{"src", "seq", "type", "field", "form", "raw", "anchor", "line", "col", "match", "dst", "status"}, 64)
	for _, child := range []*bulk{w.aliases, w.chunks, w.probs, w.links} {
		child.parent = w.docs
	}
	if err := tx.QueryRow(`SELECT coalesce(max(id), 0) + 1 FROM docs`).Scan(&w.nextDoc); err != nil {
		return nil, err
	}
	if err := tx.QueryRow(`SELECT coalesce(max(id), 0) + 1 FROM chunks`).Scan(&w.nextChunk); err != nil {
		return nil, err
	}
	stmts := []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.updLink, `UPDATE links SET dst = ?, status = ? WHERE id = ?`},
		{&w.delSkip, `DELETE FROM skipped WHERE path = ?`},
		{&w.aliasQuery, `SELECT a.doc, d.uid, d.path FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term = ? ORDER BY a.doc`},
	}
	for _, s := range stmts {
		st, err := tx.Prepare(s.sql)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("prepare %q: %w", s.sql, err)
		}
		*s.dst = st
	}
	return w, nil
}

func (w *writer) close() {
	for _, b := range []*bulk{w.docs, w.aliases, w.chunks, w.fts, w.probs, w.skips, w.links} {
		b.close()
	}
	for _, st := range []*sql.Stmt{w.updLink, w.delSkip, w.aliasQuery} {
		if st != nil {
			st.Close()
		}
	}
}

// Lookup makes the writer a resolve.Aliases backed by the database.
func (w *writer) Lookup(alias string) ([]resolve.Doc, error) {
	rows, err := w.aliasQuery.Query(alias)
	if err != nil {
		return nil, err
	}
	return scanAliasDocs(rows)
}

func scanAliasDocs(rows *sql.Rows) ([]resolve.Doc, error) {
	defer rows.Close()
	var out []resolve.Doc
	for rows.Next() {
		var d resolve.Doc
		if err := rows.Scan(&d.ID, &d.UID, &d.Path); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// naturalKey is the canonical node key before collisions: uid, else id,
// else the path.
func naturalKey(path, ident, uid string) string {
	switch {
	case uid != "":
		return uid
	case ident != "":
		return ident
	}
	return path
}

// insertLoaded buffers one loaded file: a skipped file as such, a document
// with its aliases, chunks and problems; its links wait in memory until
// finish. It returns the document's row id (0 for a skipped file).
func (w *writer) insertLoaded(ld *Loaded) (int64, error) {
	if ld.Doc == nil {
		if err := w.skips.add(ld.Path, ld.OID, ld.Size, ld.MtimeNs, ld.Skip); err != nil {
			return 0, fmt.Errorf("store skipped %s: %w", ld.Path, err)
		}
		return 0, w.probs.add(nil, ld.Path, 1, 1, markdown.RuleFileSkipped, string(markdown.Warning), ld.Path+" "+ld.Skip)
	}
	d, r := ld.Doc, ld.prepared(w.pl)
	id := w.nextDoc
	w.nextDoc++
	nk := naturalKey(ld.Path, d.ID, d.UID)
	err := w.docs.add(id, ld.Path, ld.OID, ld.Size, ld.MtimeNs, nk, nk, d.ID, d.IDLine, d.UID, d.UIDLine, d.Type, d.Kind,
		d.Title, d.State, d.Format, r.fm, r.fmPos, r.disables, r.anchors, d.BodyLine, r.linksSig, r.generated, ld.Sidecar)
	if err != nil {
		return 0, fmt.Errorf("store %s: %w", ld.Path, err)
	}
	for _, term := range resolve.AliasTerms(resolve.Identity{Path: ld.Path, ID: d.ID, UID: d.UID, Title: d.Title, Olds: w.olds}) {
		if err := w.aliases.add(term, id); err != nil {
			return 0, err
		}
		if w.mem != nil {
			w.mem[term] = append(w.mem[term], resolve.Doc{ID: id, UID: d.UID, Path: ld.Path})
		}
	}
	for _, c := range r.chunks {
		if err := w.insertChunk(id, c); err != nil {
			return 0, fmt.Errorf("store a section of %s: %w", ld.Path, err)
		}
	}
	if err := w.insertProblems(id, ld.Path, d); err != nil {
		return 0, err
	}
	w.addPending(id, ld.Path, r.links, r.pl.Equal(w.pl))
	if w.mem != nil && w.npending >= w.spillAt {
		if err := w.spill(); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func (w *writer) insertProblems(id int64, path string, d *markdown.Document) error {
	for _, p := range d.Problems {
		if err := w.probs.add(id, path, p.Line, p.Col, p.Rule, string(p.Severity), p.Message); err != nil {
			return err
		}
	}
	return nil
}

// addPending queues a document's links (prepared by pendingLinks) until
// every document of the batch is in. planned says their plans were made
// with the writer's planner: else they are planned again.
func (w *writer) addPending(id int64, path string, links []pendingLink, planned bool) {
	if len(links) > 0 {
		w.pending = append(w.pending, pendingDoc{src: id, path: path, planned: planned, links: links})
		w.npending += len(links)
	}
}

// insertChunk stores a new section: its row and its full-text row.
func (w *writer) insertChunk(docID int64, c chunkRow) error {
	cid := w.nextChunk
	w.nextChunk++
	if err := w.chunks.add(cid, docID, c.seq, c.slug, c.heading, c.level, c.line, c.end, c.hash); err != nil {
		return err
	}
	return w.fts.add(cid, c.title, c.heading, c.text)
}

// flushDocs writes every buffered document row, so that lookups see them.
func (w *writer) flushDocs() error {
	for _, b := range []*bulk{w.docs, w.aliases, w.chunks, w.fts, w.probs, w.skips} {
		if err := b.flush(); err != nil {
			return err
		}
	}
	return nil
}

// defaultSpillAt bounds the links a full build holds in memory: past it
// they are written unresolved and resolved at the end from the same alias
// map. A 10k-document build never spills; a 100k one stays within its
// memory.
const defaultSpillAt = 100_000

func (w *writer) spill() error {
	for _, pd := range w.pending {
		for i := range pd.links {
			p := &pd.links[i]
			l := p.link(pd.path, w.pl, pd.planned)
			if err := w.links.add(pd.src, p.seq, l.Type, l.Field, l.Form, l.Raw, l.Anchor, p.line, p.col, l.Match, nil, l.Status); err != nil {
				return err
			}
		}
	}
	clear(w.pending) // let the links go
	w.pending, w.npending, w.spilled = w.pending[:0], 0, true
	return w.links.flush()
}

// resolveSpilled resolves, in batches, the links spill wrote unresolved.
func (w *writer) resolveSpilled(src resolve.Aliases) error {
	last := int64(0)
	for {
		rows, err := w.tx.Query(`SELECT l.id, d.path, l.form, l.raw FROM links l JOIN docs d ON d.id = l.src
			WHERE l.id > ? AND l.status = '' ORDER BY l.id LIMIT 4096`, last)
		if err != nil {
			return err
		}
		type spilled struct {
			id              int64
			path, form, raw string
		}
		var batch []spilled
		for rows.Next() {
			var s spilled
			if err := rows.Scan(&s.id, &s.path, &s.form, &s.raw); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, s := range batch {
			l := resolve.Link{Form: s.form, Raw: s.raw}
			l.Plan(s.path, w.pl)
			dst, status, err := l.Resolve(src, w.ns, s.path)
			if err != nil {
				return err
			}
			var dstArg any
			if dst != 0 {
				dstArg = dst
			}
			if _, err := w.updLink.Exec(dstArg, status, s.id); err != nil {
				return err
			}
			last = s.id
		}
		if len(batch) < 4096 {
			return nil
		}
	}
}

// finish writes what is buffered and stores the pending links, resolved
// through src (every document of the batch is in by now).
func (w *writer) finish(src resolve.Aliases) error {
	if err := w.flushDocs(); err != nil {
		return err
	}
	if src == resolve.Aliases(w) {
		terms := map[string]bool{}
		for _, pd := range w.pending {
			for i := range pd.links {
				l := pd.links[i].link(pd.path, w.pl, pd.planned)
				for _, t := range l.Terms {
					terms[t] = true
				}
			}
		}
		mem, err := w.prefetchAliases(terms)
		if err != nil {
			return err
		}
		src = mem
	}
	for _, pd := range w.pending {
		for i := range pd.links {
			p := &pd.links[i]
			l := p.link(pd.path, w.pl, pd.planned)
			dst, status, err := l.Resolve(src, w.ns, pd.path)
			if err != nil {
				return fmt.Errorf("resolve links: %w", err)
			}
			var dstArg any
			if dst != 0 {
				dstArg = dst
			}
			if err := w.links.add(pd.src, p.seq, l.Type, l.Field, l.Form, l.Raw, l.Anchor, p.line, p.col, l.Match, dstArg, status); err != nil {
				return err
			}
		}
	}
	w.pending, w.npending = nil, 0
	if err := w.links.flush(); err != nil {
		return err
	}
	if w.spilled {
		return w.resolveSpilled(src)
	}
	return nil
}

// deleteDocs removes documents and everything derived from them. Incoming
// links keep their rows; the caller re-resolves them.
func (w *writer) deleteDocs(ids []int64) error {
	if err := w.execIn(`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc IN (%s))`, sqlstore.Anys(ids)); err != nil {
		return err
	}
	return w.execIn(`DELETE FROM docs WHERE id IN (%s)`, sqlstore.Anys(ids))
}

// resolveMarked resolves again every stored link marked pending (status
// ”), through the database's aliases.
func (w *writer) resolveMarked() error {
	rows, err := w.tx.Query(`SELECT l.id, d.path, l.form, l.raw FROM links l JOIN docs d ON d.id = l.src
		WHERE l.status = '' ORDER BY l.id`)
	if err != nil {
		return err
	}
	type marked struct {
		id              int64
		path, form, raw string
	}
	var todo []marked
	for rows.Next() {
		var m marked
		if err := rows.Scan(&m.id, &m.path, &m.form, &m.raw); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	planned := make([]resolve.Link, len(todo))
	terms := map[string]bool{}
	for i, m := range todo {
		planned[i] = resolve.Link{Form: m.form, Raw: m.raw}
		planned[i].Plan(m.path, w.pl)
		for _, t := range planned[i].Terms {
			terms[t] = true
		}
	}
	mem, err := w.prefetchAliases(terms)
	if err != nil {
		return err
	}
	for i, m := range todo {
		l := planned[i]
		dst, status, err := l.Resolve(mem, w.ns, m.path)
		if err != nil {
			return err
		}
		var dstArg any
		if dst != 0 {
			dstArg = dst
		}
		if _, err := w.updLink.Exec(dstArg, status, m.id); err != nil {
			return err
		}
	}
	return nil
}

// rekey gives each document with one of the given natural keys its key:
// the natural key when no other document shares it; else, with
// namespaces, NAMESPACE:natural key when it is unique within its
// namespace; else its path.
func (w *writer) rekey(naturalKeys []string) error {
	if w.ns == nil {
		return w.execIn(`UPDATE docs SET key = CASE
		WHEN (SELECT count(*) FROM docs d2 WHERE d2.natural_key = docs.natural_key) > 1 THEN path
		ELSE natural_key END
		WHERE natural_key IN (%s)`, sqlstore.Anys(naturalKeys))
	}
	type row struct {
		id            int64
		path, nk, key string
	}
	groups := map[string][]row{}
	err := w.queryIn(`SELECT id, path, natural_key, key FROM docs WHERE natural_key IN (%s)`, sqlstore.Anys(naturalKeys), func(rows *sql.Rows) error {
		var r row
		if err := rows.Scan(&r.id, &r.path, &r.nk, &r.key); err != nil {
			return err
		}
		groups[r.nk] = append(groups[r.nk], r)
		return nil
	})
	if err != nil {
		return err
	}
	for nk, rs := range groups {
		perNS := map[string]int{}
		for _, r := range rs {
			perNS[w.ns(r.path)]++
		}
		for _, r := range rs {
			key := nk
			if len(rs) > 1 {
				key = r.path
				if ns := w.ns(r.path); ns != "" && perNS[ns] == 1 {
					key = ns + ":" + nk
				}
			}
			if key == r.key {
				continue
			}
			if _, err := w.tx.Exec(`UPDATE docs SET key = ? WHERE id = ?`, key, r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// rekeyAll does rekey for every document; a full build starts with every key
// natural.
func (w *writer) rekeyAll() error {
	if w.ns == nil {
		_, err := w.tx.Exec(`UPDATE docs SET key = path WHERE natural_key IN
		(SELECT natural_key FROM docs GROUP BY natural_key HAVING count(*) > 1)`)
		return err
	}
	var shared []string
	rows, err := w.tx.Query(`SELECT natural_key FROM docs GROUP BY natural_key HAVING count(*) > 1`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var nk string
		if err := rows.Scan(&nk); err != nil {
			rows.Close()
			return err
		}
		shared = append(shared, nk)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(shared) == 0 {
		return nil
	}
	return w.rekey(shared)
}

func disablesJSON(ds []markdown.Disable) string {
	if len(ds) == 0 {
		return ""
	}
	b, _ := json.Marshal(ds)
	return string(b)
}
