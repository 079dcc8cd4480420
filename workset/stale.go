package workset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/markdown"
)

// How a member changed.
const (
	HowModified = "modified" // its content changed
	HowDeleted  = "deleted"  // it is gone (or no longer has this key)
	HowRenamed  = "renamed"  // same content, new path (Detail)
	HowLinks    = "links"    // its outgoing edges (or its key) changed, not its content
	HowSchema   = "schema"   // canon's index schema changed: the rows must be copied again
)

// Which kind of sync noticed the change. The first three are gitsync's
// actions; check is a workset command comparing its members with the index.
const (
	SyncDiff      = "diff"      // a commit diff (hooks, catching up with HEAD)
	SyncReconcile = "reconcile" // the working tree (canon sync, canon index)
	SyncRebuild   = "rebuild"   // a full build: members compared by content
	SyncCheck     = "check"     // found by a workset command comparing content
)

// StaleReason says which member changed, how, and in which sync.
type StaleReason struct {
	Key    string    `json:"key"`
	ID     string    `json:"id"` // display id
	Path   string    `json:"path"`
	How    string    `json:"how"`              // modified, deleted, renamed, links, schema
	Detail string    `json:"detail,omitempty"` // renamed: the new path
	Sync   string    `json:"sync"`             // diff, reconcile, rebuild, check
	From   string    `json:"from,omitempty"`   // the commit the sync came from
	Commit string    `json:"commit"`           // the commit the index reflects after it
	At     time.Time `json:"at"`
}

// String says it in one line: "KB-TSK-0007 modified in commit 1a2b3c4d5e".
func (r StaleReason) String() string {
	if r.How == HowSchema {
		return "canon's index schema changed since it was built: refresh it to copy its documents again"
	}
	what := r.ID
	switch r.How {
	case HowRenamed:
		what += " renamed to " + r.Detail
	case HowLinks:
		what += " changed its links"
	default:
		what += " " + r.How
	}
	at := short(r.Commit)
	switch r.Sync {
	case SyncDiff:
		return what + " in commit " + at
	case SyncReconcile:
		return what + " in the working tree (HEAD " + at + ")"
	case SyncRebuild:
		return what + " (found by a full index build at " + at + ")"
	default:
		return what + " (found comparing with the index at " + at + ")"
	}
}

func short(h string) string {
	if h == "" {
		return "no commit"
	}
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// Now is the clock worksets use: the time, or CANON_NOW when it is set (an
// RFC 3339 time; tests and demos fix the clock with it). See ParseNow.
func Now() time.Time {
	t, err := ParseNow()
	if err != nil {
		return time.Now()
	}
	return t
}

// ParseNow reads CANON_NOW, or returns the time when it is not set.
func ParseNow() (time.Time, error) {
	v := os.Getenv("CANON_NOW")
	if v == "" {
		return time.Now(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("CANON_NOW=%q is not an RFC 3339 time such as 2025-03-01T12:00:00Z", v)
	}
	return t, nil
}

// Sync is what one sync of the repository's index tells the worksets.
type Sync struct {
	Action  string         // diff, reconcile or rebuild (gitsync's actions); anything else does nothing
	From    string         // the commit the index reflected before
	To      string         // the commit it reflects now
	Changes *index.Changes // what changed; nil after a full build
	Who     string         // names this process in lock messages
	// Tracked asks git which files it tracks under a folder: a workset
	// git tracks is not opened (foreign.go). nil: not asked (tests).
	Tracked Tracked
}

// Marked is a workset that a sync made stale, with the new reasons.
type Marked struct {
	Workset string        `json:"workset"`
	Reasons []StaleReason `json:"reasons"`
	// Already says the workset was stale before this sync: a person was
	// told then (TellWorksets says it once, until refresh).
	Already bool `json:"already_stale"`
}

// String says it for a person, on one line.
func (m Marked) String() string {
	var parts []string
	for i, r := range m.Reasons {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(m.Reasons)-i))
			break
		}
		parts = append(parts, r.String())
	}
	return fmt.Sprintf("workset %s is stale: %s; canon workset refresh %s rebuilds it", m.Workset, strings.Join(parts, "; "), m.Workset)
}

