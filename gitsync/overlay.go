package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/markdown"
)

// OverlayLoadLimit is how many documents a ref may change before its
// overlay is summarised (a count, nothing loaded): a stale branch whose
// diff from HEAD's history is huge. Session.overlayLimit, when set, is
// used instead (tests).
const OverlayLoadLimit = 1000

func (s *Session) loadLimit() int {
	if s.overlayLimit > 0 {
		return s.overlayLimit
	}
	return OverlayLoadLimit
}

// OverlayStatus says how fresh the overlays are: every answer that uses
// them carries it.
type OverlayStatus struct {
	Head       string    `json:"head"`              // the indexed HEAD they are compared with
	Refs       int       `json:"refs"`              // refs followed
	Updated    int       `json:"updated"`           // refs this call brought up to date
	Summarised int       `json:"summarised"`        // refs whose diff is too large to load
	LeftOut    int       `json:"left_out"`          // refs over branches.max, not followed
	CheckedAt  time.Time `json:"checked_at"`        // when the refs were last compared with the overlays
	Note       string    `json:"note,omitempty"`    // why overlays are not kept (then nothing else is said)
	Warning    string    `json:"warning,omitempty"` // what they leave out
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
	if o.Summarised > 0 {
		s += fmt.Sprintf(", %d too large to load", o.Summarised)
	}
	if o.LeftOut > 0 {
		s += fmt.Sprintf(", %d more not followed (branches.max)", o.LeftOut)
	}
	if o.Warning != "" {
		s += "; " + o.Warning
	}
	return s
}

// Overlays brings the overlays up to date with the refs (ADR-0042) and
// says how fresh they are. It reads the ref files (no objects) and
// compares them with the refs table; only refs that moved, appeared or
// went, or whose merge base the indexed HEAD may have moved, are updated,
// under the writer lock: a tree diff from the ref's last commit when its
// merge base stayed, from the merge base otherwise. Call it after the
// index caught up with HEAD (Fresh, CatchUp): overlays are compared with
// the indexed HEAD.
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
	tips, leftOut, note, err := s.Repo.FollowedRefs(s.Cfg.Branches)
	if err != nil {
		st.Note = "off: " + err.Error()
		return st, nil
	}
	st.Refs, st.LeftOut, st.Warning = len(tips), leftOut, note
	prior, err := s.Store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	if !overlayBehind(tips, prior, head) {
		st.Summarised = countSummarised(prior)
		return st, nil
	}
	s.overlayMu.Lock()
	defer s.overlayMu.Unlock()
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if prior, err = s.Store.Refs(ctx); err != nil { // another process may have done it
		return nil, err
	}
	ups, gone, err := s.overlayUpdates(ctx, head, tips, prior)
	if err != nil {
		return nil, err
	}
	if err := s.Store.ApplyRefs(ctx, ups, gone); err != nil {
		return nil, err
	}
	st.Updated = len(ups) + len(gone)
	now, err := s.Store.Refs(ctx)
	st.Summarised = countSummarised(now)
	return st, err
}

func countSummarised(refs []index.RefState) int {
	n := 0
	for _, r := range refs {
		if r.Summarised {
			n++
		}
	}
	return n
}

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

// overlayUpdates computes what brings prior to tips: the refs to write and
// the names to forget.
func (s *Session) overlayUpdates(ctx context.Context, head string, tips []RefTip, prior []index.RefState) ([]index.RefUpdate, []string, error) {
	was := map[string]index.RefState{}
	for _, p := range prior {
		was[p.Name] = p
	}
	objs := OpenObjects(s.Repo)
	defer objs.Close()
	var ups []index.RefUpdate
	for _, t := range tips {
		p, ok := was[t.Name]
		delete(was, t.Name)
		if ok && p.OID == t.OID && p.BaseHead == head {
			continue
		}
		var old *index.RefState
		if ok {
			old = &p
		}
		u, err := s.overlayRef(ctx, objs, head, t, old)
		if err != nil {
			return nil, nil, fmt.Errorf("overlay of %s: %w", t.Name, err)
		}
		ups = append(ups, u)
	}
	var gone []string
	for name := range was {
		gone = append(gone, name)
	}
	return ups, gone, nil
}

