package hooks

import (
	"context"
	"fmt"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/ids"
)

// ReportCollisions says, one line for each, which ids the sync just made
// name two different documents (ids.Collisions: the same item edited on
// two sides is not one) and which commit brought each: what post-merge,
// post-rewrite and post-checkout tell (issue 25, ADR-0043). Only ids a
// document the sync added, changed or renamed carries are told, so a
// collision the repository had before is not repeated at every hook. A
// failure to read is a note too: a hook never fails for it.
func ReportCollisions(ctx context.Context, s *gitsync.Session, res *gitsync.Result, note func(string)) {
	if res == nil || res.Changes == nil || note == nil {
		return
	}
	touched := map[string]bool{}
	for _, p := range res.Changes.Added {
		touched[p] = true
	}
	for _, p := range res.Changes.Modified {
		touched[p] = true
	}
	for _, r := range res.Changes.Renamed {
		touched[r[1]] = true
	}
	if len(touched) == 0 {
		return
	}
	paths := make([]string, 0, len(touched))
	for p := range touched {
		paths = append(paths, p)
	}
	docs, err := s.Store.IdentDocsSharing(ctx, paths)
	if err != nil {
		note(fmt.Sprintf("could not look for ids that name two documents (canon check --all does): %v", err))
		return
	}
	for _, c := range ids.Collisions(docs, s.Cfg) {
		hit := false
		for _, d := range c.Docs {
			hit = hit || touched[d.Path]
		}
		if hit {
			note(CollisionLine(ctx, s.Repo, c))
		}
	}
}

// CollisionLine is the one line that tells a collision: the id, each
// document and the commit that added it, and the command that repairs it.
func CollisionLine(ctx context.Context, repo *gitsync.Repo, c ids.Collision) string {
	return collisionText(c, func(d ids.Doc) string { return repo.AddedIn(ctx, d.Path) })
}

// collisionText is CollisionLine with the commit that added each document
// given by from ("" when none did).
func collisionText(c ids.Collision, from func(ids.Doc) string) string {
	line := fmt.Sprintf("id %s now names %d documents:", c.Ident, len(c.Docs))
	for i, d := range c.Docs {
		sep := ","
		switch {
		case i == 0:
			sep = ""
		case i == len(c.Docs)-1:
			sep = " and"
		}
		from := from(d)
		if from == "" {
			from = "not committed"
		} else {
			from = "from " + from
		}
		line += fmt.Sprintf("%s %s (%s)", sep, index.QuotePath(d.Path), from)
	}
	return line + fmt.Sprintf("; give one a new id: canon id rename %s NEW --path PATH", c.Ident)
}
