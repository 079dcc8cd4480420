package graph

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// WorkOptions shape the ready/blocked view.
type WorkOptions struct {
	States config.States // which states are open, done and blocked
	Work   config.Work   // the work kinds, the priority scale, the archive folders
	Kinds  []string      // list only these kinds (none: the work kinds, Work.IsWork)
	// IsTemplate reports a file that is a template to copy or a test
	// fixture's copy of a document (templates:, fixtures:,
	// config.LeftOut): no work, whatever its state; nil: none is.
	IsTemplate func(path string) bool
}

// WorkOptionsOf is what a repository's configuration says about its
// work, listing kinds (none: its work kinds).
func WorkOptionsOf(cfg *config.Config, kinds []string) WorkOptions {
	return WorkOptions{States: cfg.States, Work: cfg.Work, Kinds: kinds, IsTemplate: cfg.LeftOut}
}

// Item is an open work item.
type Item struct {
	index.DocRef
	Priority string `json:"priority,omitempty"`
	// Assignee is who has it: the frontmatter's assignee, owner or
	// assignees (names joined by ", ").
	Assignee string `json:"assignee,omitempty"`
}

// BlockedItem is an open item that cannot start yet, and why.
type BlockedItem struct {
	Item
	Blockers []Blocker `json:"blockers"`
	// StateBlocked says the item's own state is a blocked state
	// (States.Blocked, by default Blocked); it may have no recorded blocker.
	StateBlocked bool `json:"state_blocked"`
	// InCycle says the item waits, directly or not, for itself.
	InCycle bool `json:"in_cycle"`
}

// Blocker is an open item another one waits for.
type Blocker struct {
	index.DocRef
	// Edge is how the wait is written: blocked_by or depends_on on the
	// waiting item, or blocks on the blocker.
	Edge string `json:"edge"`
	// Via is the ancestor (parent, grandparent...) that waits for the
	// blocker, when the wait is inherited; empty when it is the item's own.
	Via   string `json:"via,omitempty"`
	ViaID string `json:"via_id,omitempty"`
}

// Work is the ready/blocked view: every open item of the listed kinds is
// in exactly one list.
type Work struct {
	Ready   []Item        `json:"ready"`
	Blocked []BlockedItem `json:"blocked"`
	// Unknown counts the items of the listed kinds, outside the archive,
	// whose state is neither open nor done: they are not listed, and the
	// answer says so once.
	Unknown []StateCount `json:"unknown_states"`
	// NoStates: no document of the listed kinds has a state, so nothing
	// can be open (a documentation repository).
	NoStates bool `json:"no_states,omitempty"`
}

// StateCount is how many items are in a state.
type StateCount struct {
	State string `json:"state"`
	Count int    `json:"count"`
}

