package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
)

// CheckResult is what canon check found, and in how many files it looked.
type CheckResult struct {
	Findings []check.Finding
	Checked  []string // the files validated in full
}

// CheckStaged validates what the next commit records: the staged blobs,
// against the repository as it will be after the commit — the index with
// the staged additions, modifications and deletions laid over it, never
// written. Documents whose links a staged deletion or rename breaks are
// reported too.
func (s *Session) CheckStaged(ctx context.Context) (*CheckResult, error) {
	staged, err := s.Repo.Staged(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the staged changes: %w", err)
	}
	b := &index.Batch{Kinds: s.Cfg.Kinds}
	stagedSet := make(map[string]bool, len(staged))
	for _, c := range staged {
		stagedSet[c.Path] = c.OID != ""
	}
	for _, c := range staged {
		if !s.Scope.IsDocumentPath(c.Path) {
			continue
		}
		if c.OID == "" {
			b.Deletes = append(b.Deletes, c.Path)
			continue
		}
		content, err := s.Repo.ReadStaged(ctx, c.Path, c.OID)
		if err != nil {
			return nil, fmt.Errorf("read staged %s: %w", c.Path, err)
		}
		b.Upserts = append(b.Upserts, s.Loader.FromContent(index.FileInfo{Path: c.Path}, content))
	}
	if b.Empty() {
		return &CheckResult{}, nil
	}
	return s.checkPreview(ctx, b, &GitTree{Repo: s.Repo, Staged: stagedSet})
}

// CheckPaths validates the given working-tree files (paths relative to the
// repository root) as they are on disk.
func (s *Session) CheckPaths(ctx context.Context, paths []string) (*CheckResult, error) {
	b := &index.Batch{Kinds: s.Cfg.Kinds}
	for _, p := range paths {
		fi, ok := s.Scope.Stat(p)
		if !ok {
			return nil, fmt.Errorf("%s does not exist (or is a folder); name Markdown files", p)
		}
		if !s.Scope.IsDocumentPath(p) {
			return nil, fmt.Errorf("%s is not a document canon indexes (not a .md file, outside the roots, or excluded)", p)
		}
		if l := s.Loader.Load(fi); l != nil {
			b.Upserts = append(b.Upserts, l)
		}
	}
	return s.checkPreview(ctx, b, &GitTree{Repo: s.Repo})
}

func (s *Session) checkPreview(ctx context.Context, b *index.Batch, tree *GitTree) (*CheckResult, error) {
	if _, err := s.CatchUp(ctx); err != nil {
		return nil, err
	}
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res := &CheckResult{}
	err = s.Store.Preview(ctx, b, func(q index.Querier, ch *index.Changes) error {
		in := check.Input{Cfg: s.Cfg, Docs: []int64{}, Tree: tree}
		staged := map[string]bool{}
		for _, l := range b.Upserts {
			res.Checked = append(res.Checked, l.Path)
			staged[l.Path] = true
			if l.Doc == nil {
				in.Skipped = append(in.Skipped, l.Path)
				continue
			}
			var id int64
			if err := q.QueryRowContext(ctx, `SELECT id FROM docs WHERE path = ?`, l.Path).Scan(&id); err != nil {
				return err
			}
			in.Docs = append(in.Docs, id)
		}
		// Others whose edges the change moved: their links are checked.
		for _, key := range ch.Keys {
			rows, err := q.QueryContext(ctx, `SELECT id, path FROM docs WHERE key = ?`, key)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id int64
				var p string
				if err := rows.Scan(&id, &p); err != nil {
					rows.Close()
					return err
				}
				if !staged[p] {
					in.LinksOnly = append(in.LinksOnly, id)
					res.Checked = append(res.Checked, p)
				}
			}
			rows.Close()
		}
		f, err := check.Run(ctx, q, in)
		res.Findings = f
		return err
	})
	return res, err
}

// CheckAll validates every document (for CI) as the index holds them; the
// caller reconciles the working tree first (and hands the changes to the
// worksets), so edits not yet synced are checked as they are.
func (s *Session) CheckAll(ctx context.Context) (*CheckResult, error) {
	f, err := check.Run(ctx, s.Store.DB(), check.Input{Cfg: s.Cfg, Tree: &GitTree{Repo: s.Repo}})
	if err != nil {
		return nil, err
	}
	rows, err := s.Store.DB().QueryContext(ctx, `SELECT path FROM docs UNION SELECT path FROM skipped ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &CheckResult{Findings: f}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		res.Checked = append(res.Checked, p)
	}
	return res, rows.Err()
}

// RepoPath turns a path given on the command line (relative to the current
// folder) into a repo-relative one.
func (r *Repo) RepoPath(arg string) (string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	rootReal, _ := filepath.EvalSymlinks(r.Root)
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	rel, err := filepath.Rel(rootReal, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository", arg)
	}
	if _, err := os.Lstat(abs); err != nil {
		return "", fmt.Errorf("%s does not exist", arg)
	}
	return filepath.ToSlash(rel), nil
}
