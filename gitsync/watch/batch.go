package watch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// documentsUnder lists the document paths on disk under a folder, by the
// rules of a full walk: ignored folders and other repositories skipped.
func documentsUnder(s *gitsync.Session, dir string) ([]string, error) {
	var out []string
	start := filepath.Join(s.Repo.Root, filepath.FromSlash(dir))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			return nil // vanished while walked: its events follow
		}
		r, _ := filepath.Rel(s.Repo.Root, p)
		rel := filepath.ToSlash(r)
		if d.IsDir() {
			if p == start {
				return nil
			}
			if s.Scope.Ignored(rel, true) {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if s.Scope.IsDocumentPath(rel) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// pathBatch turns the coalesced paths of p into an index update: each path
// (and everything under each folder that came or went, on disk and in the
// index) is looked at once. Gone means deleted; present means read, and a
// file whose content the index already has is only touched; a new path
// with the content of a deleted document is a rename, a path update. The
// caller holds the writer lock.
func pathBatch(ctx context.Context, s *gitsync.Session, p *pending) (*index.Batch, int, error) {
	cand := map[string]bool{}
	for f := range p.files {
		cand[f] = true
	}
	for _, d := range p.outermostDirs() {
		under, err := s.Store.PathsUnder(ctx, d)
		if err != nil {
			return nil, 0, err
		}
		for _, f := range under {
			cand[f] = true
		}
		onDisk, err := documentsUnder(s, d)
		if err != nil {
			return nil, 0, err
		}
		for _, f := range onDisk {
			cand[f] = true
		}
	}
	paths := make([]string, 0, len(cand))
	for f := range cand {
		paths = append(paths, f)
	}
	sort.Strings(paths)
	stored, err := s.Store.StoredFiles(ctx, paths)
	if err != nil {
		return nil, 0, err
	}

	b := index.NewBatch(s.Cfg)
	gone := map[string]string{} // blob id → a deleted document's path
	var present []scan.FileInfo
	for _, f := range paths {
		if s.Scope.IsDocumentPath(f) {
			if fi, ok := s.Scope.Stat(f); ok {
				present = append(present, fi)
				continue
			}
		}
		st, known := stored[f]
		if !known {
			continue
		}
		b.Deletes = append(b.Deletes, f)
		if _, dup := gone[st.OID]; st.Doc && !dup {
			gone[st.OID] = f
		}
	}
	renamedFrom := map[string]bool{}
	err = s.Loader.LoadAll(ctx, present, func(l *index.Loaded) error {
		st, known := stored[l.Path]
		from := gone[l.Stamp()]
		switch {
		case known && st.OID == l.Stamp():
			b.Touches = append(b.Touches, l.FileInfo)
		case !known && l.Doc != nil && from != "" && !renamedFrom[from] && !l.Symlink && index.RenameKeepsKind(s.Cfg.Kinds, l.Doc, from, l.Path):
			renamedFrom[from] = true
			b.Renames = append(b.Renames, index.Rename{From: from, To: l.FileInfo})
		default:
			b.Upserts = append(b.Upserts, l)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if len(renamedFrom) > 0 {
		kept := b.Deletes[:0]
		for _, f := range b.Deletes {
			if !renamedFrom[f] {
				kept = append(kept, f)
			}
		}
		b.Deletes = kept
	}
	return b, len(paths), nil
}
