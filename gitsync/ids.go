package gitsync

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
)

// MarkdownFiles lists, sorted, the working tree's Markdown files that git
// tracks or would (untracked ones not ignored): those canon id rename
// reads for links, documents or not.
func (r *Repo) MarkdownFiles(ctx context.Context) ([]string, error) {
	out, err := r.Git(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate", "--", "*.md", "*.MD", "*.markdown")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	sort.Strings(paths)
	return Distinct(paths), nil
}

// StageRename records in git's index that the file at from is now at to,
// as git mv would, when git tracks from (canon id rename renames a file
// that carries the id; a link to the new name would be broken in git's
// tree until it is added). An untracked from is left to its owner.
func (r *Repo) StageRename(ctx context.Context, from, to string) error {
	if _, err := r.Git(ctx, "ls-files", "--error-unmatch", "--", from); err != nil {
		return nil //nolint:nilerr // not tracked: nothing to record
	}
	if _, err := r.Git(ctx, "rm", "--cached", "-q", "--", from); err != nil {
		return err
	}
	_, err := r.Git(ctx, "add", "--", to)
	return err
}

// AddedIn is the short hash of the commit that added the file at path
// in HEAD's history (the newest when it was added more than once), or ""
// when HEAD's history does not add it (an untracked file).
func (r *Repo) AddedIn(ctx context.Context, path string) string {
	out, err := r.Git(ctx, "log", "-1", "--format=%h", "--diff-filter=A", "HEAD", "--", path)
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}

// BranchIDs is the stand-in index.RefIDs of canon id next (ADR-0043): the
// ids of the documents each local and remote-tracking branch added since
// its merge base with HEAD, read from git's trees at every call (one diff
// a branch, the added documents' blobs). TEMPORARY: the lead replaces it
// at merge with a read of the per-ref overlay of issue 26 (branch h-refs),
// which keeps the same ids up to date incrementally; no other per-ref
// index is to be built here. Uncommitted files of linked worktrees are
// not seen.
func (s *Session) BranchIDs(ctx context.Context) ([]index.RefID, error) {
	out, err := s.Repo.Git(ctx, "for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
	if err != nil {
		return nil, err
	}
	cat, err := s.Repo.StartCatFile(ctx)
	if err != nil {
		cat = nil
	}
	defer cat.Close()
	var ids []index.RefID
	for _, ref := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if ref == "" || strings.HasSuffix(ref, "/HEAD") || strings.HasPrefix(ref, "-") {
			continue
		}
		base, err := s.Repo.Git(ctx, "merge-base", "--end-of-options", "HEAD", ref)
		if err != nil {
			continue // no common history: nothing it adds is ours to avoid
		}
		raw, err := s.Repo.Git(ctx, "diff", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--diff-filter=A", "--end-of-options", strings.TrimSpace(string(base)), ref, "--")
		if err != nil {
			return nil, err
		}
		added, err := parseRaw(raw)
		if err != nil {
			return nil, err
		}
		for _, c := range added {
			if !s.Scope.IsDocumentPath(c.Path) {
				continue
			}
			content, err := s.Repo.readBlob(ctx, cat, c.OID)
			if err != nil {
				return nil, fmt.Errorf("read %s as %s has it: %w", c.Path, ref, err)
			}
			if l := s.Loader.FromContent(index.FileInfo{Path: c.Path}, content); l.Doc != nil && l.Doc.ID != "" {
				ids = append(ids, index.RefID{Ref: ref, Path: c.Path, Ident: l.Doc.ID})
			}
		}
	}
	return ids, nil
}

// CreatedAt is when the file at path entered HEAD's history: the commit
// time (Unix seconds) of the oldest commit that added it, or ok false when
// none did (an untracked file, created last).
func (r *Repo) CreatedAt(ctx context.Context, path string) (at int64, ok bool) {
	out, err := r.Git(ctx, "log", "--format=%ct", "--diff-filter=A", "HEAD", "--", path)
	if err != nil {
		return 0, false
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return 0, false
	}
	_, err = fmt.Sscan(lines[len(lines)-1], &at)
	return at, err == nil
}
