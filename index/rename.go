package index

import (
	"database/sql"
	"errors"

	"github.com/canon-md/canon/index/generated"
	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// renameDoc moves a stored document to a new path: path-derived columns and
// aliases change, relative links are planned again; the content is not
// read again.
func (w *writer) renameDoc(d *storedDoc, to scan.FileInfo) error {
	var typ, title, gen string
	if err := w.tx.QueryRow(`SELECT type, title, generated FROM docs WHERE id = ?`, d.id).Scan(&typ, &title, &gen); err != nil {
		return err
	}
	if title == "" {
		if err := w.retitle(d.id, markdown.DisplayStem(to.Path)); err != nil {
			return err
		}
	}
	nk := naturalKey(to.Path, d.ident, d.uid)
	kind := markdown.Kind(typ, d.ident, to.Path, w.kinds)
	_, err := w.tx.Exec(`UPDATE docs SET path = ?, size = ?, mtime = ?, natural_key = ?, key = ?, kind = ?, generated = ? WHERE id = ?`,
		to.Path, to.Size, to.MtimeNs, nk, nk, kind, generated.OnRename(gen, to.Path), d.id)
	if err != nil {
		return err
	}
	if _, err := w.tx.Exec(`UPDATE problems SET path = ? WHERE doc = ?`, to.Path, d.id); err != nil {
		return err
	}
	if _, err := w.tx.Exec(`DELETE FROM aliases WHERE doc = ?`, d.id); err != nil {
		return err
	}
	for _, term := range resolve.AliasTerms(resolve.Identity{Path: to.Path, ID: d.ident, UID: d.uid, Title: d.title, Olds: w.olds}) {
		if err := w.aliases.add(term, d.id); err != nil {
			return err
		}
	}
	// Relative targets depend on where the file is: plan its links again.
	rows, err := w.tx.Query(`SELECT id, form, raw FROM links WHERE src = ?`, d.id)
	if err != nil {
		return err
	}
	type row struct {
		id        int64
		form, raw string
	}
	all, err := sqlstore.ScanAll(rows, func(rs *sql.Rows) (row, error) {
		var r row
		return r, rs.Scan(&r.id, &r.form, &r.raw)
	})
	if err != nil {
		return err
	}
	for _, r := range all {
		l := resolve.Link{Form: r.form, Raw: r.raw}
		l.Plan(to.Path, w.pl)
		if _, err := w.tx.Exec(`UPDATE links SET match = ?, dst = NULL, status = ? WHERE id = ?`, l.Match, l.Status, r.id); err != nil {
			return err
		}
	}
	return nil
}

// retitle gives an untitled document's first section the title a full
// build gives it from the new file name: its full-text title and hash.
func (w *writer) retitle(docID int64, title string) error {
	var cid int64
	var heading, body string
	err := w.tx.QueryRow(`SELECT c.id, f.heading, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.id
		WHERE c.doc = ? AND c.seq = 0`, docID).Scan(&cid, &heading, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := w.tx.Exec(`UPDATE chunks_fts SET title = ? WHERE rowid = ?`, title, cid); err != nil {
		return err
	}
	_, err = w.tx.Exec(`UPDATE chunks SET hash = ? WHERE id = ?`, signature(title, heading, body), cid)
	return err
}
