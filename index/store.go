package index

import (
	"sync"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/docs"
	"github.com/canon-md/canon/index/internal/dump"
	"github.com/canon-md/canon/index/internal/fulltext"
	"github.com/canon-md/canon/index/internal/overlay"
	"github.com/canon-md/canon/index/internal/scoped"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/sqliteconn"

	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// Store is the index database of one worktree.
type Store struct {
	h      *sqlstore.Handle // the database, shared with the table families
	path   string
	driver string // driverName, or keepWALDriver for OpenIndex
	lock   *flock.Flock
	file   os.FileInfo // the database file as opened, to notice a rebuild's swap
	// stats are the stored stats this process last read (storedStats) and
	// the sync id they are of: Apply patches them through its own writes.
	statsMu sync.Mutex
	stats   []statRow // never changed in place: patchStats makes a new one
	statsID string
	// Waiting, when set, hears once that Lock has waited two seconds for
	// the holder it names (a hook can say why it is slow).
	Waiting func(holder string)
	// Namespaces are the configuration's, for NAMESPACE:ID and search
	// --namespace; the session that opens the store sets them.
	Namespaces config.Namespaces
	// KnownKinds are the kinds the configuration names (kinds:, the check
	// schemas, doc and adr): asked for, one that no document has yet is
	// an empty answer, not an unknown kind (NoKind).
	KnownKinds map[string]bool
	// KnownEdges are the edge types the configuration names (NoEdgeType).
	KnownEdges map[string]bool
	// LeftOut reports a template's or a test fixture's path
	// (config.LeftOut): FindOne prefers the one document it does not name
	// over copies of it. The session sets it; nil names none.
	LeftOut func(path string) bool
	// SliceFiles is how many changed files one transaction of a large
	// update reads and writes (ApplySlices); Open sets DefaultSliceFiles.
	// A field, not a global, so that a test can make its own store apply
	// in several transactions while other tests run beside it.
	SliceFiles int
	spillAt    int             // see defaultSpillAt; tests make a build spill early
	fts        *fulltext.Index // the full-text index's reads (index/internal/fulltext)
	vectors    *vectorSidecar  // a vocabulary bridge's (UseVectors), nil: none
	// Overlays is the overlays' tables (index/internal/overlay): st.ApplyRefs,
	// st.Overlay and the rest are its methods.
	overlay.Overlays
	// Docs is the documents' tables' reads (index/internal/docs):
	// st.LinksOf, st.EachNode and the rest are its methods.
	docs.Docs
	// Scopes is the reads of scoped packs (index/internal/scoped):
	// st.ScopeData, st.ScopeOverview.
	scoped.Scopes
	// Dumper is the index's content as lines (index/internal/dump):
	// st.Dump, what canon verify compares.
	dump.Dumper
}

// DiffDumps lists the lines only in a ("-") or only in b ("+"), in order:
// what canon verify prints of two Dumps.
func DiffDumps(a, b []string) []string { return dump.Diff(a, b) }

// Meta keys.
const (
	MetaHead     = "head"      // the commit the index reflects ("" before the first commit)
	MetaConfig   = "config"    // config.IndexHash of the build
	MetaSyncedAt = "synced_at" // RFC 3339 time of the last sync
	// MetaSyncID changes with every sync, even two in the same second
	// (synced_at's resolution): what tells whether the index moved.
	MetaSyncID  = "sync_id"
	MetaScanNs  = "scan_ns"  // start of the last stat walk, for the racy-timestamp rule
	MetaBuiltAt = "built_at" // RFC 3339 time of the last full build
	// MetaPending lists, space-separated, the commits of catch-ups that were
	// applied in slices and did not finish: the index may hold some of their
	// files ("" when none).
	MetaPending = "pending"
	// MetaWorktree lists, one a line, the paths whose content a reconcile
	// read from the working tree (edited, added, deleted, renamed), most
	// recent last, at most maxWorktreePaths: where the index may hold what
	// git stash or reset --hard later put back (WorktreeChanged).
	MetaWorktree = "worktree"
	// MetaChecked is what the last check of every document found: a JSON
	// object of the counts, and the head, synced_at and sync id saying
	// which state of the index it was (canon status shows it, and whether
	// the index has moved since).
	MetaChecked = "checked"
)

// ErrLocked says another process holds the writer lock for too long.
var ErrLocked = errors.New("index is locked")

// LockedError names the process holding the writer lock.
type LockedError struct{ Holder string }

func (e *LockedError) Error() string {
	if e.Holder == "" {
		return "the index is locked by another canon process"
	}
	return "the index is locked by " + e.Holder
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// driverName is go-sqlite3 with a connect hook: every connection keeps
// temporary data (statement journals, sorts) in memory. On disk, the
// statement journals of a full build alone were 90,000 writes at 10k
// documents.
const driverName = "sqlite3_canon"

// keepWALDriver is driverName whose connections also leave the WAL
// unmerged when they close (sqliteconn.NoCheckpointOnClose): the repository's index,
// which every hook opens, writes and closes (OpenIndex).
const keepWALDriver = "sqlite3_canon_keep_wal"

// sliceDriver is driverName whose connections also check every page's
// cells as they read them (cell_size_check): a workset's database can come
// with a clone, and a crafted page is then caught as corruption before
// SQLite's b-tree code trusts its sizes (ADR-0032). The repository's own
// index, which only canon writes, does without the cost.
const sliceDriver = "sqlite3_canon_slice"

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error { return prepareConn(c, driverName) }})
	sql.Register(keepWALDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error { return prepareConn(c, keepWALDriver) }})
	sql.Register(sliceDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error { return prepareConn(c, sliceDriver) }})
}

