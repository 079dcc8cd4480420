package gitsync

import (
	"context"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index"
)

// Trunks (ADR-0068). A ref's overlay is its diff from its merge base with
// HEAD. With HEAD on a branch that forked long ago, every ref forked from
// the default line after that point has the same merge base, and its diff
// holds every document the line changed since: the same hundreds of rows
// once per ref. A diff composes exactly, path by path, through any commit
// (the blob at the merge base, the blob on the ref), so the refs of one
// merge base whose first-parent lines run into one line share its rows:
// the line's changes between the merge base and each point a ref leaves it
// (its anchor), stored once with the anchors each row holds for, and each
// ref's own diff from its anchor. The answers read a ref's rows as before:
// its own, and the trunk's at its anchor where it has none.

// trunkWalk and trunkWalkTotal bound the first-parent walks that find the
// line: the commits per ref, and those read for all the refs of a group. A ref past them is diffed
// alone, as every ref was before.
const (
	trunkWalk      = 20_000
	trunkWalkTotal = 200_000
)

// useTrunks is false in tests that compare the answers with the refs'
// diffed alone.
var useTrunks = true

// trunkGroup is the refs of one call that are diffed from one merge base.
type trunkGroup struct {
	base  string
	jobs  []*overlayJob
	built bool
	tr    *trunk // nil: the refs are diffed alone
}

// trunk is a line's changes from the merge base, at each anchor.
type trunk struct {
	anchors []string            // the anchors' commits, by seq
	seq     map[*overlayJob]int // each ref's anchor
	paths   map[string]*trunkPath
	count   []int   // documents that differ from the merge base at each seq
	bytes   []int64 // the blobs they are, each once, under max_file_size
	fm      []int64 // their frontmatter, each blob once
	rows    *index.Trunk
}

// trunkPath is one path's versions along the line.
type trunkPath struct {
	base string // its blob at the merge base
	vers []trunkVer
}

type trunkVer struct {
	lo  int    // the first seq it holds for
	to  string // its blob from then on
	doc index.RefDoc
}

// at is the path's blob at seq.
func (p *trunkPath) at(seq int) string {
	to := p.base
	for _, v := range p.vers {
		if v.lo > seq {
			break
		}
		to = v.to
	}
	return to
}

// trunkGroups groups the jobs that will be diffed from their merge base (a
// ref new, moved to another merge base, or summarised before) by merge
// base, where two or more share one.
func trunkGroups(jobs []*overlayJob) map[*overlayJob]*trunkGroup {
	if !useTrunks {
		return nil
	}
	byBase := map[string]*trunkGroup{}
	for _, j := range jobs {
		if j.skip != "" || j.base == "" || j.old != nil && j.old.OID == j.tip.OID && j.old.Base == j.base ||
			j.old != nil && j.old.Base == j.base && !j.old.Summarised && j.old.Skip == "" {
			continue
		}
		g := byBase[j.base]
		if g == nil {
			g = &trunkGroup{base: j.base}
			byBase[j.base] = g
		}
		g.jobs = append(g.jobs, j)
	}
	out := map[*overlayJob]*trunkGroup{}
	for _, g := range byBase {
		if len(g.jobs) < 2 {
			continue
		}
		for _, j := range g.jobs {
			out[j] = g
		}
	}
	return out
}

// firstParents walks from tip down first parents to base: the commits
// above base, tip first; nil when base is not on that line within the
// walk's bounds. up holds the first parents read so far (the refs' lines
// share most of theirs), reads how many commits were read.
func firstParents(objs *Objects, tip, base plumbing.Hash, up map[plumbing.Hash]plumbing.Hash, reads *int) []plumbing.Hash {
	var line []plumbing.Hash
	for h := tip; len(line) < trunkWalk; {
		if h == base {
			return line
		}
		line = append(line, h)
		p, ok := up[h]
		if !ok {
			if *reads++; *reads > trunkWalkTotal {
				return nil
			}
			ci, found, err := objs.walkCommit(h)
			if err == nil && found && len(ci.Parents) > 0 {
				p = ci.Parents[0]
			}
			up[h] = p
		}
		if p.IsZero() {
			return nil
		}
		h = p
	}
	return nil
}

