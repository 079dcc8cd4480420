package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/gitsync/gitcache"
	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/gitsync/history"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/scan"
)

// OverlayLoadLimit is how many documents a ref may change before its
// overlay is summarised (a count, nothing loaded): a stale branch whose
// diff from HEAD's history is huge. Session.overlayLimit, when set, is
// used instead (tests).
const OverlayLoadLimit = 1000

// What one ref, and one call, may make canon read of other refs' blobs
// (issue 41: one branch of 999 paths naming one 4.9 MB blob cost 35 s).
// A ref whose documents hold more than OverlayRefBytes (each blob counted
// once, however many paths name it) is summarised as one over the load
// limit is, with its Skip saying why; a call that has read overlayCallBytes
// or run overlayCallTime leaves the refs it has not reached for the next
// one (OverlayStatus.Pending), and keeps what it finished.
const (
	OverlayRefBytes  = 16 << 20
	overlayCallBytes = 32 << 20
	overlayCallTime  = 4 * time.Second
	// overlayFrontmatterBytes bounds the frontmatter of another ref's
	// document that canon parses: YAML costs 180 times its size in memory
	// and about 0.4 s a megabyte (62 distinct 1 MB frontmatters, an
	// 8.7 KB bundle, cost 20 s and 5 GB); a larger one is not read, and
	// its row says why.
	overlayFrontmatterBytes = 128 << 10
	// OverlayRefFrontmatter bounds the frontmatter one ref's documents
	// may make canon parse, each blob once: about a second of YAML.
	OverlayRefFrontmatter = 2 << 20
)

// refBytes and callBytes are OverlayRefBytes and overlayCallBytes, or
// what a test set.
func (s *Session) refBytes() int64 {
	if s.overlayBytes[0] > 0 {
		return s.overlayBytes[0]
	}
	return OverlayRefBytes
}

func (s *Session) callBytes() int64 {
	if s.overlayBytes[1] > 0 {
		return s.overlayBytes[1]
	}
	return overlayCallBytes
}

func (s *Session) loadLimit() int {
	if s.overlayLimit > 0 {
		return s.overlayLimit
	}
	return OverlayLoadLimit
}

// OverlayStatus says how fresh the overlays are: every answer that uses
// them carries it.
type OverlayStatus struct {
	Head       string `json:"head"`              // the indexed HEAD they are compared with
	Refs       int    `json:"refs"`              // refs followed
	Updated    int    `json:"updated"`           // refs this call brought up to date
	Summarised int    `json:"summarised"`        // refs whose diff is too large to load
	LeftOut    int    `json:"left_out"`          // refs over branches.max, not followed
	Pending    int    `json:"pending,omitempty"` // refs this call's read budget did not reach: the next call goes on
	// Skipped names the refs whose documents are not read, each with why
	// ("refs/remotes/o/x: it points at a blob, not a commit").
	Skipped   []string  `json:"skipped,omitempty"`
	CheckedAt time.Time `json:"checked_at"`        // when the refs were last compared with the overlays
	Note      string    `json:"note,omitempty"`    // why overlays are not kept (then nothing else is said)
	Warning   string    `json:"warning,omitempty"` // what they leave out
}

// Text is the one-line freshness of an answer.
func (o *OverlayStatus) Text() string {
	if o.Note != "" {
		return "overlays: " + o.Note
	}
	refs := "refs"
	if o.Refs == 1 {
		refs = "ref"
	}
	s := fmt.Sprintf("overlays: %d other %s compared with %s at %s", o.Refs, refs, short(o.Head), o.CheckedAt.UTC().Format("15:04:05"))
	if o.Updated > 0 {
		s += fmt.Sprintf(", %d brought up to date", o.Updated)
	}
	if o.Pending > 0 {
		s += fmt.Sprintf(", %d not yet (this command's read budget ran out; the next one goes on)", o.Pending)
	}
	if o.Summarised > 0 {
		s += fmt.Sprintf(", %d too large to load", o.Summarised)
	}
	if o.LeftOut > 0 {
		s += fmt.Sprintf(", %d more not followed (branches.max)", o.LeftOut)
	}
	if len(o.Skipped) > 0 {
		s += "; not read: " + strings.Join(o.Skipped, "; ")
	}
	if o.Warning != "" {
		s += "; " + o.Warning
	}
	return s
}

