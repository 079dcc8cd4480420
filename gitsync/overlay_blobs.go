package gitsync

import (
	"context"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/scan"
)

// A blob never changes, so what an overlay row takes of one is kept once
// read (index.RefBlob, table ref_blobs): after HEAD moves away and back,
// the refs' rows, and a trunk, are worked out again from tree diffs
// without reading or parsing a blob twice. verify's rebuild reads every
// blob (its budget has no store), and so proves the kept fields.

// preload takes the kept fields of the blobs oids that this call has not
// read yet.
func (b *readBudget) preload(ctx context.Context, oids []string) error {
	if b.store == nil {
		return nil
	}
	var want []string
	for _, o := range oids {
		if _, ok := b.blobs[o]; !ok && o != "" && !b.asked[o] {
			b.asked[o] = true
			want = append(want, o)
		}
	}
	if len(want) == 0 {
		return nil
	}
	kept, err := b.store.RefBlobs(ctx, want)
	if err != nil {
		return err
	}
	for o, k := range kept {
		b.blobs[o] = &refBlob{skip: k.Skip, doc: k.Doc, id: k.ID, title: k.Title, assignee: k.Assignee, edge: k.Edges, fm: k.FM, size: k.Size, fmJSON: k.FMJSON,
			at: markdown.PathFields{Type: k.Type, ID: k.FieldID, State: k.State, Section: k.Section}}
	}
	return nil
}

// read notes a blob this call read and parsed, to be kept.
func (b *readBudget) read(oid string, r *refBlob) {
	if b.store == nil {
		return
	}
	b.fresh = append(b.fresh, index.RefBlob{OID: oid, Skip: r.skip, Doc: r.doc, ID: r.id, Title: r.title, Assignee: r.assignee,
		Edges: r.edge, FM: r.fm, Size: r.size, FMJSON: r.fmJSON, Type: r.at.Type, FieldID: r.at.ID, State: r.at.State, Section: r.at.Section})
}

// changedBlobs lists the blobs changes lead to.
func changedBlobs(changes []TreeChange) []string {
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.To)
	}
	return out
}

// size is a blob's size: kept or read with its fields, else from the
// object's header.
func (b *readBudget) size(objs *Objects, oid string) (int64, error) {
	if r, ok := b.blobs[oid]; ok {
		return r.size, nil
	}
	readme, _, _ := splitVersion(oid) // a README beside a sidecar: the README's, the sidecar being bounded on its own
	return objs.size(plumbing.NewHash(readme))
}

// readBudget bounds what one call reads of other refs' blobs, and parses
// each blob once however many paths name it.
type readBudget struct {
	bytes    int64 // left; below zero: spent
	deadline time.Time
	blobs    map[string]*refBlob // what a blob's fields are, by blob id
	// store keeps the fields of the blobs read (nil: every blob is read,
	// verify's rebuild); fresh are those this call read, asked those
	// looked for there.
	store *index.Store
	fresh []index.RefBlob
	asked map[string]bool
}

// refBlob is what a ref's row takes of a blob: the fields, not the
// parsed document (which holds the whole text and its sections).
type refBlob struct {
	skip                      string // why it was not read
	doc                       bool   // it is a document (read and parsed)
	id, title, assignee, edge string
	at                        markdown.PathFields
	fm                        int64  // its frontmatter's size
	size                      int64  // its own
	fmJSON                    string // its frontmatter as JSON (RefDoc.FMJSON)
}

// yamlSum sums the frontmatter of a ref's documents, each blob once, and
// says when it passes OverlayRefFrontmatter.
type yamlSum struct {
	seen  map[string]bool
	total int64
}

func (y *yamlSum) add(d index.RefDoc) bool {
	if y.seen == nil {
		y.seen = map[string]bool{}
	}
	if d.OID != "" && !y.seen[d.OID] {
		y.seen[d.OID] = true
		y.total += d.FMBytes
	}
	return y.total > OverlayRefFrontmatter
}

