package web

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"path/filepath"
	"sort"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// Item is the item page's data: what canon show --branches says of one
// document, its body rendered, and a picture of its neighbourhood.
type Item struct {
	*graph.Versions
	Fields   []Field
	Body     template.HTML
	BodyErr  string
	Picture  template.HTML
	Outgoing []index.Edge
	Incoming []index.Edge
}

// Field is one frontmatter field, its value as JSON text when it is not
// a string.
type Field struct{ Name, Value string }

// maxChain is how far up the parent chain the picture goes.
const maxChain = 8

// itemOf reads one document for its page.
func itemOf(ctx context.Context, s *gitsync.Session, ref string) (*Item, error) {
	v, err := s.Show(ctx, s.Repo.RootRef(ref), false)
	if err != nil {
		return nil, err
	}
	vs, err := usecase.VersionsOn(ctx, s, v)
	if err != nil {
		return nil, err
	}
	it := &Item{Versions: vs, Fields: fieldsOf(v.Frontmatter), Outgoing: resolved(v.Outgoing), Incoming: resolved(v.Incoming)}
	src, err := safepath.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(v.Path)), maxBody, s.Repo.Root)
	if err != nil {
		it.BodyErr = err.Error()
	} else {
		it.Body = renderMarkdown(src, v.Path)
	}
	chain, err := parentChain(ctx, s.Store, v)
	if err != nil {
		return nil, err
	}
	it.Picture = picture(neighbourhoodOf(v, chain))
	return it, nil
}

// resolved keeps every edge, those that name a document first.
func resolved(es []index.Edge) []index.Edge {
	out := append([]index.Edge{}, es...)
	sort.SliceStable(out, func(i, j int) bool { return (out[i].Other != nil) && out[j].Other == nil })
	return out
}

// fieldsOf lists the frontmatter's fields in order of name.
func fieldsOf(fm json.RawMessage) []Field {
	var m map[string]json.RawMessage
	if json.Unmarshal(fm, &m) != nil {
		return nil
	}
	out := make([]Field, 0, len(m))
	for k, raw := range m {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, Field{k, s})
			continue
		}
		var b bytes.Buffer
		if json.Compact(&b, raw) != nil {
			b.Reset()
			b.Write(raw)
		}
		out = append(out, Field{k, b.String()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// parentChain is v's ancestors, nearest first, each once, at most
// maxChain of them.
func parentChain(ctx context.Context, st *index.Store, v *index.DocView) ([]index.DocRef, error) {
	var chain []index.DocRef
	seen := map[string]bool{v.Key: true}
	edges := v.Outgoing
	for range maxChain {
		var next *index.DocRef
		for _, e := range edges {
			if e.Type == graph.EdgeParent && e.Other != nil && !seen[e.Other.Key] {
				next = e.Other
				break
			}
		}
		if next == nil {
			break
		}
		seen[next.Key] = true
		chain = append(chain, *next)
		pv, err := st.Show(ctx, next.Key, false)
		if err != nil {
			return nil, err
		}
		edges = pv.Outgoing
	}
	return chain, nil
}

// item answers GET /item?ref=ID|KEY|PATH.
func (m *Server) item(w http.ResponseWriter, r *http.Request) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	var it *Item
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		var err error
		it, err = itemOf(ctx, s, ref)
		return err
	})
	title := ref
	if it != nil {
		title = it.ID + " " + it.Title
	}
	m.page(w, r, "item", title, fr, it, err)
}
