package workset

import (
	"context"
	"time"

	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// NowError is a CANON_NOW that is not a time: a usage error.
type NowError struct{ Err error }

func (e *NowError) Error() string { return e.Err.Error() }
func (e *NowError) Unwrap() error { return e.Err }

// Git is what worksets ask of the repository's git (a *gitsync.Repo is
// one): resume reads the log and old versions of members; a template's
// "recent" counts back from HEAD's commit time, so that a run depends on
// the repository's state, not on the clock.
type Git interface {
	GitText(ctx context.Context, args ...string) (string, error)
	HeadTime(ctx context.Context) time.Time
	TrackedInWorksetDir(ctx context.Context) ([]string, error)
}

// NewEnv describes an open repository to the workset operations: its root,
// its index (caught up with HEAD: Head is the commit it reflects), its
// configuration and git, for who (lock messages). Templates are the
// built-in ones and the repository's.
func NewEnv(ctx context.Context, root string, idx *index.Store, cfg *config.Config, who string, git Git) (*Env, error) {
	now, err := ParseNow()
	if err != nil {
		return nil, &NowError{err}
	}
	head, err := idx.Meta(index.MetaHead)
	if err != nil {
		return nil, err
	}
	return &Env{
		Root: root, Index: idx, Config: cfg, Head: head, Now: now, Who: who, Git: git.GitText, Tracked: git.TrackedInWorksetDir,
		Template: func(name string) (*graph.Template, error) {
			lib, err := graph.RepoLibrary(root)
			if err != nil {
				return nil, err
			}
			return lib.Resolve(name)
		},
		TemplateNow: func() time.Time { return git.HeadTime(ctx) },
	}, nil
}
