package gitsync

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/ids"
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
	if _, err := r.Git(ctx, "ls-files", "--error-unmatch", "--", Literal(from)); err != nil {
		return nil //nolint:nilerr // not tracked: nothing to record
	}
	if _, err := r.Git(ctx, "rm", "--cached", "-q", "--", Literal(from)); err != nil {
		return err
	}
	_, err := r.Git(ctx, "add", "--", Literal(to))
	return err
}

// Literal is a repository path as a pathspec git reads as that one path:
// a file a repository ships may be named "backlog/T-1*.md" or ":(top)x",
// which git would otherwise read as a glob or as pathspec magic (a rename
// staging every file the glob matches, a history read of another file).
// Every path canon hands git after "--" goes through here.
func Literal(path string) string { return ":(literal)" + path }

// AddedIn is the short hash of the commit that added the file at path
// in HEAD's history (the newest when it was added more than once), or ""
// when HEAD's history does not add it (an untracked file).
func (r *Repo) AddedIn(ctx context.Context, path string) string {
	out, err := r.Git(ctx, "log", "-1", "--format=%h", "--diff-filter=A", "HEAD", "--", Literal(path))
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}

// RefIDs is canon id next's ids.RefIDs (ADR-0042, ADR-0043): the ids
// the documents of every followed ref (local and remote-tracking branches,
// linked worktrees' HEADs) carry where the ref differs from the indexed
// HEAD, read from the overlays, which Overlay first brings up to date at
// the cost of what moved. A summarised ref (its diff too large to load)
// has no rows there: the documents it added since its merge base are read
// from git's trees instead. Uncommitted files of linked worktrees are not
// seen (nor are they by the overlays).
func (s *Session) RefIDs(ctx context.Context) ([]ids.RefID, error) {
	over, _, err := s.Overlay(ctx, "", "")
	if err != nil {
		return nil, err
	}
	var out []ids.RefID
	for _, o := range over {
		if o.Change != index.RefDeleted && o.ID != "" {
			p := o.Path
			if o.MovedFrom != "" { // one item, the one HEAD has there
				p = o.MovedFrom
			}
			out = append(out, ids.RefID{Ref: o.Ref, Path: p, Ident: o.ID})
		}
	}
	refs, err := s.Store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if !r.Summarised || r.Base == "" {
			continue
		}
		added, err := s.addedIDs(ctx, r)
		if err != nil {
			return nil, err
		}
		out = append(out, added...)
	}
	return out, nil
}

// addedIDs reads the ids of the documents ref r added since its merge
// base with HEAD, from git's trees (one diff, the added documents' blobs).
func (s *Session) addedIDs(ctx context.Context, r index.RefState) ([]ids.RefID, error) {
	if !index.IsObjectID(r.Base) || !index.IsObjectID(r.OID) {
		return nil, fmt.Errorf("the overlay of %s holds a commit id that is not one (%q, %q); run canon index --full", r.Name, r.Base, r.OID)
	}
	cat, err := s.Repo.StartCatFile(ctx)
	if err != nil {
		cat = nil
	}
	defer cat.Close()
	docs, err := s.addedIdentDocs(ctx, cat, r.Base, r.OID, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	out := make([]ids.RefID, len(docs))
	for i, d := range docs {
		out[i] = ids.RefID{Ref: r.Name, Path: d.Path, Ident: d.Ident}
	}
	return out, nil
}

// CreatedAt is when the file at path entered HEAD's history: the commit
// time (Unix seconds) of the oldest commit that added it, or ok false when
// none did (an untracked file, created last).
func (r *Repo) CreatedAt(ctx context.Context, path string) (at int64, ok bool) {
	out, err := r.Git(ctx, "log", "--format=%ct", "--diff-filter=A", "HEAD", "--", Literal(path))
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

// RefRecordPaths are the paths of the documents of kind without an id that
// other refs add or change where they differ from the indexed HEAD (a
// numbered record, 0019-use-x.md, written on another branch), read from the
// overlays as RefIDs reads ids; a summarised ref's are not seen.
func (s *Session) RefRecordPaths(ctx context.Context, kind string) ([]string, error) {
	over, _, err := s.Overlay(ctx, "", "")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range over {
		if o.Change != index.RefDeleted && o.ID == "" && strings.EqualFold(o.Kind, kind) {
			out = append(out, o.Path)
		}
	}
	return out, nil
}