// tell fills what the refs table says: how many refs are summarised, and
// which are skipped and why.
func (o *OverlayStatus) tell(refs []index.RefState) {
	o.Summarised, o.Skipped = 0, nil
	for _, r := range refs {
		if r.Summarised {
			o.Summarised++
		}
		if r.Skip != "" && !r.Summarised {
			o.Skipped = append(o.Skipped, human.Quote(r.Name)+": it "+r.Skip)
		}
	}
}

// Overlays brings the overlays up to date with the refs (ADR-0042) and
// says how fresh they are. It reads the ref files and compares them with
// the refs table: when nothing moved, that is all. Otherwise it works out
// each moved ref's update from git's objects without the writer lock
// (merge bases in one walk for all refs, mergebase.go; a ref's base stands
// while HEAD only grew by commits the ref does not hold), within the read
// budget of one call, and writes what it finished under the lock, each
// ref only if no other process moved its row meanwhile. Call it after the
// index caught up with HEAD (Fresh, CatchUp): overlays are compared with
// the indexed HEAD. Hooks never call it (issue 46): the commands that
// read the overlays do.
func (s *Session) Overlays(ctx context.Context) (*OverlayStatus, error) {
	head, err := s.Store.Meta(index.MetaHead)
	if err != nil {
		return nil, err
	}
	st := &OverlayStatus{Head: head, CheckedAt: time.Now()}
	if s.Repo.ObjectFormat() != "sha1" {
		st.Note = "off: not kept for a " + s.Repo.ObjectFormat() + " repository (canon reads its objects through git only)"
		return st, nil
	}
	prior, err := s.Store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	tips, leftOut, note, err := s.Repo.FollowedRefs(s.Cfg.Branches, prior)
	if err != nil {
		st.Note = "off: " + err.Error()
		return st, nil
	}
	st.Refs, st.LeftOut, st.Warning = len(tips), leftOut, note
	if !overlayBehind(tips, prior, head) {
		st.tell(prior)
		return st, nil
	}
	if !s.overlayMu.TryLock() {
		s.overlayMu.Lock()                              // another call of this process (canon mcp) is at it:
		if prior, err = s.Store.Refs(ctx); err != nil { // what it did need not be done again
			s.overlayMu.Unlock()
			return nil, err
		}
	}
	defer s.overlayMu.Unlock()
	budget := newReadBudget(s.callBytes(), overlayCallTime)
	budget.store = s.Store
	plan, err := s.planOverlays(ctx, head, tips, prior, budget)
	if err != nil {
		return nil, err
	}
	if len(plan.ups) == 0 && len(plan.gone) == 0 && plan.pending == 0 && plan.walked == 0 && plan.grewBy <= lazyGrowth {
		// HEAD only grew by a few commits and every ref stands: nothing
		// to write (the writer lock is most of what this call would
		// cost); the next call finds the same in as many commit reads.
		st.tell(prior)
		return st, nil
	}
	// What was finished is written even when ctx ended meanwhile (an MCP
	// call's deadline): the write is short, and the next call goes on.
	after, err := s.applyOverlays(context.WithoutCancel(ctx), prior, plan)
	if err != nil {
		return nil, err
	}
	st.Updated, st.Pending = len(plan.ups)+len(plan.stand)+len(plan.gone), plan.pending
	st.tell(after)
	return st, nil
}

// lazyGrowth is how many commits HEAD may grow by before refs whose
// merge base stands are written as compared with it: until then each
// call proves them standing again by reading that many commits, which
// costs less than the writer lock.
const lazyGrowth = 32

// overlayBehind reports whether the refs table does not reflect tips for
// head.
func overlayBehind(tips []RefTip, prior []index.RefState, head string) bool {
	if len(tips) != len(prior) {
		return true
	}
	for i, t := range tips { // both sorted by name
		if p := prior[i]; p.Name != t.Name || p.OID != t.OID || p.BaseHead != head {
			return true
		}
	}
	return false
}

