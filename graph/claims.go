package graph

import (
	"fmt"
	"io"
	"sort"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
)

// Claims (ADR-0042): what other refs (branches, worktrees) do with the
// items HEAD lists, read from the overlays (index.Store.Overlay). ready
// leaves claimed items out and says so; blocked says which blockers are
// done elsewhere. This is one more step after Work, kept apart from how
// Work filters and orders.

// Claim is an item of HEAD that another ref has taken: moved its state,
// assigned it, or finished it.
type Claim struct {
	Key      string `json:"key"` // HEAD's document
	ID       string `json:"id"`
	Ref      string `json:"ref"`
	How      string `json:"how"` // done, assigned, state
	State    string `json:"state"`
	Assignee string `json:"assignee,omitempty"`
	Commit   string `json:"commit"`
	Author   string `json:"author"`
}

// Claims lists the claims the overlays hold, by item key and ref.
func Claims(over []index.OverlayDoc, states config.States) []Claim {
	out := []Claim{}
	for _, o := range over {
		h := o.Here
		if h == nil || o.Change == index.RefDeleted {
			continue
		}
		c := Claim{Key: h.Key, ID: h.ID, Ref: o.Ref, State: o.State, Assignee: o.Assignee, Commit: o.Commit, Author: o.Author}
		switch {
		case states.IsDone(o.State) && !states.IsDone(h.State):
			c.How = "done"
		case o.Assignee != "" && o.Assignee != h.Assignee:
			c.How = "assigned"
		case o.State != "" && o.State != h.State:
			c.How = "state"
		default:
			continue
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Key != out[j].Key {
			return out[i].Key < out[j].Key
		}
		return out[i].Ref < out[j].Ref
	})
	return out
}

// ClaimedItem is a ready item left out because other refs claim it.
type ClaimedItem struct {
	Item
	Claims []Claim `json:"claims"`
}

// Freshness is how fresh the overlays an answer used are (gitsync's
// OverlayStatus): its JSON goes in the answer, its Text under it.
type Freshness interface{ Text() string }

// Elsewhere is what other refs do with HEAD's items, for ready and blocked
// (WorkQuery.Elsewhere): the claims and how fresh they are.
type Elsewhere struct {
	Claims []Claim
	Fresh  Freshness
}

// leaveOutClaimed splits ready items into those no claim names and those
// claimed elsewhere.
func leaveOutClaimed(items []Item, claims []Claim) (kept []Item, claimed []ClaimedItem) {
	by := map[string][]Claim{}
	for _, c := range claims {
		by[c.Key] = append(by[c.Key], c)
	}
	kept, claimed = []Item{}, []ClaimedItem{}
	for _, it := range items {
		if cs := by[it.Key]; len(cs) > 0 {
			claimed = append(claimed, ClaimedItem{Item: it, Claims: cs})
			continue
		}
		kept = append(kept, it)
	}
	return kept, claimed
}

// doneElsewhere keeps the claims that finish an item, by item key.
func doneElsewhere(claims []Claim) map[string][]Claim {
	out := map[string][]Claim{}
	for _, c := range claims {
		if c.How == "done" {
			out[c.Key] = append(out[c.Key], c)
		}
	}
	return out
}

// ClaimList is the claims tool's answer: what other refs have taken, and
// how fresh that is.
type ClaimList struct {
	Claims  []Claim
	Overlay Freshness
}

// WriteText is a line per claim (its id, then writeClaims' line), then the
// freshness.
func (l ClaimList) WriteText(w io.Writer) error {
	if len(l.Claims) == 0 {
		fmt.Fprintln(w, "no item is taken on another branch or worktree")
	}
	for _, c := range l.Claims {
		fmt.Fprintf(w, "  %s\n", human.Quote(c.ID))
		writeClaims(w, []Claim{c})
	}
	_, err := fmt.Fprintln(w, l.Overlay.Text())
	return err
}

// writeClaimed is what ready adds with the overlays: the items left out,
// then the freshness.
func writeClaimed(w io.Writer, claimed []ClaimedItem, fresh Freshness) error {
	if len(claimed) > 0 {
		fmt.Fprintf(w, "%d left out, taken on another branch or worktree (canon ready --here lists them):\n", len(claimed))
		for _, c := range claimed {
			fmt.Fprintf(w, "  %s  %s\n", human.Quote(c.ID), human.Quote(c.Title))
			writeClaims(w, c.Claims)
		}
	}
	_, err := fmt.Fprintln(w, fresh.Text())
	return err
}

// writeDoneElsewhere is what blocked adds with the overlays: the blockers
// done elsewhere, then the freshness.
func writeDoneElsewhere(w io.Writer, done map[string][]Claim, fresh Freshness) error {
	keys := make([]string, 0, len(done))
	for k := range done {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintln(w, "blockers already done on another branch or worktree:")
	}
	for _, k := range keys {
		cs := done[k]
		fmt.Fprintf(w, "  %s\n", human.Quote(cs[0].ID))
		writeClaims(w, cs)
	}
	_, err := fmt.Fprintln(w, fresh.Text())
	return err
}

func writeClaims(w io.Writer, cs []Claim) {
	for _, c := range cs {
		what := c.How
		switch c.How {
		case "done":
			what = "done (" + human.Quote(c.State) + ")"
		case "assigned":
			what = "assigned to " + human.Quote(c.Assignee)
			if c.State != "" {
				what += " (" + human.Quote(c.State) + ")"
			}
		case "state":
			what = human.Quote(c.State)
		}
		fmt.Fprintf(w, "    %s on %s, %s by %s\n", what, human.Quote(c.Ref), shortCommit(c.Commit), human.Quote(c.Author))
	}
}

func shortCommit(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