// overlayRef brings one ref's overlay up to date; old is its row, nil for a
// ref seen for the first time (or an overlay rebuilt from nothing).
func (s *Session) overlayRef(ctx context.Context, objs *Objects, head string, t RefTip, old *index.RefState) (index.RefUpdate, error) {
	ci, err := objs.commit(plumbing.NewHash(t.OID))
	if err != nil {
		return index.RefUpdate{}, fmt.Errorf("read commit %s: %w", short(t.OID), err)
	}
	// The merge base stands while neither HEAD nor the ref moved: a ref
	// that moved has another one with the same HEAD when it merged HEAD or
	// was rewound.
	base := ""
	if old != nil && old.BaseHead == head && old.OID == t.OID {
		base = old.Base
	} else if base, err = s.mergeBase(ctx, objs, head, t.OID); err != nil {
		return index.RefUpdate{}, err
	}
	u := index.RefUpdate{State: index.RefState{Name: t.Name, OID: t.OID, Base: base, BaseHead: head,
		Author: ci.author, Committed: ci.when, Updated: time.Now().UnixNano()}}
	if old != nil && old.Base == base && old.OID == t.OID {
		u.State.Changed, u.State.Summarised = old.Changed, old.Summarised
		return u, nil // only HEAD moved, and not the merge base: the rows stand
	}
	if old != nil && old.Base == base && !old.Summarised {
		ok, err := s.overlayStep(ctx, objs, old, &u, ci.author)
		if err != nil || ok {
			return u, err
		}
	}
	u.Replace = true
	from := ""
	if base != "" {
		from = base
	}
	changes, err := s.overlayDiff(objs, from, t.OID)
	if err != nil {
		return index.RefUpdate{}, err
	}
	u.State.Changed = len(changes)
	if len(changes) > s.loadLimit() {
		u.State.Summarised = true
		return u, nil
	}
	for _, c := range changes {
		d, err := loadRefDoc(s, objs, c, c.From)
		if err != nil {
			return index.RefUpdate{}, err
		}
		d.Commit, d.Author = t.OID, ci.author
		u.Upserts = append(u.Upserts, d)
	}
	return u, ctx.Err()
}

// overlayStep moves a ref's overlay from its last commit to its new one
// with the same merge base: the diff between the two commits, each path
// compared with its blob at the merge base (the stored row's, or, for a
// path that did not differ, the old commit's). false when the ref changes
// too many documents to load: the caller diffs from the merge base.
func (s *Session) overlayStep(ctx context.Context, objs *Objects, old *index.RefState, u *index.RefUpdate, author string) (bool, error) {
	changes, err := s.overlayDiff(objs, old.OID, u.State.OID)
	if err != nil {
		return false, err
	}
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	rows, err := s.Store.RefDocsAt(ctx, old.Name, paths)
	if err != nil {
		return false, err
	}
	n := old.Changed
	for _, c := range changes {
		baseOID := c.From
		row, had := rows[c.Path]
		if had {
			baseOID = row.BaseOID
		}
		if c.To == baseOID {
			if had {
				u.Drops = append(u.Drops, c.Path)
				n--
			}
			continue
		}
		if !had {
			n++
		}
		d, err := loadRefDoc(s, objs, c, baseOID)
		if err != nil {
			return false, err
		}
		d.Commit, d.Author = u.State.OID, author
		u.Upserts = append(u.Upserts, d)
	}
	if n > s.loadLimit() {
		u.Upserts, u.Drops = nil, nil
		return false, nil
	}
	u.State.Changed = n
	return true, ctx.Err()
}