// prepareConn readies a new connection of the named driver: first made to
// distrust the database's schema (ADR-0032), then temporary data in memory
// and canon's ranking function; keepWALDriver leaves the WAL unmerged on
// close, sliceDriver checks cell sizes.
func prepareConn(c *sqlite3.SQLiteConn, driver string) error {
	if err := sqliteconn.Distrust(c); err != nil {
		return err
	}
	pragmas := `PRAGMA temp_store = MEMORY`
	switch driver {
	case keepWALDriver:
		sqliteconn.NoCheckpointOnClose(c)
	case sliceDriver:
		pragmas += `; PRAGMA cell_size_check = ON`
	}
	if _, err := c.Exec(pragmas, nil); err != nil {
		return err
	}
	return sqliteconn.RegisterRank(c)
}

// Open opens (creating if needed) the index database at path and brings its
// schema to SchemaVersion. needsBuild is true when the content tables were
// (re)created and hold nothing yet.
func Open(path string) (s *Store, needsBuild bool, err error) {
	return open(context.Background(), path, driverName, false)
}

// OpenIndex is Open for a repository's index (.git/canon/index.db): closing
// it leaves the WAL for the next process instead of checkpointing it, the
// one cost of a hook that grew with nothing it did (ADR-0021).
func OpenIndex(path string) (s *Store, needsBuild bool, err error) {
	return OpenIndexContext(context.Background(), path)
}

// OpenIndexContext is OpenIndex whose wait for another process's schema
// migration ends when ctx does (Ctrl-C, SIGTERM): the error is ctx's, and
// nothing was written.
func OpenIndexContext(ctx context.Context, path string) (s *Store, needsBuild bool, err error) {
	dropForeignWAL(path)
	s, needsBuild, err = open(ctx, path, keepWALDriver, false)
	if err == nil {
		s.removeBuildDebris()
	}
	return s, needsBuild, err
}

// removeBuildDebris deletes what a killed full build left beside the
// index (Rebuild's database, as large as the index, and its journal),
// when no writer holds the lock: a build in progress holds it (a killed
// KeepSpare's copy has the same name, ADR-0055). Without debris it costs
// one stat.
func (s *Store) removeBuildDebris() {
	tmp := s.path + buildSuffix
	if _, err := os.Lstat(tmp); err != nil {
		return
	}
	if ok, err := s.lock.TryLock(); err != nil || !ok || safepath.Locked(s.lock) != nil {
		return
	}
	removeDB(tmp)
	_ = s.lock.Unlock() // the lock goes with the file's descriptor at the latest
}

