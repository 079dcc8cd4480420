// Package history walks a repository's commit graph for gitsync: the merge
// bases of HEAD with many refs in one walk (git's paint-down, one bit per
// ref), bounded by a budget of commits and of parents listed. It reads
// commits through a Reader it is given (gitsync's, with its commit cache)
// and runs no git; it knows nothing of the index.
package history

import (
	"container/heap"
	"errors"
	"fmt"
	"math/bits"
	"sort"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/go-git/go-git/v5/plumbing"
)

// The merge bases of HEAD with every followed ref are found in one walk of
// the history, not one per ref (issue 46): git's paint-down (commits
// popped newest first, each carrying which sides reach it) with one bit
// per ref instead of one flag per side. A commit HEAD and a ref both
// reach, and not yet below one found for that ref, is a common ancestor
// of the two; what lies below it is stale for that ref. The walk stops
// when no queued commit can still be one: it costs the commits between
// the tips and their oldest merge base, read once for all refs, where a
// walk per ref read the shared part once per ref (and a git process per
// ref took 50–150 ms on rust-lang/rfcs).

// Reader reads a commit's parents and time; ok is false for a commit the
// repository does not have (a shallow clone's edge).
type Reader func(h plumbing.Hash) (c gitfile.Commit, ok bool, err error)

// ErrBudget stops a walk that read more commits than its budget: the
// caller says which refs it could not place.
var ErrBudget = errors.New("the merge base is far back")

// ErrEdges is ErrBudget for a walk whose commits listed more than
// MaxEdges parents: a history of octopus merges, built to cost. git
// merge-base on it held 1.5 GB; such a ref is skipped, not handed to git.
var ErrEdges = fmt.Errorf("%w: its commits list too many parents", ErrBudget)

// Budget is how many commits one walk reads at most: the whole
// history of most repositories (rust-lang/rfcs has 16,000 commits with its
// pull requests), a few hundred milliseconds; MaxEdges, how many
// parents they may list in all (a hostile history of octopus merges with
// thousands of parents each held 21 million in 6,500 commits: 1 GB).
const Budget = 200_000

var MaxEdges = 2_000_000 // a variable for the tests

// bitset is a set of ref numbers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int) { b[i/64] |= 1 << (i % 64) }