// overlayDiff lists the documents that differ between two commits (from
// "": the empty tree), with no limit on the trees read: only refs that
// moved get here.
func (s *Session) overlayDiff(objs *Objects, from, to string) ([]TreeChange, error) {
	a, err := objs.CommitTree(from)
	if err != nil {
		return nil, err
	}
	b, err := objs.CommitTree(to)
	if err != nil {
		return nil, err
	}
	objs.MaxTrees = 0
	return objs.DiffTrees(a, b, s.filter())
}

// mergeBase finds the merge base of HEAD and a ref's commit: in process
// for a branch near its fork, by git merge-base (its commit-graph) for one
// far from it.
func (s *Session) mergeBase(ctx context.Context, objs *Objects, head, tip string) (string, error) {
	if head == "" {
		return "", nil // an unborn HEAD: the ref's whole tree differs
	}
	base, err := objs.mergeBase(head, tip)
	if !errors.Is(err, errBaseBudget) {
		return base, err
	}
	for _, oid := range []string{head, tip} {
		if !index.IsObjectID(oid) {
			return "", fmt.Errorf("git merge-base: %w: %q", ErrNotObjectID, oid)
		}
	}
	out, gerr := s.Repo.Git(ctx, "merge-base", "--end-of-options", head, tip)
	b := strings.TrimSpace(string(out))
	if gerr != nil && b == "" {
		return "", nil // exit 1: no common ancestor
	}
	if !index.IsObjectID(b) {
		return "", fmt.Errorf("git merge-base printed %q", b)
	}
	return b, nil
}

// loadRefDoc reads the ref's version of a changed document.
func loadRefDoc(s *Session, objs *Objects, c TreeChange, baseOID string) (index.RefDoc, error) {
	d := index.RefDoc{Path: c.Path, OID: c.To, BaseOID: baseOID, Edges: "[]"}
	switch {
	case baseOID == "":
		d.Change = index.RefAdded
	case c.To == "":
		d.Change = index.RefDeleted
		return d, nil
	default:
		d.Change = index.RefChanged
	}
	// The size first: a blob over max_file_size is not read (its row
	// says why), as the working tree's files are not.
	size, err := objs.size(plumbing.NewHash(c.To))
	if err != nil {
		return d, fmt.Errorf("read %s: %w", c.Path, err)
	}
	if d.Skip = s.Loader.OverSizeCap(size); d.Skip != "" {
		return d, nil
	}
	_, content, err := objs.raw(plumbing.NewHash(c.To))
	if err != nil {
		return d, fmt.Errorf("read %s: %w", c.Path, err)
	}
	l := s.Loader.Fields(index.FileInfo{Path: c.Path}, content)
	if l.Doc == nil {
		return d, nil
	}
	doc := l.Doc
	d.ID, d.Kind, d.Title, d.State = doc.ID, doc.Kind, doc.Title, doc.State
	d.Assignee = fieldText(doc.Frontmatter.Get("assignee"))
	var pairs [][2]string
	for _, r := range doc.Refs {
		pairs = append(pairs, [2]string{r.Type, r.Raw})
	}
	d.Edges = index.EdgesJSON(pairs)
	return d, nil
}

// fieldText is a frontmatter value as the index's json_extract gives it:
// a scalar's text, a list's or map's JSON.
func fieldText(v *markdown.Value) string {
	if v == nil || v.Kind == markdown.Null {
		return ""
	}
	if t, ok := v.Scalar(); ok {
		return t
	}
	return string(v.AppendJSON(nil))
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
		tips, _, _, err := s.Repo.FollowedRefs(s.Cfg.Branches)
		if err == nil {
			ups, _, err := s.overlayUpdates(ctx, head, tips, nil)
			if err != nil {
				return nil, 0, err
			}
			for _, u := range ups {
				rebuilt = append(rebuilt, index.RefLine(u.State))
				for _, d := range u.Upserts {
					d.Ref = u.State.Name
					rebuilt = append(rebuilt, index.RefDocLine(d))
				}
			}
		}
	}
	sort.Strings(live)
	sort.Strings(rebuilt)
	return index.DiffDumps(live, rebuilt), len(live), nil
}
