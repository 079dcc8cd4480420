package overlay

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Trunks and kept blob fields (ADR-0068): the rows refs of one merge base
// share, how a ref's rows are made of its own and its trunk's, and what a
// row takes of a blob, kept once read.

// Rows is what a replacing update gives its ref: its own rows and its
// trunk's at its seq where it has none, sorted by path.
func (u RefUpdate) Rows() []RefDoc {
	st := u.State
	own := make([]RefDoc, len(u.Upserts))
	for i, d := range u.Upserts {
		d.Ref = st.Name
		own[i] = d
	}
	sort.Slice(own, func(i, j int) bool { return own[i].Path < own[j].Path })
	st.Trunk, st.TrunkCommit, st.TrunkAuthor = 0, st.OID, st.Author
	trunks := map[int64][]TrunkDoc{}
	if u.Trunk != nil {
		st.Trunk = 1
		trunks[1] = u.Trunk.Rows
	}
	return mergeRefRows([]RefState{st}, own, trunks, nil)
}

// RefBlob is what an overlay row takes of a blob, kept once read (table
// ref_blobs): a blob never changes, so a ref's rows read again after HEAD
// moved, or a trunk worked out again, read and parse no blob twice.
// markdown.PathFields's parts are Type, FieldID, State and Section.
type RefBlob struct {
	OID, Skip                     string
	Doc                           bool
	ID, Title, Assignee, Edges    string
	FM, Size                      int64
	Type, FieldID, State, Section string
	FMJSON                        string // RefDoc.FMJSON
}

// refBlobsKept is how many blobs ref_blobs keeps before it forgets those
// no row names.
const refBlobsKept = 50_000

const refBlobCols = `oid, skip, doc, ident, title, assignee, edges, fm_bytes, size, type, field_id, state, section, fm`

// RefBlobs reads the kept fields of the blobs oids, by blob id.
func (s *Overlays) RefBlobs(ctx context.Context, oids []string) (map[string]RefBlob, error) {
	out := map[string]RefBlob{}
	if len(oids) == 0 {
		return out, nil
	}
	list, _ := json.Marshal(oids) // strings only: cannot fail
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+refBlobCols+` FROM ref_blobs WHERE oid IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read the overlays' blobs: %w", s.h.Friendly(err))
	}
	all, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (RefBlob, error) {
		var b RefBlob
		err := r.Scan(&b.OID, &b.Skip, &b.Doc, &b.ID, &b.Title, &b.Assignee, &b.Edges, &b.FM, &b.Size, &b.Type, &b.FieldID, &b.State, &b.Section, &b.FMJSON)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the overlays' blobs: %w", err)
	}
	for _, b := range all {
		out[b.OID] = b
	}
	return out, nil
}

// keepRefBlobs writes blobs' fields, and past refBlobsKept forgets those
// no row names.
func keepRefBlobs(ctx context.Context, tx *sql.Tx, blobs []RefBlob) error {
	if len(blobs) == 0 {
		return nil
	}
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO ref_blobs(`+refBlobCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, b := range blobs {
		if _, err := ins.ExecContext(ctx, b.OID, b.Skip, b.Doc, b.ID, b.Title, b.Assignee, b.Edges, b.FM, b.Size, b.Type, b.FieldID, b.State, b.Section, b.FMJSON); err != nil {
			return fmt.Errorf("keep blob %s: %w", b.OID, err)
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ref_blobs`).Scan(&n); err != nil || n <= refBlobsKept {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM ref_blobs WHERE oid NOT IN (SELECT oid FROM ref_docs UNION SELECT oid FROM trunk_docs)`)
	return err
}

// Trunk is the rows that refs with one merge base share (ADR-0068): what
// the default line changed between the merge base and each of the points
// the refs forked from it, numbered in order (a ref's Seq). A path's row
// holds for the points Lo <= seq < Hi.
type Trunk struct {
	Rows []TrunkDoc
}

// TrunkDoc is one row of a trunk: a RefDoc without its ref, commit and
// author, which are the refs'.
type TrunkDoc struct {
	RefDoc
	Lo, Hi int
}

const trunkDocCols = `path, lo, hi, change, oid, base_oid, ident, kind, title, state, assignee, edges, skip, fm_bytes, fm`

// trunkRows reads the rows of the refs' trunks that keep wants, by trunk.
func (s *Overlays) trunkRows(ctx context.Context, refs []RefState, keep func(*TrunkDoc) bool) (map[int64][]TrunkDoc, error) {
	out := map[int64][]TrunkDoc{}
	for _, r := range refs {
		if r.Trunk == 0 {
			continue
		}
		if _, ok := out[r.Trunk]; ok {
			continue
		}
		rows, err := s.h.DB.QueryContext(ctx, `SELECT `+trunkDocCols+` FROM trunk_docs WHERE trunk = ?`, r.Trunk)
		if err != nil {
			return nil, fmt.Errorf("read the overlays: %w", s.h.Friendly(err))
		}
		all, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (TrunkDoc, error) {
			var d TrunkDoc
			err := r.Scan(&d.Path, &d.Lo, &d.Hi, &d.Change, &d.OID, &d.BaseOID, &d.ID, &d.Kind, &d.Title, &d.State,
				&d.Assignee, &d.Edges, &d.Skip, &d.FMBytes, &d.FMJSON)
			return d, err
		})
		if err != nil {
			return nil, fmt.Errorf("read the overlays: %w", err)
		}
		kept := all[:0]
		for i := range all {
			if keep == nil || keep(&all[i]) {
				kept = append(kept, all[i])
			}
		}
		out[r.Trunk] = kept
	}
	return out, nil
}

