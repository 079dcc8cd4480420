package index

import (
	"context"
	"sort"
	"strconv"
	"time"
)

// fileStat is what the index remembers of a file for the stat walk.
type fileStat struct {
	oid         string
	size, mtime int64
	doc         bool // a document, not a skipped file
}

func (s *Store) fileStats() (map[string]fileStat, error) {
	rows, err := s.db.Query(`SELECT path, oid, size, mtime, 1 FROM docs UNION ALL SELECT path, oid, size, mtime, 0 FROM skipped`)
	if err != nil {
		return nil, friendly(err, s.path)
	}
	defer rows.Close()
	out := map[string]fileStat{}
	for rows.Next() {
		var p string
		var f fileStat
		if err := rows.Scan(&p, &f.oid, &f.size, &f.mtime, &f.doc); err != nil {
			return nil, err
		}
		out[p] = f
	}
	return out, rows.Err()
}

// Reconcile brings the index in line with the working tree: a stat walk,
// reading only files whose size or mtime changed (and, by git's racy
// timestamp rule, files modified during the previous walk). Content moved to
// a new path is a rename. The caller holds the writer lock.
func (s *Store) Reconcile(ctx context.Context, ld *Loader, scope *Scope, meta map[string]string) (*Changes, error) {
	scanStart := time.Now().UnixNano()
	files, err := scope.Walk()
	if err != nil {
		return nil, err
	}
	scope.RemoveDebris()
	stored, err := s.fileStats()
	if err != nil {
		return nil, err
	}
	lastScanStr, err := s.Meta(MetaScanNs)
	if err != nil {
		return nil, err
	}
	lastScan, _ := strconv.ParseInt(lastScanStr, 10, 64)

	var candidates []FileInfo
	present := make(map[string]bool, len(files))
	for _, fi := range files {
		present[fi.Path] = true
		st, ok := stored[fi.Path]
		if ok && st.size == fi.Size && st.mtime == fi.MtimeNs && fi.MtimeNs < lastScan {
			continue
		}
		candidates = append(candidates, fi)
	}
	var deletes []string
	gone := map[string]string{} // oid → deleted path, for rename pairing
	for p := range stored {
		if !present[p] {
			deletes = append(deletes, p)
		}
	}
	sort.Strings(deletes)
	for _, p := range deletes {
		st := stored[p]
		if _, dup := gone[st.oid]; !dup && st.doc {
			gone[st.oid] = p
		}
	}
	// Files are read and written SliceFiles at a time, so that memory stays
	// bounded when a formatter has rewritten every file. Deletions go last,
	// once every rename has been paired, with the scan time and meta: an
	// interrupted walk leaves the old scan time, and the next one reads
	// again what changed since.
	renamedFrom := map[string]bool{}
	return s.ApplySlices(ctx, len(candidates), func(lo, hi int, last bool) (*Batch, error) {
		b := NewBatch(ld.Cfg)
		err := ld.LoadAll(ctx, candidates[lo:hi], func(l *Loaded) error {
			st, known := stored[l.Path]
			switch {
			case known && st.oid == l.OID:
				b.Touches = append(b.Touches, l.FileInfo)
			case !known && l.Doc != nil && gone[l.OID] != "" && !renamedFrom[gone[l.OID]]:
				from := gone[l.OID]
				renamedFrom[from] = true
				b.Renames = append(b.Renames, Rename{From: from, To: l.FileInfo})
			default:
				b.Upserts = append(b.Upserts, l)
			}
			return nil
		})
		if err != nil || !last {
			return b, err
		}
		for _, p := range deletes {
			if !renamedFrom[p] {
				b.Deletes = append(b.Deletes, p)
			}
		}
		b.Meta[MetaScanNs] = strconv.FormatInt(scanStart, 10)
		for k, v := range meta {
			b.Meta[k] = v
		}
		return b, nil
	})
}
