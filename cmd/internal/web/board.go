package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
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

// columnCap is how many cards a column shows at first, and how many more
// each "show more" adds (up to maxColumn); a filter narrows the rest.
const (
	columnCap = 100
	maxColumn = 2000
)

// Card is one work item on the board.
type Card struct {
	Key, ID, Title, Kind, State, Assignee, Path string
	Parent, ParentKey                           string
	// Status is ready, blocked, done or "" (a state neither open nor
	// done); Blockers name what it waits for.
	Status   string
	Blockers []string
	Claims   []ClaimNote
	// Labels are its labels or tags fields' values.
	Labels []string
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
	More  int // cards past the filter's limit
	Total int
}

// Filter narrows the board.
type Filter struct {
	Kind, Assignee, Parent, Label, Text string
	// Limit is how many cards a column shows (columnCap unless the
	// query's limit says more).
	Limit int
}

// any reports whether the filter narrows the board.
func (f Filter) any() bool { return f.Kind+f.Assignee+f.Parent+f.Label+f.Text != "" }

func (f Filter) keeps(c *Card) bool {
	fold := strings.ToLower
	switch {
	case f.Kind != "" && !strings.EqualFold(c.Kind, f.Kind):
		return false
	case f.Assignee != "" && !strings.Contains(fold(c.Assignee), fold(f.Assignee)):
		return false
	case f.Parent != "" && !strings.EqualFold(c.Parent, f.Parent) && !strings.EqualFold(c.ParentKey, f.Parent):
		return false
	case f.Label != "" && !slices.ContainsFunc(c.Labels, func(l string) bool { return strings.EqualFold(l, f.Label) }):
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
	Labels    []string
	// States are where a card can move: the states on the board (all
	// of it, not the filtered part), in the columns' order.
	States   []string
	Me       string // who a claim names unless the page says
	Items    int
	Filtered bool
	Overlay  string // the overlays' freshness line
	// MoreURL is the same board showing columnCap more cards a column,
	// when some column has more and the limit allows.
	MoreURL string
}

// boardBase is what the board reads of the index: every card, with its
// status and parent, before the claims and the filter. It is kept until
// the index syncs again (Server.base), so that filtering, and a page that
// refreshes for a move on another ref, read the index once.
type boardBase struct {
	mark      string // the sync it was read at: sync id, indexed commit
	cards     []Card
	kinds     []string
	assignees []string
	labels    []string
	states    []string // in the columns' order
}

// readBase reads every work item of the work kinds, outside the archive,
// with a state.
func readBase(ctx context.Context, s *gitsync.Session) (*boardBase, error) {
	cfg := s.Cfg
	var items []index.WorkItem
	labels := map[index.DocID][]string{}
	if err := s.Store.EachWorkItemLabels(ctx, func(it index.WorkItem, ls []string) error {
		items = append(items, it)
		if len(ls) > 0 {
			labels[it.Doc] = ls
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var edges []index.DocEdge
	parent := map[index.DocID]index.DocID{} // each document's first parent
	err := s.Store.EachEdge(ctx, []string{graph.EdgeBlocks, graph.EdgeBlockedBy, graph.EdgeDependsOn, graph.EdgeParent}, func(e index.DocEdge) error {
		edges = append(edges, e)
		if _, ok := parent[e.Src]; !ok && e.Type == graph.EdgeParent {
			parent[e.Src] = e.Dst
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	status := statusOf(graph.WorkOf(items, edges, graph.WorkOptionsOf(cfg, nil)))
	byID := make(map[index.DocID]*index.WorkItem, len(items))
	for i := range items {
		byID[items[i].Doc] = &items[i]
	}
	b := &boardBase{cards: make([]Card, 0, len(items))}
	kinds, who, states := map[string]bool{}, map[string]bool{}, map[string]*Column{}
	tags := map[string]string{} // each label once whatever its case (the filter ignores case): its first spelling
	for _, it := range items {
		if it.State == "" || !cfg.Work.IsWork(it.Kind) || cfg.Work.Archived(it.Path) {
			continue
		}
		c := Card{Key: it.Key, ID: it.ID, Title: it.Title, Kind: it.Kind, State: it.State, Assignee: it.Assignee, Path: it.Path, Labels: labels[it.Doc]}
		if p := byID[parent[it.Doc]]; p != nil {
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
		for _, l := range c.Labels {
			if _, ok := tags[strings.ToLower(l)]; !ok {
				tags[strings.ToLower(l)] = l
			}
		}
		states[it.State] = &Column{State: it.State}
		b.cards = append(b.cards, c)
	}
	// By id once here, so that each board keeps the order as it filters.
	sort.Slice(b.cards, func(i, j int) bool {
		if b.cards[i].ID != b.cards[j].ID {
			return b.cards[i].ID < b.cards[j].ID
		}
		return b.cards[i].Key < b.cards[j].Key
	})
	b.kinds, b.assignees = sortedSet(kinds), sortedSet(who)
	for _, l := range tags {
		b.labels = append(b.labels, l)
	}
	sort.Slice(b.labels, func(i, j int) bool { return strings.ToLower(b.labels[i]) < strings.ToLower(b.labels[j]) })
	for _, c := range orderColumns(states, cfg.States, 0) {
		b.states = append(b.states, c.State)
	}
	return b, nil
}

// statusOf is each open item's status, by key: ready, or blocked and by
// what (graph.Work's, what canon ready and blocked answer).
func statusOf(work *graph.Work) map[string]*Card {
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
	return status
}

// base is the board's base at the sync f names: the kept one, or read
// again.
func (m *Server) base(ctx context.Context, s *gitsync.Session, f Fresh) (*boardBase, error) {
	mark := f.SyncID + " " + f.Indexed
	if b := m.kept; b != nil && b.mark == mark && f.SyncID != "" {
		return b, nil
	}
	b, err := readBase(ctx, s)
	if err != nil {
		return nil, err
	}
	b.mark, m.kept = mark, b
	return b, nil
}

// boardOf is the board: the base, the claims of other refs, the filter.
func boardOf(ctx context.Context, s *gitsync.Session, base *boardBase, f Filter) (*Board, error) {
	claims, fresh, err := claimsByKey(ctx, s)
	if err != nil {
		return nil, err
	}
	b := &Board{Filter: f, Filtered: f.any(), Overlay: fresh, Kinds: base.kinds, Assignees: base.assignees, Labels: base.labels,
		States: base.states, Items: len(base.cards)}
	cols := map[string]*Column{}
	for i := range base.cards {
		c := base.cards[i]
		c.Claims = claims[c.Key]
		if !f.keeps(&c) {
			continue
		}
		col := cols[c.State]
		if col == nil {
			col = &Column{State: c.State}
			cols[c.State] = col
		}
		col.Total++
		col.Cards = append(col.Cards, c)
	}
	b.Columns = orderColumns(cols, s.Cfg.States, f.Limit)
	return b, nil
}

// orderColumns puts the columns in the configuration's order of states,
// the unlisted ones last by name, each cut at limit cards (none: 0).
func orderColumns(cols map[string]*Column, states config.States, limit int) []Column {
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
		if limit > 0 && len(c.Cards) > limit {
			c.More, c.Cards = len(c.Cards)-limit, c.Cards[:limit]
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

// moreURL is the board of query q showing columnCap more cards a column,
// when a column has more and the limit allows; else "".
func moreURL(q url.Values, cols []Column, limit int) string {
	if limit >= maxColumn || !slices.ContainsFunc(cols, func(c Column) bool { return c.More > 0 }) {
		return ""
	}
	q = maps.Clone(q)
	q.Set("limit", strconv.Itoa(min(limit+columnCap, maxColumn)))
	return "/?" + q.Encode()
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
// parent, label and q.
func (m *Server) board(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := Filter{Kind: q.Get("kind"), Assignee: q.Get("assignee"), Parent: q.Get("parent"), Label: q.Get("label"), Text: q.Get("q"), Limit: columnCap}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		f.Limit = min(n, maxColumn)
	}
	var b *Board
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, fr Fresh) error {
		base, err := m.base(ctx, s, fr)
		if err != nil {
			return err
		}
		b, err = boardOf(ctx, s, base, f)
		if b != nil {
			b.Me = m.me
			b.MoreURL = moreURL(q, b.Columns, f.Limit)
		}
		return err
	})
	m.page(w, r, "board", "Board", fr, b, err)
}
