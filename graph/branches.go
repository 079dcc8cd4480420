package graph

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/doctext"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/search"
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
	// Moved are documents whose state, assignee, title, edges or any
	// other frontmatter field differ.
	Moved []BranchMove `json:"moved"`
	// Renamed are documents the ref moved to another path (MovedFrom),
	// with the fields that differ too.
	Renamed []BranchMove `json:"renamed"`
	// Deleted are documents the ref removed.
	Deleted []index.RefDoc `json:"deleted"`
	// Edited counts documents whose text alone differs (their
	// frontmatter is HEAD's).
	Edited int `json:"edited"`
}

// BranchMove is a document whose fields that matter differ on a ref.
type BranchMove struct {
	index.RefDoc
	HereState    string   `json:"here_state"`
	HereAssignee string   `json:"here_assignee,omitempty"`
	Fields       []string `json:"fields"` // state, assignee, title, edges, frontmatter
	// FieldMoves are the other frontmatter fields that differ, each with
	// HEAD's value and the ref's (Fields says "frontmatter" when any do).
	FieldMoves []FieldMove `json:"field_moves,omitempty"`
}

// BranchesOf groups the overlay's documents by ref.
func BranchesOf(refs []index.RefState, over []index.OverlayDoc, fresh Freshness) *Branches {
	out := &Branches{Refs: []BranchView{}, Overlay: fresh}
	at := map[string]int{}
	for _, r := range refs {
		at[r.Name] = len(out.Refs)
		out.Refs = append(out.Refs, BranchView{RefState: r, Added: []index.RefDoc{}, Moved: []BranchMove{}, Renamed: []BranchMove{}, Deleted: []index.RefDoc{}})
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
				if f.ref != f.here && o.Skip == "" {
					m.Fields = append(m.Fields, f.name)
				}
			}
			if o.Skip == "" {
				if m.FieldMoves = frontmatterMoves(o, m.Fields); len(m.FieldMoves) > 0 {
					m.Fields = append(m.Fields, "frontmatter")
				}
			} else {
				// Not read there (over a bound): said, never a text-only edit.
				m.Fields = append(m.Fields, "not read: it "+o.Skip)
			}
			if o.Change == index.RefMoved {
				v.Renamed = append(v.Renamed, m)
				continue
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
		switch {
		case r.Skip != "" && r.Summarised:
			fmt.Fprintf(w, "  %d documents differ from the merge base, not read: it %s\n", r.Changed, human.Quote(r.Skip))
			continue
		case r.Skip != "":
			fmt.Fprintf(w, "  not read: it %s\n", human.Quote(r.Skip))
			continue
		case r.Summarised:
			fmt.Fprintf(w, "  %d documents differ from the merge base: too many to load (a stale branch?)\n", r.Changed)
			continue
		}
		for _, d := range r.Added {
			if d.Skip != "" {
				fmt.Fprintf(w, "  + %s  not read: it %s\n", human.Quote(d.Path), human.Quote(d.Skip))
				continue
			}
			fmt.Fprintf(w, "  + %s  %s  [%s]  %s\n", human.Quote(idOr(d)), human.Quote(d.State), human.Quote(d.Kind), human.Quote(d.Title))
		}
		for _, m := range r.Moved {
			fmt.Fprintf(w, "  ~ %s %s  %s\n", human.Quote(idOr(m.RefDoc)), m.what(), human.Quote(m.Title))
		}
		for _, m := range r.Renamed {
			fmt.Fprintf(w, "  > %s moved %s → %s%s\n", human.Quote(idOr(m.RefDoc)), human.Quote(m.MovedFrom), human.Quote(m.Path), m.what())
		}
		for _, d := range r.Deleted {
			fmt.Fprintf(w, "  - %s\n", human.Quote(d.Path))
		}
		if r.Edited > 0 {
			fmt.Fprintf(w, "  %d more edited (text only)\n", r.Edited)
		}
		if len(r.Added)+len(r.Moved)+len(r.Renamed)+len(r.Deleted)+r.Edited == 0 {
			fmt.Fprintln(w, "  nothing that differs from here")
		}
	}
	_, err := fmt.Fprintln(w, b.Overlay.Text())
	return err
}

// what says how a document's fields moved: " To Do → Done assigned x
// title, priority: low → high, labels: (none) → [\"ui\"]", each part led by a
// space; "" when none did. The frontmatter's moves say what "edges" would.
func (m BranchMove) what() string {
	what := ""
	for _, f := range m.Fields {
		switch f {
		case "state":
			what += fmt.Sprintf(" %s → %s", human.Quote(m.HereState), human.Quote(m.State))
		case "assignee":
			what += " assigned " + human.Quote(m.Assignee)
		case "frontmatter":
			parts := make([]string, len(m.FieldMoves))
			for i, fm := range m.FieldMoves {
				parts[i] = fmt.Sprintf("%s: %s → %s", human.Quote(fm.Field), shownOr(fm.Here), shownOr(fm.Ref))
			}
			if what != "" {
				what += ","
			}
			what += " " + strings.Join(parts, ", ")
		case "edges":
			if len(m.FieldMoves) == 0 {
				what += " edges"
			}
		default:
			what += " " + f
		}
	}
	return what
}

