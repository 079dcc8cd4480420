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

// ReadyElsewhere is canon ready with the overlays: the ready items no
// other ref claims, and those left out with who claims them.
type ReadyElsewhere struct {
	Ready
	Claimed []ClaimedItem `json:"claimed"`
	Overlay Freshness     `json:"overlay"`
}

// LeaveOutClaimed splits w's ready items into those no claim names and
// those claimed elsewhere.
func LeaveOutClaimed(w *Work, claims []Claim, fresh Freshness) *ReadyElsewhere {
	by := map[string][]Claim{}
	for _, c := range claims {
		by[c.Key] = append(by[c.Key], c)
	}
	kept := *w
	kept.Ready = []Item{}
	out := &ReadyElsewhere{Ready: Ready{Work: &kept}, Claimed: []ClaimedItem{}, Overlay: fresh}
	for _, it := range w.Ready {
		if cs := by[it.Key]; len(cs) > 0 {
			out.Claimed = append(out.Claimed, ClaimedItem{Item: it, Claims: cs})
			continue
		}
		kept.Ready = append(kept.Ready, it)
	}
	return out
}

// JSON is {"ready": [...], "claimed": [...], "overlay": {...}}.
func (r *ReadyElsewhere) JSON() any {
	return map[string]any{"ready": r.Work.Ready, "claimed": r.Claimed, "overlay": r.Overlay}
}

// WriteText is ready's text, then the items left out and the freshness.
func (r *ReadyElsewhere) WriteText(w io.Writer) error {
	if err := r.Ready.WriteText(w); err != nil {
		return err
	}
	if len(r.Claimed) > 0 {
		fmt.Fprintf(w, "%d left out, taken on another branch or worktree (canon ready --here lists them):\n", len(r.Claimed))
		for _, c := range r.Claimed {
			fmt.Fprintf(w, "  %s  %s\n", human.Quote(c.ID), human.Quote(c.Title))
			writeClaims(w, c.Claims)
		}
	}
	_, err := fmt.Fprintln(w, r.Overlay.Text())
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

// BlockedElsewhere is canon blocked with the overlays: the blockers other
// refs have already finished.
type BlockedElsewhere struct {
	Blocked
	DoneElsewhere map[string][]Claim `json:"done_elsewhere"` // by blocker key
	Overlay       Freshness          `json:"overlay"`
}

// DoneElsewhere keeps the claims that finish an item, by item key.
func DoneElsewhere(w *Work, claims []Claim, fresh Freshness) *BlockedElsewhere {
	out := &BlockedElsewhere{Blocked: Blocked{Work: w}, DoneElsewhere: map[string][]Claim{}, Overlay: fresh}
	for _, c := range claims {
		if c.How == "done" {
			out.DoneElsewhere[c.Key] = append(out.DoneElsewhere[c.Key], c)
		}
	}
	return out
}

// JSON is {"blocked": [...], "done_elsewhere": {...}, "overlay": {...}}.
func (b *BlockedElsewhere) JSON() any {
	return map[string]any{"blocked": b.Work.Blocked, "done_elsewhere": b.DoneElsewhere, "overlay": b.Overlay}
}

// WriteText is blocked's text, then the blockers done elsewhere and the
// freshness.
func (b *BlockedElsewhere) WriteText(w io.Writer) error {
	if err := b.Blocked.WriteText(w); err != nil {
		return err
	}
	keys := make([]string, 0, len(b.DoneElsewhere))
	for k := range b.DoneElsewhere {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintln(w, "blockers already done on another branch or worktree:")
	}
	for _, k := range keys {
		cs := b.DoneElsewhere[k]
		fmt.Fprintf(w, "  %s\n", human.Quote(cs[0].ID))
		writeClaims(w, cs)
	}
	_, err := fmt.Fprintln(w, b.Overlay.Text())
	return err
}
