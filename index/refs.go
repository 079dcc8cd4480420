package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// Overlays (ADR-0042): for each ref canon follows besides HEAD (local and
// remote-tracking branches, linked worktrees), the documents it changes
// since its merge base with the indexed HEAD, with the fields that say who
// does what (state, assignee, title, edges). gitsync keeps the two tables
// in step with the refs from tree diffs (O(what differs)); the answers
// compare them with the indexed documents (Overlay). This package knows
// nothing of git: names, commit ids and blob ids come in, rows go out.

// RefState is one followed ref as the overlay last saw it.
type RefState struct {
	Name       string `json:"name"`
	OID        string `json:"commit"`
	Base       string `json:"merge_base"` // "" when the ref shares no history with HEAD
	BaseHead   string `json:"-"`          // the HEAD Base was found for
	Changed    int    `json:"changed"`    // documents that differ between Base and OID
	Summarised bool   `json:"summarised"` // over the load limit: no RefDoc rows
	// Skip says why the ref's documents are not read ('' when they are):
	// it points at no commit, or its documents hold more bytes than a ref
	// may make canon read (then Summarised too). No RefDoc rows.
	Skip      string `json:"skip,omitempty"`
	Author    string `json:"author"`
	Committed int64  `json:"committed"` // unix seconds
	Updated   int64  `json:"-"`         // unix ns
}

// Change kinds of a RefDoc, from the merge base to the ref.
const (
	RefAdded   = "added"
	RefChanged = "changed"
	RefDeleted = "deleted"
	// RefMoved is a document the ref renamed (Overlay pairs a deletion
	// with an addition of the same blob or id): its row is at the new
	// path, MovedFrom the path HEAD has.
	RefMoved = "moved"
)

// RefDoc is one document a ref changes since its merge base: the ref's
// version of the fields that matter (empty when deleted).
type RefDoc struct {
	Ref      string `json:"ref"`
	Path     string `json:"path"`
	Change   string `json:"change"`
	OID      string `json:"-"`
	BaseOID  string `json:"-"`
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Title    string `json:"title"`
	State    string `json:"state"`
	Assignee string `json:"assignee,omitempty"`
	Edges    string `json:"-"` // JSON [[type, raw], ...], sorted
	Commit   string `json:"commit"`
	Author   string `json:"author"`
	// Skip says why the ref's version was not read (over max_file_size):
	// its fields are empty.
	Skip string `json:"skip,omitempty"`
	// FMBytes is the size of its frontmatter: what parsing it cost, which
	// a ref may spend only so much of (gitsync's overlays).
	FMBytes int64 `json:"-"`
	// MovedFrom is the path a moved document had (Change RefMoved):
	// never stored, Overlay pairs the rows.
	MovedFrom string `json:"moved_from,omitempty"`
}

// RefUpdate brings one ref's rows up to date: Replace drops its documents
// first (a diff from the merge base); Upserts and Drops are paths that
// differ, or no longer differ.
type RefUpdate struct {
	State   RefState
	Replace bool
	Upserts []RefDoc
	Drops   []string
}

// EdgesJSON is the stored form of a document's frontmatter edges: pairs
// of type and reference as written, sorted.
func EdgesJSON(pairs [][2]string) string {
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	if pairs == nil {
		pairs = [][2]string{}
	}
	b, _ := json.Marshal(pairs) // strings only: cannot fail
	return string(b)
}

// Refs lists the followed refs by name.
func (s *Store) Refs(ctx context.Context) ([]RefState, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, oid, base, base_head, changed, summarised, skip, author, committed, updated FROM refs ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("read refs: %w", friendly(err, s.path))
	}
	return scanAll(rows, func(r *sql.Rows) (RefState, error) {
		var st RefState
		err := r.Scan(&st.Name, &st.OID, &st.Base, &st.BaseHead, &st.Changed, &st.Summarised, &st.Skip, &st.Author, &st.Committed, &st.Updated)
		return st, err
	})
}

