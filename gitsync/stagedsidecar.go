package gitsync

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// Sidecars in the staged check (ADR-0084, ADR-0086): a README's fields
// are partly its sidecar's (kep.yaml), so the staged check reads a staged
// README with the sidecar as the commit has it, and a staged sidecar
// alone makes its README a staged change, checked with the new fields.

// sideBlob is the sidecar a README takes its fields from in one state:
// the i-th of config.Sidecars, blob oid ("" for none).
type sideBlob struct {
	i   int
	oid string
}

// stagedSides is what the staged check needs of the sidecars: the README
// changes a staged sidecar adds, and each staged README's sidecar after
// the commit and before it (HEAD's).
type stagedSides struct {
	added         []StagedChange
	after, before map[string]sideBlob
}

// sidecarsOfStaged works out stagedSides for the staged documents docs
// among all the staged changes, asking git's index (ls-files) for the
// blobs of what the commit does not change.
func (s *Session) sidecarsOfStaged(ctx context.Context, changes, docs []StagedChange) (*stagedSides, error) {
	out := &stagedSides{after: map[string]sideBlob{}, before: map[string]sideBlob{}}
	if len(s.Cfg.Sidecars) == 0 {
		return out, nil
	}
	changed := make(map[string]StagedChange, len(changes))
	for _, c := range changes {
		changed[c.Path] = c
	}
	var readmes, need []string
	for _, c := range docs {
		if c.OID != "" && len(scan.SidecarsOf(s.Cfg, c.Path)) > 0 {
			readmes = append(readmes, c.Path)
		}
	}
	var extra []string // READMEs whose sidecar alone changed
	for _, c := range changes {
		readme := path.Join(path.Dir(c.Path), config.SidecarBeside)
		if _, ok := changed[readme]; !ok && scan.IsSidecar(s.Cfg, c.Path) && s.Scope.IsDocumentPath(readme) {
			extra = append(extra, readme)
			need = append(need, readme)
		}
	}
	extra = Distinct(extra)
	for _, r := range append(readmes, extra...) {
		for _, sp := range scan.SidecarsOf(s.Cfg, r) {
			if _, ok := changed[sp]; !ok {
				need = append(need, sp)
			}
		}
	}
	staged, err := s.Repo.indexBlobs(ctx, Distinct(need))
	if err != nil {
		return nil, err
	}
	for _, r := range extra {
		if oid := staged[r]; oid != "" {
			out.added = append(out.added, StagedChange{Status: 'M', Path: r, OID: oid, From: oid})
			readmes = append(readmes, r)
		}
	}
	for _, r := range readmes {
		out.after[r], out.before[r] = sideBlob{}, sideBlob{}
		afterSet, beforeSet := false, false
		for i, sp := range scan.SidecarsOf(s.Cfg, r) {
			a, b := staged[sp], staged[sp]
			if c, ok := changed[sp]; ok {
				a, b = c.OID, c.From
			}
			if a != "" && !afterSet {
				out.after[r], afterSet = sideBlob{i, a}, true
			}
			if b != "" && !beforeSet {
				out.before[r], beforeSet = sideBlob{i, b}, true
			}
		}
	}
	return out, nil
}

// indexBlobs is the blob id of each of paths in the index file git uses
// (GIT_INDEX_FILE in a hook): absent when it has none. The index file is
// read in place (gitfile.ReadIndex), as the staged diff reads it; one it
// leaves to git (a conflict, a split or sparse index) is asked of git
// ls-files.
func (r *Repo) indexBlobs(ctx context.Context, paths []string) (map[string]string, error) {
	if len(paths) == 0 {
		return map[string]string{}, nil
	}
	if out, ok := indexBlobsInPlace(indexFile(r), paths); ok {
		return out, nil
	}
	return r.indexBlobsOfGit(ctx, paths)
}

// indexBlobsInPlace is indexBlobs from the index file at file, read in
// place: ok false when gitfile does not read it.
func indexBlobsInPlace(file string, paths []string) (out map[string]string, ok bool) {
	defer func() {
		if recover() != nil { // a file this reads wrongly is git's to read, never a failed commit
			out, ok = nil, false
		}
	}()
	ix, err := gitfile.ReadIndex(file)
	if err != nil {
		return nil, false
	}
	defer ix.Close()
	out = map[string]string{}
	n := ix.Len()
	for _, p := range paths {
		// The entries are in git's order: by their paths' bytes.
		i := sort.Search(n, func(i int) bool { return string(ix.Path(i)) >= p })
		if i < n && string(ix.Path(i)) == p && ix.Mode(i) != 0o160000 {
			out[p] = hex.EncodeToString(ix.OID(i))
		}
	}
	return out, true
}

// indexBlobsOfGit is indexBlobs asked of git ls-files.
func (r *Repo) indexBlobsOfGit(ctx context.Context, paths []string) (map[string]string, error) {
	out := map[string]string{}
	for len(paths) > 0 {
		n := min(len(paths), 500)
		args := []string{"ls-files", "-z", "--stage", "--cached", "--"}
		for _, p := range paths[:n] {
			args = append(args, Literal(p))
		}
		paths = paths[n:]
		listing, err := r.GitEnv(ctx, stagedEnv(), args...)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(listing), "\x00") {
			// "mode oid stage\tpath"
			meta, p, ok := strings.Cut(line, "\t")
			fields := strings.Fields(meta)
			if ok && len(fields) == 3 && fields[2] == "0" && index.IsObjectID(fields[1]) && fields[0] != "160000" {
				out[p] = fields[1]
			}
		}
	}
	return out, nil
}

// loadBeside loads the blob oid as the README at path beside the sidecar
// side (the blob as the commit has it, or as HEAD has it), read within
// config.MaxSidecarBytes: a larger one is read as empty, and the README
// says so, as the index does. worktree: the working-tree file is tried
// first, as loadStaged does.
func (s *Session) loadBeside(ctx context.Context, cat func() *CatFile, path, oid string, side sideBlob, worktree bool) (*index.Loaded, error) {
	if side.oid == "" {
		if worktree {
			return s.loadStaged(ctx, cat, path, oid)
		}
		return s.loadBlob(ctx, cat(), path, oid, s.Loader.FromContent)
	}
	var content []byte
	err := errors.New("not read")
	if worktree {
		content, err = safepath.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(path)), int64(s.Cfg.MaxFileSize), s.Repo.Root)
	}
	if err != nil || scan.BlobOID(content) != oid {
		content, err = s.Repo.readBlob(ctx, cat(), oid, int64(s.Cfg.MaxFileSize))
		if big := (*BlobTooLargeError)(nil); errors.As(err, &big) {
			return s.Loader.Oversized(scan.FileInfo{Path: path, Size: big.Size}, oid), nil
		}
		if err != nil {
			return nil, err
		}
	}
	data, err := s.Repo.readBlob(ctx, cat(), side.oid, config.MaxSidecarBytes)
	if big := (*BlobTooLargeError)(nil); errors.As(err, &big) {
		data, err = []byte{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the sidecar beside %s: %w", path, err)
	}
	return s.Loader.FromContentBeside(scan.FileInfo{Path: path}, content, side.i, data), nil
}