// overlayPlan is what brings the refs table to the tips: the refs to
// write, the names to forget, and how many refs the budget left for later.
type overlayPlan struct {
	ups     []index.RefUpdate
	stand   []string // refs whose tip and merge base did not move: only compared with head now
	head    string
	grewBy  int // how many commits HEAD grew by since the rows of stand were compared
	walked  int // refs whose merge base was walked for
	gone    []string
	pending int
	blobs   []index.RefBlob // the blobs read, to keep
}

// applyOverlays writes a plan under the writer lock: each update only if
// its ref's row is still the one the plan started from (another process
// may have moved it meanwhile: then its work stands, and a later call
// sees whatever is still behind). It returns the refs table as it left it.
func (s *Session) applyOverlays(ctx context.Context, prior []index.RefState, plan *overlayPlan) ([]index.RefState, error) {
	if len(plan.ups) == 0 && len(plan.stand) == 0 && len(plan.gone) == 0 && len(plan.blobs) == 0 {
		return prior, nil
	}
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	now, err := s.Store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	was := map[string]index.RefState{}
	for _, p := range prior {
		was[p.Name] = p
	}
	is := map[string]index.RefState{}
	for _, p := range now {
		is[p.Name] = p
	}
	same := func(name string) bool {
		a, hadA := was[name]
		b, hasB := is[name]
		return hadA == hasB && a == b
	}
	var ups []index.RefUpdate
	for _, u := range plan.ups {
		if same(u.State.Name) {
			ups = append(ups, u)
			is[u.State.Name] = u.State
		}
	}
	var stand, gone []string
	for _, name := range plan.stand {
		if same(name) {
			stand = append(stand, name)
			r := is[name]
			r.BaseHead = plan.head
			is[name] = r
		}
	}
	for _, name := range plan.gone {
		if same(name) {
			gone = append(gone, name)
			delete(is, name)
		}
	}
	if err := s.Store.ApplyRefs(ctx, ups, stand, plan.head, gone, plan.blobs...); err != nil {
		return nil, err
	}
	after := make([]index.RefState, 0, len(is))
	for _, r := range is {
		after = append(after, r)
	}
	sort.Slice(after, func(i, j int) bool { return after[i].Name < after[j].Name })
	return after, nil
}

// planOverlays works out, from git's objects and without the writer lock,
// what brings prior to tips for head, within budget: the refs it does not
// reach are counted as pending and stay as they are.
func (s *Session) planOverlays(ctx context.Context, head string, tips []RefTip, prior []index.RefState, budget *readBudget) (*overlayPlan, error) {
	objs := OpenObjects(s.Repo)
	defer objs.Close()
	// The trunks' first-parent walks (anchors) read commits after the
	// merge-base walk saved the cache: kept too, or every switch reads
	// them again.
	defer func() { objs.commits.Save() }()
	if budget.store != nil { // not verify's rebuild, which diffs everything itself
		objs.diffs = gitcache.NewDiffs(s.Repo.CanonDir(), s.diffCacheScope())
		defer func() { objs.diffs.Save() }()
	}
	plan := &overlayPlan{head: head}
	jobs, gone, err := s.overlayJobs(ctx, objs, plan, tips, prior)
	if err != nil {
		return nil, err
	}
	plan.gone = gone
	groups := trunkGroups(jobs)
	if len(jobs) > 1 {
		// started by the first diff wanted: after a commit none is
		objs.newAhead = func() *diffAhead { return newDiffAhead(s.Repo, s.rootFilter()) }
		defer func() { objs.ahead.close() }()
		for _, j := range jobs {
			if groups[j] == nil && j.skip == "" && j.base != "" && !(j.old != nil && j.old.Base == j.base && (j.old.OID == j.tip.OID || !j.old.Summarised && j.old.Skip == "")) {
				objs.wantDiff(j.base, j.tip.OID) // overlayRef's diff from the merge base
			}
		}
	}
	first := true
	for _, j := range jobs {
		if j.skip != "" {
			plan.ups = append(plan.ups, index.RefUpdate{Replace: true, State: index.RefState{Name: j.tip.Name, OID: j.tip.OID,
				BaseHead: head, Skip: j.skip, Updated: time.Now().UnixNano()}})
			continue
		}
		if j.old != nil && j.old.Base == j.base && j.old.OID == j.tip.OID {
			plan.stand = append(plan.stand, j.tip.Name) // only HEAD moved, and not the merge base: the rows stand
			continue
		}
		if ctx.Err() != nil || !first && budget.spent() {
			plan.pending++ // what was finished is kept; the next call goes on
			continue
		}
		first = false
		u, err := s.overlayJob(ctx, objs, head, j, groups[j], budget)
		if err != nil && ctx.Err() != nil {
			plan.pending++ // stopped (a deadline, Ctrl-C) in the middle of this ref
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("overlay of %s: %w", j.tip.Name, err)
		}
		plan.ups = append(plan.ups, u)
	}
	plan.blobs = budget.fresh
	return plan, nil
}

