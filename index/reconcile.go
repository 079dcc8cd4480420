package index

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/scan"
)

// fileStat is what the index remembers of a file for the stat walk.
type fileStat struct {
	size, mtime int64
}

// statChanges lists the walked files (sorted by path) whose size or mtime
// differ from what the index stored (sorted by path too), or that it does
// not hold, and the stored paths no longer there: one pass over both. A
// file modified at or after racyAfter counts as changed whatever its stat
// says (git's racy timestamp rule).
func statChanges(files []scan.FileInfo, stored []statRow, racyAfter int64) (changed []scan.FileInfo, gone []string) {
	byPath := func(a, b scan.FileInfo) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(files, byPath) { // a walk lists in order; a caller's list may not be
		files = slices.SortedFunc(slices.Values(files), byPath)
	}
	return statDiff(files, stored, racyAfter, nil)
}

// statDiff is statChanges over files sorted by path; with racy set, the
// files whose stat is what the index holds but that are racy go there
// rather than to changed. A pair of equal paths, nearly every pair, costs
// one comparison of equal strings.
func statDiff(files []scan.FileInfo, stored []statRow, racyAfter int64, racy *[]scan.FileInfo) (changed []scan.FileInfo, gone []string) {
	i, j := 0, 0
	for i < len(files) && j < len(stored) {
		fi, st := &files[i], &stored[j]
		switch {
		case fi.Path == st.Path:
			switch {
			case st.Size != fi.Size || st.Mtime != fi.MtimeNs:
				changed = append(changed, *fi)
			case fi.MtimeNs < racyAfter:
			case racy != nil:
				*racy = append(*racy, *fi)
			default:
				changed = append(changed, *fi)
			}
			i++
			j++
		case fi.Path < st.Path:
			changed = append(changed, *fi)
			i++
		default:
			gone = append(gone, st.Path)
			j++
		}
	}
	changed = append(changed, files[i:]...)
	for _, st := range stored[j:] {
		gone = append(gone, st.Path)
	}
	return changed, gone
}

// Drift counts the working-tree files the index may hold differently: a
// stat walk like Reconcile's, reading nothing. Edited, new and deleted
// files count; the index is not touched.
func (s *Store) Drift(scope *scan.Scope) (int, error) {
	files, stored, err := s.walkStats(context.Background(), scope)
	if err != nil {
		return 0, err
	}
	changed, gone := statChanges(files, stored, math.MaxInt64)
	return len(changed) + len(gone), nil
}

// walkStats walks the scope and reads the stored stats at the same time:
// the stat cache is read and parsed while the walk waits on the kernel.
func (s *Store) walkStats(ctx context.Context, scope *scan.Scope) ([]scan.FileInfo, []statRow, error) {
	type stats struct {
		rows []statRow
		err  error
	}
	ch := make(chan stats, 1)
	go func() {
		rows, err := s.storedStats(ctx)
		ch <- stats{rows, err}
	}()
	files, err := scope.Walk()
	st := <-ch
	if err != nil {
		return nil, nil, err
	}
	return files, st.rows, st.err
}

// DriftOf is Drift over files a walk already listed.
func (s *Store) DriftOf(files []scan.FileInfo) (int, error) {
	stored, err := s.storedStats(context.Background())
	if err != nil {
		return 0, err
	}
	changed, gone := statChanges(files, stored, math.MaxInt64)
	return len(changed) + len(gone), nil
}

// Unread says what a Reconcile would read, by a stat walk reading no file:
// n counts the files whose size or time differ from what the index holds
// of them, new ones and gone ones; racy (when n is 0) are the files whose
// stat is the same but that were modified during or after the last stat
// walk (git's racy timestamp rule: only their content can tell an edit in
// the same tick).
func (s *Store) Unread(ctx context.Context, scope *scan.Scope) (n int, racy []scan.FileInfo, err error) {
	files, stored, err := s.walkStats(ctx, scope)
	if err != nil {
		return 0, nil, err
	}
	lastScan, err := s.lastScan()
	if err != nil {
		return 0, nil, err
	}
	changed, gone := statDiff(files, stored, lastScan, &racy) // a walk lists in path order
	if n = len(changed) + len(gone); n > 0 {
		return n, nil, nil
	}
	return 0, racy, nil
}

