package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// SyncWritten syncs the index with files a writer (promote, check --fix)
// just wrote, and tells the listeners: the index never answers for a file
// canon itself changed as it was before.
func (s *Session) SyncWritten(ctx context.Context, paths []string) error {
	_, err := s.SyncPaths(ctx, paths)
	return err
}

// SyncWorkingTree reconciles the index with the working tree (a writer
// that looks targets up there, as promote does, needs it as it is; the
// edit engine, once it wrote). The first call after Current, which took
// the working tree in as the command began, has nothing to add: the
// writer's look-up before it writes (canon new's id next, id fix, promote).
// Every later call reconciles.
func (s *Session) SyncWorkingTree(ctx context.Context) error {
	if s.current {
		s.current = false
		return nil
	}
	_, err := s.Reconcile(ctx)
	return err
}

// Documents is which files are documents: where a writer may write.
func (s *Session) Documents() *scan.Scope { return s.Scope }

// JournalDir is the folder of the journals that make a write to several
// files all or none across a crash (ADR-0058): this worktree's, under
// its git folder.
func (s *Session) JournalDir() string { return filepath.Join(s.Repo.CanonDir(), "journal") }

// StageRename is Repo.StageRename: a rename's record in git's index.
func (s *Session) StageRename(ctx context.Context, from, to string) error {
	return s.Repo.StageRename(ctx, from, to)
}

// Tell says a one-line note to the person (Note), such as what became
// of a write a killed command left.
func (s *Session) Tell(msg string) { s.note("%s", msg) }

// GitText runs git in the repository (scrubbed environment) and returns
// its output as text: what the workset package's Env.Git wants.
func (r *Repo) GitText(ctx context.Context, args ...string) (string, error) {
	out, err := r.Git(ctx, args...)
	return string(out), err
}

// TrackedInWorksetDir lists, sorted, what git tracks (in its index) that
// it must not: files under .cache/worksets, and .cache or .cache/worksets
// as a file or a link of their own (index.InWorksetDir). canon check
// reports each; the workset package (Env.Tracked) refuses the worksets
// they make foreign. One git ls-files of .cache.
func (r *Repo) TrackedInWorksetDir(ctx context.Context) ([]string, error) {
	out, err := r.Git(ctx, "ls-files", "-z", "--cached", "--full-name", "--end-of-options", "--", Literal(index.WorksetParent()))
	if err != nil {
		return nil, fmt.Errorf("ask git which files it tracks under %s: %w", index.WorksetParent(), err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" && index.InWorksetDir(f) {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files, nil
}

// HeadTime is HEAD's commit time, or the clock when there is no commit:
// where a query template's "recent" counts back from, so that a run
// depends on the repository's state, not on the clock.
func (r *Repo) HeadTime(ctx context.Context) time.Time {
	out, err := r.Git(ctx, "show", "-s", "--format=%cI", "HEAD")
	if err != nil {
		return time.Now()
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		return time.Now()
	}
	return t
}

// ArgsError is a use case's arguments that ask for two things at once, or
// for nothing: a usage error, in the command line's words (the MCP server
// says them in its tools' arguments' words).
type ArgsError struct{ Msg string }

func (e *ArgsError) Error() string { return e.Msg }

// Ref reads a reference given on the command line: a path relative to the
// working folder that names an existing file inside the repository becomes
// repository-relative; anything else (an id, a key, a path from the root)
// is returned as it is.
func (r *Repo) Ref(arg string) string {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return arg
	}
	return r.refAt(arg, abs)
}

// RootRef reads a reference an agent gave (the MCP server): as Ref does,
// but a relative path is read from the repository's root, not from the
// working folder, and an absolute one inside the repository becomes
// repository-relative.
func (r *Repo) RootRef(arg string) string {
	if arg == "" {
		return arg
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.Root, filepath.FromSlash(arg))
	}
	return r.refAt(arg, abs)
}

// refAt is arg made repository-relative when abs, the file it names,
// exists inside the repository; else arg as it is.
func (r *Repo) refAt(arg, abs string) string {
	if _, err := os.Stat(abs); err != nil {
		return arg
	}
	rel, err := filepath.Rel(r.Root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return arg
	}
	return filepath.ToSlash(rel)
}

// ShownIndexPath is the index's path as messages show it: relative to the
// working tree when it is inside it (.git/canon/index.db).
func (r *Repo) ShownIndexPath() string { return r.Shown(r.IndexPath()) }

// Shown is a path of the repository's as messages show it: relative to
// the working tree when it is inside it.
func (r *Repo) Shown(p string) string {
	if rel, err := filepath.Rel(r.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}