// overlayJob is one ref the refs table does not reflect for HEAD.
type overlayJob struct {
	tip  RefTip
	old  *index.RefState
	ci   gitfile.Commit
	skip string // the tip is no commit
	base string
}

// overlayJobs lists the refs that are behind, each with its merge base
// with head (standing where HEAD only grew, else from one walk for all),
// and the names of the refs that went.
func (s *Session) overlayJobs(ctx context.Context, objs *Objects, plan *overlayPlan, tips []RefTip, prior []index.RefState) ([]*overlayJob, []string, error) {
	head := plan.head
	was := map[string]index.RefState{}
	for _, p := range prior {
		was[p.Name] = p
	}
	var jobs, walk []*overlayJob
	grew := map[string]bool{} // by the HEAD a row's base was found for: whether HEAD only grew since
	// A long grewFrom walk (HEAD moved to another line) reads the
	// commits the merge-base walks kept; a short one (a commit) does not
	// load them.
	objs.loadCommits = func() *gitcache.Commits {
		return gitcache.LoadCommits(s.Repo.CanonDir(), gitcache.CommitsFile, history.Budget)
	}
	for _, t := range tips {
		p, ok := was[t.Name]
		delete(was, t.Name)
		if ok && p.OID == t.OID && p.BaseHead == head {
			continue
		}
		j := &overlayJob{tip: t}
		jobs = append(jobs, j)
		if ok {
			j.old = &p
		}
		if ok && p.OID == t.OID && (p.Skip == "" || p.Summarised) {
			// The tip stands: its author and time are the row's, and
			// only its merge base may have moved with HEAD.
			j.ci = gitfile.Commit{Author: p.Author, When: p.Committed}
			g, seen := grew[p.BaseHead]
			if !seen && p.BaseHead != "" {
				var n int
				g, n = objs.grewFrom(head, p.BaseHead)
				grew[p.BaseHead] = g
				plan.grewBy = max(plan.grewBy, n)
			}
			if g && p.Base != p.BaseHead {
				j.base = p.Base
				continue
			}
			walk = append(walk, j)
			continue
		}
		var err error
		if j.ci, j.skip, err = tipCommit(objs, t); err != nil {
			return nil, nil, err
		}
		if j.skip == "" {
			walk = append(walk, j)
		}
	}
	oids := make([]string, len(walk))
	for i, j := range walk {
		oids[i] = j.tip.OID
	}
	s.walked += len(walk)
	plan.walked = len(walk)
	bases, skips, err := s.mergeBases(ctx, objs, head, oids)
	if err != nil {
		return nil, nil, err
	}
	for i, j := range walk {
		j.base, j.skip = bases[i], skips[i]
	}
	var gone []string
	for name := range was {
		gone = append(gone, name)
	}
	sort.Strings(gone)
	return jobs, gone, nil
}