// mergeRefRows gives each ref (sorted by name) its own rows (own, sorted
// by ref; those of Change RefSame only hide) and the rows of its trunk
// that hold at its seq where it has none (and that keep, when not nil,
// admits for the ref), sorted by ref and path.
func mergeRefRows(refs []RefState, own []RefDoc, trunks map[int64][]TrunkDoc, keep func(*RefState, *TrunkDoc) bool) []RefDoc {
	byRef := map[string][]RefDoc{}
	for lo := 0; lo < len(own); {
		hi := lo
		for hi < len(own) && own[hi].Ref == own[lo].Ref {
			hi++
		}
		byRef[own[lo].Ref] = own[lo:hi]
		lo = hi
	}
	out := make([]RefDoc, 0, len(own))
	for _, r := range refs {
		mine := byRef[r.Name]
		start := len(out)
		for _, d := range mine {
			if d.Change != RefSame {
				out = append(out, d)
			}
		}
		rows := trunks[r.Trunk]
		if r.Trunk == 0 || len(rows) == 0 {
			continue
		}
		has := make(map[string]bool, len(mine))
		for _, d := range mine {
			has[d.Path] = true
		}
		for i := range rows {
			t := &rows[i]
			if t.Lo <= r.Seq && r.Seq < t.Hi && !has[t.Path] && (keep == nil || keep(&r, t)) {
				d := t.RefDoc
				d.Ref, d.Commit, d.Author = r.Name, r.TrunkCommit, r.TrunkAuthor
				out = append(out, d)
			}
		}
		part := out[start:]
		sort.Slice(part, func(i, j int) bool { return part[i].Path < part[j].Path })
	}
	return out
}

const refDocCols = `ref, path, change, oid, base_oid, ident, kind, title, state, assignee, edges, commit_id, author, skip, fm_bytes, fm`

func scanRefDoc(sc interface{ Scan(...any) error }, extra ...any) (RefDoc, error) {
	var d RefDoc
	err := sc.Scan(append([]any{&d.Ref, &d.Path, &d.Change, &d.OID, &d.BaseOID, &d.ID, &d.Kind, &d.Title, &d.State,
		&d.Assignee, &d.Edges, &d.Commit, &d.Author, &d.Skip, &d.FMBytes, &d.FMJSON}, extra...)...)
	return d, err
}

// writeTrunks writes each trunk the updates name, once, and says the
// number each was given.
func writeTrunks(ctx context.Context, tx *sql.Tx, ups []RefUpdate) (map[*Trunk]int64, error) {
	ids := map[*Trunk]int64{}
	var next int64
	for _, u := range ups {
		t := u.Trunk
		if t == nil || !u.Replace || ids[t] != 0 {
			continue
		}
		if next == 0 {
			if err := tx.QueryRowContext(ctx, `SELECT max(coalesce((SELECT max(trunk) FROM refs), 0), coalesce((SELECT max(trunk) FROM trunk_docs), 0))`).Scan(&next); err != nil {
				return nil, fmt.Errorf("number a trunk: %w", err)
			}
		}
		next++
		ids[t] = next
		ins, err := tx.PrepareContext(ctx, `INSERT INTO trunk_docs(trunk, `+trunkDocCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return nil, err
		}
		for _, d := range t.Rows {
			if _, err := ins.ExecContext(ctx, next, d.Path, d.Lo, d.Hi, d.Change, d.OID, d.BaseOID, d.ID, d.Kind, d.Title, d.State,
				d.Assignee, d.Edges, d.Skip, d.FMBytes, d.FMJSON); err != nil {
				ins.Close()
				return nil, fmt.Errorf("write the trunk's %s: %w", d.Path, err)
			}
		}
		ins.Close()
	}
	return ids, nil
}

// movable says which additions may be a move of one of HEAD's documents
// a ref deletes (pairRef): the blob it had, or its id.
func (s *Overlays) movable(ctx context.Context, heads map[string]*hereRow) (func(*TrunkDoc) bool, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT path, base_oid FROM ref_docs WHERE oid = '' AND change = 'deleted'
		UNION SELECT path, base_oid FROM trunk_docs WHERE oid = ''`)
	if err != nil {
		return nil, fmt.Errorf("read the overlays: %w", s.h.Friendly(err))
	}
	gone, err := sqlstore.ScanAll(rows, func(r *sql.Rows) ([2]string, error) {
		var g [2]string
		return g, r.Scan(&g[0], &g[1])
	})
	if err != nil {
		return nil, fmt.Errorf("read the overlays: %w", err)
	}
	blobs, ids := map[string]bool{}, map[string]bool{}
	for _, g := range gone {
		if d := heads[g[0]]; d != nil {
			blobs[g[1]] = true
			if d.ID != "" {
				ids[d.ID] = true
			}
		}
	}
	return func(t *TrunkDoc) bool { return blobs[t.OID] || t.ID != "" && ids[t.ID] }, nil
}
