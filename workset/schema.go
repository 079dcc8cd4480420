package workset

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canon-md/canon/index/safepath"

	"github.com/canon-md/canon/index"
)

// The workset's own tables, next to the index's (see index/schema.go).
// They are not content tables, so an index schema migration keeps them.
const worksetDDL = `
CREATE TABLE IF NOT EXISTS workset_manifest (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workset_members (
	key      TEXT PRIMARY KEY,      -- node key
	pos      INTEGER NOT NULL,      -- order of selection: seeds first, as given
	path     TEXT NOT NULL,         -- repo-relative, when copied
	oid      TEXT NOT NULL,         -- blob id when copied: what staleness and promote compare
	seed     INTEGER NOT NULL,      -- 1 for a seed
	source   TEXT NOT NULL,         -- given, search, anchor (seeds); neighbour; enrich
	distance INTEGER NOT NULL,      -- hops from the seeds
	via_from TEXT NOT NULL,         -- node key of the member it was reached from ('' for a seed)
	via_id   TEXT NOT NULL,         -- its display id
	via_edge TEXT NOT NULL,         -- edge type
	via_dir  TEXT NOT NULL,         -- out: via_from -> this; in: this -> via_from
	matched  TEXT NOT NULL,         -- search terms that matched, JSON list
	added_at TEXT NOT NULL,         -- RFC 3339
	added_by TEXT NOT NULL          -- build, or the query of an enriching search
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workset_stale (
	seq         INTEGER PRIMARY KEY,
	key         TEXT NOT NULL,      -- the member that changed
	path        TEXT NOT NULL,
	how         TEXT NOT NULL,      -- modified, deleted, renamed, links, schema
	detail      TEXT NOT NULL,      -- renamed: the new path
	sync        TEXT NOT NULL,      -- diff, reconcile, rebuild, check
	from_commit TEXT NOT NULL,
	to_commit   TEXT NOT NULL,
	at          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS workset_promoted (
	hash        TEXT PRIMARY KEY,   -- Finding.Hash
	target      TEXT NOT NULL,      -- as written in notes.md
	kind        TEXT NOT NULL,
	text        TEXT NOT NULL,
	dest_key    TEXT NOT NULL,      -- the document it went into
	dest_path   TEXT NOT NULL,
	promoted_at TEXT NOT NULL,      -- RFC 3339
	agent       TEXT NOT NULL
) WITHOUT ROWID;
`

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
)

// handle is one open workset.
type handle struct {
	name string
	dir  string
	st   *index.Store
}

// openHandle opens the database of an existing workset. A database whose
// index schema had to be migrated lost its rows: it is marked stale, so a
// refresh rebuilds it.
func openHandle(ctx context.Context, root, name string) (*handle, error) {
	dir, err := existing(root, name)
	if err != nil {
		return nil, err
	}
	st, migrated, err := index.Open(filepath.Join(dir, DBFile))
	if err != nil {
		return nil, fmt.Errorf("open workset %s: %w", name, err)
	}
	h := &handle{name: name, dir: dir, st: st}
	if _, err := st.DB().ExecContext(ctx, worksetDDL); err != nil {
		st.Close()
		return nil, fmt.Errorf("open workset %s: %w", name, err)
	}
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

func (h *handle) db() *sql.DB { return h.st.DB() }

// manifest reads every manifest key.
func (h *handle) manifest(ctx context.Context) (map[string]string, error) {
	rows, err := h.db().QueryContext(ctx, `SELECT key, value FROM workset_manifest`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func setManifest(ctx context.Context, x execer, kv map[string]string) error {
	for k, v := range kv {
		if _, err := x.ExecContext(ctx, `INSERT INTO workset_manifest(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
			return fmt.Errorf("write workset manifest: %w", err)
		}
	}
	return nil
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

// readKeys reads members.keys; ok is false when it cannot be read (the
// caller then asks the database).
func readKeys(dir string) (map[string]bool, bool) {
	data, err := os.ReadFile(filepath.Join(dir, KeysFile))
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