// dropForeignWAL removes the WAL and shared-memory files beside a database
// file that is not SQLite's (another tool overwrote it, or a disk damaged
// it): SQLite would lay the old index's pages over it. Without them the
// file is reported for what it is, and canon index --full replaces it.
func dropForeignWAL(path string) {
	if _, err := os.Lstat(path + "-wal"); err != nil {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if n == 0 || n == len(head) && string(head) == "SQLite format 3\x00" {
		return // empty (SQLite drops the WAL itself) or a database
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
}

// open opens the database at path; vet checks its schema (vetSchema)
// before the migration or anything else reads it.
func open(ctx context.Context, path, driver string, vet bool) (s *Store, needsBuild bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, fmt.Errorf("create index folder: %w", err)
	}
	if vet {
		if err := vetSchema(ctx, path); err != nil {
			return nil, false, err
		}
	}
	h := &sqlstore.Handle{Path: path}
	s = &Store{path: path, h: h, Overlays: overlay.New(h), Docs: docs.New(h), Scopes: scoped.New(h), Dumper: dump.New(h), fts: fulltext.New(h), lock: safepath.NewLock(path + ".lock"), SliceFiles: DefaultSliceFiles, spillAt: defaultSpillAt, driver: driver}
	if err := s.connect(); err != nil {
		return nil, false, err
	}
	needsBuild, err = s.migrate(ctx)
	if err != nil {
		s.h.DB.Close()
		return nil, false, err
	}
	return s, needsBuild, nil
}

func (s *Store) connect() error {
	dsn := "file:" + s.path + "?_busy_timeout=10000&_journal_mode=WAL&_foreign_keys=on&_synchronous=NORMAL&_txlock=immediate&cache=private"
	if s.h.PageCache > 0 {
		dsn += "&_cache_size=-" + strconv.Itoa(s.h.PageCache)
	}
	drv := s.driver
	if TestDriver != nil {
		drv = TestDriver(drv)
	}
	var db *sql.DB
	for try := 1; ; try++ {
		var err error
		if db, err = sql.Open(drv, dsn); err != nil {
			return fmt.Errorf("open index: %w", err)
		}
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(2)
		db.SetConnMaxIdleTime(time.Minute)
		err = db.Ping()
		if err == nil {
			break
		}
		db.Close()
		if try < swapTries && swapRaced(err) {
			time.Sleep(time.Duration(try) * time.Millisecond)
			continue
		}
		if err := friendly(err, s.path); errors.Is(err, ErrDamaged) {
			return err
		}
		return fmt.Errorf("open index: %w", friendly(err, s.path))
	}
	s.h.DB = db
	s.file, _ = os.Stat(s.path)
	return nil
}

// swapTries is how many times connect opens the index when the open met
// another process's full build putting its new file in place (swapRaced).
const swapTries = 5

// swapRaced reports an open that met a full build's swapIn in another
// process (or another session of this one): swapIn removes the live
// file's WAL and shared-memory files and then renames the new file over
// it, so an open in between finds the old shared memory saying the WAL
// holds frames and a WAL it created afresh, empty (a short read), or
// finds a WAL it then cannot remove (SQLite removes the WAL of an empty
// file, and so did the other opener). A moment later the new file is in
// place, whole: the open is tried again.
func swapRaced(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrIoErrShortRead || se.ExtendedCode == sqlite3.ErrIoErrDeleteNoent)
}

// KeepPages gives each connection a page cache of 16 MB instead of
// SQLite's 2 MB, for a process that asks many questions (canon mcp): a
// search at 100k documents reads the sizes of thousands of sections from
// FTS5's docsize table, and with 2 MB read them back from the file at
// every query (its ranking: 6.6 → 5.5 ms). A one-shot command does
// without: it reads most pages once, and a larger cache only made it
// fault in fresh memory for each (canon search at 100k: +0.7 ms). Such a
// store also remembers how many sections each searched phrase matches
// (fulltext.Index.RankExpr). Call it before the store is used by anything else: it
// reconnects.
func (s *Store) KeepPages() error {
	old, was := s.h.DB, s.h.PageCache
	s.h.PageCache = sqlstore.KeptPages
	if err := s.connect(); err != nil {
		s.h.DB, s.h.PageCache = old, was
		return err
	}
	return old.Close()
}

