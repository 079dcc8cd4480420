package workset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canon-md/canon/index/safepath"

	"github.com/canon-md/canon/index"
)

// Manifest keys.
const (
	mName      = "name"
	mCreated   = "created_at"
	mBuilt     = "built_at"
	mExpires   = "expires_at"
	mTTL       = "ttl"
	mAgent     = "agent"
	mHead      = "head"
	mSpec      = "spec"
	mSettings  = "settings"
	mPlanHash  = "plan_hash"
	mSchema    = "index_schema"
	mIndexPath = "built_from"
	// mOwnWrites are the blob ids of the documents this workset's
	// promotes wrote, one a line: its own changes, which do not make it
	// stale (ownwrites.go).
	mOwnWrites = "promoted_blobs"
)

// handle is one open workset.
type handle struct {
	name string
	dir  string
	root string // the repository's root folder
	st   *index.Slice
}

// openHandle opens the database of an existing workset. A database whose
// index schema had to be migrated lost its rows: it is marked stale, so a
// refresh rebuilds it.
func openHandle(ctx context.Context, root, name string) (*handle, error) {
	dir, err := existing(root, name)
	if err != nil {
		return nil, err
	}
	st, migrated, err := index.OpenSlice(ctx, filepath.Join(dir, DBFile))
	var foreign *index.ForeignSchemaError
	if errors.As(err, &foreign) {
		// Not canon's (ADR-0032): say which file and how to be rid of it;
		// canon workset rm would have to open it.
		rel := *foreign
		rel.Path = filepath.Join(Dir, name, DBFile)
		return nil, fmt.Errorf("workset %s: %w; remove the workset by hand (rm -r %s) and create it again", name, &rel, filepath.Join(Dir, name))
	}
	if err != nil {
		return nil, fmt.Errorf("open workset %s: %w", name, err)
	}
	h := &handle{name: name, dir: dir, root: root, st: st}
	if migrated {
		err := h.markStale(ctx, []StaleReason{{How: HowSchema, Sync: SyncCheck, At: Now().UTC()}})
		if err != nil {
			st.Close()
			return nil, err
		}
	}
	return h, nil
}

func (h *handle) close() error { return h.st.Close() }

// manifest reads every manifest key.
func (h *handle) manifest(ctx context.Context) (map[string]string, error) {
	return h.st.Manifest(ctx)
}

// sliceMembers turns members into the records the workset's database
// keeps of them.
func sliceMembers(ms []Member) []index.SliceMember {
	out := make([]index.SliceMember, len(ms))
	for i, m := range ms {
		out[i] = sliceMember(m)
	}
	return out
}

func sliceMember(m Member) index.SliceMember {
	sm := index.SliceMember{DocRef: m.DocRef, OID: m.OID, Seed: m.Seed, Source: m.Source, Distance: m.Distance,
		Matched: m.Matched, AddedAt: m.AddedAt, AddedBy: m.AddedBy}
	if m.Via != nil {
		sm.ViaFrom, sm.ViaID, sm.ViaEdge, sm.ViaDir = m.Via.From, m.Via.FromID, m.Via.Edge, m.Via.Direction
	}
	return sm
}

// memberOf is a member as its record in the workset's database says.
func memberOf(sm index.SliceMember) Member {
	m := Member{DocRef: sm.DocRef, OID: sm.OID, Seed: sm.Seed, Source: sm.Source, Distance: sm.Distance,
		Matched: sm.Matched, AddedAt: sm.AddedAt, AddedBy: sm.AddedBy}
	if sm.ViaFrom != "" {
		m.Via = &Via{From: sm.ViaFrom, FromID: sm.ViaID, Edge: sm.ViaEdge, Direction: sm.ViaDir}
	}
	return m
}

// writeKeys writes members.keys atomically: the union of the key lists,
// sorted.
func writeKeys(dir string, lists ...[]string) error {
	set := map[string]bool{}
	for _, l := range lists {
		for _, k := range l {
			set[k] = true
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('\n')
	}
	if err := safepath.WriteFile(filepath.Join(dir, KeysFile), []byte(b.String()), 0o644, dir); err != nil {
		return fmt.Errorf("write %s: %w", KeysFile, err)
	}
	return nil
}

// readOwn reads a file of a workset's folder (plan.md, notes.md,
// deliverable.md, members.keys) as canon reads every file of a
// repository: a regular file inside it, at most safepath.WorksetLimit. A
// repository can ship a workset whose plan.md is a link to
// /proc/self/environ, or whose members.keys is one to /dev/zero.
func readOwn(root, dir, file string) ([]byte, error) {
	return safepath.ReadFile(filepath.Join(dir, file), safepath.WorksetLimit, root)
}

// ReadFile reads the file named file (plan.md, notes.md) of the workset
// name, as readOwn does, unless git tracks the workset (foreign.go).
func ReadFile(ctx context.Context, e *Env, name, file string) ([]byte, error) {
	if err := e.refuseForeign(ctx, name); err != nil {
		return nil, err
	}
	root := e.Root
	dir, err := Folder(root, name)
	if err != nil {
		return nil, err
	}
	return readOwn(root, dir, file)
}

// readKeys reads members.keys; ok is false when it cannot be read (the
// caller then asks the database).
func readKeys(root, dir string) (map[string]bool, bool) {
	data, err := readOwn(root, dir, KeysFile)
	if err != nil {
		return nil, false
	}
	out := map[string]bool{}
	for _, k := range strings.Split(string(data), "\n") {
		if k != "" {
			out[k] = true
		}
	}
	return out, true
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

func itoa(n int) string { return strconv.Itoa(n) }
