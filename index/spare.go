package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
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
// after any checkout. One spare is kept, the newest: one is what going
// back and forth between two configurations needs, and each is as large
// as the index (726 MB at 102,000 documents).

const spareInfix = ".spare-"

// sparePath is where the spare index of the configuration hash lives.
func (s *Store) sparePath(hash string) string {
	sum := sha256.Sum256([]byte(hash))
	return s.path + spareInfix + hex.EncodeToString(sum[:8])
}

// KeepSpare copies the live index aside as the spare of its configuration,
// when it is a whole one (built, no catch-up unfinished), and removes any
// other spare. The caller holds the writer lock.
func (s *Store) KeepSpare(ctx context.Context) error { return s.keepSpare(ctx, "") }

// keepSpare is KeepSpare leaving the spare at except in place (the one a
// restore is about to take). The copy is made under Rebuild's name for its
// file, so that what a killed one leaves is removed as a killed build's is
// (removeBuildDebris).
func (s *Store) keepSpare(ctx context.Context, except string) error {
	meta, err := s.AllMeta()
	if err != nil {
		return err
	}
	hash := meta[MetaConfig]
	if hash == "" || meta[MetaBuiltAt] == "" || meta[MetaPending] != "" {
		return nil // nothing whole to keep
	}
	// VACUUM INTO writes a consistent snapshot, the WAL's pages included
	// whatever other processes read, in a rollback journal's mode: a spare
	// read without write access (spareFits) needs no files beside it.
	spare, tmp := s.sparePath(hash), s.path+buildSuffix
	removeDB(tmp)
	_, err = s.h.DB.ExecContext(ctx, `VACUUM INTO ?`, tmp)
	if err == nil {
		err = syncFile(tmp)
	}
	if err == nil {
		removeDB(spare)
		err = os.Rename(tmp, spare)
	}
	if err != nil {
		removeDB(tmp)
		return fmt.Errorf("keep the index of the configuration it was built for: %w", err)
	}
	for _, p := range spareFiles(s.path) { // one spare: this one (and except)
		if p != spare && p != except {
			os.Remove(p)
		}
	}
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
	_ = s.keepSpare(ctx, spare) // a spare is a saving, not a need: without it the next change back rebuilds
	tmp := s.path + buildSuffix
	removeDB(tmp)
	if err := os.Rename(spare, tmp); err != nil {
		return false, err
	}
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
