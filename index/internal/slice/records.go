package slice

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// DDL creates the workset's own tables, next to the index's. They are
// not content tables, so an index schema migration keeps them.
const DDL = `
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
	hash        TEXT PRIMARY KEY,   -- the finding's hash
	target      TEXT NOT NULL,      -- as written in notes.md
	kind        TEXT NOT NULL,
	text        TEXT NOT NULL,
	dest_key    TEXT NOT NULL,      -- the document it went into
	dest_path   TEXT NOT NULL,
	promoted_at TEXT NOT NULL,      -- RFC 3339
	agent       TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workset_checkpoints (
	seq  INTEGER PRIMARY KEY,
	at   TEXT NOT NULL,      -- RFC 3339
	head TEXT NOT NULL,      -- the commit the index reflected
	data TEXT NOT NULL       -- the checkpoint, JSON
);
`

// SliceMember is a member of a workset and how it was chosen. Key (in
// DocRef) names it on write; the rest of DocRef and OID are read from the
// copied document.
type SliceMember struct {
	sqlstore.DocRef
	OID      string // blob id of the copy
	Seed     bool
	Source   string // given, search, anchor, neighbour, enrich
	Distance int    // hops from the seeds
	// The edge it was reached by ("" for a seed): from which member (key
	// and display id), of which type, which way.
	ViaFrom, ViaID, ViaEdge, ViaDir string
	Matched                         []string // search terms that matched
	AddedAt                         time.Time
	AddedBy                         string
}

// SliceStale is one recorded reason a workset went stale.
type SliceStale struct {
	Key    string
	Ident  string // the member's id as written, when the slice still holds it (read only)
	Path   string
	How    string
	Detail string
	Sync   string
	From   string // commits
	To     string
	At     time.Time
}

// SlicePromoted records a finding promote appended to a document.
type SlicePromoted struct {
	Hash, Target, Kind, Text string
	DestKey, DestPath        string
	At                       time.Time
	Agent                    string
}

// SliceCopy says what a Copy records with the documents it copies.
type SliceCopy struct {
	// Fresh makes the copy the slice's whole content: the documents, the
	// members and the staleness records before it are dropped (a build or
	// refresh). Otherwise the copy adds to them.
	Fresh bool
	// Members are recorded in order; a key already a member keeps its
	// record.
	Members []SliceMember
	// Manifest keys are set, others kept.
	Manifest map[string]string
}

func sliceTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func parseSliceTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

// Copy copies the documents of keys from the index at srcPath (see
// CopyFrom) and records c, in one transaction.
func (sl *Records) Copy(ctx context.Context, srcPath string, keys []string, c SliceCopy) error {
	_, err := CopyFrom(ctx, sl.h, srcPath, keys, SubsetOptions{Replace: c.Fresh}, func(tx *sql.Tx) error {
		if c.Fresh {
			for _, q := range []string{`DELETE FROM workset_members`, `DELETE FROM workset_stale`} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
		}
		for _, m := range c.Members {
			if err := addMember(ctx, tx, m); err != nil {
				return err
			}
		}
		return setManifest(ctx, tx, c.Manifest)
	})
	return err
}

// addMember records a member; its path and blob id are those of the
// copied row.
func addMember(ctx context.Context, tx *sql.Tx, m SliceMember) error {
	matched := m.Matched
	if matched == nil {
		matched = []string{}
	}
	list, _ := json.Marshal(matched)
	_, err := tx.ExecContext(ctx, `INSERT INTO workset_members(key, pos, path, oid, seed, source, distance, via_from, via_id, via_edge, via_dir, matched, added_at, added_by)
		SELECT ?, (SELECT coalesce(max(pos), 0) + 1 FROM workset_members), d.path, d.oid, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		FROM docs d WHERE d.key = ? ORDER BY d.path LIMIT 1
		ON CONFLICT(key) DO NOTHING`,
		m.Key, m.Seed, m.Source, m.Distance, m.ViaFrom, m.ViaID, m.ViaEdge, m.ViaDir, string(list),
		sliceTime(m.AddedAt), m.AddedBy, m.Key)
	if err != nil {
		return fmt.Errorf("record member %s: %w", m.Key, err)
	}
	return nil
}

// EachMember calls fn for every member in the order they were chosen,
// each with the document the slice holds for it (a member whose document
// is gone is left out).
func (sl *Records) EachMember(ctx context.Context, fn func(SliceMember) error) error {
	rows, err := sl.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+`, m.oid, m.seed, m.source, m.distance,
			m.via_from, m.via_id, m.via_edge, m.via_dir, m.matched, m.added_at, m.added_by
		FROM workset_members m JOIN docs d ON d.key = m.key ORDER BY m.pos, m.key`)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	// Scan targets live across rows: one allocation a query, not a row.
	var m SliceMember
	var matched, added string
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		ref, err := sqlstore.ScanDocRef(r, &m.OID, &m.Seed, &m.Source, &m.Distance,
			&m.ViaFrom, &m.ViaID, &m.ViaEdge, &m.ViaDir, &matched, &added, &m.AddedBy)
		if err != nil {
			return err
		}
		if seen[ref.Key] {
			return nil // two documents share the key: the first by join order
		}
		seen[ref.Key] = true
		m.DocRef, m.Matched = ref, nil                  // a reused slice would be the last member's
		_ = json.Unmarshal([]byte(matched), &m.Matched) // none recorded: no matched terms
		m.AddedAt = parseSliceTime(added)
		return fn(m)
	})
}