// tipCommit reads a ref's commit; skip says why the ref is not followed
// when it points at no commit (a hostile server's ref at a blob, a tree
// or a tag, or at an object this clone lacks).
func tipCommit(objs *Objects, t RefTip) (gitfile.Commit, string, error) {
	ci, err := objs.commit(plumbing.NewHash(t.OID))
	switch {
	case errors.Is(err, errNotCommit):
		what := strings.TrimSuffix(strings.TrimPrefix(err.Error(), short(t.OID)+" is "), ": "+errNotCommit.Error())
		return ci, "points at " + what + ", not a commit", nil
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return ci, "points at " + short(t.OID) + ", which this clone does not have", nil
	case err != nil:
		return ci, "", fmt.Errorf("overlay of %s: read commit %s: %w", t.Name, short(t.OID), err)
	}
	return ci, "", nil
}

// overlayJob brings one job's ref up to date: through its group's trunk
// where it has one (overlay_trunk.go), else alone.
func (s *Session) overlayJob(ctx context.Context, objs *Objects, head string, j *overlayJob, g *trunkGroup, budget *readBudget) (index.RefUpdate, error) {
	if g != nil && !g.built {
		if err := s.buildTrunk(ctx, objs, g, budget); err != nil {
			return index.RefUpdate{}, err
		}
	}
	if g != nil && g.tr != nil {
		u, ok, err := s.trunkRef(ctx, objs, head, j, g.tr, budget)
		if err != nil || ok {
			return u, err
		}
	}
	return s.overlayRef(ctx, objs, head, j.tip, j.ci, j.base, j.old, budget)
}

// overlayRef brings one ref's overlay up to date for its merge base with
// head; old is its row, nil for a ref seen for the first time (or an
// overlay rebuilt from nothing).
func (s *Session) overlayRef(ctx context.Context, objs *Objects, head string, t RefTip, ci gitfile.Commit, base string, old *index.RefState, budget *readBudget) (index.RefUpdate, error) {
	u := index.RefUpdate{State: index.RefState{Name: t.Name, OID: t.OID, Base: base, BaseHead: head,
		Author: ci.Author, Committed: ci.When, Updated: time.Now().UnixNano()}}
	if old != nil && old.Base == base && !old.Summarised && old.Skip == "" {
		// its trunk's rows stand (a step writes rows of its own over them)
		u.State.Trunk, u.State.Seq, u.State.TrunkCommit, u.State.TrunkAuthor = old.Trunk, old.Seq, old.TrunkCommit, old.TrunkAuthor
		ok, err := s.overlayStep(ctx, objs, old, &u, ci.Author, budget)
		if err != nil || ok {
			return u, err
		}
	}
	u.Replace = true
	u.State.Trunk, u.State.Seq, u.State.TrunkCommit, u.State.TrunkAuthor = 0, 0, "", ""
	changes, err := s.overlayDiff(objs, base, t.OID)
	if err != nil {
		return index.RefUpdate{}, err
	}
	u.State.Changed = len(changes)
	if len(changes) > s.loadLimit() {
		u.State.Summarised = true
		return u, nil
	}
	blobs := changedBlobs(changes)
	if err := budget.preload(ctx, blobs); err != nil {
		return index.RefUpdate{}, err
	}
	if over, err := s.overRefBytes(objs, budget, blobs); err != nil || over != "" {
		u.State.Summarised, u.State.Skip = over != "", over
		return u, err
	}
	var y yamlSum
	for _, c := range changes {
		d, err := loadRefDoc(s, objs, c, c.From, budget)
		if err != nil {
			return index.RefUpdate{}, err
		}
		if y.add(d) {
			u.Upserts, u.State.Summarised, u.State.Skip = nil, true, tooMuchYAML
			return u, nil
		}
		d.Commit, d.Author = t.OID, ci.Author
		u.Upserts = append(u.Upserts, d)
	}
	return u, ctx.Err()
}

// overRefBytes says why a ref's documents are not read when the blobs
// they are (each once, those under max_file_size: the others are not
// read) hold more than OverlayRefBytes; "" when they do not.
func (s *Session) overRefBytes(objs *Objects, budget *readBudget, blobs []string) (string, error) {
	seen := map[string]bool{}
	var total int64
	for _, b := range blobs {
		if b == "" || seen[b] {
			continue
		}
		seen[b] = true
		n, err := budget.size(objs, b)
		if err != nil {
			return "", fmt.Errorf("read blob %s: %w", short(b), err)
		}
		if s.Loader.OverSizeCap(n) == "" {
			total += n
		}
	}
	if total > s.refBytes() {
		return fmt.Sprintf("changes documents that hold %s, more than the %s canon reads of one ref", human.Bytes(total), human.Bytes(s.refBytes())), nil
	}
	return "", nil
}

