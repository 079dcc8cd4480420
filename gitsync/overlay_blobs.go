package gitsync

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/markdown"
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
		b.blobs[o] = &refBlob{skip: k.Skip, doc: k.Doc, id: k.ID, title: k.Title, assignee: k.Assignee, edge: k.Edges, fm: k.FM, size: k.Size,
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
		Edges: r.edge, FM: r.fm, Size: r.size, Type: r.at.Type, FieldID: r.at.ID, State: r.at.State, Section: r.at.Section})
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
	return objs.size(plumbing.NewHash(oid))
}