func (s *Store) lastScan() (int64, error) {
	v, err := s.Meta(MetaScanNs)
	if err != nil {
		return 0, err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n, nil
}

// Reconcile brings the index in line with the working tree: a stat walk,
// reading only files whose size or mtime changed (and, by git's racy
// timestamp rule, files modified during the previous walk). Content moved to
// a new path is a rename. The caller holds the writer lock.
func (s *Store) Reconcile(ctx context.Context, ld *Loader, scope *scan.Scope, meta map[string]string) (*Changes, error) {
	scanStart := time.Now().UnixNano()
	files, stats, err := s.walkStats(ctx, scope)
	if err != nil {
		return nil, err
	}
	scope.RemoveDebris()
	lastScan, err := s.lastScan()
	if err != nil {
		return nil, err
	}
	candidates, deletes := statChanges(files, stats, lastScan)
	look := make([]string, 0, len(candidates)+len(deletes))
	for _, fi := range candidates {
		look = append(look, fi.Path)
	}
	stored, err := s.StoredFiles(ctx, append(look, deletes...))
	if err != nil {
		return nil, err
	}
	gone := map[string]string{} // oid → deleted path, for rename pairing
	for _, p := range deletes {
		st := stored[p]
		if _, dup := gone[st.OID]; !dup && st.Doc {
			gone[st.OID] = p
		}
	}
	// Files are read and written s.SliceFiles at a time, so that memory stays
	// bounded when a formatter has rewritten every file. Deletions go last,
	// once every rename has been paired, with the scan time and meta: an
	// interrupted walk leaves the old scan time, and the next one reads
	// again what changed since.
	renamedFrom := map[string]bool{}
	prevWorktree, err := s.Meta(MetaWorktree)
	if err != nil {
		return nil, err
	}
	var read []string // paths whose content this walk read anew
	return s.ApplySlices(ctx, len(candidates), func(lo, hi int, last bool) (*Batch, error) {
		b := NewBatch(ld.Cfg)
		err := ld.LoadAll(ctx, candidates[lo:hi], func(l *Loaded) error {
			st, known := stored[l.Path]
			switch {
			case known && st.OID == l.Stamp():
				b.Touches = append(b.Touches, l.FileInfo)
			case !known && l.Doc != nil && gone[l.Stamp()] != "" && !renamedFrom[gone[l.Stamp()]] && RenameKeepsKind(b.Kinds, l.Doc, gone[l.Stamp()], l.Path):
				from := gone[l.Stamp()]
				renamedFrom[from] = true
				b.Renames = append(b.Renames, Rename{From: from, To: l.FileInfo})
				read = append(read, from, l.Path)
			default:
				b.Upserts = append(b.Upserts, l)
				read = append(read, l.Path)
			}
			return nil
		})
		if err != nil || !last {
			return b, err
		}
		for _, p := range deletes {
			if !renamedFrom[p] {
				b.Deletes = append(b.Deletes, p)
				read = append(read, p)
			}
		}
		b.Meta[MetaScanNs] = strconv.FormatInt(scanStart, 10)
		if len(read) > 0 {
			b.Meta[MetaWorktree] = worktreeSet(prevWorktree, read)
		}
		for k, v := range meta {
			b.Meta[k] = v
		}
		return b, nil
	})
}

// maxWorktreePaths bounds MetaWorktree: the oldest paths leave first.
const maxWorktreePaths = 4096

// worktreeSet adds paths to the MetaWorktree list prev (one a line), each
// once, the newest last, at most maxWorktreePaths.
func worktreeSet(prev string, paths []string) string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	newer := map[string]bool{}
	for _, p := range paths {
		newer[p] = true
	}
	for _, p := range strings.Split(prev, "\n") {
		if !newer[p] {
			add(p)
		}
	}
	for _, p := range paths {
		add(p)
	}
	if len(out) > maxWorktreePaths {
		out = out[len(out)-maxWorktreePaths:]
	}
	return strings.Join(out, "\n")
}

// WorktreeChanged counts the paths of MetaWorktree whose file in scope is
// not what the index last read of it: a size or time that differs, a
// file gone that the index holds, a file back that it does not. Those are
// the working-tree contents git put back without a hook (stash, reset
// --hard, checkout -- FILE, all at the same HEAD); a stat each, reading
// nothing.
func (s *Store) WorktreeChanged(scope *scan.Scope) (int, error) {
	root := scope.Root()
	list, err := s.Meta(MetaWorktree)
	if err != nil || list == "" {
		return 0, err
	}
	paths := strings.Split(list, "\n")
	stored := make(map[string]fileStat, len(paths))
	err = sqlstore.EachIn(context.Background(), s.h.DB, `SELECT path, size, mtime FROM docs WHERE path IN (%s)
		UNION ALL SELECT path, size, mtime FROM skipped WHERE path IN (%s)`, nil, sqlstore.Anys(paths), nil, func(r *sql.Rows) error {
		var p string
		var f fileStat
		err := r.Scan(&p, &f.size, &f.mtime)
		stored[p] = f
		return err
	})
	if err != nil {
		return 0, friendly(err, s.path)
	}
	n := 0
	for _, p := range paths {
		st, known := stored[p]
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		switch {
		case err != nil && known:
			n++
		case err == nil && !known && scope.IsDocumentPath(p):
			n++ // back, where a walk would list it (not a file now ignored)
		case err == nil && known && (info.Size() != st.size || scope.Stamped(p, info.ModTime().UnixNano()) != st.mtime):
			n++
		}
	}
	return n, nil
}