// overlayStep moves a ref's overlay from its last commit to its new one
// with the same merge base: the diff between the two commits, each path
// compared with its blob at the merge base (the stored row's, or, for a
// path that did not differ, the old commit's). false when the ref now
// changes too many documents, or too many bytes, to load: the caller
// diffs from the merge base.
func (s *Session) overlayStep(ctx context.Context, objs *Objects, old *index.RefState, u *index.RefUpdate, author string, budget *readBudget) (bool, error) {
	changes, err := s.overlayDiff(objs, old.OID, u.State.OID)
	if err != nil {
		return false, err
	}
	rows, err := s.Store.RefDocs(ctx, old.Name)
	if err != nil {
		return false, err
	}
	after := make(map[string]string, len(rows)) // path → blob, once the step is taken
	for p, r := range rows {
		after[p] = r.OID
	}
	type step struct {
		c       TreeChange
		baseOID string
	}
	var steps []step
	for _, c := range changes {
		baseOID := c.From
		row, had := rows[c.Path]
		if had {
			baseOID = row.BaseOID
		}
		if c.To == baseOID {
			if had {
				u.Drops = append(u.Drops, c.Path)
				delete(after, c.Path)
			}
			continue
		}
		after[c.Path] = c.To
		steps = append(steps, step{c, baseOID})
	}
	if len(after) > s.loadLimit() {
		u.Drops = nil
		return false, nil
	}
	blobs := make([]string, 0, len(after))
	for _, b := range after {
		blobs = append(blobs, b)
	}
	if err := budget.preload(ctx, blobs); err != nil {
		return false, err
	}
	if over, err := s.overRefBytes(objs, budget, blobs); err != nil || over != "" {
		u.Drops = nil
		return false, err
	}
	var y yamlSum
	stepped := map[string]bool{}
	for _, st := range steps {
		stepped[st.c.Path] = true
	}
	for p, r := range rows { // the rows the step keeps
		if _, ok := after[p]; ok && !stepped[p] {
			y.add(r)
		}
	}
	for _, st := range steps {
		d, err := loadRefDoc(s, objs, st.c, st.baseOID, budget)
		if err != nil {
			return false, err
		}
		if y.add(d) {
			u.Upserts, u.Drops = nil, nil
			return false, nil // the diff from the merge base summarises it
		}
		d.Commit, d.Author = u.State.OID, author
		u.Upserts = append(u.Upserts, d)
	}
	u.State.Changed = len(after)
	return true, ctx.Err()
}

// overlayDiff lists the documents that differ between two commits (from
// "": the empty tree), with no limit on the trees read: only refs that
// moved get here.
func (s *Session) overlayDiff(objs *Objects, from, to string) ([]TreeChange, error) {
	changes, err := s.overlayDiffOf(objs, from, to)
	if err != nil {
		return nil, err
	}
	return s.besideRef(objs, from, to, changes)
}

func (s *Session) overlayDiffOf(objs *Objects, from, to string) ([]TreeChange, error) {
	if changes, ok := keptDiff(objs.diffs, from, to); ok {
		return filtered(changes, s.filter()), nil // both commits were read when it was kept
	}
	a, err := objs.CommitTree(from)
	if err != nil {
		return nil, err
	}
	b, err := objs.CommitTree(to)
	if err != nil {
		return nil, err
	}
	if d := objs.ahead.take(from, to); d != nil && d.err == nil {
		keepDiff(objs.diffs, from, to, d.changes)
		return filtered(d.changes, s.filter()), nil
	}
	objs.MaxTrees = 0
	if objs.diffs == nil {
		return objs.DiffTrees(a, b, s.filter())
	}
	changes, err := objs.DiffTrees(a, b, s.rootFilter())
	if err != nil {
		return nil, err
	}
	keepDiff(objs.diffs, from, to, changes)
	return filtered(changes, s.filter()), nil
}

