package gitsync

import (
	"bytes"
	"context"
	"sort"
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
