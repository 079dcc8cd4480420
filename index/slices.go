package index

import (
	"context"
	"database/sql"
	"sort"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// StoredFile is what the index holds of one path.
type StoredFile struct {
	OID string // its blob id, and its sidecar's after a + (Loaded.Stamp)
	Doc bool   // a document; false for a skipped file
}

// StoredFiles returns what the index holds of each of the paths it knows
// (documents and skipped files), a batch of paths a query.
func (s *Store) StoredFiles(ctx context.Context, paths []string) (map[string]StoredFile, error) {
	out := make(map[string]StoredFile, len(paths))
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT path, `+sqlstore.StoredStamp+`, 1 FROM docs WHERE path IN (%s)
		UNION ALL SELECT path, oid, 0 FROM skipped WHERE path IN (%s)`, nil, sqlstore.Anys(paths), nil, func(r *sql.Rows) error {
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
