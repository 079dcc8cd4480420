package index

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/scan"
)

// statRow is what the index holds of one file for the stat walk: its
// size and modification time when the index last read it.
type statRow struct {
	path        string
	size, mtime int64
	doc         bool // a document, not a skipped file
}

// The stat cache (ADR-0081) is a file beside the index holding every
// stored file's path, size and time, sorted by path, stamped with the
// MetaSyncID of the index it was read from: every write of the index
// (Apply, a build) sets a new one, so a cache with another stamp is never
// used. A stat walk reads it in one go instead of a row per file.
const (
	statCacheMagic = "canon stat cache 1\n"
	maxStatCache   = 1 << 30
)

func (s *Store) statCachePath() string { return s.path + ".stat" }

func (s *Store) hasStats() bool {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.stats != nil
}

// syncIDQuery reads MetaSyncID ("" when unset) in a transaction.
const syncIDQuery = `SELECT coalesce((SELECT value FROM meta WHERE key = ?), '')`

// statsWritten keeps the stat cache this process read up to date through
// its own write b, which moved the index from sync id before to after
// (both read in its transaction): the cache is patched in memory and
// written again under the new sync id, so that the next command's walk
// need not read every row again. A process that read no stats (a hook)
// leaves the cache to the next reader.
func (s *Store) statsWritten(before, after string, b *Batch) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	if s.stats == nil || before == "" || before != s.statsID || after == "" || after == before {
		s.stats, s.statsID = nil, ""
		return
	}
	id := after
	s.stats, s.statsID = patchStats(s.stats, b), id
	if err := writeStatCache(s.statCachePath(), id, s.stats); err != nil {
		s.stats, s.statsID = nil, ""
	}
}

// patchStats is rows (sorted) after the batch b: deleted and renamed-from
// paths gone, upserted, renamed-to and touched paths with their new stat.
func patchStats(rows []statRow, b *Batch) []statRow {
	gone := map[string]bool{}
	for _, p := range b.Deletes {
		gone[p] = true
	}
	set := map[string]statRow{}
	for _, l := range b.Upserts {
		set[l.Path] = statRow{path: l.Path, size: l.Size, mtime: l.MtimeNs, doc: l.Skip == "" && l.Doc != nil}
	}
	for _, r := range b.Renames {
		gone[r.From] = true
		set[r.To.Path] = statRow{path: r.To.Path, size: r.To.Size, mtime: r.To.MtimeNs, doc: true}
	}
	touched := map[string]scan.FileInfo{}
	for _, t := range b.Touches {
		touched[t.Path] = t
	}
	out := make([]statRow, 0, len(rows)+len(set))
	for _, r := range rows {
		if nr, ok := set[r.path]; ok {
			out = append(out, nr)
			delete(set, r.path)
			continue
		}
		if gone[r.path] {
			continue
		}
		if t, ok := touched[r.path]; ok {
			r.size, r.mtime = t.Size, t.MtimeNs
		}
		out = append(out, r)
	}
	for _, r := range set {
		out = append(out, r)
	}
	return sortedStats(out)
}

// storedStats returns what the index holds of every file for the stat
// walk, sorted by path: from the stat cache when it is the index's own,
// else from the index, writing the cache again (best effort).
func (s *Store) storedStats(ctx context.Context) ([]statRow, error) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	id, err := s.Meta(MetaSyncID)
	if err == nil && id != "" {
		if id == s.statsID {
			return s.stats, nil
		}
		if rows, ok := readStatCache(s.statCachePath(), id); ok {
			s.stats, s.statsID = rows, id
			return rows, nil
		}
	}
	id, rows, err := s.readStats(ctx)
	if err != nil {
		return nil, err
	}
	if id != "" {
		_ = writeStatCache(s.statCachePath(), id, rows) // a cache not written is read from the index next time
		s.stats, s.statsID = rows, id
	}
	return rows, nil
}

// readStats reads the stored stats and the sync id they belong to in one
// transaction (one snapshot of the index).
func (s *Store) readStats(ctx context.Context) (string, []statRow, error) {
	tx, err := s.h.DB.BeginTx(ctx, nil)
	if err != nil {
		return "", nil, friendly(err, s.path)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	var id string
	if err := tx.QueryRowContext(ctx, syncIDQuery, MetaSyncID).Scan(&id); err != nil {
		return "", nil, friendly(err, s.path)
	}
	rows, err := tx.QueryContext(ctx, `SELECT path, size, mtime, 1 FROM docs UNION ALL SELECT path, size, mtime, 0 FROM skipped ORDER BY 1`)
	if err != nil {
		return "", nil, friendly(err, s.path)
	}
	defer rows.Close()
	var out []statRow
	for rows.Next() {
		var r statRow
		if err := rows.Scan(&r.path, &r.size, &r.mtime, &r.doc); err != nil {
			return "", nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return "", nil, friendly(err, s.path)
	}
	return id, sortedStats(out), nil
}

// sortedStats sorts rows by path (SQLite's order is byte order already)
// and keeps one row per path.
func sortedStats(rows []statRow) []statRow {
	cmp := func(a, b statRow) int { return strings.Compare(a.path, b.path) }
	if !slices.IsSortedFunc(rows, cmp) {
		slices.SortStableFunc(rows, cmp)
	}
	return slices.CompactFunc(rows, func(a, b statRow) bool { return a.path == b.path })
}

// readStatCache reads the cache at path if it was written at sync id;
// ok is false for any other (or a damaged one).
func readStatCache(path, id string) (rows []statRow, ok bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxStatCache {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	text := string(data)
	head := statCacheMagic + id + "\n"
	if !strings.HasPrefix(text, head) {
		return nil, false
	}
	text = text[len(head):]
	rows = make([]statRow, 0, strings.Count(text, "\x00")/4)
	prev := ""
	for text != "" {
		var f [4]string
		for i := range f {
			k := strings.IndexByte(text, 0)
			if k < 0 {
				return nil, false
			}
			f[i], text = text[:k], text[k+1:]
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		mtime, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || (f[3] != "0" && f[3] != "1") || f[0] <= prev {
			return nil, false
		}
		rows = append(rows, statRow{path: f[0], size: size, mtime: mtime, doc: f[3] == "1"})
		prev = f[0]
	}
	return rows, true
}

// writeStatCache writes rows (sorted) as the cache of sync id: a file
// beside, renamed over the cache, so that a reader sees the old or the
// new one whole.
func writeStatCache(path, id string, rows []statRow) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.WriteString(statCacheMagic + id + "\n")
	var num []byte
	for _, r := range rows {
		if strings.IndexByte(r.path, 0) >= 0 {
			tmp.Close()
			return fmt.Errorf("a stored path holds a NUL byte: %q", r.path)
		}
		w.WriteString(r.path)
		num = strconv.AppendInt(append(num[:0], 0), r.size, 10)
		num = strconv.AppendInt(append(num, 0), r.mtime, 10)
		if r.doc {
			num = append(num, 0, '1', 0)
		} else {
			num = append(num, 0, '0', 0)
		}
		w.Write(num)
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