// keptDiff is the diff from → to that d keeps (false when d is nil or
// keeps none), and keepDiff keeps one: gitcache.Change is TreeChange's
// twin, converted one for one.
func keptDiff(d *gitcache.Diffs, from, to string) ([]TreeChange, bool) {
	kept, ok := d.Get(from, to)
	if !ok {
		return nil, false
	}
	changes := make([]TreeChange, len(kept))
	for i, c := range kept {
		changes[i] = TreeChange(c)
	}
	return changes, true
}

func keepDiff(d *gitcache.Diffs, from, to string, changes []TreeChange) {
	if d == nil {
		return
	}
	kept := make([]gitcache.Change, len(changes))
	for i, c := range changes {
		kept[i] = gitcache.Change(c)
	}
	d.Put(from, to, kept)
}

// rootFilter is the part of the filter that holds for any working tree:
// Markdown files in the configured roots (the ignore rules are the
// working tree's). It keeps no state, so the ahead worker uses it too.
func (s *Session) rootFilter() Filter {
	return Filter{Dir: s.dirInRoots, File: func(p string) bool {
		return (scan.IsMarkdown(p) || scan.IsSidecar(s.Cfg, p)) && s.Scope.InRoots(p)
	}}
}

// wantDiff tells the ahead worker of a diff the call will ask for, unless
// it is kept.
func (o *Objects) wantDiff(from, to string) {
	if o.newAhead == nil || o.diffs.Has(from, to) {
		return
	}
	if o.ahead == nil {
		o.ahead = o.newAhead()
	}
	o.ahead.want(from, to)
}

// Overlay brings the overlays up to date and reads what the followed refs
// change against the indexed HEAD (ref or path "" for all): what canon
// ready, blocked, branches and show --branches answer from.
func (s *Session) Overlay(ctx context.Context, ref, path string) ([]index.OverlayDoc, *OverlayStatus, error) {
	st, err := s.Overlays(ctx)
	if err != nil {
		return nil, nil, err
	}
	over, err := s.Store.Overlay(ctx, ref, path)
	return over, st, err
}

// OverlayOfHere brings the overlays up to date and reads what the followed
// refs do with the indexed HEAD's documents (index.Store.OverlayOfHere):
// what claims are made of, for canon ready, blocked and MCP claims.
func (s *Session) OverlayOfHere(ctx context.Context) ([]index.OverlayDoc, *OverlayStatus, error) {
	st, err := s.Overlays(ctx)
	if err != nil {
		return nil, nil, err
	}
	over, err := s.Store.OverlayOfHere(ctx)
	return over, st, err
}

// verifyOverlays compares the maintained overlays with overlays computed
// from nothing for the same refs and HEAD: DumpRefs's lines that differ,
// "- " maintained and "+ " rebuilt, and how many lines were compared. The
// caller holds the writer lock, and brought the overlays up to date
// before taking it.
func (s *Session) verifyOverlays(ctx context.Context) ([]string, int, error) {
	live, err := s.Store.DumpRefs(ctx)
	if err != nil {
		return nil, 0, err
	}
	head, err := s.Store.Meta(index.MetaHead)
	if err != nil {
		return nil, 0, err
	}
	var rebuilt []string
	if s.Repo.ObjectFormat() == "sha1" {
		tips, _, _, err := s.Repo.FollowedRefs(s.Cfg.Branches, nil)
		if err == nil {
			plan, err := s.planOverlays(ctx, head, tips, nil, newReadBudget(0, 0))
			if err != nil {
				return nil, 0, err
			}
			for _, u := range plan.ups {
				rebuilt = append(rebuilt, index.RefLine(u.State))
				for _, d := range u.Rows() {
					rebuilt = append(rebuilt, index.RefDocLine(d))
				}
			}
		}
	}
	sort.Strings(live)
	sort.Strings(rebuilt)
	return index.DiffDumps(live, rebuilt), len(live), nil
}
