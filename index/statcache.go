package index

import (
	"context"

	"github.com/canon-md/canon/index/internal/statfile"
	"github.com/canon-md/canon/index/scan"
)

// statRow is what the index holds of one file for the stat walk
// (ADR-0081), kept in a file beside it by index/internal/statfile.
type statRow = statfile.Row

var (
	sortedStats    = statfile.Sorted
	readStatCache  = statfile.Read
	writeStatCache = statfile.Write
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
		set[l.Path] = statRow{Path: l.Path, Size: l.Size, Mtime: l.MtimeNs, Doc: l.Skip == "" && l.Doc != nil}
	}
	for _, r := range b.Renames {
		gone[r.From] = true
		set[r.To.Path] = statRow{Path: r.To.Path, Size: r.To.Size, Mtime: r.To.MtimeNs, Doc: true}
	}
	touched := map[string]scan.FileInfo{}
	for _, t := range b.Touches {
		touched[t.Path] = t
	}
	out := make([]statRow, 0, len(rows)+len(set))
	for _, r := range rows {
		if nr, ok := set[r.Path]; ok {
			out = append(out, nr)
			delete(set, r.Path)
			continue
		}
		if gone[r.Path] {
			continue
		}
		if t, ok := touched[r.Path]; ok {
			r.Size, r.Mtime = t.Size, t.MtimeNs
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
		if err := rows.Scan(&r.Path, &r.Size, &r.Mtime, &r.Doc); err != nil {
			return "", nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return "", nil, friendly(err, s.path)
	}
	return id, sortedStats(out), nil
}
