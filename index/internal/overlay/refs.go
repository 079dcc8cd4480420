package overlay

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

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
	// Trunk is the shared rows the ref's overlay takes those of where it
	// has none of its own (0: none), at its anchor Seq; TrunkCommit and
	// TrunkAuthor are the ref's commit and author when it took them.
	Trunk       int64  `json:"-"`
	Seq         int    `json:"-"`
	TrunkCommit string `json:"-"`
	TrunkAuthor string `json:"-"`
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
	// RefSame is a stored row of a ref with a trunk that says the ref
	// has the merge base's version of the path: it hides the trunk's row,
	// and no reader ever sees it.
	RefSame = "same"
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
	// FMJSON is its frontmatter as JSON, mappings in source order
	// (markdown.Document.FrontmatterJSON, as docs.fm holds HEAD's): what
	// canon branches compares field by field. "" when not read.
	FMJSON string `json:"-"`
	// MovedFrom is the path a moved document had (Change RefMoved):
	// never stored, Overlay pairs the rows.
	MovedFrom string `json:"moved_from,omitempty"`
}

// RefUpdate brings one ref's rows up to date: Replace drops its documents
// first (a diff from the merge base); Upserts and Drops are paths that
// differ, or no longer differ. Trunk, with Replace, is the shared rows the
// ref takes at State.Seq where Upserts has no row (a row of Change RefSame
// hides one): written once however many updates name it.
type RefUpdate struct {
	State   RefState
	Replace bool
	Upserts []RefDoc
	Drops   []string
	Trunk   *Trunk
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
func (s *Overlays) Refs(ctx context.Context) ([]RefState, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT name, oid, base, base_head, changed, summarised, skip, author, committed, updated,
		trunk, seq, trunk_commit, trunk_author FROM refs ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("read refs: %w", s.h.Friendly(err))
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (RefState, error) {
		var st RefState
		err := r.Scan(&st.Name, &st.OID, &st.Base, &st.BaseHead, &st.Changed, &st.Summarised, &st.Skip, &st.Author, &st.Committed, &st.Updated,
			&st.Trunk, &st.Seq, &st.TrunkCommit, &st.TrunkAuthor)
		return st, err
	})
}

// RefDocs returns every row of ref, by path: its own and those it takes
// of its trunk.
func (s *Overlays) RefDocs(ctx context.Context, ref string) (map[string]RefDoc, error) {
	docs, err := s.refRows(ctx, ref, nil)
	if err != nil {
		return nil, fmt.Errorf("read the documents of %s: %w", ref, err)
	}
	out := make(map[string]RefDoc, len(docs))
	for _, d := range docs {
		out[d.Path] = d
	}
	return out, nil
}

// refRows is every row of the followed refs (ref, when not "", one),
// sorted by ref and path: each ref's own rows and those of its trunk at
// its seq where it has none; keep, when not nil, says which trunk rows
// are wanted (asked once a row, not once a ref).
func (s *Overlays) refRows(ctx context.Context, ref string, keep func(*TrunkDoc) bool) ([]RefDoc, error) {
	refs, own, trunks, err := s.refParts(ctx, ref, keep)
	if err != nil {
		return nil, err
	}
	return mergeRefRows(refs, own, trunks, nil), nil
}

// refParts reads the followed refs (ref, when not "", one), their own
// rows sorted by ref and path, and their trunks' rows that keep wants.
func (s *Overlays) refParts(ctx context.Context, ref string, keep func(*TrunkDoc) bool) ([]RefState, []RefDoc, map[int64][]TrunkDoc, error) {
	refs, err := s.Refs(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	q, args := `SELECT `+refDocCols+` FROM ref_docs ORDER BY ref, path`, []any(nil)
	if ref != "" {
		q, args = `SELECT `+refDocCols+` FROM ref_docs WHERE ref = ? ORDER BY path`, []any{ref}
		kept := refs[:0]
		for _, r := range refs {
			if r.Name == ref {
				kept = append(kept, r)
			}
		}
		refs = kept
	}
	rows, err := s.h.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the overlays: %w", s.h.Friendly(err))
	}
	own, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (RefDoc, error) { return scanRefDoc(r) })
	if err != nil {
		return nil, nil, nil, err
	}
	trunks, err := s.trunkRows(ctx, refs, keep)
	return refs, own, trunks, err
}

