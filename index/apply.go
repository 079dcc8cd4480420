package index

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// Batch is one incremental update.
type Batch struct {
	Upserts []*Loaded       // new or changed files
	Deletes []string        // paths that are no longer documents
	Renames []Rename        // same content under a new path
	Touches []scan.FileInfo // same content and path, new stat
	Meta    map[string]string
	Kinds   map[string]string // the kinds mapping, for renamed documents
	// Namespaces are the configured namespaces (resolution prefers the
	// referring document's; keys that collide across them are qualified).
	Namespaces config.Namespaces
	// Prefixes are the configured old id prefixes (OLD-NUMBER names NEW-NUMBER).
	Prefixes map[string]string
	// RepoURLs are the repository's own web addresses (config.RepoURLs).
	RepoURLs []string
	// SitePages: the repository's site serves a page at its path without
	// .md (config.Config.SitePages).
	SitePages bool
	// BareNumbers are the prefixes whose documents a bare number names.
	BareNumbers []string
}

// NewBatch starts an empty batch for the configuration.
func NewBatch(cfg *config.Config) *Batch {
	return &Batch{Kinds: cfg.DocKinds(), Namespaces: cfg.Namespaces, Prefixes: cfg.Prefixes, RepoURLs: cfg.RepoURLs, SitePages: cfg.SitePages(), BareNumbers: cfg.BareNumbers, Meta: map[string]string{}}
}

// RenameKeepsKind reports whether document d, moved from one path to
// another with the same content, keeps its kind: its kind may follow from
// its path (a numbered record in a decisions folder, markdown.Kind), and
// with it what was read of its text (an ADR's written status). A move
// that changes it is a deletion and an addition, read anew.
func RenameKeepsKind(kinds map[string]string, d *markdown.Document, from, to string) bool {
	return d != nil && markdown.Kind(d.Type, d.ID, from, kinds) == markdown.Kind(d.Type, d.ID, to, kinds)
}

// Rename moves a stored file to a new path without re-reading it.
type Rename struct {
	From string
	To   scan.FileInfo
}

// Empty reports a batch that changes no content.
func (b *Batch) Empty() bool {
	return len(b.Upserts) == 0 && len(b.Deletes) == 0 && len(b.Renames) == 0
}

// Changes says what an update did.
type Changes struct {
	Added    []string    `json:"added"`
	Modified []string    `json:"modified"`
	Renamed  [][2]string `json:"renamed"`
	Deleted  []string    `json:"deleted"`
	// Keys are the node keys whose document or outgoing edges changed,
	// sorted: what worksets holding them must hear about.
	Keys         []string `json:"changed_keys"`
	EdgesAdded   int      `json:"edges_added"`
	EdgesRemoved int      `json:"edges_removed"`
}

// None reports an update that changed nothing.
// Files is how many files the changes added, modified, renamed or
// deleted.
func (c *Changes) Files() int {
	if c == nil {
		return 0
	}
	return len(c.Added) + len(c.Modified) + len(c.Renamed) + len(c.Deleted)
}

func (c *Changes) None() bool {
	return len(c.Added)+len(c.Modified)+len(c.Renamed)+len(c.Deleted)+c.EdgesAdded+c.EdgesRemoved == 0 && len(c.Keys) == 0
}

type storedDoc struct {
	id                int64
	path, ident, uid  string
	key, natural, oid string
	title             string
	linksSig          int64
}

