package web

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// The board: a column per state the repository's work items are in, in
// the order its configuration lists them (open states, then done ones;
// states it does not list come last, by name), a card per item. Each card
// says whether the item is ready or blocked (graph.Work, what canon ready
// and blocked answer), and what other branches and worktrees do with it
// (graph.Claims over the overlays, what canon ready leaves out).

// columnCap is the most cards a column shows; a filter narrows the rest.
const columnCap = 200

// Card is one work item on the board.
type Card struct {
	Key, ID, Title, Kind, State, Assignee, Path string
	Parent, ParentKey                           string
	// Status is ready, blocked, done or "" (a state neither open nor
	// done); Blockers name what it waits for.
	Status   string
	Blockers []string
	Claims   []ClaimNote
}

// ClaimNote is what another ref does with an item: "In Progress on
// agent-a, 3 min ago".
type ClaimNote struct {
	How, State, Assignee, Ref, Author, Ago string
}

// Column is one state and its cards.
type Column struct {
	State string
	Cards []Card
	More  int // cards past columnCap
	Total int
}

// Filter narrows the board.
type Filter struct {
	Kind, Assignee, Parent, Text string
}

func (f Filter) keeps(c *Card) bool {
	fold := strings.ToLower
	switch {
	case f.Kind != "" && !strings.EqualFold(c.Kind, f.Kind):
		return false
	case f.Assignee != "" && !strings.Contains(fold(c.Assignee), fold(f.Assignee)):
		return false
	case f.Parent != "" && !strings.EqualFold(c.Parent, f.Parent) && !strings.EqualFold(c.ParentKey, f.Parent):
		return false
	case f.Text != "" && !strings.Contains(fold(c.ID+" "+c.Title), fold(f.Text)):
		return false
	}
	return true
}

// Board is the board page's data.
type Board struct {
	Columns   []Column
	Filter    Filter
	Kinds     []string // the kinds on the board, for the filter
	Assignees []string
	Items     int
	Overlay   string // the overlays' freshness line
}

