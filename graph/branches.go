package graph

import (
	"fmt"
	"io"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// Branches is canon branches: every followed ref and what it changes in
// the backlog against the indexed HEAD (ADR-0042).
type Branches struct {
	Refs    []BranchView `json:"refs"`
	Overlay Freshness    `json:"overlay"`
}

// BranchView is one ref: its commit, and its documents that differ from
// HEAD's, by what they are.
type BranchView struct {
	index.RefState
	// Added are documents HEAD does not have (new items, new ADRs).
	Added []index.RefDoc `json:"added"`
	// Moved are documents whose state, assignee, title or edges differ.
	Moved []BranchMove `json:"moved"`
	// Deleted are documents the ref removed.
	Deleted []index.RefDoc `json:"deleted"`
	// Edited counts documents whose text alone differs.
	Edited int `json:"edited"`
}

// BranchMove is a document whose fields that matter differ on a ref.
type BranchMove struct {
	index.RefDoc
	HereState    string   `json:"here_state"`
	HereAssignee string   `json:"here_assignee,omitempty"`
	Fields       []string `json:"fields"` // state, assignee, title, edges
}

// BranchesOf groups the overlay's documents by ref.
func BranchesOf(refs []index.RefState, over []index.OverlayDoc, fresh Freshness) *Branches {
	out := &Branches{Refs: []BranchView{}, Overlay: fresh}
	at := map[string]int{}
	for _, r := range refs {
		at[r.Name] = len(out.Refs)
		out.Refs = append(out.Refs, BranchView{RefState: r, Added: []index.RefDoc{}, Moved: []BranchMove{}, Deleted: []index.RefDoc{}})
	}
	for _, o := range over {
		i, ok := at[o.Ref]
		if !ok {
			continue
		}
		v := &out.Refs[i]
		switch {
		case o.Here == nil:
			v.Added = append(v.Added, o.RefDoc)
		case o.Change == index.RefDeleted:
			v.Deleted = append(v.Deleted, o.RefDoc)
		default:
			m := BranchMove{RefDoc: o.RefDoc, HereState: o.Here.State, HereAssignee: o.Here.Assignee, Fields: []string{}}
			for _, f := range []struct {
				name      string
				ref, here string
			}{{"state", o.State, o.Here.State}, {"assignee", o.Assignee, o.Here.Assignee}, {"title", o.Title, o.Here.Title}, {"edges", o.Edges, o.Here.Edges}} {
				if f.ref != f.here {
					m.Fields = append(m.Fields, f.name)
				}
			}
			if len(m.Fields) == 0 {
				v.Edited++
				continue
			}
			v.Moved = append(v.Moved, m)
		}
	}
	return out
}

// WriteText is a block per ref: its commit, then a line per document.
func (b *Branches) WriteText(w io.Writer) error {
	if len(b.Refs) == 0 {
		fmt.Fprintln(w, "no other branch or worktree is followed (branches.include in .canon/config.yaml)")
	}
	for _, r := range b.Refs {
		when := time.Unix(r.Committed, 0).UTC().Format("2006-01-02 15:04")
		fmt.Fprintf(w, "%s  %s  %s  %s\n", human.Quote(r.Name), shortCommit(r.OID), human.Quote(r.Author), when)
		if r.Summarised {
			fmt.Fprintf(w, "  %d documents differ from the merge base: too many to load (a stale branch?)\n", r.Changed)
			continue
		}
		for _, d := range r.Added {
			fmt.Fprintf(w, "  + %s  %s  [%s]  %s\n", human.Quote(idOr(d)), human.Quote(d.State), human.Quote(d.Kind), human.Quote(d.Title))
		}
		for _, m := range r.Moved {
			what := ""
			for _, f := range m.Fields {
				switch f {
				case "state":
					what += fmt.Sprintf(" %s → %s", human.Quote(m.HereState), human.Quote(m.State))
				case "assignee":
					what += " assigned " + human.Quote(m.Assignee)
				default:
					what += " " + f
				}
			}
			fmt.Fprintf(w, "  ~ %s %s  %s\n", human.Quote(idOr(m.RefDoc)), what, human.Quote(m.Title))
		}
		for _, d := range r.Deleted {
			fmt.Fprintf(w, "  - %s\n", human.Quote(d.Path))
		}
		if r.Edited > 0 {
			fmt.Fprintf(w, "  %d more edited (text only)\n", r.Edited)
		}
		if len(r.Added)+len(r.Moved)+len(r.Deleted)+r.Edited == 0 {
			fmt.Fprintln(w, "  nothing that differs from here")
		}
	}
	_, err := fmt.Fprintln(w, b.Overlay.Text())
	return err
}

func idOr(d index.RefDoc) string {
	if d.ID != "" {
		return d.ID
	}
	return d.Path
}