// anchors finds the line of a group (the first-parent line that most of
// the others run into) and each ref's anchor on it: the first commit of
// its own first-parent line that is on it. nil when fewer than two refs
// leave the line above the merge base.
func anchors(objs *Objects, g *trunkGroup) ([]string, map[*overlayJob]int) {
	base := plumbing.NewHash(g.base)
	lines := map[*overlayJob][]plumbing.Hash{}
	on := map[plumbing.Hash]int{} // how many refs' lines hold a commit
	up, reads := map[plumbing.Hash]plumbing.Hash{}, 0
	for _, j := range g.jobs {
		if l := firstParents(objs, plumbing.NewHash(j.tip.OID), base, up, &reads); len(l) > 0 {
			lines[j] = l
			for _, c := range l {
				on[c]++
			}
		}
	}
	var best []plumbing.Hash
	bestShare := 0
	for _, j := range g.jobs { // by name: the same history gives the same line
		share := 0
		for _, c := range lines[j] {
			share += on[c] - 1
		}
		if share > bestShare {
			best, bestShare = lines[j], share
		}
	}
	if best == nil {
		return nil, nil
	}
	pos := make(map[plumbing.Hash]int, len(best))
	for i, c := range best {
		pos[c] = len(best) - i // the merge base is 0
	}
	at := map[*overlayJob]int{}
	used := map[int]bool{}
	for j, l := range lines {
		for _, c := range l {
			if p, ok := pos[c]; ok {
				at[j] = p
				used[p] = true
				break
			}
		}
	}
	if len(at) < 2 {
		return nil, nil
	}
	ps := make([]int, 0, len(used))
	for p := range used {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	seqOf := make(map[int]int, len(ps))
	commits := make([]string, len(ps))
	for i, p := range ps {
		seqOf[p] = i
		commits[i] = best[len(best)-p].String()
	}
	seq := make(map[*overlayJob]int, len(at))
	for j, p := range at {
		seq[j] = seqOf[p]
	}
	return commits, seq
}

// buildTrunk works out a group's trunk, within bounds: a line whose blobs
// hold more than the call's read budget has left, whose frontmatter more
// than one ref's may make canon parse, or that changes more than eight
// times the documents a ref may load, gives no trunk (its refs are diffed
// alone, and bounded each as before). What it reads counts against the
// call's budget.
func (s *Session) buildTrunk(ctx context.Context, objs *Objects, g *trunkGroup, budget *readBudget) error {
	g.built = true
	commits, seq := anchors(objs, g)
	if commits == nil {
		return nil
	}
	for _, j := range g.jobs { // each ref's own diff (trunkRef), while the steps are read here
		if k, ok := seq[j]; ok {
			objs.wantDiff(commits[k], j.tip.OID)
		}
	}
	tr := &trunk{anchors: commits, seq: seq, paths: map[string]*trunkPath{}}
	steps, sizeOf, err := s.trunkSteps(ctx, objs, g.base, commits, budget)
	if err != nil || steps == nil {
		return err
	}
	live := map[string]int{} // blobs at the current seq, by how many paths
	var count int
	var bytes, fm, parsed int64
	fmOf := map[string]int64{}
	for i, changes := range steps {
		for _, c := range changes {
			p := tr.paths[c.Path]
			if p == nil {
				p = &trunkPath{base: c.From}
				tr.paths[c.Path] = p
			}
			if cur := p.at(i); cur != p.base {
				count--
				if live[cur]--; live[cur] == 0 && cur != "" {
					bytes, fm = bytes-sizeOf[cur], fm-fmOf[cur]
				}
			}
			v := trunkVer{lo: i, to: c.To}
			if c.To != p.base {
				d, err := loadRefDoc(s, objs, TreeChange{Path: c.Path, From: p.base, To: c.To}, p.base, budget)
				if err != nil {
					return err
				}
				v.doc = d
				count++
				if c.To != "" {
					if _, ok := fmOf[c.To]; !ok {
						fmOf[c.To] = d.FMBytes
						if parsed += d.FMBytes; parsed > OverlayRefFrontmatter {
							return nil
						}
					}
					if live[c.To]++; live[c.To] == 1 {
						bytes, fm = bytes+sizeOf[c.To], fm+fmOf[c.To]
					}
				}
			}
			p.vers = append(p.vers, v)
		}
		tr.count = append(tr.count, count)
		tr.bytes = append(tr.bytes, bytes)
		tr.fm = append(tr.fm, fm)
	}
	tr.rows = &index.Trunk{}
	paths := make([]string, 0, len(tr.paths))
	for path := range tr.paths {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		p := tr.paths[path]
		for k, v := range p.vers {
			if v.to == p.base {
				continue
			}
			hi := len(commits)
			if k+1 < len(p.vers) {
				hi = p.vers[k+1].lo
			}
			tr.rows.Rows = append(tr.rows.Rows, index.TrunkDoc{RefDoc: v.doc, Lo: v.lo, Hi: hi})
		}
	}
	g.tr = tr
	return nil
}

// trunkSteps diffs the line from the merge base to each anchor in turn,
// and sizes the blobs the steps lead to (0 for one over max_file_size,
// which is not read). nil steps when they change more than eight times the
// documents a ref may load, or when the blobs this call has not read yet
// hold more than its budget has left.
func (s *Session) trunkSteps(ctx context.Context, objs *Objects, base string, commits []string, budget *readBudget) ([][]TreeChange, map[string]int64, error) {
	steps := make([][]TreeChange, len(commits))
	prev, versions := base, 0
	var blobs []string
	for i, c := range commits {
		changes, err := s.overlayDiff(objs, prev, c)
		if err != nil {
			return nil, nil, err
		}
		steps[i], prev = changes, c
		if versions += len(changes); versions > 8*s.loadLimit() {
			return nil, nil, nil
		}
		blobs = append(blobs, changedBlobs(changes)...)
	}
	if err := budget.preload(ctx, blobs); err != nil {
		return nil, nil, err
	}
	sizeOf := map[string]int64{}
	var unread int64
	for _, b := range blobs {
		if _, ok := sizeOf[b]; ok || b == "" {
			continue
		}
		n, err := budget.size(objs, b)
		if err != nil {
			return nil, nil, err
		}
		if s.Loader.OverSizeCap(n) != "" {
			n = 0
		}
		sizeOf[b] = n
		if _, read := budget.blobs[b]; !read {
			unread += n
		}
	}
	if unread > budget.bytes {
		return nil, nil, nil
	}
	return steps, sizeOf, nil
}

// trunkRef is a ref's overlay as its trunk's rows at its anchor and its
// own diff from there. false when the ref is not on the trunk, or when it
// may be over a bound of one ref (it is then diffed alone, which bounds
// and summarises it exactly as before).
func (s *Session) trunkRef(ctx context.Context, objs *Objects, head string, j *overlayJob, tr *trunk, budget *readBudget) (index.RefUpdate, bool, error) {
	seq, ok := tr.seq[j]
	if !ok {
		return index.RefUpdate{}, false, nil
	}
	t, ci := j.tip, j.ci
	u := index.RefUpdate{Replace: true, Trunk: tr.rows, State: index.RefState{Name: t.Name, OID: t.OID, Base: j.base, BaseHead: head,
		Author: ci.Author, Committed: ci.When, Updated: time.Now().UnixNano(), Seq: seq}}
	changes, err := s.overlayDiff(objs, tr.anchors[seq], t.OID)
	if err != nil {
		return index.RefUpdate{}, false, err
	}
	count, bytes, fm := tr.count[seq], tr.bytes[seq], tr.fm[seq]
	type load struct {
		c    TreeChange
		base string
	}
	var loads []load
	for _, c := range changes {
		base, held := c.From, false
		if p := tr.paths[c.Path]; p != nil && p.vers[0].lo <= seq {
			base, held = p.base, p.at(seq) != p.base
		}
		if held {
			count--
		}
		if c.To == base {
			if held {
				u.Upserts = append(u.Upserts, index.RefDoc{Path: c.Path, Change: index.RefSame, Edges: "[]", Commit: t.OID, Author: ci.Author})
			}
			continue
		}
		count++
		loads = append(loads, load{c, base})
		if c.To != "" {
			n, err := budget.size(objs, c.To)
			if err != nil {
				return index.RefUpdate{}, false, err
			}
			if s.Loader.OverSizeCap(n) == "" {
				bytes += n
			}
		}
	}
	if count > s.loadLimit() || bytes > s.refBytes() {
		return index.RefUpdate{}, false, nil
	}
	blobs := make([]string, len(loads))
	for i, l := range loads {
		blobs[i] = l.c.To
	}
	if err := budget.preload(ctx, blobs); err != nil {
		return index.RefUpdate{}, false, err
	}
	for _, l := range loads {
		d, err := loadRefDoc(s, objs, l.c, l.base, budget)
		if err != nil {
			return index.RefUpdate{}, false, err
		}
		if fm += d.FMBytes; fm > OverlayRefFrontmatter {
			return index.RefUpdate{}, false, nil
		}
		d.Commit, d.Author = t.OID, ci.Author
		u.Upserts = append(u.Upserts, d)
	}
	u.State.Changed = count
	return u, true, ctx.Err()
}