// Manifest reads every manifest key.
func (sl *Records) Manifest(ctx context.Context) (map[string]string, error) {
	rows, err := sl.h.DB.QueryContext(ctx, `SELECT key, value FROM workset_manifest`)
	if err != nil {
		return nil, err
	}
	return sqlstore.KeyValues(rows)
}

// SetManifest sets manifest keys, keeping the others.
func (sl *Records) SetManifest(ctx context.Context, kv map[string]string) error {
	return setManifest(ctx, sl.h.DB, kv)
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

// AddStale records reasons, in one transaction; a reason already recorded
// (same key, how, detail and commit) is not recorded twice.
func (sl *Records) AddStale(ctx context.Context, reasons []SliceStale) error {
	return sl.h.InTx(ctx, func(tx *sql.Tx) error {
		for _, r := range reasons {
			_, err := tx.ExecContext(ctx, `INSERT INTO workset_stale(key, path, how, detail, sync, from_commit, to_commit, at)
				SELECT ?, ?, ?, ?, ?, ?, ?, ?
				WHERE NOT EXISTS (SELECT 1 FROM workset_stale WHERE key = ? AND how = ? AND detail = ? AND to_commit = ?)`,
				r.Key, r.Path, r.How, r.Detail, r.Sync, r.From, r.To, sliceTime(r.At), r.Key, r.How, r.Detail, r.To)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Stale reads the recorded reasons, oldest first.
func (sl *Records) Stale(ctx context.Context) ([]SliceStale, error) {
	rows, err := sl.h.DB.QueryContext(ctx, `SELECT s.key, coalesce(d.ident, ''), s.path, s.how, s.detail, s.sync, s.from_commit, s.to_commit, s.at
		FROM workset_stale s LEFT JOIN docs d ON d.key = s.key ORDER BY s.seq`)
	if err != nil {
		return nil, err
	}
	out, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (SliceStale, error) {
		var s SliceStale
		var at string
		err := r.Scan(&s.Key, &s.Ident, &s.Path, &s.How, &s.Detail, &s.Sync, &s.From, &s.To, &at)
		s.At = parseSliceTime(at)
		return s, err
	})
	if out == nil {
		out = []SliceStale{}
	}
	return out, err
}

// AddPromoted records promoted findings, in one transaction; a finding
// recorded before keeps its first record.
func (sl *Records) AddPromoted(ctx context.Context, ps []SlicePromoted) error {
	return sl.h.InTx(ctx, func(tx *sql.Tx) error {
		for _, p := range ps {
			_, err := tx.ExecContext(ctx, `INSERT INTO workset_promoted(hash, target, kind, text, dest_key, dest_path, promoted_at, agent)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(hash) DO NOTHING`,
				p.Hash, p.Target, p.Kind, p.Text, p.DestKey, p.DestPath, sliceTime(p.At), p.Agent)
			if err != nil {
				return fmt.Errorf("record promoted finding: %w", err)
			}
		}
		return nil
	})
}

// Promoted reads the record of a promoted finding by its hash; ok is
// false when it was never promoted.
func (sl *Records) Promoted(ctx context.Context, hash string) (p SlicePromoted, ok bool, err error) {
	var at string
	err = sl.h.DB.QueryRowContext(ctx, `SELECT target, kind, text, dest_key, dest_path, promoted_at, agent FROM workset_promoted WHERE hash = ?`, hash).
		Scan(&p.Target, &p.Kind, &p.Text, &p.DestKey, &p.DestPath, &at, &p.Agent)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, err
	}
	p.Hash, p.At = hash, parseSliceTime(at)
	return p, true, nil
}

// NextCheckpoint is the number the next checkpoint takes.
func (sl *Records) NextCheckpoint(ctx context.Context) (int, error) {
	var seq int
	err := sl.h.DB.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM workset_checkpoints`).Scan(&seq)
	return seq, err
}

// AddCheckpoint records a checkpoint (data is its JSON) under its number.
func (sl *Records) AddCheckpoint(ctx context.Context, seq int, at time.Time, head, data string) error {
	_, err := sl.h.DB.ExecContext(ctx, `INSERT INTO workset_checkpoints (seq, at, head, data) VALUES (?, ?, ?, ?)`,
		seq, sliceTime(at), head, data)
	return err
}

// Checkpoints reads the checkpoints' JSON, oldest first.
func (sl *Records) Checkpoints(ctx context.Context) ([]string, error) {
	rows, err := sl.h.DB.QueryContext(ctx, `SELECT data FROM workset_checkpoints ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var data string
		return data, r.Scan(&data)
	})
}
