package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Spare indexes (ADR-0055). A branch made before the repository took its
// .canon/config.yaml reads the defaults: its configuration differs, so a
// switch to it and back rebuilt the index from nothing each way (5 s on
// tldr-pages/tldr's 38,000 pages). Before a rebuild for another
// configuration, the index of the one it leaves is kept beside the live one
// (index.db.spare-HASH, a copy: a process still reading the old file writes
// nothing into the spare); when a configuration comes back whose spare is
// there, the spare becomes the live index and catches up from its commit as
// after any checkout. At most maxSpares are kept, the newest: one is what
// going back and forth between two configurations needs, and each is as
// large as the index (726 MB at 102,000 documents).

// maxSpares bounds the spare indexes kept beside the live one.
const maxSpares = 1

const spareInfix = ".spare-"

// sparePath is where the spare index of the configuration hash lives.
func (s *Store) sparePath(hash string) string {
	sum := sha256.Sum256([]byte(hash))
	return s.path + spareInfix + hex.EncodeToString(sum[:8])
}

// KeepSpare copies the live index aside as the spare of its configuration,
// when it is a whole one (built, no catch-up unfinished). The caller holds
// the writer lock.
func (s *Store) KeepSpare(ctx context.Context) error {
	meta, err := s.AllMeta()
	if err != nil {
		return err
	}
	hash := meta[MetaConfig]
	if hash == "" || meta[MetaBuiltAt] == "" || meta[MetaPending] != "" {
		return nil // nothing whole to keep
	}
	// The WAL's pages into the file, so that the file alone is the index;
	// a reader of another process that holds them back leaves no spare.
	var busy, logged, moved int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil {
		return fmt.Errorf("checkpoint the index before keeping it: %w", err)
	}
	if busy != 0 || moved < logged {
		return nil
	}
	spare := s.sparePath(hash)
	tmp := spare + buildSuffix
	removeDB(tmp)
	if err := copyFile(s.path, tmp); err != nil {
		removeDB(tmp)
		return fmt.Errorf("keep the index of the configuration it was built for: %w", err)
	}
	// A rollback journal, not a WAL: a spare read without write access
	// (spareFits) then needs no files beside it.
	if err := rollbackMode(ctx, tmp); err != nil {
		removeDB(tmp)
		return fmt.Errorf("keep the index of the configuration it was built for: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		removeDB(tmp)
		return err
	}
	removeDB(spare)
	if err := os.Rename(tmp, spare); err != nil {
		removeDB(tmp)
		return err
	}
	s.pruneSpares(spare)
	return nil
}

// RestoreSpare makes the spare of the configuration hash the live index
// and keeps the live one as the spare of its own; false when there is no
// spare of it, or one that does not fit (another schema, another
// configuration, unfinished), which is removed. The caller holds the
// writer lock and catches the restored index up with HEAD.
func (s *Store) RestoreSpare(ctx context.Context, hash string) (bool, error) {
	spare := s.sparePath(hash)
	if _, err := os.Lstat(spare); err != nil {
		return false, nil
	}
	if !spareFits(ctx, spare, hash) {
		removeDB(spare)
		return false, nil
	}
	// Out of the spares' way first: keeping the live one prunes them.
	tmp := s.path + buildSuffix
	removeDB(tmp)
	if err := os.Rename(spare, tmp); err != nil {
		return false, err
	}
	_ = s.KeepSpare(ctx) // a spare is a saving, not a need: without it the next change back rebuilds
	if err := s.swapIn(tmp); err != nil {
		return false, err
	}
	return true, nil
}

// spareFits reports whether the file at path is an index of this schema,
// built whole for the configuration hash. It is canon's own file beside
// the live index (in .git, never in a repository's tree), trusted as the
// live one is: vetSchema would refuse the statistics PRAGMA optimize
// writes (sqlite_stat1).
func spareFits(ctx context.Context, path, hash string) bool {
	db, err := sql.Open(driverName, "file:"+path+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return false
	}
	defer db.Close()
	var version int
	if db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version) != nil || version != SchemaVersion {
		return false
	}
	meta := map[string]string{}
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN (?, ?, ?)`, MetaConfig, MetaBuiltAt, MetaPending)
	if err != nil {
		return false
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if rows.Scan(&k, &v) != nil {
			return false
		}
		meta[k] = v
	}
	return rows.Err() == nil && meta[MetaConfig] == hash && meta[MetaBuiltAt] != "" && meta[MetaPending] == ""
}

// pruneSpares removes the spares beyond maxSpares, oldest first; keep is
// never removed.
func (s *Store) pruneSpares(keep string) {
	found := spareFiles(s.path)
	type spare struct {
		path string
		mod  int64
	}
	var all []spare
	for _, p := range found {
		if strings.HasSuffix(p, buildSuffix) && p != keep+buildSuffix {
			removeDB(p) // a copy a killed KeepSpare left (the caller holds the writer lock)
			continue
		}
		if p == keep || strings.HasSuffix(p, buildSuffix) || strings.HasSuffix(p, "-wal") || strings.HasSuffix(p, "-shm") || strings.HasSuffix(p, "-journal") {
			continue
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			all = append(all, spare{p, fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].mod > all[j].mod || all[i].mod == all[j].mod && all[i].path < all[j].path
	})
	for i := maxSpares - 1; i < len(all); i++ {
		removeDB(all[i].path)
	}
}

// rollbackMode sets the database at path to a rollback journal.
func rollbackMode(ctx context.Context, path string) error {
	db, err := sql.Open(driverName, "file:"+path+"?_busy_timeout=10000")
	if err != nil {
		return err
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode=DELETE`).Scan(&mode); err != nil {
		return err
	}
	if mode != "delete" {
		return fmt.Errorf("the copy stayed in journal mode %s", mode)
	}
	return nil
}

// spareFiles lists the files beside the index at path whose names start
// as its spares' do (a glob would read brackets in the path as a pattern).
func spareFiles(path string) []string {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil
	}
	prefix := filepath.Base(path) + spareInfix
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
	return out
}

// copyFile copies the regular file src to dst, which it creates.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return errors.Join(err, fs.ErrInvalid)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