// Invalidate marks stale every workset holding a document the sync
// changed, with the reason. A diff or reconcile names its changed node
// keys (Changes.Keys): a workset holding none of them stays fresh. After a
// full build, which names none, each member is compared with the index by
// path and blob id. Without worksets it costs one directory read.
func Invalidate(ctx context.Context, root string, idx *index.Store, s Sync) ([]Marked, error) {
	switch s.Action {
	case SyncDiff, SyncReconcile:
		if s.Changes == nil || len(s.Changes.Keys) == 0 {
			return nil, nil
		}
	case SyncRebuild:
	default:
		return nil, nil
	}
	ns, err := names(root)
	if err != nil || len(ns) == 0 {
		return nil, err
	}
	var out []Marked
	var errs []error
	guard := &foreignGuard{tracked: s.Tracked}
	for _, n := range ns {
		dir, err := existing(root, n)
		if err != nil {
			continue
		}
		if s.Changes != nil {
			// members.keys answers "can this workset be affected" without
			// opening its database, which costs about a millisecond.
			if keys, ok := readKeys(root, dir); ok && !anyIn(s.Changes.Keys, keys) {
				continue
			}
		}
		if guard.check(ctx, n) != nil {
			continue // foreign (the workset commands say so), or git cannot tell: not opened
		}
		reasons, already, err := invalidateOne(ctx, root, n, idx, s)
		if err != nil {
			errs = append(errs, fmt.Errorf("workset %s: %w", n, err))
			continue
		}
		if len(reasons) > 0 {
			out = append(out, Marked{Workset: n, Reasons: reasons, Already: already})
		}
	}
	return out, errors.Join(errs...)
}

func anyIn(keys []string, set map[string]bool) bool {
	for _, k := range keys {
		if set[k] {
			return true
		}
	}
	return false
}

func invalidateOne(ctx context.Context, root, name string, idx *index.Store, s Sync) (reasons []StaleReason, already bool, err error) {
	h, ms, err := openMembers(ctx, root, name)
	if err != nil {
		return nil, false, err
	}
	defer h.close()
	now := Now().UTC()
	if s.Changes == nil {
		if reasons, err = compare(ctx, ms, idx, nil); err != nil {
			return nil, false, err
		}
	} else {
		changed := make(map[string]bool, len(s.Changes.Keys))
		for _, k := range s.Changes.Keys {
			changed[k] = true
		}
		how := changeKinds(s.Changes)
		for _, mb := range ms {
			if !changed[mb.Key] {
				continue
			}
			r := StaleReason{Key: mb.Key, ID: mb.ID, Path: mb.Path, How: HowLinks}
			if c, ok := how[mb.Path]; ok {
				r.How, r.Detail = c[0], c[1]
			} else if r.How, r.Detail, err = howNow(ctx, idx, mb.Key, how); err != nil {
				return nil, false, err
			}
			reasons = append(reasons, r)
		}
	}
	if reasons, err = notOwn(ctx, h, idx, reasons); err != nil {
		return nil, false, err
	}
	for i := range reasons {
		reasons[i].Sync, reasons[i].From, reasons[i].Commit, reasons[i].At = s.Action, s.From, s.To, now
	}
	if len(reasons) == 0 {
		return nil, false, nil
	}
	unlock, err := h.st.Lock(ctx, s.Who, 10*time.Second)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	if prev, err := h.staleReasons(ctx); err == nil && len(prev) > 0 {
		already = true
	}
	return reasons, already, h.markStale(ctx, reasons)
}

// howNow says how a member changed when the change does not name the path
// it was copied from (an earlier change moved it): by where the index holds
// its key now.
func howNow(ctx context.Context, idx *index.Store, key string, how map[string][2]string) (string, string, error) {
	files, err := idx.FilesOfKeys(ctx, []string{key})
	if err != nil {
		return "", "", err
	}
	path := files[0].Path
	if path == "" {
		return HowDeleted, "", nil
	}
	if c, ok := how[path]; ok && c[0] != HowDeleted {
		return c[0], c[1], nil
	}
	for _, c := range how {
		if c[0] == HowRenamed && c[1] == path {
			return HowRenamed, path, nil
		}
	}
	return HowLinks, "", nil
}

