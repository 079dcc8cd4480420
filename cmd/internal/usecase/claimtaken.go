package usecase

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/markdown"
)

// A claim takes an item no one else has: canon claim refuses an item
// that is done, one in progress under another name here, and one another
// branch or worktree has taken (assigned to another name, moved or
// finished there: the claims canon ready leaves out, read from the same
// overlays), saying where it was taken. --force takes it anyway.

// taken refuses the claim of the item by as when it is taken: done, or
// assigned to another name and under way (in progress or in review), or
// assigned to another name where the claim would not move its state (a
// learned state field with no in-progress value, ADR-0082: the assignee
// is then all a claim says).
func (e *itemEditor) taken(ctx context.Context, assigneeField, as string, movesState bool) error {
	st := e.doc.State
	if e.s.Cfg.States.IsDone(st) {
		return fmt.Errorf("%w: %s is done already (%s); reopen it with canon set, or take it anyway with --force", ErrItem, e.doc.ID, human.Quote(st))
	}
	who := e.assignees(assigneeField)
	if len(who) > 0 && !slices.ContainsFunc(who, func(w string) bool { return sameName(w, as) }) && (graph.UnderWay(st) || !movesState) {
		return fmt.Errorf("%w: %s is taken: assigned to %s (%s) here; take it over with --force", ErrItem, e.doc.ID, human.Quote(strings.Join(who, ", ")), human.Quote(st))
	}
	over, _, err := e.s.OverlayOfHere(ctx)
	if err != nil {
		return err
	}
	for _, c := range graph.Claims(over, e.s.Cfg.States) {
		if c.Key != e.doc.Key || c.How == "assigned" && sameName(c.Assignee, as) {
			continue
		}
		return fmt.Errorf("%w: %s is taken on %s: %s, %s by %s; canon ready lists what is free (--force takes it anyway)",
			ErrItem, e.doc.ID, human.Quote(c.Ref), claimWhat(c), shortHash(c.Commit), human.Quote(c.Author))
	}
	return nil
}

// assignees are the names the item's assignee field holds.
func (e *itemEditor) assignees(field string) []string {
	v := e.md.Frontmatter.Get(field)
	if v == nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !strings.EqualFold(s, "none") && s != "null" && s != "~" {
			out = append(out, s)
		}
	}
	if v.Kind == markdown.List {
		for _, it := range v.Items {
			if s, ok := it.Scalar(); ok {
				add(s)
			}
		}
		return out
	}
	if s, ok := v.Scalar(); ok {
		add(s)
	}
	return out
}

// sameName reports whether two assignees name one person: Backlog.md
// writes @bob where a claim says bob.
func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimPrefix(strings.TrimSpace(a), "@"), strings.TrimPrefix(strings.TrimSpace(b), "@"))
}

// claimWhat says what another ref did with the item, as canon ready
// says it.
func claimWhat(c graph.Claim) string {
	switch c.How {
	case "done":
		return "done (" + human.Quote(c.State) + ")"
	case "assigned":
		if c.State != "" {
			return "assigned to " + human.Quote(c.Assignee) + " (" + human.Quote(c.State) + ")"
		}
		return "assigned to " + human.Quote(c.Assignee)
	}
	return "moved to " + human.Quote(c.State)
}

func shortHash(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
