package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// WorkOptions shape the ready/blocked view.
type WorkOptions struct {
	States config.States // which states are done; any other non-empty state is open
	Kinds  []string      // list only these kinds (none: every kind)
}

// Item is an open work item.
type Item struct {
	index.DocRef
	Priority string `json:"priority,omitempty"`
}

// BlockedItem is an open item that cannot start yet, and why.
type BlockedItem struct {
	Item
	Blockers []Blocker `json:"blockers"`
	// StateBlocked says the item's own state is Blocked (it may have no
	// recorded blocker).
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

// Work is the ready/blocked view: every open item is in exactly one list.
type Work struct {
	Ready   []Item        `json:"ready"`
	Blocked []BlockedItem `json:"blocked"`
}

// Work splits the open items into ready and blocked. An item is open when
// its state is not empty and not a done state. It is blocked when an open
// item blocks it (blocks, blocked_by, depends_on) or blocks one of its
// ancestors along the parent chain, or when its state is Blocked.
// Both lists are sorted by priority (missing last), display id and key.
// Cycles in parents or blockers are walked once and reported, never
// followed forever.
func (g *Graph) Work(ctx context.Context, opt WorkOptions) (*Work, error) {
	type doc struct {
		ref      index.DocRef
		priority string
		open     bool
	}
	docs := map[int64]*doc{}
	rows, err := g.db.QueryContext(ctx, `SELECT `+index.DocRefColumns+`, d.id, coalesce(CAST(json_extract(d.fm, '$.priority') AS TEXT), '')
		FROM docs d`)
	if err != nil {
		return nil, fmt.Errorf("read items: %w", err)
	}
	for rows.Next() {
		var id int64
		var prio string
		ref, err := index.ScanDocRef(rows, &id, &prio)
		if err != nil {
			rows.Close()
			return nil, err
		}
		docs[id] = &doc{ref: ref, priority: prio, open: ref.State != "" && !opt.States.IsDone(ref.State)}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	type wait struct {
		on   int64
		edge string
	}
	waits := map[int64][]wait{}
	parents := map[int64][]int64{}
	rows, err = g.db.QueryContext(ctx, `SELECT src, dst, type FROM links
		WHERE status = 'ok' AND dst IS NOT NULL AND dst <> src AND type IN ('blocks', 'blocked_by', 'depends_on', 'parent')`)
	if err != nil {
		return nil, fmt.Errorf("read blocking links: %w", err)
	}
	for rows.Next() {
		var src, dst int64
		var typ string
		if err := rows.Scan(&src, &dst, &typ); err != nil {
			rows.Close()
			return nil, err
		}
		switch typ {
		case EdgeParent:
			parents[src] = append(parents[src], dst)
		case EdgeBlocks:
			waits[dst] = append(waits[dst], wait{on: src, edge: typ})
		default:
			waits[src] = append(waits[src], wait{on: dst, edge: typ})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	isOpen := func(id int64) bool { d := docs[id]; return d != nil && d.open }
	// Links come in row order; sort them so that which edge names a
	// blocker (the waiting item's own blocked_by or depends_on before the
	// blocker's blocks) and which ancestor passes it on never depend on it.
	waitRank := map[string]int{EdgeBlockedBy: 0, EdgeDependsOn: 1, EdgeBlocks: 2}
	keyOf := func(id int64) string {
		if d := docs[id]; d != nil {
			return d.ref.Key
		}
		return ""
	}
	for _, ws := range waits {
		sort.Slice(ws, func(i, j int) bool {
			if ws[i].edge != ws[j].edge {
				return waitRank[ws[i].edge] < waitRank[ws[j].edge]
			}
			return keyOf(ws[i].on) < keyOf(ws[j].on)
		})
	}
	for _, ps := range parents {
		sort.Slice(ps, func(i, j int) bool { return keyOf(ps[i]) < keyOf(ps[j]) })
	}

	// Cycles among open items' direct waits.
	var openIDs []int64
	for id, d := range docs {
		if d.open {
			openIDs = append(openIDs, id)
		}
	}
	sort.Slice(openIDs, func(i, j int) bool { return docs[openIDs[i]].ref.Key < docs[openIDs[j]].ref.Key })
	pos := make(map[int64]int32, len(openIDs))
	for i, id := range openIDs {
		pos[id] = int32(i)
	}
	adj := make([][]int32, len(openIDs))
	for i, id := range openIDs {
		for _, w := range waits[id] {
			if p, ok := pos[w.on]; ok {
				adj[i] = append(adj[i], p)
			}
		}
	}
	inCycle := map[int64]bool{}
	for _, comp := range sccs(adj) {
		if len(comp) > 1 {
			for _, v := range comp {
				inCycle[openIDs[v]] = true
			}
		}
	}

	work := &Work{Ready: []Item{}, Blocked: []BlockedItem{}}
	for _, id := range openIDs {
		d := docs[id]
		if !matchesKind(opt.Kinds, d.ref.Kind) {
			continue
		}
		var blockers []Blocker
		seen := map[int64]bool{id: true}
		add := func(from int64, via *doc) {
			for _, w := range waits[from] {
				if seen[w.on] || !isOpen(w.on) {
					continue
				}
				seen[w.on] = true
				b := Blocker{DocRef: docs[w.on].ref, Edge: w.edge}
				if via != nil {
					b.Via, b.ViaID = via.ref.Key, via.ref.ID
				}
				blockers = append(blockers, b)
			}
		}
		add(id, nil)
		// The parent chain, breadth first, each ancestor once.
		visited := map[int64]bool{id: true}
		queue := append([]int64{}, parents[id]...)
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			if visited[a] {
				continue
			}
			visited[a] = true
			if ad := docs[a]; ad != nil {
				add(a, ad)
			}
			queue = append(queue, parents[a]...)
		}
		item := Item{DocRef: d.ref, Priority: d.priority}
		stateBlocked := strings.EqualFold(d.ref.State, "blocked")
		if len(blockers) == 0 && !stateBlocked {
			work.Ready = append(work.Ready, item)
			continue
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
		if blockers == nil {
			blockers = []Blocker{}
		}
		work.Blocked = append(work.Blocked, BlockedItem{Item: item, Blockers: blockers, StateBlocked: stateBlocked, InCycle: inCycle[id]})
	}
	sortItems := func(a, b Item) bool {
		if (a.Priority == "") != (b.Priority == "") {
			return b.Priority == ""
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Key < b.Key
	}
	sort.Slice(work.Ready, func(i, j int) bool { return sortItems(work.Ready[i], work.Ready[j]) })
	sort.Slice(work.Blocked, func(i, j int) bool { return sortItems(work.Blocked[i].Item, work.Blocked[j].Item) })
	return work, nil
}