// shownOr is a field move's value, quoted when it must be; (none) when
// the field is not there.
func shownOr(v *string) string {
	if v == nil {
		return "(none)"
	}
	return human.Quote(*v)
}

func idOr(d index.RefDoc) string {
	if d.ID != "" {
		return d.ID
	}
	return d.Path
}

// Versions is canon show --branches: the document, and its version on
// each followed ref where it differs from HEAD's.
type Versions struct {
	*index.DocView
	Branches []index.RefDoc `json:"branches"`
	Overlay  Freshness      `json:"overlay"`
}

// VersionsOf keeps the overlay documents at the shown document's path.
func VersionsOf(v *index.DocView, over []index.OverlayDoc, fresh Freshness) *Versions {
	out := &Versions{DocView: v, Branches: []index.RefDoc{}, Overlay: fresh}
	for _, o := range over {
		if o.Path == v.Path || o.MovedFrom == v.Path {
			out.Branches = append(out.Branches, o.RefDoc)
		}
	}
	return out
}

// WriteText is show's text, then a line per other version.
func (v *Versions) WriteText(w io.Writer) error {
	if err := doctext.Write(w, v.DocView); err != nil {
		return err
	}
	_, err := io.WriteString(w, VersionsText(v.Branches, v.Overlay))
	return err
}

// VersionsText is the lines show --branches adds to a document's text.
func VersionsText(docs []index.RefDoc, fresh Freshness) string {
	var b strings.Builder
	writeVersions(&b, docs)
	b.WriteString(fresh.Text() + "\n")
	return b.String()
}

func writeVersions(w io.Writer, docs []index.RefDoc) {
	if len(docs) == 0 {
		fmt.Fprintln(w, "on other branches and worktrees: as here")
		return
	}
	fmt.Fprintln(w, "on other branches and worktrees:")
	for _, d := range docs {
		switch {
		case d.Change == index.RefDeleted:
			fmt.Fprintf(w, "  %s  deleted  %s by %s\n", human.Quote(d.Ref), shortCommit(d.Commit), human.Quote(d.Author))
			continue
		case d.Skip != "":
			fmt.Fprintf(w, "  %s  not read: it %s  %s by %s\n", human.Quote(d.Ref), human.Quote(d.Skip), shortCommit(d.Commit), human.Quote(d.Author))
			continue
		}
		who := ""
		if d.Assignee != "" {
			who = "  assignee " + human.Quote(d.Assignee)
		}
		if d.Change == index.RefMoved {
			who += "  moved to " + human.Quote(d.Path)
		}
		fmt.Fprintf(w, "  %s  %s%s  %s  %s by %s\n", human.Quote(d.Ref), human.Quote(d.State), who, human.Quote(d.Title), shortCommit(d.Commit), human.Quote(d.Author))
	}
}

// FoundElsewhere is canon search --branches: the hits, each hit's
// versions on other refs, and the documents other refs add whose id or
// title holds a word of the query.
type FoundElsewhere struct {
	*search.Found
	Branches map[string][]index.RefDoc `json:"branches"` // by hit path
	Added    []index.RefDoc            `json:"added"`
	Overlay  Freshness                 `json:"overlay"`
}

// FoundOn joins search hits with the overlays.
func FoundOn(f *search.Found, over []index.OverlayDoc, fresh Freshness) *FoundElsewhere {
	out := &FoundElsewhere{Found: f, Branches: map[string][]index.RefDoc{}, Added: []index.RefDoc{}, Overlay: fresh}
	hit := map[string]bool{}
	for _, h := range f.Hits {
		hit[h.Path] = true
	}
	words := strings.Fields(strings.ToLower(f.Query))
	for _, o := range over {
		switch {
		case hit[o.Path]:
			out.Branches[o.Path] = append(out.Branches[o.Path], o.RefDoc)
		case hit[o.MovedFrom]:
			out.Branches[o.MovedFrom] = append(out.Branches[o.MovedFrom], o.RefDoc)
		case o.Here == nil && o.Change != index.RefDeleted && anyWordIn(words, o.ID+" "+o.Title):
			out.Added = append(out.Added, o.RefDoc)
		}
	}
	return out
}

func anyWordIn(words []string, text string) bool {
	text = strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// WriteText is search's text, then the versions on other refs.
func (f *FoundElsewhere) WriteText(w io.Writer) error {
	if err := f.Found.WriteText(w); err != nil {
		return err
	}
	paths := make([]string, 0, len(f.Branches))
	for p := range f.Branches {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(w, "%s ", human.Quote(p))
		writeVersions(w, f.Branches[p])
	}
	if len(f.Added) > 0 {
		fmt.Fprintln(w, "added on other branches and worktrees:")
		for _, d := range f.Added {
			fmt.Fprintf(w, "  %s  %s  %s  on %s, %s by %s\n", human.Quote(idOr(d)), human.Quote(d.State), human.Quote(d.Title), human.Quote(d.Ref), shortCommit(d.Commit), human.Quote(d.Author))
		}
	}
	_, err := fmt.Fprintln(w, f.Overlay.Text())
	return err
}