// ApplyRefs writes ref updates, marks the refs named in stand as compared
// with head (their merge base, and so their rows, stand: the common case
// after HEAD moved, one statement for them all), forgets the refs named in
// gone, and keeps the fields of the blobs read, in one transaction.
func (s *Overlays) ApplyRefs(ctx context.Context, ups []RefUpdate, stand []string, head string, gone []string, blobs ...RefBlob) error {
	return s.h.InTx(ctx, func(tx *sql.Tx) error {
		if err := keepRefBlobs(ctx, tx, blobs); err != nil {
			return err
		}
		const restamp = `UPDATE refs SET base_head = ?, updated = ? WHERE name IN (%s)`
		now := time.Now().UnixNano()
		err := sqlstore.Batches(sqlstore.Anys(stand), 1, 2, func(part []any) error {
			_, err := tx.ExecContext(ctx, sqlstore.InList(restamp, len(part)), sqlstore.InArgs(restamp, []any{head, now}, part, nil)...)
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
		upsert, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO ref_docs(`+refDocCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer upsert.Close()
		// One statement for every ref: after HEAD moved, every followed
		// ref's row is written, most with only the HEAD it was compared with.
		ref, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO refs(name, oid, base, base_head, changed, summarised, skip, author, committed, updated,
				trunk, seq, trunk_commit, trunk_author) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ref.Close()
		trunks, err := writeTrunks(ctx, tx, ups)
		if err != nil {
			return err
		}
		for _, u := range ups {
			st := u.State
			if u.Replace {
				st.Trunk, st.Seq, st.TrunkCommit, st.TrunkAuthor = 0, 0, "", ""
				if u.Trunk != nil {
					st.Trunk, st.Seq, st.TrunkCommit, st.TrunkAuthor = trunks[u.Trunk], u.State.Seq, st.OID, st.Author
				}
			}
			if _, err := ref.ExecContext(ctx, st.Name, st.OID, st.Base, st.BaseHead, st.Changed, st.Summarised, st.Skip, st.Author, st.Committed, st.Updated,
				st.Trunk, st.Seq, st.TrunkCommit, st.TrunkAuthor); err != nil {
				return fmt.Errorf("write ref %s: %w", st.Name, err)
			}
			if u.Replace {
				if _, err := tx.ExecContext(ctx, `DELETE FROM ref_docs WHERE ref = ?`, st.Name); err != nil {
					return err
				}
			}
			for _, p := range u.Drops {
				if st.Trunk != 0 { // the trunk may have a row there: hide it
					if _, err := upsert.ExecContext(ctx, st.Name, p, RefSame, "", "", "", "", "", "", "", "[]", st.OID, st.Author, "", 0, ""); err != nil {
						return fmt.Errorf("write %s on %s: %w", p, st.Name, err)
					}
					continue
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM ref_docs WHERE ref = ? AND path = ?`, st.Name, p); err != nil {
					return err
				}
			}
			for _, d := range u.Upserts {
				if _, err := upsert.ExecContext(ctx, st.Name, d.Path, d.Change, d.OID, d.BaseOID, d.ID, d.Kind, d.Title, d.State,
					d.Assignee, d.Edges, d.Commit, d.Author, d.Skip, d.FMBytes, d.FMJSON); err != nil {
					return fmt.Errorf("write %s on %s: %w", d.Path, st.Name, err)
				}
			}
		}
		if len(ups) > 0 || len(gone) > 0 { // the trunks no ref takes any more
			if _, err := tx.ExecContext(ctx, `DELETE FROM trunk_docs WHERE trunk NOT IN (SELECT trunk FROM refs)`); err != nil {
				return fmt.Errorf("forget the trunks no ref takes: %w", err)
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
	sqlstore.DocRef
	Assignee string `json:"assignee,omitempty"`
	Edges    string `json:"-"` // filled by HereEdges only
	FMJSON   string `json:"-"` // its frontmatter as JSON (docs.fm): filled by HereEdges only
}

// Overlay lists what the followed refs change against the indexed
// documents: each ref's rows whose blob is not the indexed one (a change
// HEAD has too, merged or made twice, drops out). ref, when not "", keeps
// one ref; path, when not "", one path. Sorted by ref and path.
func (s *Overlays) Overlay(ctx context.Context, ref, path string) ([]OverlayDoc, error) {
	return s.overlay(ctx, ref, path, false)
}

// OverlayOfHere is Overlay of the documents the indexed HEAD has: what
// other refs do with HEAD's items (claims), moves included, without the
// documents refs only add. A ref's additions are read only when it
// deletes a document HEAD has (one of them may be that document moved), so
// the answer costs what touches HEAD's items, not every row of every ref.
func (s *Overlays) OverlayOfHere(ctx context.Context) ([]OverlayDoc, error) {
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

// AssigneeFields are the fields that say who has an item, in the order
// they are read: the first present and not null (Kano writes owner,
// some trackers assignees).
var AssigneeFields = []string{"assignee", "owner", "assignees"}

// hereAssignee is HEAD's assignee of a document d as RefDoc.Assignee
// writes a ref's: of the first of AssigneeFields present and not null, a
// scalar's text, a list's or map's JSON; empty for none.
var hereAssignee = func() string {
	var b strings.Builder
	b.WriteString("coalesce(")
	for _, f := range AssigneeFields {
		p := "'$." + f + "'"
		fmt.Fprintf(&b, "CASE json_type(d.fm, %s) WHEN 'null' THEN NULL WHEN 'array' THEN json_extract(d.fm, %s) WHEN 'object' THEN json_extract(d.fm, %s) ELSE CAST(json_extract(d.fm, %s) AS TEXT) END, ", p, p, p, p)
	}
	b.WriteString("'')")
	return b.String()
}()

func (s *Overlays) overlay(ctx context.Context, ref, path string, here bool) ([]OverlayDoc, error) {
	var heads map[string]*hereRow
	// A trunk's rows are shared by refs: what they are against HEAD is
	// asked once a row, and only the rows that can be in the answer are
	// given to each ref.
	// For claims, or one path's versions, a trunk's addition matters only
	// as a move of one of HEAD's documents (at path) some ref deletes: the
	// same blob or the same id (pairRef); the others are never an answer's.
	var movable func(t *TrunkDoc) bool
	keep := func(t *TrunkDoc) bool {
		d := heads[t.Path]
		return differsHere(&t.RefDoc, d) && (!here || d == nil && movable(t) || d != nil && (t.Change == RefDeleted || claimsHere(&t.RefDoc, d))) &&
			(path == "" || t.Path == path || t.Change == RefAdded && movable(t))
	}
	var err error
	if heads, err = s.hereRows(ctx, ref); err != nil {
		return nil, err
	}
	switch {
	case path != "": // only a move of HEAD's document at path
		movable, err = s.movable(ctx, map[string]*hereRow{path: heads[path]})
	case here:
		movable, err = s.movable(ctx, heads)
	}
	if err != nil {
		return nil, err
	}
	refs, own, trunks, err := s.refParts(ctx, ref, keep)
	if err != nil {
		return nil, err
	}
	// refs that delete one of HEAD's documents: their rows, and their
	// trunks' that hold for them
	deletes := map[string]bool{}
	for i := range own {
		if r := &own[i]; r.OID == "" && r.Change != RefSame && heads[r.Path] != nil {
			deletes[r.Ref] = true
		}
	}
	for _, r := range mergeRefRows(refs, own, trunks, func(_ *RefState, t *TrunkDoc) bool { return t.OID == "" && heads[t.Path] != nil }) {
		if r.OID == "" && heads[r.Path] != nil {
			deletes[r.Ref] = true
		}
	}
	// a ref's additions only when it deletes one of HEAD's documents
	rows := mergeRefRows(refs, own, trunks, func(r *RefState, t *TrunkDoc) bool { return !here || heads[t.Path] != nil || deletes[r.Name] })
	deletesP := map[string]bool{} // refs that delete path
	for i := range rows {
		if r := &rows[i]; r.OID == "" && r.Path == path {
			deletesP[r.Ref] = true
		}
	}
	var over []OverlayDoc
	for _, r := range rows {
		d := heads[r.Path]
		if !differsHere(&r, d) {
			continue
		}
		// HEAD's documents a ref deletes (a move to pair), or whose state
		// or assignee it sets otherwise (a claim: graph.Claims); a ref's
		// additions only when it deletes one of HEAD's documents.
		if here && !(d != nil && (r.Change == RefDeleted || claimsHere(&r, d)) || d == nil && deletes[r.Ref]) {
			continue
		}
		// and the documents a ref that deletes path may have moved it to
		if path != "" && r.Path != path && !(r.Change == RefAdded && deletesP[r.Ref]) {
			continue
		}
		o := OverlayDoc{RefDoc: r}
		if d != nil {
			h := d.HereDoc
			o.Here = &h
		}
		over = append(over, o)
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

// hereRow is what an overlay row is compared with: the indexed HEAD's
// document at its path.
type hereRow struct {
	HereDoc
	oid string
}

// differsHere reports whether a ref's row differs from HEAD's document d
// (nil: none at its path): a change HEAD has too, merged or made twice,
// drops out.
func differsHere(r *RefDoc, d *hereRow) bool {
	return d == nil && r.OID != "" || d != nil && d.oid != r.OID
}

// claimsHere reports whether a ref's row sets the state or the assignee of
// HEAD's document d to another.
func claimsHere(r *RefDoc, d *hereRow) bool {
	return r.State != "" && r.State != d.State || r.Assignee != "" && r.Assignee != d.Assignee
}

// hereRows reads the indexed HEAD's documents at the paths the followed
// refs' rows (ref's, when not "") are at, their own and their trunks', by
// path.
func (s *Overlays) hereRows(ctx context.Context, ref string) (map[string]*hereRow, error) {
	in, args := `SELECT path FROM ref_docs UNION SELECT path FROM trunk_docs`, []any(nil)
	if ref != "" {
		in = `SELECT path FROM ref_docs WHERE ref = ? UNION SELECT t.path FROM trunk_docs t JOIN refs r ON r.trunk = t.trunk WHERE r.name = ?`
		args = []any{ref, ref}
	}
	rows, err := s.h.DB.QueryContext(ctx, `SELECT d.key, d.ident, d.path, d.kind, d.title, d.state, `+hereAssignee+`, d.`+sqlstore.StoredStamp+`
		FROM docs d WHERE d.path IN (`+in+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the overlays: %w", s.h.Friendly(err))
	}
	all, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (*hereRow, error) {
		var key, ident, p, kind, title, state, assignee, oid string
		err := r.Scan(&key, &ident, &p, &kind, &title, &state, &assignee, &oid)
		return &hereRow{HereDoc: HereDoc{DocRef: sqlstore.NewDocRef(key, ident, p, kind, title, state), Assignee: assignee}, oid: oid}, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the overlays: %w", err)
	}
	out := make(map[string]*hereRow, len(all))
	for _, h := range all {
		out[h.Path] = h
	}
	return out, nil
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

// HereEdges fills in HEAD's frontmatter edges and frontmatter of overlay
// documents (what canon branches compares; ready and blocked do without,
// and so skip the links and fields they would read).
func (s *Overlays) HereEdges(ctx context.Context, over []OverlayDoc) error {
	q, err := s.h.DB.PrepareContext(ctx, `SELECT (SELECT coalesce(json_group_array(json_array(l.type, l.raw)), '[]')
		FROM links l WHERE l.src = d.id AND l.field <> ''), d.fm FROM docs d WHERE d.path = ?`)
	if err != nil {
		return err
	}
	defer q.Close()
	byPath := map[string][2]string{} // many refs change the same document: one read each
	for i := range over {
		h := over[i].Here
		if h == nil {
			continue
		}
		if e, ok := byPath[h.Path]; ok {
			h.Edges, h.FMJSON = e[0], e[1]
			continue
		}
		var edges, fm string
		if err := q.QueryRowContext(ctx, h.Path).Scan(&edges, &fm); err != nil {
			return fmt.Errorf("read the edges of %s: %w", h.Path, err)
		}
		var pairs [][2]string
		_ = json.Unmarshal([]byte(edges), &pairs) // SQLite's own JSON of text pairs
		h.Edges, h.FMJSON = EdgesJSON(pairs), fm
		byPath[h.Path] = [2]string{h.Edges, h.FMJSON}
	}
	return nil
}

// DumpRefs is the overlay as lines, for canon verify: what a rebuild from
// nothing must give again (not when a row was written, nor by which commit).
func (s *Overlays) DumpRefs(ctx context.Context) ([]string, error) {
	var out []string
	refs, err := s.Refs(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		out = append(out, RefLine(r))
	}
	docs, err := s.refRows(ctx, "", nil)
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
	return fmt.Sprintf("ref_doc %q %q %q %q %q %q %q %q %q %q %q %q %q", d.Ref, d.Path, d.Change, d.OID, d.BaseOID,
		d.ID, d.Kind, d.Title, d.State, d.Assignee, d.Edges, d.Skip, d.FMJSON)
}