// Apply writes an incremental update in one transaction and says what changed.
func (s *Store) Apply(ctx context.Context, b *Batch) (*Changes, error) {
	ch := &Changes{}
	var before, after string // the sync ids this write replaces and sets, for the stat cache
	keep := s.hasStats()
	err := s.h.InTx(ctx, func(tx *sql.Tx) error {
		if keep {
			if err := tx.QueryRowContext(ctx, syncIDQuery, MetaSyncID).Scan(&before); err != nil {
				return err
			}
			defer func() { _ = tx.QueryRowContext(ctx, syncIDQuery, MetaSyncID).Scan(&after) }()
		}
		// A large update (a branch switch) keeps its pages in memory rather
		// than spilling them to the WAL and reading them back.
		if len(b.Upserts)+len(b.Deletes) > 100 {
			if _, err := tx.Exec(`PRAGMA cache_size = -32768`); err != nil {
				return err
			}
			// Best effort: a connection left with the larger cache only
			// uses more memory until it closes.
			defer func() { _, _ = tx.Exec(s.cacheSizePragma()) }()
		}
		w, err := newWriter(tx)
		if err != nil {
			return err
		}
		defer w.close()
		w.kinds, w.ns, w.olds, w.pl = b.Kinds, resolve.NamespacesOf(b.Namespaces), resolve.OldPrefixes(b.Prefixes, b.BareNumbers), resolve.Planner{URLs: b.RepoURLs, Pages: b.SitePages}
		return w.apply(b, ch)
	})
	if err != nil {
		return nil, err
	}
	s.statsWritten(before, after, b)
	return ch, nil
}

// Read hands fn the database as it is, for reads that also run over a
// preview (index/internal/checkreads, index/check's Run).
func (s *Store) Read(fn func(q Querier) error) error { return fn(sqlstore.QuerierOf(s.h.DB)) }

// Preview applies b inside a transaction, hands fn the database as it would
// then be and what would change, and rolls everything back: canon check
// looks at the repository as the commit will make it without writing a row.
// The caller holds the writer lock.
func (s *Store) Preview(ctx context.Context, b *Batch, fn func(q Querier, ch *Changes) error) error {
	tx, err := s.h.DB.BeginTx(ctx, nil)
	if err != nil {
		return friendly(err, s.path)
	}
	defer tx.Rollback()
	w, err := newWriter(tx)
	if err != nil {
		return err
	}
	defer w.close()
	w.kinds, w.ns, w.olds, w.pl = b.Kinds, resolve.NamespacesOf(b.Namespaces), resolve.OldPrefixes(b.Prefixes, b.BareNumbers), resolve.Planner{URLs: b.RepoURLs, Pages: b.SitePages}
	ch := &Changes{}
	if err := w.apply(b, ch); err != nil {
		return err
	}
	return fn(sqlstore.QuerierOf(tx), ch)
}

