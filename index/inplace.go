package index

import (
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/canon-md/canon/index/generated"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// An edited document keeps its path, id and uid almost always: a worklog
// line, a changed state, a new section. Nothing that points at it can then
// resolve differently, so such a document is updated in place: its row is
// rewritten, and of its sections, links and problems only what differs.
// Deleting and inserting it again would also re-index every section's text,
// rewrite every link and re-resolve every link that points at it, which is
// what made a branch switch cost seconds (ADR-0010).
//
// Two hashes stored with the rows say what differs without reading the old
// text back: chunks.hash over what the section's full-text row holds, and
// docs.links_sig over the document's outgoing links as written. A full
// build computes them the same way, so canon verify compares them too.

// chunkRow is one section as stored: a chunks row and its chunks_fts row.
type chunkRow struct {
	seq, level, line, end      int
	slug, heading, title, text string
	hash                       int64
}

// chunkRows lists a document's sections as they are stored. The title goes
// with the first section only: a title match ranks the document's opening,
// not every one of its sections alike.
func chunkRows(path string, d *markdown.Document) []chunkRow {
	title := d.Title
	if title == "" {
		title = markdown.DisplayStem(path)
	}
	out := make([]chunkRow, 0, len(d.Body.Sections))
	for seq, sec := range d.Body.Sections {
		c := chunkRow{seq: seq, slug: sec.Slug, line: sec.Start, end: sec.End, text: sec.Text}
		if sec.Heading >= 0 {
			h := d.Body.Headings[sec.Heading]
			c.heading, c.level = h.Text, h.Level
		}
		if seq == 0 {
			c.title = title
		}
		c.hash = signature(c.title, c.heading, c.text)
		out = append(out, c)
	}
	return out
}

// signature hashes a list of strings, each prefixed with its length so that
// no two lists share a concatenation: the first 8 bytes of SHA-256, as the
// signed integer SQLite stores. The strings go to the hash through a
// buffer kept for the next call: writing each as []byte(p) copied every
// section's text into memory of its own, a tenth of what a full build
// allocated.
func signature(parts ...string) int64 {
	st := sigStates.Get().(*sigState)
	defer sigStates.Put(st)
	h := st.h
	h.Reset()
	for _, p := range parts {
		binary.LittleEndian.PutUint64(st.buf[:8], uint64(len(p)))
		h.Write(st.buf[:8])
		for len(p) > 0 {
			n := copy(st.buf[:], p)
			h.Write(st.buf[:n])
			p = p[n:]
		}
	}
	return int64(binary.LittleEndian.Uint64(h.Sum(st.sum[:0])))
}

// sigState is what signature reuses from one call to the next.
type sigState struct {
	h   hash.Hash
	buf [4096]byte
	sum [sha256.Size]byte
}

var sigStates = sync.Pool{New: func() any { return &sigState{h: sha256.New()} }}

// linksSig hashes everything a document's link rows are made of that comes
// from the document itself (the rest comes from its path, unchanged here).
func linksSig(links []resolve.Link) int64 {
	parts := make([]string, 0, 7*len(links))
	for _, l := range links {
		parts = append(parts, l.Type, l.Field, l.Form, l.Raw, l.Anchor, strconv.Itoa(l.Line), strconv.Itoa(l.Col))
	}
	return signature(parts...)
}

// docRows is a parsed document as its rows will hold it. The loader
// prepares it on the core that parsed the document, so that the one writing
// SQLite only writes.
type docRows struct {
	fm, fmPos, disables string
	anchors             string        // the HTML anchors, space separated
	generated           string        // why it counts as generated, "" when it does not
	links               []pendingLink // src not set; strings owned, not the document's
	linksSig            int64
	chunks              []chunkRow
	pl                  resolve.Planner // what the links were planned with
}

func prepareRows(path string, d *markdown.Document, content []byte, pl resolve.Planner) *docRows {
	links := resolve.DocLinks(path, d, pl)
	r := &docRows{fm: string(d.FrontmatterJSON()), fmPos: string(d.FieldPositions()), disables: disablesJSON(d.Disables),
		anchors: strings.Join(d.Body.Anchors, " "), generated: generated.Reason(path, d, content),
		links: pendingLinks(links), linksSig: linksSig(links), chunks: chunkRows(path, d), pl: pl}
	return r
}

// prepared returns the document's rows, preparing them if the loader did not.
func (ld *Loaded) prepared(pl resolve.Planner) *docRows {
	if ld.rows == nil {
		ld.rows = prepareRows(ld.Path, ld.Doc, nil, pl)
	}
	return ld.rows
}

// pendingLinks turns links, as planned, into the compact form that waits
// for the batch.
func pendingLinks(links []resolve.Link) []pendingLink {
	out := make([]pendingLink, len(links))
	for seq, l := range links {
		var terms []string
		if len(l.Terms) > 0 {
			terms = make([]string, len(l.Terms))
			for i, t := range l.Terms {
				terms[i] = strings.Clone(t)
			}
		}
		out[seq] = pendingLink{seq: int32(seq), line: int32(l.Line), col: int32(l.Col),
			typ: l.Type, field: l.Field, form: l.Form, raw: strings.Clone(l.Raw), anchor: strings.Clone(l.Anchor),
			plan: terms, uidPrefix: strings.Clone(l.UIDPrefix), match: strings.Clone(l.Match), status: l.Status, orElse: l.OrElse}
	}
	return out
}

// inPlace is a re-read document whose identity did not change.
type inPlace struct {
	d  *storedDoc
	ld *Loaded
	r  *docRows
}

// relinks reports whether the document's links differ from the stored ones.
func (u *inPlace) relinks() bool { return u.r.linksSig != u.d.linksSig }

// sameIdentity reports whether a re-read document can be updated in place.
func sameIdentity(d *storedDoc, ld *Loaded) bool {
	return d != nil && ld.Doc != nil && d.ident == ld.Doc.ID && d.uid == ld.Doc.UID
}

func newInPlace(d *storedDoc, ld *Loaded, pl resolve.Planner) inPlace {
	return inPlace{d: d, ld: ld, r: ld.prepared(pl)}
}

// updateInPlace rewrites the documents' rows and what differs of their
// sections, problems and links. Changed links wait in w.pending like those
// of new documents; finish resolves them.
func (w *writer) updateInPlace(ups []inPlace) error {
	if len(ups) == 0 {
		return nil
	}
	upd, err := w.tx.Prepare(`UPDATE docs SET oid = ?, size = ?, mtime = ?, ident_line = ?, uid_line = ?, type = ?, kind = ?,
		title = ?, state = ?, format = ?, fm = ?, fm_pos = ?, disables = ?, anchors = ?, body_line = ?, links_sig = ?, generated = ?, sidecar = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	ids := make([]any, 0, len(ups))
	var relink []any
	for _, u := range ups {
		d := u.ld.Doc
		_, err := upd.Exec(u.ld.OID, u.ld.Size, u.ld.MtimeNs, d.IDLine, d.UIDLine, d.Type, d.Kind, d.Title, d.State, d.Format,
			u.r.fm, u.r.fmPos, u.r.disables, u.r.anchors, d.BodyLine, u.r.linksSig, u.r.generated, u.ld.Sidecar, u.d.id)
		if err != nil {
			return fmt.Errorf("update %s: %w", u.ld.Path, err)
		}
		ids = append(ids, u.d.id)
		if u.relinks() {
			relink = append(relink, u.d.id)
		}
	}
	if err := w.execIn(`DELETE FROM problems WHERE doc IN (%s)`, ids); err != nil {
		return err
	}
	if err := w.execIn(`DELETE FROM links WHERE src IN (%s)`, relink); err != nil {
		return err
	}
	for _, u := range ups {
		if err := w.insertProblems(u.d.id, u.ld.Path, u.ld.Doc); err != nil {
			return err
		}
		if u.relinks() {
			w.addPending(u.d.id, u.ld.Path, u.r.links, u.r.pl.Equal(w.pl))
		}
	}
	return w.syncChunks(ups, ids)
}

// storedChunk is what a chunks row holds.
type storedChunk struct {
	id                    int64
	seq, level, line, end int
	slug, heading         string
	hash                  int64
}

// syncChunks brings the stored sections of the documents to their new
// content: a section whose text is unchanged keeps its full-text row, one
// that moved only has its line numbers rewritten.
func (w *writer) syncChunks(ups []inPlace, ids []any) error {
	old := map[int64][]storedChunk{}
	err := w.queryIn(`SELECT doc, id, seq, slug, heading, level, line, end_line, hash FROM chunks WHERE doc IN (%s)`, ids,
		func(rows *sql.Rows) error {
			var doc int64
			var c storedChunk
			if err := rows.Scan(&doc, &c.id, &c.seq, &c.slug, &c.heading, &c.level, &c.line, &c.end, &c.hash); err != nil {
				return err
			}
			old[doc] = append(old[doc], c)
			return nil
		})
	if err != nil {
		return err
	}
	updFTS, err := w.tx.Prepare(`UPDATE chunks_fts SET title = ?, heading = ?, body = ? WHERE rowid = ?`)
	if err != nil {
		return err
	}
	defer updFTS.Close()
	updRow, err := w.tx.Prepare(`UPDATE chunks SET slug = ?, heading = ?, level = ?, line = ?, end_line = ?, hash = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	defer updRow.Close()
	var gone []any
	for _, u := range ups {
		was := old[u.d.id]
		sort.Slice(was, func(i, j int) bool { return was[i].seq < was[j].seq })
		now := u.r.chunks
		for i, c := range now {
			if i >= len(was) {
				if err := w.insertChunk(u.d.id, c); err != nil {
					return fmt.Errorf("store a section of %s: %w", u.ld.Path, err)
				}
				continue
			}
			o := was[i]
			if o.hash != c.hash {
				if _, err := updFTS.Exec(c.title, c.heading, c.text, o.id); err != nil {
					return fmt.Errorf("index text of %s: %w", u.ld.Path, err)
				}
			}
			if o.hash != c.hash || o.slug != c.slug || o.heading != c.heading || o.level != c.level || o.line != c.line || o.end != c.end {
				if _, err := updRow.Exec(c.slug, c.heading, c.level, c.line, c.end, c.hash, o.id); err != nil {
					return fmt.Errorf("update a section of %s: %w", u.ld.Path, err)
				}
			}
		}
		for _, o := range was[min(len(now), len(was)):] {
			gone = append(gone, o.id)
		}
	}
	if err := w.execIn(`DELETE FROM chunks_fts WHERE rowid IN (%s)`, gone); err != nil {
		return err
	}
	return w.execIn(`DELETE FROM chunks WHERE id IN (%s)`, gone)
}