// boardOf reads the board: every work item of the work kinds, outside the
// archive, with a state.
func boardOf(ctx context.Context, s *gitsync.Session, f Filter) (*Board, error) {
	cfg := s.Cfg
	work, err := graph.New(s.Store).Work(ctx, graph.WorkOptionsOf(cfg, nil))
	if err != nil {
		return nil, err
	}
	status := map[string]*Card{}
	for _, it := range work.Ready {
		status[it.Key] = &Card{Status: "ready"}
	}
	for _, it := range work.Blocked {
		c := &Card{Status: "blocked"}
		for _, b := range it.Blockers {
			c.Blockers = append(c.Blockers, b.ID)
		}
		if it.StateBlocked && len(c.Blockers) == 0 {
			c.Blockers = []string{"its state"}
		}
		status[it.Key] = c
	}
	parents, err := parentsOf(ctx, s.Store)
	if err != nil {
		return nil, err
	}
	claims, fresh, err := claimsByKey(ctx, s)
	if err != nil {
		return nil, err
	}
	b := &Board{Filter: f, Overlay: fresh}
	cols := map[string]*Column{}
	kinds, who := map[string]bool{}, map[string]bool{}
	err = s.Store.EachWorkItem(ctx, func(it index.WorkItem) error {
		if it.State == "" || !cfg.Work.IsWork(it.Kind) || cfg.Work.Archived(it.Path) {
			return nil
		}
		c := Card{Key: it.Key, ID: it.ID, Title: it.Title, Kind: it.Kind, State: it.State, Assignee: it.Assignee, Path: it.Path, Claims: claims[it.Key]}
		if p, ok := parents[it.Doc]; ok {
			c.Parent, c.ParentKey = p.ID, p.Key
		}
		switch st := status[it.Key]; {
		case st != nil:
			c.Status, c.Blockers = st.Status, st.Blockers
		case cfg.States.IsDone(it.State):
			c.Status = "done"
		}
		kinds[it.Kind] = true
		if it.Assignee != "" {
			who[it.Assignee] = true
		}
		b.Items++
		if !f.keeps(&c) {
			return nil
		}
		col := cols[it.State]
		if col == nil {
			col = &Column{State: it.State}
			cols[it.State] = col
		}
		col.Total++
		col.Cards = append(col.Cards, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.Columns = orderColumns(cols, cfg.States)
	b.Kinds, b.Assignees = sortedSet(kinds), sortedSet(who)
	return b, nil
}

// orderColumns puts the columns in the configuration's order of states,
// the unlisted ones last by name, and each column's cards by id.
func orderColumns(cols map[string]*Column, states config.States) []Column {
	order := append(append([]string{}, states.Open...), states.Done...)
	rank := func(st string) int {
		for i, o := range order {
			if strings.EqualFold(o, st) {
				return i
			}
		}
		return len(order)
	}
	out := make([]Column, 0, len(cols))
	for _, c := range cols {
		sort.Slice(c.Cards, func(i, j int) bool {
			if c.Cards[i].ID != c.Cards[j].ID {
				return c.Cards[i].ID < c.Cards[j].ID
			}
			return c.Cards[i].Key < c.Cards[j].Key
		})
		if len(c.Cards) > columnCap {
			c.More, c.Cards = len(c.Cards)-columnCap, c.Cards[:columnCap]
		}
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, rj := rank(out[i].State), rank(out[j].State)
		if ri != rj {
			return ri < rj
		}
		return out[i].State < out[j].State
	})
	return out
}

// parentsOf is each document's first parent (by key).
func parentsOf(ctx context.Context, st *index.Store) (map[index.DocID]index.DocRef, error) {
	first := map[index.DocID]index.DocID{}
	err := st.EachEdge(ctx, []string{graph.EdgeParent}, func(e index.DocEdge) error {
		if _, ok := first[e.Src]; !ok {
			first[e.Src] = e.Dst
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ids := make([]index.DocID, 0, len(first))
	seen := map[index.DocID]bool{}
	for _, p := range first {
		if !seen[p] {
			seen[p] = true
			ids = append(ids, p)
		}
	}
	refs, err := st.DocRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[index.DocID]index.DocRef, len(first))
	for c, p := range first {
		if r, ok := refs[p]; ok {
			out[c] = r
		}
	}
	return out, nil
}

// claimsByKey is what other refs do with HEAD's items, by item key, and
// the overlays' freshness line.
func claimsByKey(ctx context.Context, s *gitsync.Session) (map[string][]ClaimNote, string, error) {
	over, st, err := s.OverlayOfHere(ctx)
	if err != nil {
		return nil, "", err
	}
	refs, err := s.Store.Refs(ctx)
	if err != nil {
		return nil, "", err
	}
	when := map[string]int64{}
	for _, r := range refs {
		when[r.Name] = r.Committed
	}
	out := map[string][]ClaimNote{}
	for _, c := range graph.Claims(over, s.Cfg.States) {
		out[c.Key] = append(out[c.Key], ClaimNote{How: c.How, State: c.State, Assignee: c.Assignee, Ref: shortRef(c.Ref), Author: c.Author, Ago: ago(when[c.Ref])})
	}
	return out, st.Text(), nil
}

// shortRef drops refs/heads/ and refs/remotes/ from a ref's name.
func shortRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/remotes/", "refs/"} {
		if r, ok := strings.CutPrefix(ref, p); ok {
			return r
		}
	}
	return ref
}

// ago says how long ago a unix time was, roughly.
func ago(unix int64) string {
	if unix <= 0 {
		return ""
	}
	d := time.Since(time.Unix(unix, 0))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d.Minutes()), "min") + " ago"
	case d < 48*time.Hour:
		return plural(int(d.Hours()), "hour") + " ago"
	}
	return plural(int(d.Hours()/24), "day") + " ago"
}

func plural(n int, unit string) string {
	if n != 1 && unit != "min" {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// board answers GET /: the board, filtered by the query's kind, assignee,
// parent and q.
func (m *Server) board(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := Filter{Kind: q.Get("kind"), Assignee: q.Get("assignee"), Parent: q.Get("parent"), Text: q.Get("q")}
	var b *Board
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		var err error
		b, err = boardOf(ctx, s, f)
		return err
	})
	m.page(w, r, "board", "Board", fr, b, err)
}