// changeKinds maps the paths of a change to how they changed.
func changeKinds(ch *index.Changes) map[string][2]string {
	out := map[string][2]string{}
	for _, p := range ch.Added {
		out[p] = [2]string{HowModified, ""}
	}
	for _, p := range ch.Modified {
		out[p] = [2]string{HowModified, ""}
	}
	for _, r := range ch.Renamed {
		out[r[0]] = [2]string{HowRenamed, r[1]}
	}
	for _, p := range ch.Deleted {
		out[p] = [2]string{HowDeleted, ""}
	}
	return out
}

// compare finds the members whose document the index holds differently:
// another blob, another path, or none under the key. skip names members
// already known to be stale.
func compare(ctx context.Context, ms []Member, idx *index.Store, skip map[string]bool) ([]StaleReason, error) {
	keys := make([]string, 0, len(ms))
	for _, mb := range ms {
		if !skip[mb.Key] {
			keys = append(keys, mb.Key)
		}
	}
	files, err := idx.FilesOfKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	var out []StaleReason
	next := 0 // files[next] is the next member's
	for _, mb := range ms {
		if skip[mb.Key] {
			continue
		}
		f := files[next]
		next++
		r := StaleReason{Key: mb.Key, ID: mb.ID, Path: mb.Path}
		switch {
		case f.Path == "":
			r.How = HowDeleted
		case f.OID != mb.OID:
			r.How = HowModified
		case f.Path != mb.Path:
			r.How, r.Detail = HowRenamed, f.Path
		default:
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// catchDrift is the safety net of the read commands: members whose content
// the index holds differently, and that no sync reported, are marked stale
// now ("check"). A sync whose changed keys were not handed over (a process
// killed between the sync and the invalidation, an older canon) cannot
// leave a workset looking fresh.
func (h *handle) catchDrift(ctx context.Context, e *Env) error {
	ms, err := h.members(ctx)
	if err != nil {
		return err
	}
	known, err := h.staleReasons(ctx)
	if err != nil {
		return err
	}
	skip := map[string]bool{}
	for _, r := range known {
		skip[r.Key] = true
	}
	reasons, err := compare(ctx, ms, e.Index, skip)
	if err != nil {
		return err
	}
	if reasons, err = notOwn(ctx, h, e.Index, reasons); err != nil || len(reasons) == 0 {
		return err
	}
	now := e.Now.UTC()
	for i := range reasons {
		reasons[i].Sync, reasons[i].Commit, reasons[i].At = SyncCheck, e.Head, now
	}
	unlock, err := h.st.Lock(ctx, e.Who, 10*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	return h.markStale(ctx, reasons)
}

// markStale records reasons, once each.
func (h *handle) markStale(ctx context.Context, reasons []StaleReason) error {
	recs := make([]index.SliceStale, len(reasons))
	for i, r := range reasons {
		recs[i] = index.SliceStale{Key: r.Key, Path: r.Path, How: r.How, Detail: r.Detail, Sync: r.Sync,
			From: r.From, To: r.Commit, At: r.At}
	}
	if err := h.st.AddStale(ctx, recs); err != nil {
		return fmt.Errorf("mark workset %s stale: %w", h.name, err)
	}
	return nil
}

// staleReasons reads the recorded reasons, oldest first.
func (h *handle) staleReasons(ctx context.Context) ([]StaleReason, error) {
	recs, err := h.st.Stale(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]StaleReason, len(recs))
	for i, s := range recs {
		r := StaleReason{Key: s.Key, ID: s.Ident, Path: s.Path, How: s.How, Detail: s.Detail, Sync: s.Sync,
			From: s.From, Commit: s.To, At: s.At}
		if r.ID == "" && r.Path != "" {
			r.ID = markdown.DisplayStem(r.Path)
		}
		out[i] = r
	}
	return out, nil
}