// covers reports whether b holds every element of c.
func (b bitset) covers(c bitset) bool {
	for i := range b {
		if c[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

// anyBut reports whether b holds an element c does not.
func (b bitset) anyBut(c bitset) bool {
	for i := range b {
		if b[i]&^c[i] != 0 {
			return true
		}
	}
	return false
}

func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}

// full reports whether b holds all n refs.
func (b bitset) full(n int) bool {
	for i := range b {
		want := ^uint64(0)
		if rest := n - i*64; rest < 64 {
			want = 1<<rest - 1
		}
		if b[i]&want != want {
			return false
		}
	}
	return true
}

// each calls fn with every element of b not in c.
func (b bitset) each(c bitset, fn func(int)) {
	for i := range b {
		w := b[i] &^ c[i]
		for w != 0 {
			t := bits.TrailingZeros64(w)
			fn(i*64 + t)
			w &= w - 1
		}
	}
}

// walkNode is one commit of the walk.
type walkNode struct {
	h      plumbing.Hash
	info   gitfile.Commit
	head   bool   // HEAD reaches it
	refs   bitset // the refs that reach it
	stale  bitset // the refs for which it lies below a common ancestor
	queued bool
	live   bool // queued and may still be a common ancestor: counted in baseWalk.live
	pos    int  // in the heap
}

// baseWalk is the walk's state.
type baseWalk struct {
	read   Reader
	n      int // refs
	edges  int // parents listed by the commits read
	nodes  map[plumbing.Hash]*walkNode
	queue  walkQueue
	live   int // queued nodes that may still be a common ancestor
	reads  int
	budget int
}

// walkQueue orders nodes newest first (commit time, then id, so that the
// same history is always walked in the same order).
type walkQueue []*walkNode

func (q walkQueue) Len() int { return len(q) }
func (q walkQueue) Less(i, j int) bool {
	if q[i].info.When != q[j].info.When {
		return q[i].info.When > q[j].info.When
	}
	return q[i].h.String() < q[j].h.String()
}
func (q walkQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].pos, q[j].pos = i, j
}
func (q *walkQueue) Push(x any) {
	n := x.(*walkNode)
	n.pos = len(*q)
	*q = append(*q, n)
}
func (q *walkQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}

// node returns the walk's node for h, reading the commit the first time.
// ok is false for a commit that is not in the repository (a shallow
// clone's edge): the walk treats it as absent, as git does.
func (w *baseWalk) node(h plumbing.Hash) (*walkNode, bool, error) {
	if n, ok := w.nodes[h]; ok {
		return n, true, nil
	}
	w.reads++
	if w.reads > w.budget {
		return nil, false, ErrBudget
	}
	ci, ok, err := w.read(h)
	if err != nil || !ok {
		return nil, false, err
	}
	if w.edges += len(ci.Parents); w.edges > MaxEdges {
		return nil, false, ErrEdges
	}
	n := &walkNode{h: h, info: ci, refs: newBitset(w.n), stale: newBitset(w.n)}
	w.nodes[h] = n
	return n, true, nil
}

// isLive reports whether n may still be a common ancestor of HEAD and a
// ref it is not stale for.
func (w *baseWalk) isLive(n *walkNode) bool {
	if n.head {
		return !n.stale.full(w.n)
	}
	return n.refs.anyBut(n.stale)
}

// settle recounts n after its flags changed, queueing it if it is not.
func (w *baseWalk) settle(n *walkNode) {
	if n.live {
		w.live--
	}
	n.live = w.isLive(n)
	if n.live {
		w.live++
	}
	if n.queued {
		heap.Fix(&w.queue, n.pos)
		return
	}
	n.queued = true
	heap.Push(&w.queue, n)
}

// MergeBases finds the merge base of head with each of tips in one walk:
// bases[i] is tips[i]'s ("" when they share no history). Where a ref has
// several best common ancestors (criss-cross merges), the newest is taken,
// then the smallest id, so the answer depends only on the history. A walk
// that passes budget commits returns ErrBudget.
func MergeBases(read Reader, head string, tips []string, budget int) ([]string, error) {
	bases := make([]string, len(tips))
	if head == "" || len(tips) == 0 {
		return bases, nil
	}
	w := &baseWalk{read: read, n: len(tips), nodes: map[plumbing.Hash]*walkNode{}, budget: budget}
	hn, ok, err := w.node(plumbing.NewHash(head))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, plumbing.ErrObjectNotFound
	}
	hn.head = true
	w.settle(hn)
	for i, t := range tips {
		tn, ok, err := w.node(plumbing.NewHash(t))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, plumbing.ErrObjectNotFound
		}
		tn.refs.set(i)
		w.settle(tn)
	}
	found := make([][]*walkNode, len(tips))
	for w.live > 0 {
		n := heap.Pop(&w.queue).(*walkNode)
		n.queued = false
		if n.live {
			w.live--
			n.live = false
		}
		if n.head {
			fresh := newBitset(w.n)
			n.refs.each(n.stale, func(r int) {
				found[r] = append(found[r], n)
				fresh.set(r)
			})
			n.stale.or(fresh)
		}
		for _, p := range n.info.Parents {
			pn, ok, err := w.node(p)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if (pn.head || !n.head) && pn.refs.covers(n.refs) && pn.stale.covers(n.stale) {
				continue // nothing new for it
			}
			pn.head = pn.head || n.head
			pn.refs.or(n.refs)
			pn.stale.or(n.stale)
			w.settle(pn)
		}
	}
	for i, cands := range found {
		best, err := w.best(cands)
		if err != nil {
			return nil, err
		}
		bases[i] = best
	}
	return bases, nil
}

// best picks a ref's merge base among the common ancestors the walk
// found: those no other one reaches (as git's remove_redundant), the
// newest first, then the smallest id.
func (w *baseWalk) best(cands []*walkNode) (string, error) {
	if len(cands) == 0 {
		return "", nil
	}
	if len(cands) == 1 {
		return cands[0].h.String(), nil
	}
	infos := map[plumbing.Hash]gitfile.Commit{}
	for h, n := range w.nodes {
		infos[h] = n.info
	}
	var keep []*walkNode
	for _, c := range cands {
		redundant := false
		for _, other := range cands {
			if other == c {
				continue
			}
			reach, err := reaches(w.read, other.h, c.h, infos)
			if err != nil {
				return "", err
			}
			if reach {
				redundant = true
				break
			}
		}
		if !redundant {
			keep = append(keep, c)
		}
	}
	sort.Slice(keep, func(i, j int) bool {
		if keep[i].info.When != keep[j].info.When {
			return keep[i].info.When > keep[j].info.When
		}
		return keep[i].h.String() < keep[j].h.String()
	})
	return keep[0].h.String(), nil
}

// reaches reports whether commit to is an ancestor of commit from, walking
// parents at most Budget commits.
func reaches(read Reader, from, to plumbing.Hash, infos map[plumbing.Hash]gitfile.Commit) (bool, error) {
	seen := map[plumbing.Hash]bool{from: true}
	stack := []plumbing.Hash{from}
	for len(stack) > 0 {
		if len(seen) > Budget {
			return false, ErrBudget
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ci, ok := infos[h]
		if !ok {
			var err error
			if ci, ok, err = read(h); err != nil {
				return false, err
			}
			if !ok {
				continue
			}
			infos[h] = ci
		}
		for _, p := range ci.Parents {
			if p == to {
				return true, nil
			}
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return false, nil
}
