package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// Stats sums up a full build.
type Stats struct {
	Documents int
	Skipped   int
	Elapsed   time.Duration
}

// Rebuild replaces the whole index with the given files. It builds a new
// database beside the live one, without a journal (nobody sees it until it
// is complete), converts it to WAL and renames it over the live file:
// readers see the old index until the rename and the new one after, a
// crash leaves the old one, and the build writes each page once instead of
// once to the WAL and again at the checkpoint. The caller holds the writer
// lock. progress, when not nil, is called after each file.
func (s *Store) Rebuild(ctx context.Context, ld *Loader, files []scan.FileInfo, meta map[string]string, progress func(done int)) (*Stats, error) {
	start := time.Now()
	// A full build allocates a lot that dies young; collecting less often
	// saves a tenth of its CPU. The memory limit keeps the heap bounded on
	// large repositories.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(160 << 20))
	tmp := s.path + buildSuffix
	removeDB(tmp)
	st, err := buildInto(ctx, tmp, ld, files, meta, progress, s.spillAt)
	if err != nil {
		removeDB(tmp)
		if ctx.Err() != nil {
			// Stopped (Ctrl-C, a signal): database/sql rolled the build's
			// transaction back under whatever step was running, whose own
			// error ("transaction has already been committed or rolled
			// back") says nothing of why.
			return nil, ctx.Err()
		}
		return nil, err
	}
	if err := s.swapIn(tmp); err != nil {
		return nil, fmt.Errorf("put the new index in place: %w", err)
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// buildSuffix names the database a full build writes beside the one it
// replaces. A build killed before the rename leaves it; the next opener of
// the index removes it (removeBuildDebris).
const buildSuffix = ".build"

func removeDB(path string) {
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}

func buildInto(ctx context.Context, path string, ld *Loader, files []scan.FileInfo, meta map[string]string, progress func(done int), spillAt int) (*Stats, error) {
	// No journal and no syncs while building: the file is not the index
	// until it is renamed; a 32 MB page cache holds the build's working set.
	// Sorts for the indexes go to temporary files: in memory they held
	// tens of megabytes each at 100k documents. (Without a journal there are
	// no statement journals to keep in memory.)
	db, err := sql.Open(driverName, "file:"+path+"?_journal_mode=OFF&_synchronous=OFF&_foreign_keys=on")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	st := &Stats{}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, q := range []string{`PRAGMA cache_size = -32768`, `PRAGMA temp_store = FILE`, metaDDL, tableDDL} {
		if _, err := tx.Exec(q); err != nil {
			return nil, fmt.Errorf("create index tables: %w", err)
		}
	}
	// FTS5 merges its segments as they come (automerge); a build writes
	// them all at once and merges once at the end instead (ftsBuildSettings).
	if err := ftsSettings(tx, ftsBuildSettings); err != nil {
		return nil, err
	}
	w, err := newWriter(tx)
	if err != nil {
		return nil, err
	}
	defer w.close()
	w.ns, w.olds, w.pl = resolve.NamespacesOf(ld.Cfg.Namespaces), resolve.OldPrefixes(ld.Cfg.Prefixes, ld.Cfg.BareNumbers), resolve.PlannerOf(ld.Cfg)
	w.mem = make(resolve.MemAliases, len(files)*3) // at most uid:, id: and stem: terms each
	w.spillAt = spillAt
	w.fts.hold = ftsHold
	done := 0
	err = ld.loadAll(ctx, files, runtime.GOMAXPROCS(0)-1, func(l *Loaded) error {
		done++
		if progress != nil {
			progress(done)
		}
		if l.Doc == nil {
			st.Skipped++
		} else {
			st.Documents++
		}
		_, err := w.insertLoaded(l)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := w.finish(w.mem); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(indexDDL); err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	if err := w.rekeyAll(); err != nil {
		return nil, fmt.Errorf("assign keys: %w", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	m := map[string]string{MetaBuiltAt: now, MetaSyncedAt: now, MetaSyncID: newSyncID()}
	for k, v := range meta {
		m[k] = v
	}
	if err := setMeta(tx, m); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(`INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`); err != nil {
		return nil, fmt.Errorf("merge the full-text index: %w", err)
	}
	if err := ftsSettings(tx, ftsDefaultSettings); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(`PRAGMA user_version = ` + strconv.Itoa(SchemaVersion)); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit the new index: %w", err)
	}
	for _, q := range []string{`PRAGMA optimize`, `PRAGMA journal_mode = WAL`} {
		if _, err := db.Exec(q); err != nil {
			return nil, err
		}
	}
	return st, db.Close()
}

// ftsHold is how many full-text rows a full build holds before it writes
// them, one after the other. FTS5 writes the terms it has pending as a new
// segment whenever a statement opens a savepoint, and every multi-row
// insert into another table does: written between them, a build of 10k
// documents made 1,255 segments of a few pages, which automerge rewrote
// level after level (a third of the build's time), and left 13, each of
// which a query that looks rows up by id (snippets, highlights) must seek
// (ADR-0023).
const ftsHold = 4096

// The FTS5 settings of a build (no merging as segments come, except when
// one level holds 64 of them, then one merge of everything at the end) and
// FTS5's defaults, which the index keeps for the small writes of a sync.
var (
	ftsBuildSettings   = map[string]int{"automerge": 0, "crisismerge": 64}
	ftsDefaultSettings = map[string]int{"automerge": 4, "crisismerge": 16}
)

// ftsSettings writes FTS5 configuration values (stored in the index).
func ftsSettings(tx *sql.Tx, kv map[string]int) error {
	for _, k := range []string{"automerge", "crisismerge"} {
		if _, err := tx.Exec(`INSERT INTO chunks_fts(chunks_fts, rank) VALUES(?, ?)`, k, kv[k]); err != nil {
			return fmt.Errorf("configure the full-text index (%s): %w", k, err)
		}
	}
	return nil
}

// swapIn renames a complete database over the live one. The live file's WAL
// and shared-memory files are removed first, so the new file never meets
// them; processes that still have the old file open keep reading it until
// they reopen (Refresh).
func (s *Store) swapIn(tmp string) error {
	// The new file reaches the disk before its name does: a crash after
	// the rename must not leave a half-written index under the live name.
	if err := syncFile(tmp); err != nil {
		removeDB(tmp)
		return fmt.Errorf("flush the new index to disk: %w", err)
	}
	s.db.SetMaxIdleConns(0) // close this process's connections to the old file
	for _, side := range []string{s.path + "-wal", s.path + "-shm"} {
		// An old WAL met by the new file would be replayed into it.
		if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.db.SetMaxIdleConns(2)
			removeDB(tmp)
			return fmt.Errorf("remove the old index's %s: %w", filepath.Base(side), err)
		}
	}
	err := os.Rename(tmp, s.path)
	if err == nil {
		// The rename itself reaches the disk with its folder. Some file
		// systems cannot flush a folder (EINVAL): nothing more to do there.
		if derr := syncFile(filepath.Dir(s.path)); derr != nil && !errors.Is(derr, syscall.EINVAL) {
			err = fmt.Errorf("the new index is in place, but its folder could not be flushed to disk, so a crash now may bring back the old one: %w", derr)
		}
	}
	s.db.SetMaxIdleConns(2)
	s.file, _ = os.Stat(s.path)
	s.counts.forget()
	return err
}

// syncFile flushes a file, or a folder's entries, to the disk (flushPath;
// tests make it fail).
var syncFile = flushPath

func flushPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

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
	err := s.inTx(ctx, func(tx *sql.Tx) error {
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
	return ch, nil
}

// Querier is a read of the index: the live database (Store.Read) or a
// previewed one (Store.Preview). Other packages only hand it back to
// index's typed reads (checkreads.go, ADR-0049); it hands out no rows and
// no transaction.
type Querier struct{ db querier }

// querier is what read-only code needs of the database: *sql.DB and
// *sql.Tx both are one.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Preview applies b inside a transaction, hands fn the database as it would
// then be and what would change, and rolls everything back: canon check
// looks at the repository as the commit will make it without writing a row.
// The caller holds the writer lock.
func (s *Store) Preview(ctx context.Context, b *Batch, fn func(q Querier, ch *Changes) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
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
	return fn(Querier{tx}, ch)
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
	err := w.queryIn(`SELECT id, path, ident, uid, key, natural_key, oid, title, links_sig FROM docs WHERE path IN (%s)`, anys(paths), func(rows *sql.Rows) error {
		d := &storedDoc{}
		if err := rows.Scan(&d.id, &d.path, &d.ident, &d.uid, &d.key, &d.natural, &d.oid, &d.title, &d.linksSig); err != nil {
			return err
		}
		out[d.path] = d
		return nil
	})
	return out, err
}

func (w *writer) apply(b *Batch, ch *Changes) error {
	affectedMatch := map[string]bool{}
	affectedNatural := map[string]bool{}
	changedKeys := map[string]bool{}
	var sources []int64 // documents whose outgoing edges may change, before
	noteOld := func(d *storedDoc) {
		for _, k := range resolve.MatchKeys(resolve.Identity{Path: d.path, ID: d.ident, UID: d.uid, Title: d.title, Olds: w.olds}) {
			affectedMatch[k] = true
		}
		affectedNatural[d.natural] = true
		changedKeys[d.key] = true
		sources = append(sources, d.id)
	}
	noteNew := func(path, ident, uid, title string) {
		for _, k := range resolve.MatchKeys(resolve.Identity{Path: path, ID: ident, UID: uid, Title: title, Olds: w.olds}) {
			affectedMatch[k] = true
		}
		affectedNatural[naturalKey(path, ident, uid)] = true
	}

	// Look at everything before changing anything, so the edge snapshot
	// below sees the old state.
	type pendingDelete struct {
		d        *storedDoc
		modified bool
	}
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
		return err
	}
	var deletes []pendingDelete
	for _, p := range b.Deletes {
		if d := storedDocs[p]; d != nil {
			noteOld(d)
			deletes = append(deletes, pendingDelete{d: d})
		}
	}
	var inplace []inPlace
	updated := map[string]bool{}
	for _, ld := range b.Upserts {
		if d := storedDocs[ld.Path]; sameIdentity(d, ld) {
			u := newInPlace(d, ld, w.pl)
			if u.relinks() {
				sources = append(sources, d.id)
			}
			if old, now := resolve.TitleKey(d.title), resolve.TitleKey(ld.Doc.Title); old != now {
				for _, k := range []string{old, now} {
					if k != "" {
						affectedMatch[k] = true // refs by its title (retitled)
					}
				}
			}
			changedKeys[d.key] = true
			inplace = append(inplace, u)
			updated[ld.Path] = true
			continue
		}
		if d := storedDocs[ld.Path]; d != nil {
			noteOld(d)
			deletes = append(deletes, pendingDelete{d: d, modified: true})
		}
		if ld.Doc != nil {
			noteNew(ld.Path, ld.Doc.ID, ld.Doc.UID, ld.Doc.Title)
		}
	}
	var renames []*storedDoc
	for _, r := range b.Renames {
		d := storedDocs[r.From]
		if d == nil {
			continue
		}
		noteOld(d)
		noteNew(r.To.Path, d.ident, d.uid, d.title)
		renames = append(renames, d)
	}
	matchList := sortedKeys(affectedMatch)
	referrers, err := w.linkSources(matchList)
	if err != nil {
		return err
	}
	sources = append(sources, referrers...)
	before, err := w.edgeSnapshot(sources)
	if err != nil {
		return err
	}

	// Now change.
	for _, p := range b.Deletes {
		if _, err := w.delSkip.Exec(p); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`DELETE FROM problems WHERE doc IS NULL AND path = ?`, p); err != nil {
			return err
		}
	}
	delIDs := make([]int64, 0, len(deletes))
	for _, del := range deletes {
		delIDs = append(delIDs, del.d.id)
		if !del.modified {
			ch.Deleted = append(ch.Deleted, del.d.path)
		}
	}
	if err := w.deleteDocs(delIDs); err != nil {
		return fmt.Errorf("remove documents: %w", err)
	}
	for i, r := range b.Renames {
		if i >= len(renames) || renames[i] == nil {
			continue
		}
		if err := w.renameDoc(renames[i], r.To); err != nil {
			return fmt.Errorf("rename %s to %s: %w", r.From, r.To.Path, err)
		}
		ch.Renamed = append(ch.Renamed, [2]string{r.From, r.To.Path})
	}
	existed := map[string]bool{}
	for _, del := range deletes {
		if del.modified {
			existed[del.d.path] = true
		}
	}
	var newIDs []int64
	for _, ld := range b.Upserts {
		if updated[ld.Path] {
			continue
		}
		if _, err := w.delSkip.Exec(ld.Path); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`DELETE FROM problems WHERE doc IS NULL AND path = ?`, ld.Path); err != nil {
			return err
		}
		id, err := w.insertLoaded(ld)
		if err != nil {
			return err
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
	if err := w.updateInPlace(inplace); err != nil {
		return err
	}
	if err := w.moveTitleAliases(inplace); err != nil {
		return err
	}
	for _, u := range inplace {
		ch.Modified = append(ch.Modified, u.ld.Path)
	}
	for _, t := range b.Touches {
		if _, err := w.tx.Exec(`UPDATE docs SET size = ?, mtime = ? WHERE path = ?`, t.Size, t.MtimeNs, t.Path); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`UPDATE skipped SET size = ?, mtime = ? WHERE path = ?`, t.Size, t.MtimeNs, t.Path); err != nil {
			return err
		}
	}

	// Links that may now point elsewhere: by match key, and every link of
	// the new documents (already pending).
	if err := w.execIn(`UPDATE links SET dst = NULL, status = '' WHERE match IN (%s) AND status <> ''`, anys(matchList)); err != nil {
		return err
	}
	if err := w.finish(w); err != nil {
		return err
	}
	if err := w.resolveMarked(); err != nil {
		return fmt.Errorf("resolve links: %w", err)
	}
	if err := w.rekey(sortedKeys(affectedNatural)); err != nil {
		return err
	}

	// What changed, for the caller and for worksets.
	after, err := w.edgeSnapshot(append(sources, newIDs...))
	if err != nil {
		return err
	}
	edgeSrcs := map[string]bool{}
	for e, n := range after {
		if d := n - before[e]; d > 0 {
			ch.EdgesAdded += d
			edgeSrcs[e.src] = true
		}
	}
	for e, n := range before {
		if d := n - after[e]; d > 0 {
			ch.EdgesRemoved += d
			edgeSrcs[e.src] = true
		}
	}
	for k := range edgeSrcs {
		changedKeys[k] = true
	}
	ids := append([]int64{}, newIDs...)
	for _, d := range renames {
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
	err = w.queryIn(`SELECT key FROM docs WHERE natural_key IN (%s)`, anys(sortedKeys(affectedNatural)), func(rows *sql.Rows) error {
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
	meta := map[string]string{MetaSyncedAt: time.Now().UTC().Format(time.RFC3339), MetaSyncID: newSyncID()}
	for k, v := range b.Meta {
		meta[k] = v
	}
	return setMeta(w.tx, meta)
}

// renameDoc moves a stored document to a new path: path-derived columns and
// aliases change, relative links are planned again; the content is not
// read again.
func (w *writer) renameDoc(d *storedDoc, to scan.FileInfo) error {
	var typ, title, generated string
	if err := w.tx.QueryRow(`SELECT type, title, generated FROM docs WHERE id = ?`, d.id).Scan(&typ, &title, &generated); err != nil {
		return err
	}
	if title == "" {
		if err := w.retitle(d.id, markdown.DisplayStem(to.Path)); err != nil {
			return err
		}
	}
	nk := naturalKey(to.Path, d.ident, d.uid)
	kind := markdown.Kind(typ, d.ident, to.Path, w.kinds)
	_, err := w.tx.Exec(`UPDATE docs SET path = ?, size = ?, mtime = ?, natural_key = ?, key = ?, kind = ?, generated = ? WHERE id = ?`,
		to.Path, to.Size, to.MtimeNs, nk, nk, kind, generatedOnRename(generated, to.Path), d.id)
	if err != nil {
		return err
	}
	if _, err := w.tx.Exec(`UPDATE problems SET path = ? WHERE doc = ?`, to.Path, d.id); err != nil {
		return err
	}
	if _, err := w.tx.Exec(`DELETE FROM aliases WHERE doc = ?`, d.id); err != nil {
		return err
	}
	for _, term := range resolve.AliasTerms(resolve.Identity{Path: to.Path, ID: d.ident, UID: d.uid, Title: d.title, Olds: w.olds}) {
		if err := w.aliases.add(term, d.id); err != nil {
			return err
		}
	}
	// Relative targets depend on where the file is: plan its links again.
	rows, err := w.tx.Query(`SELECT id, form, raw FROM links WHERE src = ?`, d.id)
	if err != nil {
		return err
	}
	type row struct {
		id        int64
		form, raw string
	}
	all, err := scanAll(rows, func(rs *sql.Rows) (row, error) {
		var r row
		return r, rs.Scan(&r.id, &r.form, &r.raw)
	})
	if err != nil {
		return err
	}
	for _, r := range all {
		l := resolve.Link{Form: r.form, Raw: r.raw}
		l.Plan(to.Path, w.pl)
		if _, err := w.tx.Exec(`UPDATE links SET match = ?, dst = NULL, status = ? WHERE id = ?`, l.Match, l.Status, r.id); err != nil {
			return err
		}
	}
	return nil
}

// retitle gives an untitled document's first section the title a full
// build gives it from the new file name: its full-text title and hash.
func (w *writer) retitle(docID int64, title string) error {
	var cid int64
	var heading, body string
	err := w.tx.QueryRow(`SELECT c.id, f.heading, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.id
		WHERE c.doc = ? AND c.seq = 0`, docID).Scan(&cid, &heading, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := w.tx.Exec(`UPDATE chunks_fts SET title = ? WHERE rowid = ?`, title, cid); err != nil {
		return err
	}
	_, err = w.tx.Exec(`UPDATE chunks SET hash = ? WHERE id = ?`, signature(title, heading, body), cid)
	return err
}

// linkSources lists the documents holding a link with one of the match keys.
func (w *writer) linkSources(matches []string) ([]int64, error) {
	var out []int64
	err := w.queryIn(`SELECT DISTINCT src FROM links WHERE match IN (%s)`, anys(matches), func(rows *sql.Rows) error {
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
		JOIN docs d ON d.id = l.dst WHERE l.src IN (%s) AND l.status = 'ok'`, anys(uniq), func(rows *sql.Rows) error {
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
	err := w.queryIn(`SELECT key FROM docs WHERE id IN (%s)`, anys(ids), func(rows *sql.Rows) error {
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

// StoredFile is what the index holds of one path.
type StoredFile struct {
	OID string
	Doc bool // a document; false for a skipped file
}

// StoredFiles returns what the index holds of each of the paths it knows
// (documents and skipped files), a batch of paths a query.
func (s *Store) StoredFiles(ctx context.Context, paths []string) (map[string]StoredFile, error) {
	out := make(map[string]StoredFile, len(paths))
	err := eachIn(ctx, s.db, `SELECT path, oid, 1 FROM docs WHERE path IN (%s)
		UNION ALL SELECT path, oid, 0 FROM skipped WHERE path IN (%s)`, nil, anys(paths), nil, func(r *sql.Rows) error {
		var p string
		var f StoredFile
		err := r.Scan(&p, &f.OID, &f.Doc)
		out[p] = f
		return err
	})
	if err != nil {
		return nil, friendly(err, s.path)
	}
	return out, nil
}

// DefaultSliceFiles is how many changed files one transaction of a large
// update reads and writes (ADR-0012): a catch-up or stat walk over more is
// applied in several, so that memory stays bounded.
const DefaultSliceFiles = 2000

// ApplySlices applies an update of n files s.SliceFiles at a time, each slice
// its own transaction, and says what changed in all. batch builds the
// batch of files [lo, hi); last is true for the final one, which is where a
// caller records what marks the update finished (the commit, the scan time).
func (s *Store) ApplySlices(ctx context.Context, n int, batch func(lo, hi int, last bool) (*Batch, error)) (*Changes, error) {
	var total *Changes
	size := s.SliceFiles
	if size <= 0 {
		size = DefaultSliceFiles // a zero would never get past the first slice
	}
	for lo := 0; ; lo += size {
		hi := min(lo+size, n)
		last := hi >= n
		b, err := batch(min(lo, n), hi, last)
		if err != nil {
			return nil, err
		}
		ch, err := s.Apply(ctx, b)
		if err != nil {
			return nil, err
		}
		if total == nil {
			total = ch
		} else {
			total = MergeChanges(total, ch)
		}
		if last {
			return total, nil
		}
	}
}

// MergeChanges sums two consecutive updates.
func MergeChanges(a, b *Changes) *Changes {
	keys := map[string]bool{}
	for _, k := range append(append([]string{}, a.Keys...), b.Keys...) {
		keys[k] = true
	}
	out := &Changes{
		Added:        append(append([]string{}, a.Added...), b.Added...),
		Modified:     append(append([]string{}, a.Modified...), b.Modified...),
		Renamed:      append(append([][2]string{}, a.Renamed...), b.Renamed...),
		Deleted:      append(append([]string{}, a.Deleted...), b.Deleted...),
		Keys:         sortedKeys(keys),
		EdgesAdded:   a.EdgesAdded + b.EdgesAdded,
		EdgesRemoved: a.EdgesRemoved + b.EdgesRemoved,
	}
	sort.Strings(out.Added)
	sort.Strings(out.Modified)
	sort.Strings(out.Deleted)
	sort.Slice(out.Renamed, func(i, j int) bool { return out.Renamed[i][0] < out.Renamed[j][0] })
	return out
}