// cacheSizePragma sets a connection's page cache back to what the store
// gives its connections, after a write that raised it.
func (s *Store) cacheSizePragma() string {
	kib := s.h.PageCache
	if kib == 0 {
		kib = 2000 // SQLite's default
	}
	return `PRAGMA cache_size = -` + strconv.Itoa(kib)
}

// Refresh reopens the database when another process's full build has
// swapped a new file in since this Store opened it; a long-lived process
// (the watcher) calls it before each sync. It costs one stat.
func (s *Store) Refresh() error {
	now, err := os.Stat(s.path)
	if err != nil || s.file == nil || os.SameFile(now, s.file) {
		return nil
	}
	// The *sql.DB stays the same for everyone holding it; only its
	// connections, which point at the old file, are dropped.
	s.h.DB.SetMaxIdleConns(0)
	s.h.DB.SetMaxIdleConns(2)
	s.file = now
	s.fts.ForgetCounts()
	return nil
}

// SchemaChanged reports whether a newer canon (an upgrade) migrated the
// index on disk to its schema since this process opened it: a
// long-running watcher or server of the old version must then neither
// write nor vouch for it. An older schema is this binary's to migrate,
// as any open does.
func (s *Store) SchemaChanged(ctx context.Context) bool {
	var version int
	if err := s.h.DB.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return false // the read fails the next real query too, which says why
	}
	return version > SchemaVersion
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close releases the database.
func (s *Store) Close() error {
	if s.driver == keepWALDriver {
		s.trimWAL()
	}
	return s.h.DB.Close()
}

// walTrimBytes is how large a WAL OpenIndex's Close lets pass before it
// merges it into the database and empties it: 512 pages, half of SQLite's
// wal_autocheckpoint, so that a commit never checkpoints before Close can.
// Every first opener reads the whole WAL back (about half a millisecond a
// megabyte), so it stays small; a hook of a few documents writes a few
// hundred kilobytes.
const walTrimBytes = 2 << 20

// trimWAL checkpoints the WAL into the database and truncates it once it
// has grown past walTrimBytes. Closing does not (sqliteconn.NoCheckpointOnClose), and
// SQLite's own checkpoints cannot empty a WAL that several processes wrote
// in turn: each first opener recovers the WAL and forgets what was merged.
// A reader in the middle of a query makes it give up at once; a later
// Close tries again.
func (s *Store) trimWAL() {
	st, err := os.Stat(s.path + "-wal")
	if err != nil || st.Size() <= walTrimBytes {
		return
	}
	ctx := context.Background()
	c, err := s.h.DB.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return
	}
	// A checkpoint that fails (a reader) is tried again at a later Close.
	_, _ = c.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	if _, err := c.ExecContext(ctx, `PRAGMA busy_timeout = 10000`); err != nil {
		sqlstore.DiscardConn(c) // it would go back to the pool without its timeout
	}
}

// migrationWait is how long a migration waits for another writer.
var migrationWait = 30 * time.Second

