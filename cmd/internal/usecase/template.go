package usecase

import (
	"context"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/workset"
)

// TemplateRun is the one way a front end runs a query template on an open
// session (canon query run and the MCP tool query_run alike): the
// configuration's expansion as the base, "recent" counted back from HEAD's
// commit time (so that a run depends on the repository's state, not on the
// clock), and $workset's seeds read from a workset canon made (a foreign
// one is refused). ro carries what the caller was given: seeds, workset,
// depth, budget, node cap; wrapSeeds, when set, turns a workset error into
// the front end's own.
func TemplateRun(ctx context.Context, s *gitsync.Session, t *graph.Template, ro graph.RunOptions, wrapSeeds func(error) error) (*graph.Pack, error) {
	ro.Base = graph.PackOptionsOf(s.Cfg)
	ro.Now = func() time.Time { return s.Repo.HeadTime(ctx) }
	ro.WorksetSeeds = func(ctx context.Context, name string) ([]string, error) {
		keys, err := workset.SeedKeys(ctx, &workset.Env{Root: s.Repo.Root, Tracked: s.Repo.TrackedInWorksetDir}, name)
		if err != nil && wrapSeeds != nil {
			err = wrapSeeds(err)
		}
		return keys, err
	}
	return graph.New(s.Store).RunTemplate(ctx, t, ro)
}