// tooMuchYAML is why a ref whose documents' frontmatter passes
// OverlayRefFrontmatter is summarised.
var tooMuchYAML = fmt.Sprintf("changes documents whose frontmatter holds more than the %s canon parses of one ref", human.Bytes(OverlayRefFrontmatter))

// newReadBudget gives a call bytes and d; bytes 0: no bound (verify).
func newReadBudget(bytes int64, d time.Duration) *readBudget {
	b := &readBudget{bytes: bytes, blobs: map[string]*refBlob{}, asked: map[string]bool{}}
	if bytes == 0 {
		b.bytes = 1 << 62
	} else {
		b.deadline = time.Now().Add(d)
	}
	return b
}

func (b *readBudget) spent() bool {
	return b.bytes < 0 || !b.deadline.IsZero() && time.Now().After(b.deadline)
}

// loadRefDoc reads the ref's version of a changed document, each blob
// parsed once per call however many paths name it, and counted against
// the call's budget when it is read.
func loadRefDoc(s *Session, objs *Objects, c TreeChange, baseOID string, budget *readBudget) (index.RefDoc, error) {
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
	b, ok := budget.blobs[c.To]
	if !ok {
		var err error
		if b, err = s.readRefBlob(objs, c, budget); err != nil {
			return d, err
		}
		budget.blobs[c.To] = b
		budget.read(c.To, b)
	}
	if b.skip != "" {
		d.Skip = b.skip
		return d, nil
	}
	if !b.doc {
		return d, nil
	}
	d.ID, d.Title, d.Assignee, d.Edges, d.FMBytes, d.FMJSON = b.id, b.title, b.assignee, b.edge, b.fm, b.fmJSON
	d.Kind, d.State = s.Loader.At(b.at, c.Path)
	return d, nil
}

// readRefBlob reads and parses a blob of another ref, within bounds: the
// size first (a blob over max_file_size is not inflated, as the working
// tree's files are not read), then the frontmatter's (one over
// overlayFrontmatterBytes is not parsed). Its bytes count against the
// call's budget.
func (s *Session) readRefBlob(objs *Objects, c TreeChange, budget *readBudget) (b *refBlob, err error) {
	readme, side, sideAt := splitVersion(c.To)
	size, err := objs.size(plumbing.NewHash(readme))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.Path, err)
	}
	defer func() {
		if b != nil {
			b.size = size
		}
	}()
	if skip := s.Loader.OverSizeCap(size); skip != "" {
		return &refBlob{skip: skip}, nil
	}
	_, content, err := objs.raw(plumbing.NewHash(readme))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.Path, err)
	}
	var sideData []byte
	if side != "" {
		var over int64
		if sideData, over, err = objs.sidecar(side); err != nil {
			return nil, fmt.Errorf("read the sidecar of %s: %w", c.Path, err)
		}
		if over > 0 {
			return &refBlob{skip: s.oversizedSidecar(c.Path, sideAt, over)}, nil
		}
	}
	budget.bytes -= int64(len(content))
	fm := int64(markdown.FrontmatterSize(content))
	if fm > overlayFrontmatterBytes {
		return &refBlob{skip: fmt.Sprintf("has a frontmatter of %s, more than the %s canon reads of another ref's document",
			human.Bytes(fm), human.Bytes(overlayFrontmatterBytes))}, nil
	}
	l := s.Loader.FieldsBeside(scan.FileInfo{Path: c.Path}, content, sideAt, sideData)
	b = &refBlob{skip: l.Skip, fm: fm}
	if l.Doc == nil {
		return b, nil
	}
	doc := l.Doc
	b.doc, b.id, b.title, b.at, b.fmJSON = true, doc.ID, doc.Title, doc.PathFields(), string(doc.FrontmatterJSON())
	for _, f := range index.AssigneeFields {
		if v := doc.Frontmatter.Get(f); v != nil && v.Kind != markdown.Null {
			b.assignee = fieldText(v)
			break
		}
	}
	var pairs [][2]string
	for _, r := range doc.Refs {
		pairs = append(pairs, [2]string{r.Type, r.Raw})
	}
	b.edge = index.EdgesJSON(pairs)
	return b, nil
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