// RefDocs returns every row of ref, by path.
func (s *Store) RefDocs(ctx context.Context, ref string) (map[string]RefDoc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+refDocCols+` FROM ref_docs WHERE ref = ?`, ref)
	if err != nil {
		return nil, fmt.Errorf("read the documents of %s: %w", ref, friendly(err, s.path))
	}
	docs, err := scanAll(rows, func(r *sql.Rows) (RefDoc, error) { return scanRefDoc(r) })
	if err != nil {
		return nil, fmt.Errorf("read the documents of %s: %w", ref, err)
	}
	out := make(map[string]RefDoc, len(docs))
	for _, d := range docs {
		out[d.Path] = d
	}
	return out, nil
}

const refDocCols = `ref, path, change, oid, base_oid, ident, kind, title, state, assignee, edges, commit_id, author, skip, fm_bytes`

func scanRefDoc(sc interface{ Scan(...any) error }, extra ...any) (RefDoc, error) {
	var d RefDoc
	err := sc.Scan(append([]any{&d.Ref, &d.Path, &d.Change, &d.OID, &d.BaseOID, &d.ID, &d.Kind, &d.Title, &d.State,
		&d.Assignee, &d.Edges, &d.Commit, &d.Author, &d.Skip, &d.FMBytes}, extra...)...)
	return d, err
}

