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
	"strconv"
	"syscall"
	"time"

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
	s.h.DB.SetMaxIdleConns(0) // close this process's connections to the old file
	for _, side := range []string{s.path + "-wal", s.path + "-shm"} {
		// An old WAL met by the new file would be replayed into it.
		if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.h.DB.SetMaxIdleConns(2)
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
	s.h.DB.SetMaxIdleConns(2)
	s.file, _ = os.Stat(s.path)
	s.fts.ForgetCounts()
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