func (s *Store) migrate(ctx context.Context) (bool, error) {
	var version int
	if err := s.h.DB.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return false, fmt.Errorf("read index schema version: %w", friendly(err, s.path))
	}
	if version == SchemaVersion {
		return false, nil
	}
	// Everything but meta is derived: a migration is a rebuild. Take the
	// writer lock so that two processes do not migrate at once.
	// The wait ends with ctx (a signal): nothing is written before the
	// lock is held, and the transaction below is rolled back if ctx ends
	// in it.
	unlock, err := s.Lock(ctx, "canon (schema migration)", waitForMigration())
	if err != nil {
		return false, fmt.Errorf("wait to migrate the index schema: %w", err)
	}
	defer unlock()
	if err := s.h.DB.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return false, err
	}
	if version == SchemaVersion {
		return false, nil
	}
	err = s.h.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(metaDDL); err != nil {
			return err
		}
		if err := recreateContent(tx); err != nil {
			return err
		}
		if _, err := tx.Exec(indexDDL); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM meta`); err != nil {
			return err
		}
		_, err := tx.Exec(`PRAGMA user_version = ` + strconv.Itoa(SchemaVersion))
		return err
	})
	if err != nil {
		return false, fmt.Errorf("create index schema: %w", err)
	}
	return true, nil
}

func recreateContent(tx *sql.Tx) error {
	for _, t := range sqlstore.ContentTables {
		if _, err := tx.Exec(`DROP TABLE IF EXISTS ` + t); err != nil {
			return err
		}
	}
	_, err := tx.Exec(tableDDL)
	return err
}

// Lock takes the writer lock, waiting up to wait for another writer to finish.
// who describes this process for the message another waiter sees. The lock
// is released by the returned func, or by the kernel if the process dies, so
// it is never stale.
func (s *Store) Lock(ctx context.Context, who string, wait time.Duration) (unlock func(), err error) {
	ok, err := s.lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("take index lock: %w", safepath.LockError(s.lock.Path(), err))
	}
	if !ok {
		wctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		if s.Waiting != nil {
			t := time.AfterFunc(2*time.Second, func() { s.Waiting(s.Holder()) })
			defer t.Stop()
		}
		ok, err = s.lock.TryLockContext(wctx, 20*time.Millisecond)
		if !ok {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &LockedError{Holder: s.Holder()}
		}
		if err != nil {
			return nil, fmt.Errorf("take index lock: %w", safepath.LockError(s.lock.Path(), err))
		}
	}
	if err := safepath.Locked(s.lock); err != nil {
		return nil, fmt.Errorf("take index lock: %w", err)
	}
	// Say who holds it, at once, for the message another process prints;
	// the line is cleared on unlock, so a waiter never reads an earlier
	// holder's.
	s.writeHolder(fmt.Sprintf("pid %d (%s) since %s\n", os.Getpid(), who, time.Now().Format(time.TimeOnly)))
	unlock = func() {
		s.writeHolder("")
		_ = s.lock.Unlock() // the lock goes with the file's descriptor at the latest
	}
	// Another process may have swapped in a rebuilt file while this one
	// waited: write to the file that is the index now.
	if err := s.Refresh(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

func (s *Store) writeHolder(line string) { safepath.WriteLockNote(s.lock.Path(), line) }

var holderPID = lazyre.MustCompile(`^pid ([0-9]+) `)

// Holder says which process holds the writer lock, as it wrote itself
// down: "" when the line is missing or names a process that is gone.
func (s *Store) Holder() string {
	line := strings.TrimSpace(safepath.LockNote(s.lock.Path()))
	if m := holderPID.FindStringSubmatch(line); m != nil {
		if pid, err := strconv.Atoi(m[1]); err == nil && !safepath.PIDAlive(pid) {
			return ""
		}
	}
	return line
}

// Meta returns the value of a meta key ("" when unset).
func (s *Store) Meta(key string) (string, error) {
	var v string
	err := s.h.DB.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", friendly(err, s.path)
	}
	return v, nil
}

// AllMeta returns every meta key.
func (s *Store) AllMeta() (map[string]string, error) {
	rows, err := s.h.DB.Query(`SELECT key, value FROM meta`)
	if err != nil {
		return nil, friendly(err, s.path)
	}
	return sqlstore.KeyValues(rows)
}

// SetMeta writes meta keys in a transaction of their own.
func (s *Store) SetMeta(ctx context.Context, kv map[string]string) error {
	return s.h.InTx(ctx, func(tx *sql.Tx) error { return setMeta(tx, kv) })
}

func setMeta(tx *sql.Tx, kv map[string]string) error {
	for k, v := range kv {
		if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
			return fmt.Errorf("write meta %s: %w", k, err)
		}
	}
	return nil
}

// friendly turns SQLite's terse errors into sentences that say what to do
// (Explain, with this database's path).
func friendly(err error, path string) error { return Explain(err, path) }

// newSyncID is a MetaSyncID: unique to this sync.
func newSyncID() string { return strconv.FormatInt(time.Now().UnixNano(), 36) }