// ApplyRefs writes ref updates, marks the refs named in stand as compared
// with head (their merge base, and so their rows, stand: the common case
// after HEAD moved, one statement for them all), and forgets the refs
// named in gone, in one transaction.
func (s *Store) ApplyRefs(ctx context.Context, ups []RefUpdate, stand []string, head string, gone []string) error {
	return s.Tx(ctx, func(tx *sql.Tx) error {
		const restamp = `UPDATE refs SET base_head = ?, updated = ? WHERE name IN (%s)`
		now := time.Now().UnixNano()
		err := batches(anys(stand), 1, 2, func(part []any) error {
			_, err := tx.ExecContext(ctx, inList(restamp, len(part)), inArgs(restamp, []any{head, now}, part, nil)...)
			return err
		})
		if err != nil {
			return fmt.Errorf("mark the refs compared with %s: %w", head, err)
		}
		for _, name := range gone {
			for _, q := range []string{`DELETE FROM ref_docs WHERE ref = ?`, `DELETE FROM refs WHERE name = ?`} {
				if _, err := tx.ExecContext(ctx, q, name); err != nil {
					return fmt.Errorf("forget %s: %w", name, err)
				}
			}
		}
		upsert, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO ref_docs(`+refDocCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer upsert.Close()
		// One statement for every ref: after HEAD moved, every followed
		// ref's row is written, most with only the HEAD it was compared with.
		ref, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO refs(name, oid, base, base_head, changed, summarised, skip, author, committed, updated)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ref.Close()
		for _, u := range ups {
			st := u.State
			if _, err := ref.ExecContext(ctx, st.Name, st.OID, st.Base, st.BaseHead, st.Changed, st.Summarised, st.Skip, st.Author, st.Committed, st.Updated); err != nil {
				return fmt.Errorf("write ref %s: %w", st.Name, err)
			}
			if u.Replace {
				if _, err := tx.ExecContext(ctx, `DELETE FROM ref_docs WHERE ref = ?`, st.Name); err != nil {
					return err
				}
			}
			for _, p := range u.Drops {
				if _, err := tx.ExecContext(ctx, `DELETE FROM ref_docs WHERE ref = ? AND path = ?`, st.Name, p); err != nil {
					return err
				}
			}
			for _, d := range u.Upserts {
				if _, err := upsert.ExecContext(ctx, st.Name, d.Path, d.Change, d.OID, d.BaseOID, d.ID, d.Kind, d.Title, d.State,
					d.Assignee, d.Edges, d.Commit, d.Author, d.Skip, d.FMBytes); err != nil {
					return fmt.Errorf("write %s on %s: %w", d.Path, st.Name, err)
				}
			}
		}
		return nil
	})
}

// OverlayDoc is a RefDoc that differs from the indexed HEAD, beside HEAD's
// version (Here nil when HEAD has no document at the path).
type OverlayDoc struct {
	RefDoc
	Here *HereDoc `json:"here,omitempty"`
}

// HereDoc is the indexed HEAD's version of a document's fields.
type HereDoc struct {
	DocRef
	Assignee string `json:"assignee,omitempty"`
	Edges    string `json:"-"` // filled by HereEdges only
}

// Overlay lists what the followed refs change against the indexed
// documents: each ref's rows whose blob is not the indexed one (a change
// HEAD has too, merged or made twice, drops out). ref, when not "", keeps
// one ref; path, when not "", one path. Sorted by ref and path.
func (s *Store) Overlay(ctx context.Context, ref, path string) ([]OverlayDoc, error) {
	return s.overlay(ctx, ref, path, false)
}

// OverlayOfHere is Overlay of the documents the indexed HEAD has: what
// other refs do with HEAD's items (claims), moves included, without the
// documents refs only add. A ref's additions are read only when it
// deletes a document HEAD has (one of them may be that document moved), so
// the answer costs what touches HEAD's items, not every row of every ref.
func (s *Store) OverlayOfHere(ctx context.Context) ([]OverlayDoc, error) {
	over, err := s.overlay(ctx, "", "", true)
	if err != nil {
		return nil, err
	}
	kept := over[:0]
	for _, o := range over {
		if o.Here != nil {
			kept = append(kept, o)
		}
	}
	return kept, nil
}

// hereAssignee is HEAD's assignee of a document d as RefDoc.Assignee
// writes a ref's: a scalar's text, a list's or map's JSON, empty for none.
const hereAssignee = `coalesce(CASE json_type(d.fm, '$.assignee') WHEN 'array' THEN json_extract(d.fm, '$.assignee') WHEN 'object' THEN json_extract(d.fm, '$.assignee') ELSE CAST(json_extract(d.fm, '$.assignee') AS TEXT) END, '')`

func (s *Store) overlay(ctx context.Context, ref, path string, here bool) ([]OverlayDoc, error) {
	q := `SELECT r.ref, r.path, r.change, r.oid, r.base_oid, r.ident, r.kind, r.title, r.state, r.assignee, r.edges, r.commit_id, r.author, r.skip, r.fm_bytes,
		d.key, d.ident, d.path, d.kind, d.title, d.state, ` + hereAssignee + `
		FROM ref_docs r LEFT JOIN docs d ON d.path = r.path
		WHERE (d.id IS NULL AND r.oid <> '' OR d.id IS NOT NULL AND d.oid <> r.oid)`
	var args []any
	if here {
		// HEAD's documents a ref deletes (a move to pair), or whose state
		// or assignee it sets otherwise (a claim: graph.Claims); a ref's
		// additions only when it deletes one of HEAD's documents.
		q += ` AND (d.id IS NOT NULL AND (r.change = 'deleted' OR r.state <> '' AND r.state IS NOT d.state OR r.assignee <> '' AND r.assignee IS NOT ` + hereAssignee + `)
			OR d.id IS NULL AND r.ref IN (SELECT g.ref FROM ref_docs g JOIN docs h ON h.path = g.path WHERE g.oid = ''))`
	}
	if ref != "" {
		q += ` AND r.ref = ?`
		args = append(args, ref)
	}
	if path != "" { // and the documents a ref that deletes it may have moved it to
		q += ` AND (r.path = ? OR r.change = 'added' AND r.ref IN (SELECT ref FROM ref_docs WHERE path = ? AND oid = ''))`
		args = append(args, path, path)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY r.ref, r.path`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the overlays: %w", friendly(err, s.path))
	}
	over, err := scanAll(rows, func(r *sql.Rows) (OverlayDoc, error) {
		var key, ident, p, kind, title, state, assignee sql.NullString
		d, err := scanRefDoc(r, &key, &ident, &p, &kind, &title, &state, &assignee)
		o := OverlayDoc{RefDoc: d}
		if err == nil && key.Valid {
			o.Here = &HereDoc{DocRef: docRef(key.String, ident.String, p.String, kind.String, title.String, state.String), Assignee: assignee.String}
		}
		return o, err
	})
	if err != nil {
		return nil, err
	}
	over = pairMoves(over)
	if path != "" {
		kept := over[:0]
		for _, o := range over {
			if o.Path == path || o.MovedFrom == path {
				kept = append(kept, o)
			}
		}
		over = kept
	}
	return over, nil
}

// pairMoves turns a ref's deletion of a document HEAD has and its addition
// of the same document elsewhere into one move (a rename on the branch):
// the same blob as HEAD's at the merge base, or the same id as HEAD's
// document. The moved row keeps the new path, says the old one, and is
// compared with HEAD's document there (Here), so a moved item claimed on a
// branch is still HEAD's item, and id reports see one item. over is sorted
// by ref.
func pairMoves(over []OverlayDoc) []OverlayDoc {
	out := over[:0]
	for lo := 0; lo < len(over); {
		hi := lo
		for hi < len(over) && over[hi].Ref == over[lo].Ref {
			hi++
		}
		out = append(out, pairRef(over[lo:hi])...)
		lo = hi
	}
	return out
}

// pairRef is pairMoves for one ref's rows.
func pairRef(rows []OverlayDoc) []OverlayDoc {
	var gone []int // deletions of a document HEAD has
	byBlob, byID := map[string]int{}, map[string]int{}
	for i, o := range rows {
		switch {
		case o.Change == RefDeleted && o.Here != nil:
			gone = append(gone, i)
		case o.Change == RefAdded && o.Here == nil:
			byBlob[o.OID] = i
			if o.ID != "" {
				byID[o.ID] = i
			}
		}
	}
	if len(gone) == 0 || len(byBlob) == 0 {
		return rows
	}
	drop := map[int]bool{}
	for _, g := range gone {
		del := rows[g]
		a, ok := byBlob[del.BaseOID]
		if !ok || rows[a].Change == RefMoved {
			a, ok = byID[del.Here.ID]
			ok = ok && del.Here.ID != ""
		}
		if !ok || rows[a].Change == RefMoved {
			continue
		}
		m := &rows[a]
		m.Change, m.MovedFrom, m.BaseOID, m.Here = RefMoved, del.Path, del.BaseOID, del.Here
		drop[g] = true
	}
	out := rows[:0]
	for i, o := range rows {
		if !drop[i] {
			out = append(out, o)
		}
	}
	return out
}

// HereEdges fills in HEAD's frontmatter edges of overlay documents (what
// canon branches compares; ready and blocked do without, and so skip the
// links they would read).
func (s *Store) HereEdges(ctx context.Context, over []OverlayDoc) error {
	q, err := s.db.PrepareContext(ctx, `SELECT coalesce(json_group_array(json_array(l.type, l.raw)), '[]')
		FROM links l JOIN docs d ON d.id = l.src WHERE d.path = ? AND l.field <> ''`)
	if err != nil {
		return err
	}
	defer q.Close()
	byPath := map[string]string{} // many refs change the same document: one read each
	for i := range over {
		h := over[i].Here
		if h == nil {
			continue
		}
		if e, ok := byPath[h.Path]; ok {
			h.Edges = e
			continue
		}
		var edges string
		if err := q.QueryRowContext(ctx, h.Path).Scan(&edges); err != nil {
			return fmt.Errorf("read the edges of %s: %w", h.Path, err)
		}
		var pairs [][2]string
		_ = json.Unmarshal([]byte(edges), &pairs) // SQLite's own JSON of text pairs
		h.Edges = EdgesJSON(pairs)
		byPath[h.Path] = h.Edges
	}
	return nil
}

// DumpRefs is the overlay as lines, for canon verify: what a rebuild from
// nothing must give again (not when a row was written, nor by which commit).
func (s *Store) DumpRefs(ctx context.Context) ([]string, error) {
	var out []string
	refs, err := s.Refs(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		out = append(out, RefLine(r))
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+refDocCols+` FROM ref_docs ORDER BY ref, path`)
	if err != nil {
		return nil, err
	}
	docs, err := scanAll(rows, func(r *sql.Rows) (RefDoc, error) { return scanRefDoc(r) })
	for _, d := range docs {
		out = append(out, RefDocLine(d))
	}
	return out, err
}

// RefLine and RefDocLine are DumpRefs's lines.
func RefLine(r RefState) string {
	return fmt.Sprintf("ref %q %q %q %d %v %q", r.Name, r.OID, r.Base, r.Changed, r.Summarised, r.Skip)
}

// RefDocLine: see RefLine.
func RefDocLine(d RefDoc) string {
	return fmt.Sprintf("ref_doc %q %q %q %q %q %q %q %q %q %q %q %q", d.Ref, d.Path, d.Change, d.OID, d.BaseOID,
		d.ID, d.Kind, d.Title, d.State, d.Assignee, d.Edges, d.Skip)
}
