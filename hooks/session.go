package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/workset"
)

// What every opener of a session sets as it opens: the CLI (its e.opened,
// which also opens the session of canon hook pre-commit), the MCP server
// and Run here. They live in hooks, not in usecase, because Run opens its
// own session and hooks is the lowest package that joins gitsync and
// workset: under usecase, so that all three reach them (ADR-0059).

// TellWorksets is the OnSync listener every session opener sets: the keys
// a sync changed go to the worksets holding them (docs/architecture.md), and each
// workset made stale is a note. A failure is a note too, never fatal: the
// next workset command compares its members with the index anyway. marked,
// when set, receives the worksets marked.
func TellWorksets(note func(string), marked func([]workset.Marked)) func(context.Context, *gitsync.Session, *gitsync.Result) {
	return func(ctx context.Context, s *gitsync.Session, res *gitsync.Result) {
		stale, err := workset.Invalidate(context.WithoutCancel(ctx), s.Repo.Root, s.Store, workset.Sync{
			Action: res.Action, From: res.From, To: res.To, Changes: res.Changes, Who: s.Who, Tracked: s.Repo.TrackedInWorksetDir,
		})
		if marked != nil {
			marked(stale)
		}
		if note == nil {
			return
		}
		for _, m := range stale {
			if !m.Already { // said when it became stale; refresh clears it
				note(m.String())
			}
		}
		if err != nil {
			note(fmt.Sprintf("could not mark worksets stale (the next workset command will): %v", err))
		}
	}
}

// FinishWrites finishes, as a session opens, the writes of canon commands
// killed midway (promote, id rename, check --fix: the edit engine's
// journals, ADR-0058), with the parts of their records the worksets make
// (a promote's findings): each forward, or back when a file changed since,
// in one line through note. A hook only says that one is left, in one line, and leaves it: it
// runs inside a git command, which owns the working tree and git's index
// meanwhile, and must not hold it up.
func FinishWrites(ctx context.Context, s *gitsync.Session, note func(string)) {
	if strings.HasPrefix(s.Who, "canon hook") {
		if msg := edit.Pending(s, s.Repo.Root); msg != "" && note != nil {
			note(msg)
		}
		return
	}
	edit.Finish(ctx, s, s.Repo.Root, workset.Records(s.Repo.Root), note)
}
