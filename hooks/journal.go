package hooks

import (
	"context"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/workset"
)

// FinishWrites finishes, as a session opens, the writes of canon commands
// killed midway (promote, id rename, check --fix: their journals, ADR-0058):
// each forward, or back when a file changed since, in one line through
// note. A hook only says that one is left, in one line, and leaves it: it
// runs inside a git command, which owns the working tree and git's index
// meanwhile, and must not hold it up.
func FinishWrites(ctx context.Context, s *gitsync.Session, note func(string)) {
	if strings.HasPrefix(s.Who, "canon hook") {
		if msg := workset.PendingInterrupted(s, s.Repo.Root); msg != "" && note != nil {
			note(msg)
		}
		return
	}
	workset.FinishInterrupted(ctx, s, s.Repo.Root, note)
}