// Work splits the open items into ready and blocked. An item is open when
// its state is an open or blocked state (States.Open, States.Blocked) and
// its file is outside the archive folders (Work.Archived); only open items
// are listed, and only open items block. The lists hold the work kinds
// (Work.IsWork: not decisions or epics) or the kinds asked for, but any
// open item blocks, whatever its kind. An item is blocked when an open
// item blocks it (blocks, blocked_by, depends_on) or blocks one of its
// ancestors along the parent chain, or when its state is a blocked state.
// Both lists are sorted by priority (on the scale Work.Priorities by its
// order, then others by text, missing last), display id and key. Cycles
// in parents or blockers are walked once and reported, never followed
// forever.
//
// The index reads every document and every blocking and parent link; the
// rest (splitWork) works in memory.
func (g *Graph) Work(ctx context.Context, opt WorkOptions) (*Work, error) {
	wg := newWorkGraph(opt)
	if err := g.st.EachWorkItem(ctx, wg.addItem); err != nil {
		return nil, err
	}
	err := g.st.EachEdge(ctx, []string{EdgeBlocks, EdgeBlockedBy, EdgeDependsOn, EdgeParent}, wg.addEdge)
	if err != nil {
		return nil, fmt.Errorf("read blocking links: %w", err)
	}
	w := wg.split()
	if len(w.Ready) == 0 && len(w.Blocked) == 0 && len(w.Unknown) == 0 && len(opt.Kinds) > 0 {
		// --kind nope lists nothing: say so when no document has it.
		if err := g.st.NoKind(ctx, opt.Kinds...); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// WorkQuery is what canon ready and canon blocked ask, on the command
// line and over MCP alike.
type WorkQuery struct {
	WorkOptions
	Limit int  // list the first Limit items; 0: Work.Limit
	All   bool // list every item
	// Elsewhere is what other branches and worktrees do (ADR-0042): ready
	// leaves out what they claim, blocked names the blockers they have
	// done. nil: this checkout only.
	Elsewhere *Elsewhere
}

func (q *WorkQuery) limit() int {
	switch {
	case q.All:
		return 0
	case q.Limit > 0:
		return q.Limit
	}
	return q.Work.Limit
}

// ReadyList is the answer to canon ready: the first items nothing blocks,
// how many more there are, how many items are blocked, and the states
// that are neither open nor done.
type ReadyList struct {
	Ready        []Item       `json:"ready"`
	Truncated    int          `json:"truncated"`
	BlockedCount int          `json:"blocked_count"`
	Unknown      []StateCount `json:"unknown_states"`
	// Claimed are the ready items another ref has taken, left out; with
	// Overlay, how fresh that is (both only with WorkQuery.Elsewhere).
	Claimed []ClaimedItem `json:"claimed,omitempty"`
	Overlay Freshness     `json:"overlay,omitempty"`
	// NoStates: see Work.
	NoStates bool `json:"no_states,omitempty"`
}

// BlockedList is the answer to canon blocked: the first items that wait,
// and for what, how many more there are, how many items are ready, and
// the states that are neither open nor done.
type BlockedList struct {
	Blocked    []BlockedItem `json:"blocked"`
	Truncated  int           `json:"truncated"`
	ReadyCount int           `json:"ready_count"`
	Unknown    []StateCount  `json:"unknown_states"`
	// DoneElsewhere are the blockers another ref has finished, by key;
	// with Overlay, how fresh that is (both only with WorkQuery.Elsewhere).
	DoneElsewhere map[string][]Claim `json:"done_elsewhere,omitempty"`
	Overlay       Freshness          `json:"overlay,omitempty"`
	// NoStates: see Work.
	NoStates bool `json:"no_states,omitempty"`
}

// Ready answers canon ready (Work, then the first q.Limit ready items).
func (g *Graph) Ready(ctx context.Context, q WorkQuery) (*ReadyList, error) {
	w, err := g.Work(ctx, q.WorkOptions)
	if err != nil {
		return nil, err
	}
	r := &ReadyList{BlockedCount: len(w.Blocked), Unknown: w.Unknown, NoStates: w.NoStates}
	ready := w.Ready
	if q.Elsewhere != nil {
		ready, r.Claimed = leaveOutClaimed(ready, q.Elsewhere.Claims)
		r.Overlay = q.Elsewhere.Fresh
	}
	r.Ready, r.Truncated = firstOf(ready, q.limit())
	return r, nil
}

// Blocked answers canon blocked (Work, then the first q.Limit blocked
// items).
func (g *Graph) Blocked(ctx context.Context, q WorkQuery) (*BlockedList, error) {
	w, err := g.Work(ctx, q.WorkOptions)
	if err != nil {
		return nil, err
	}
	b := &BlockedList{ReadyCount: len(w.Ready), Unknown: w.Unknown, NoStates: w.NoStates}
	b.Blocked, b.Truncated = firstOf(w.Blocked, q.limit())
	if q.Elsewhere != nil {
		b.DoneElsewhere, b.Overlay = doneElsewhere(q.Elsewhere.Claims), q.Elsewhere.Fresh
	}
	return b, nil
}

// firstOf keeps the first limit items (0: all) and says how many it cut.
func firstOf[T any](items []T, limit int) ([]T, int) {
	if limit <= 0 || limit >= len(items) {
		return items, 0
	}
	return items[:limit], len(items) - limit
}

// WorkOf is Work over documents and edges already read (EachWorkItem,
// EachEdge with the blocking and parent types): canon serve's board reads
// every document once, for its cards and for what is ready and blocked.
func WorkOf(items []index.WorkItem, edges []index.DocEdge, opt WorkOptions) *Work {
	return splitWork(items, edges, opt)
}

// splitWork is Work over a graph in memory: every document, and the
// blocks, blocked_by, depends_on and parent edges among them (others are
// ignored).
func splitWork(items []index.WorkItem, edges []index.DocEdge, opt WorkOptions) *Work {
	wg := newWorkGraph(opt)
	for _, it := range items {
		_ = wg.addItem(it) // the error is a row callback's: none here
	}
	for _, e := range edges {
		_ = wg.addEdge(e)
	}
	return wg.split()
}

// listed reports whether an item is listed: one of the kinds asked for,
// else of the work kinds and no record (recordLike: a decision or a
// proposal in state Proposed is no work to pick up; --kind doc lists it).
func (opt *WorkOptions) listed(d *workDoc) bool {
	if d.template {
		return false
	}
	if len(opt.Kinds) > 0 {
		return matchesKind(opt.Kinds, d.Kind)
	}
	return opt.Work.IsWork(d.Kind) && !recordLike(d.WorkItem)
}

// proposalFolders are the folders proposals live in; decision records
// live in markdown.IsDecisionFolder's.
var proposalFolders = map[string]bool{"proposals": true, "rfcs": true, "rfc": true}

// recordLike reports a decision record or a proposal that names neither a
// type nor an id (docs/adr/0120-….md, docs/proposals/x.md): its state is
// where the decision stands, not work to pick up. A note anywhere else
// with a state (a TODO note, an Obsidian task) stays a work item.
func recordLike(it index.WorkItem) bool {
	if !it.Untyped {
		return false
	}
	dirs := strings.Split(path.Dir(it.Path), "/")
	for _, d := range dirs {
		if markdown.IsDecisionFolder(d) || proposalFolders[strings.ToLower(d)] {
			return true
		}
	}
	return false
}

// split lists the open items of the listed kinds as ready or blocked, and
// counts those in unknown states.
func (wg *workGraph) split() *Work {
	wg.finish()
	inCycle := wg.blockingCycles()
	work := &Work{Ready: []Item{}, Blocked: []BlockedItem{}, Unknown: wg.unknownStates(), NoStates: true}
	for _, d := range wg.docs {
		if d.State != "" && wg.opt.listed(d) {
			work.NoStates = false
			break
		}
	}
	for _, id := range wg.open {
		d := wg.docs[id]
		if !wg.opt.listed(d) {
			continue
		}
		item := Item{DocRef: d.DocRef, Priority: d.Priority, Assignee: d.Assignee}
		blockers := wg.blockers(id)
		stateBlocked := wg.opt.States.IsBlocked(d.State)
		if len(blockers) == 0 && !stateBlocked {
			work.Ready = append(work.Ready, item)
			continue
		}
		work.Blocked = append(work.Blocked, BlockedItem{Item: item, Blockers: blockers, StateBlocked: stateBlocked, InCycle: inCycle[id]})
	}
	less := func(a, b Item) bool { return itemLess(&wg.opt.Work, a, b) }
	rank, holds := wg.readyRanks(work.Ready)
	stage := lifecycle(wg.opt.States)
	sort.Slice(work.Ready, func(i, j int) bool {
		a, b := work.Ready[i], work.Ready[j]
		if rank[a.Key] != rank[b.Key] {
			return rank[a.Key] < rank[b.Key]
		}
		if a.Priority != b.Priority {
			return less(a, b)
		}
		if sa, sb := stage[strings.ToLower(a.State)], stage[strings.ToLower(b.State)]; sa != sb {
			return sa < sb // a KEP's provisional before its implementable
		}
		if holds[a.Kind] != holds[b.Kind] {
			return !holds[a.Kind] // a task before a feature of its priority
		}
		return less(a, b)
	})
	sort.Slice(work.Blocked, func(i, j int) bool { return less(work.Blocked[i].Item, work.Blocked[j].Item) })
	return work
}

// lifecycle is the place of each open state of the repository's own
// lifecycle (the states init learned beyond canon's defaults: a KEP's
// provisional, implementable) in the order the configuration lists them,
// from 1; ready lists items of one priority in that order. A state of
// canon's defaults has none (0), and keeps the order it had.
func lifecycle(st config.States) map[string]int {
	def := config.DefaultStates()
	out := map[string]int{}
	for _, s := range st.Open {
		if k := strings.ToLower(s); !def.IsOpen(s) && !def.IsDone(s) && out[k] == 0 {
			out[k] = len(out) + 1
		}
	}
	return out
}

// Ready work first: what no one has and nothing is under, then items
// whose open children are the work (a feature with its tasks), then what
// someone has (an assignee, or a state that says it is under way).
const (
	rankFree = iota
	rankParent
	rankTaken
)

// readyRanks ranks the ready items by key (rankFree, rankParent,
// rankTaken), and says which kinds hold items of other kinds (a feature
// its tasks): of one priority, those come after the items they hold.
func (wg *workGraph) readyRanks(ready []Item) (map[string]int, map[string]bool) {
	parentOfOpen, holds := map[string]bool{}, map[string]bool{}
	for id, d := range wg.docs {
		for _, p := range wg.parents[id] {
			if pd := wg.docs[p]; pd != nil && pd.Kind != d.Kind {
				holds[pd.Kind] = true
			}
			if d.open {
				parentOfOpen[wg.key(p)] = true
			}
		}
	}
	rank := make(map[string]int, len(ready))
	for _, it := range ready {
		switch {
		case it.Assignee != "" || UnderWay(it.State):
			rank[it.Key] = rankTaken
		case parentOfOpen[it.Key]:
			rank[it.Key] = rankParent
		}
	}
	return rank, holds
}

// unknownStates counts the listed documents outside the archive whose
// state is neither open nor done, most first, then by state.
func (wg *workGraph) unknownStates() []StateCount {
	n := map[string]int{}
	for _, d := range wg.docs {
		if d.unknown && wg.opt.listed(d) {
			n[d.State]++
		}
	}
	out := make([]StateCount, 0, len(n))
	for st, c := range n {
		out = append(out, StateCount{State: st, Count: c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].State < out[j].State
	})
	return out
}

// itemLess orders items by priority (Work.PriorityLess: on the scale by
// its order, then others, missing last), display id and key.
func itemLess(w *config.Work, a, b Item) bool {
	if a.Priority != b.Priority {
		return w.PriorityLess(a.Priority, b.Priority)
	}
	if a.ID != b.ID {
		return idLess(a.ID, b.ID)
	}
	return a.Key < b.Key
}

// idLess orders display ids as people number them: an id's last run of
// digits by its value where what comes before it is the same (KEP-115
// before KEP-1001, T-9 before T-10), else as text.
func idLess(a, b string) bool {
	pa, na := splitNumber(a)
	pb, nb := splitNumber(b)
	if pa == pb && na != "" && nb != "" {
		ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
		if len(ta) != len(tb) {
			return len(ta) < len(tb)
		}
		if ta != tb {
			return ta < tb
		}
	}
	return a < b
}

// splitNumber splits an id ending in digits into what comes before them
// and the digits ("" when it does not end in one).
func splitNumber(id string) (prefix, digits string) {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	return id[:i], id[i:]
}

// workGraph is the documents and who waits for whom, in memory. It is
// filled a document and an edge at a time, in any order, then finished.
type workGraph struct {
	opt     WorkOptions
	docs    map[index.DocID]*workDoc
	waits   map[index.DocID][]wait        // what each document waits for, by how and key
	parents map[index.DocID][]index.DocID // each document's parents, by key
	open    []index.DocID                 // the open documents, by key
}

type workDoc struct {
	index.WorkItem
	open    bool
	unknown bool // outside the archive, in a state neither open nor done
	// template: a file to copy (WorkOptions.IsTemplate), never open.
	template bool
}

// wait says a document waits for another (on), and how it is written.
type wait struct {
	on   index.DocID
	edge string // blocked_by or depends_on on the waiting one, blocks on the other
}

// waitRank puts the waiting item's own blocked_by and depends_on before
// the blocker's blocks, when both name the same blocker.
var waitRank = map[string]int{EdgeBlockedBy: 0, EdgeDependsOn: 1, EdgeBlocks: 2}

func newWorkGraph(opt WorkOptions) *workGraph {
	return &workGraph{opt: opt, docs: map[index.DocID]*workDoc{},
		waits: map[index.DocID][]wait{}, parents: map[index.DocID][]index.DocID{}}
}

func (wg *workGraph) addItem(it index.WorkItem) error {
	d := &workDoc{WorkItem: it, template: wg.opt.IsTemplate != nil && wg.opt.IsTemplate(it.Path)}
	if it.State != "" && !wg.opt.Work.Archived(it.Path) && !d.template {
		d.open = wg.opt.States.IsOpen(it.State)
		d.unknown = !d.open && !wg.opt.States.IsDone(it.State)
	}
	wg.docs[it.Doc] = d
	return nil
}

func (wg *workGraph) addEdge(e index.DocEdge) error {
	if e.Src == e.Dst {
		return nil
	}
	switch e.Type {
	case EdgeParent:
		wg.parents[e.Src] = append(wg.parents[e.Src], e.Dst)
	case EdgeBlocks:
		wg.waits[e.Dst] = append(wg.waits[e.Dst], wait{on: e.Src, edge: e.Type})
	case EdgeBlockedBy, EdgeDependsOn:
		wg.waits[e.Src] = append(wg.waits[e.Src], wait{on: e.Dst, edge: e.Type})
	}
	return nil
}

// finish puts edges and open documents in key order, so that which edge
// names a blocker and which ancestor passes it on never depend on the
// order they came in.
func (wg *workGraph) finish() {
	for _, ws := range wg.waits {
		sort.Slice(ws, func(i, j int) bool {
			if ws[i].edge != ws[j].edge {
				return waitRank[ws[i].edge] < waitRank[ws[j].edge]
			}
			return wg.key(ws[i].on) < wg.key(ws[j].on)
		})
	}
	for _, ps := range wg.parents {
		sort.Slice(ps, func(i, j int) bool { return wg.key(ps[i]) < wg.key(ps[j]) })
	}
	wg.open = wg.open[:0]
	for id, d := range wg.docs {
		if d.open {
			wg.open = append(wg.open, id)
		}
	}
	sort.Slice(wg.open, func(i, j int) bool { return wg.key(wg.open[i]) < wg.key(wg.open[j]) })
}

func (wg *workGraph) key(id index.DocID) string {
	if d := wg.docs[id]; d != nil {
		return d.Key
	}
	return ""
}

func (wg *workGraph) isOpen(id index.DocID) bool {
	d := wg.docs[id]
	return d != nil && d.open
}

// blockingCycles finds the open documents that wait, directly or not, for
// themselves through other open documents.
func (wg *workGraph) blockingCycles() map[index.DocID]bool {
	pos := make(map[index.DocID]int32, len(wg.open))
	for i, id := range wg.open {
		pos[id] = int32(i)
	}
	adj := make([][]int32, len(wg.open))
	for i, id := range wg.open {
		for _, w := range wg.waits[id] {
			if p, ok := pos[w.on]; ok {
				adj[i] = append(adj[i], p)
			}
		}
	}
	inCycle := map[index.DocID]bool{}
	for _, comp := range sccs(adj) {
		if len(comp) > 1 {
			for _, v := range comp {
				inCycle[wg.open[v]] = true
			}
		}
	}
	return inCycle
}

// blockers lists the open documents id waits for: its own first, then
// those its ancestors wait for (breadth first up the parent chain, each
// ancestor once), each blocker once, sorted by ancestor and key.
func (wg *workGraph) blockers(id index.DocID) []Blocker {
	blockers := []Blocker{}
	seen := map[index.DocID]bool{id: true}
	add := func(from index.DocID, via *workDoc) {
		for _, w := range wg.waits[from] {
			if seen[w.on] || !wg.isOpen(w.on) {
				continue
			}
			seen[w.on] = true
			b := Blocker{DocRef: wg.docs[w.on].DocRef, Edge: w.edge}
			if via != nil {
				b.Via, b.ViaID = via.Key, via.ID
			}
			blockers = append(blockers, b)
		}
	}
	add(id, nil)
	visited := map[index.DocID]bool{id: true}
	queue := append([]index.DocID{}, wg.parents[id]...)
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		if visited[a] {
			continue
		}
		visited[a] = true
		if ad := wg.docs[a]; ad != nil {
			add(a, ad)
		}
		queue = append(queue, wg.parents[a]...)
	}
	sort.SliceStable(blockers, func(i, j int) bool {
		a, b := blockers[i], blockers[j]
		if (a.Via == "") != (b.Via == "") {
			return a.Via == ""
		}
		if a.Via != b.Via {
			return a.Via < b.Via
		}
		return a.Key < b.Key
	})
	return blockers
}
