package usecase

import (
	"context"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
)

// Init is canon init (gitsync.Session.Init) with whether the hooks already
// run canon (hooks.Inspect): then it names no next step. gitsync cannot
// ask; hooks can, and usecase, above both, joins the two.
func Init(ctx context.Context, s *gitsync.Session, opt gitsync.InitOptions) (*gitsync.Initialized, error) {
	in, err := s.Init(ctx, opt)
	if err != nil {
		return nil, err
	}
	if rep, err := hooks.Inspect(ctx, s.Repo); err == nil {
		in.HooksRun = rep.Commit && rep.Checkout
	}
	in.SuggestWatchAuto = in.Documents >= SuggestWatchAutoAt && !s.Cfg.Watch.Auto
	return in, nil
}

// SuggestWatchAutoAt is the number of documents from which canon init
// suggests watch.auto (ADR-0089): from there every command's stat walk
// costs about 70 ms of CPU or more, a delay a person notices.
const SuggestWatchAutoAt = 20000