// moveTitleAliases moves the title alias (TitleKey) of the documents
// updated in place whose title changed.
func (w *writer) moveTitleAliases(ups []inPlace) error {
	for _, u := range ups {
		old, now := resolve.TitleKey(u.d.title), resolve.TitleKey(u.ld.Doc.Title)
		if old == now {
			continue
		}
		if old != "" {
			if _, err := w.tx.Exec(`DELETE FROM aliases WHERE doc = ? AND term = ?`, u.d.id, "title:"+old); err != nil {
				return err
			}
		}
		if now != "" {
			if err := w.aliases.add("title:"+now, u.d.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// storedAll reads what the index holds of the given paths.
func (w *writer) storedAll(paths []string) (map[string]*storedDoc, error) {
	out := map[string]*storedDoc{}
	err := w.queryIn(`SELECT id, path, ident, uid, key, natural_key, oid, title, links_sig FROM docs WHERE path IN (%s)`, sqlstore.Anys(paths), func(rows *sql.Rows) error {
		d := &storedDoc{}
		if err := rows.Scan(&d.id, &d.path, &d.ident, &d.uid, &d.key, &d.natural, &d.oid, &d.title, &d.linksSig); err != nil {
			return err
		}
		out[d.path] = d
		return nil
	})
	return out, err
}

// apply writes the batch b through w and says in ch what changed, in four
// steps: look at what the index holds before changing anything (plan),
// change the documents (changeDocs), resolve again the links that may now
// point elsewhere (relink) and say what changed (report).
func (w *writer) apply(b *Batch, ch *Changes) error {
	p, err := w.plan(b)
	if err != nil {
		return err
	}
	newIDs, err := w.changeDocs(b, p, ch)
	if err != nil {
		return err
	}
	if err := w.relink(p); err != nil {
		return err
	}
	if err := w.report(p, newIDs, ch); err != nil {
		return err
	}
	meta := map[string]string{MetaSyncedAt: time.Now().UTC().Format(time.RFC3339), MetaSyncID: newSyncID()}
	for k, v := range b.Meta {
		meta[k] = v
	}
	return setMeta(w.tx, meta)
}

// batchPlan is what an update found before it changed anything: the
// stored documents it deletes, updates in place and renames, the match
// keys and natural keys whose links and keys it may change, and the
// resolved edges of the documents whose outgoing edges may change.
type batchPlan struct {
	olds            map[string][]string
	affectedMatch   map[string]bool
	affectedNatural map[string]bool
	changedKeys     map[string]bool
	sources         []int64 // documents whose outgoing edges may change, before
	deletes         []pendingDelete
	inplace         []inPlace
	updated         map[string]bool // paths updated in place
	renames         []*storedDoc
	matchList       []string
	before          map[edge]int
}

// pendingDelete is a stored document an update removes; modified when a
// new version of it is inserted in its place.
type pendingDelete struct {
	d        *storedDoc
	modified bool
}

// noteOld marks what a stored document that leaves or moves may change.
func (p *batchPlan) noteOld(d *storedDoc) {
	for _, k := range resolve.MatchKeys(resolve.Identity{Path: d.path, ID: d.ident, UID: d.uid, Title: d.title, Olds: p.olds}) {
		p.affectedMatch[k] = true
	}
	p.affectedNatural[d.natural] = true
	p.changedKeys[d.key] = true
	p.sources = append(p.sources, d.id)
}

// noteNew marks what a document that arrives at path may change.
func (p *batchPlan) noteNew(path, ident, uid, title string) {
	for _, k := range resolve.MatchKeys(resolve.Identity{Path: path, ID: ident, UID: uid, Title: title, Olds: p.olds}) {
		p.affectedMatch[k] = true
	}
	p.affectedNatural[naturalKey(path, ident, uid)] = true
}

// plan looks at everything before changing anything, so that the edge
// snapshot sees the old state.
func (w *writer) plan(b *Batch) (*batchPlan, error) {
	p := &batchPlan{olds: w.olds, affectedMatch: map[string]bool{}, affectedNatural: map[string]bool{}, changedKeys: map[string]bool{}, updated: map[string]bool{}}
	var paths []string
	paths = append(paths, b.Deletes...)
	for _, ld := range b.Upserts {
		paths = append(paths, ld.Path)
	}
	for _, r := range b.Renames {
		paths = append(paths, r.From)
	}
	storedDocs, err := w.storedAll(paths)
	if err != nil {
		return nil, err
	}
	for _, path := range b.Deletes {
		if d := storedDocs[path]; d != nil {
			p.noteOld(d)
			p.deletes = append(p.deletes, pendingDelete{d: d})
		}
	}
	w.planUpserts(p, b, storedDocs)
	for _, r := range b.Renames {
		d := storedDocs[r.From]
		if d == nil {
			continue
		}
		p.noteOld(d)
		p.noteNew(r.To.Path, d.ident, d.uid, d.title)
		p.renames = append(p.renames, d)
	}
	p.matchList = sortedKeys(p.affectedMatch)
	referrers, err := w.linkSources(p.matchList)
	if err != nil {
		return nil, err
	}
	p.sources = append(p.sources, referrers...)
	p.before, err = w.edgeSnapshot(p.sources)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// planUpserts sorts the batch's new and changed files: one whose stored
// document keeps its identity is updated in place, any other replaces
// what the index holds of its path.
func (w *writer) planUpserts(p *batchPlan, b *Batch, storedDocs map[string]*storedDoc) {
	for _, ld := range b.Upserts {
		if d := storedDocs[ld.Path]; sameIdentity(d, ld) {
			u := newInPlace(d, ld, w.pl)
			if u.relinks() {
				p.sources = append(p.sources, d.id)
			}
			if old, now := resolve.TitleKey(d.title), resolve.TitleKey(ld.Doc.Title); old != now {
				for _, k := range []string{old, now} {
					if k != "" {
						p.affectedMatch[k] = true // refs by its title (retitled)
					}
				}
			}
			p.changedKeys[d.key] = true
			p.inplace = append(p.inplace, u)
			p.updated[ld.Path] = true
			continue
		}
		if d := storedDocs[ld.Path]; d != nil {
			p.noteOld(d)
			p.deletes = append(p.deletes, pendingDelete{d: d, modified: true})
		}
		if ld.Doc != nil {
			p.noteNew(ld.Path, ld.Doc.ID, ld.Doc.UID, ld.Doc.Title)
		}
	}
}

// changeDocs deletes, renames, inserts, updates in place and touches what
// the plan says, and returns the row ids of the documents it inserted.
func (w *writer) changeDocs(b *Batch, p *batchPlan, ch *Changes) ([]int64, error) {
	if err := w.removeDeleted(b, p, ch); err != nil {
		return nil, err
	}
	for i, r := range b.Renames {
		if i >= len(p.renames) || p.renames[i] == nil {
			continue
		}
		if err := w.renameDoc(p.renames[i], r.To); err != nil {
			return nil, fmt.Errorf("rename %s to %s: %w", r.From, r.To.Path, err)
		}
		ch.Renamed = append(ch.Renamed, [2]string{r.From, r.To.Path})
	}
	newIDs, err := w.insertUpserts(b, p, ch)
	if err != nil {
		return nil, err
	}
	if err := w.updateInPlace(p.inplace); err != nil {
		return nil, err
	}
	if err := w.moveTitleAliases(p.inplace); err != nil {
		return nil, err
	}
	for _, u := range p.inplace {
		ch.Modified = append(ch.Modified, u.ld.Path)
	}
	for _, t := range b.Touches {
		if _, err := w.tx.Exec(`UPDATE docs SET size = ?, mtime = ? WHERE path = ?`, t.Size, t.MtimeNs, t.Path); err != nil {
			return nil, err
		}
		if _, err := w.tx.Exec(`UPDATE skipped SET size = ?, mtime = ? WHERE path = ?`, t.Size, t.MtimeNs, t.Path); err != nil {
			return nil, err
		}
	}
	return newIDs, nil
}

// removeDeleted removes the deleted paths' skipped files and problems and
// the documents the plan deletes (a modified one comes back, inserted).
func (w *writer) removeDeleted(b *Batch, p *batchPlan, ch *Changes) error {
	for _, path := range b.Deletes {
		if err := w.forgetPath(path); err != nil {
			return err
		}
	}
	delIDs := make([]int64, 0, len(p.deletes))
	for _, del := range p.deletes {
		delIDs = append(delIDs, del.d.id)
		if !del.modified {
			ch.Deleted = append(ch.Deleted, del.d.path)
		}
	}
	if err := w.deleteDocs(delIDs); err != nil {
		return fmt.Errorf("remove documents: %w", err)
	}
	return nil
}

// forgetPath removes what the index holds of a path that is no document:
// its skipped file and the problems about it.
func (w *writer) forgetPath(path string) error {
	if _, err := w.delSkip.Exec(path); err != nil {
		return err
	}
	_, err := w.tx.Exec(`DELETE FROM problems WHERE doc IS NULL AND path = ?`, path)
	return err
}

// insertUpserts inserts the new and changed files not updated in place,
// and returns the row ids of the documents among them.
func (w *writer) insertUpserts(b *Batch, p *batchPlan, ch *Changes) ([]int64, error) {
	existed := map[string]bool{}
	for _, del := range p.deletes {
		if del.modified {
			existed[del.d.path] = true
		}
	}
	var newIDs []int64
	for _, ld := range b.Upserts {
		if p.updated[ld.Path] {
			continue
		}
		if err := w.forgetPath(ld.Path); err != nil {
			return nil, err
		}
		id, err := w.insertLoaded(ld)
		if err != nil {
			return nil, err
		}
		if existed[ld.Path] {
			ch.Modified = append(ch.Modified, ld.Path)
		} else if ld.Doc != nil {
			ch.Added = append(ch.Added, ld.Path)
		}
		if id != 0 {
			newIDs = append(newIDs, id)
		}
	}
	return newIDs, nil
}

// relink resolves again the links that may now point elsewhere: by match
// key, and every link of the new documents (already pending); and gives
// the documents whose natural key a twin shares their keys again.
func (w *writer) relink(p *batchPlan) error {
	if err := w.execIn(`UPDATE links SET dst = NULL, status = '' WHERE match IN (%s) AND status <> ''`, sqlstore.Anys(p.matchList)); err != nil {
		return err
	}
	if err := w.finish(w); err != nil {
		return err
	}
	if err := w.resolveMarked(); err != nil {
		return fmt.Errorf("resolve links: %w", err)
	}
	return w.rekey(sortedKeys(p.affectedNatural))
}

// report says in ch what changed, for the caller and for worksets: the
// edges added and removed, and the keys of the documents whose document or
// outgoing edges changed.
func (w *writer) report(p *batchPlan, newIDs []int64, ch *Changes) error {
	after, err := w.edgeSnapshot(append(p.sources, newIDs...))
	if err != nil {
		return err
	}
	changedKeys := p.changedKeys
	edgeSrcs := map[string]bool{}
	for e, n := range after {
		if d := n - p.before[e]; d > 0 {
			ch.EdgesAdded += d
			edgeSrcs[e.src] = true
		}
	}
	for e, n := range p.before {
		if d := n - after[e]; d > 0 {
			ch.EdgesRemoved += d
			edgeSrcs[e.src] = true
		}
	}
	for k := range edgeSrcs {
		changedKeys[k] = true
	}
	ids := append([]int64{}, newIDs...)
	for _, d := range p.renames {
		ids = append(ids, d.id)
	}
	keys, err := w.keysOf(ids)
	if err != nil {
		return err
	}
	for _, k := range keys {
		changedKeys[k] = true
	}
	// Documents whose key changed because a twin came or went.
	err = w.queryIn(`SELECT key FROM docs WHERE natural_key IN (%s)`, sqlstore.Anys(sortedKeys(p.affectedNatural)), func(rows *sql.Rows) error {
		var k string
		if err := rows.Scan(&k); err != nil {
			return err
		}
		changedKeys[k] = true
		return nil
	})
	if err != nil {
		return err
	}
	ch.Keys = sortedKeys(changedKeys)
	sort.Strings(ch.Added)
	sort.Strings(ch.Modified)
	sort.Strings(ch.Deleted)
	sort.Slice(ch.Renamed, func(i, j int) bool { return ch.Renamed[i][0] < ch.Renamed[j][0] })
	return nil
}

// linkSources lists the documents holding a link with one of the match keys.
func (w *writer) linkSources(matches []string) ([]int64, error) {
	var out []int64
	err := w.queryIn(`SELECT DISTINCT src FROM links WHERE match IN (%s)`, sqlstore.Anys(matches), func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		out = append(out, id)
		return err
	})
	return out, err
}

// edge is a resolved edge by node keys, which survive a document being
// re-read or renamed.
type edge struct {
	src, typ, dst string
}

// edgeSnapshot counts the resolved outgoing edges of the given documents.
func (w *writer) edgeSnapshot(ids []int64) (map[edge]int, error) {
	seen := map[int64]bool{}
	var uniq []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	out := map[edge]int{}
	err := w.queryIn(`SELECT s.key, l.type, d.key FROM links l JOIN docs s ON s.id = l.src
		JOIN docs d ON d.id = l.dst WHERE l.src IN (%s) AND l.status = 'ok'`, sqlstore.Anys(uniq), func(rows *sql.Rows) error {
		var e edge
		if err := rows.Scan(&e.src, &e.typ, &e.dst); err != nil {
			return err
		}
		out[e]++
		return nil
	})
	return out, err
}

func (w *writer) keysOf(ids []int64) ([]string, error) {
	var out []string
	err := w.queryIn(`SELECT key FROM docs WHERE id IN (%s)`, sqlstore.Anys(ids), func(rows *sql.Rows) error {
		var k string
		err := rows.Scan(&k)
		out = append(out, k)
		return err
	})
	return out, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
