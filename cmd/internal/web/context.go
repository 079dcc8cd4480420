package web

import (
	"context"
	"net/http"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
)

// Pack is the context page's data: the pack canon context --for gives an
// agent that takes the item.
type Pack struct {
	Ref string
	*graph.Pack
}

// pack answers GET /context?ref=ID|KEY|PATH: canon context --for's pack.
func (m *Server) pack(w http.ResponseWriter, r *http.Request) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	p := &Pack{Ref: ref}
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		var err error
		p.Pack, err = usecase.Context(ctx, s, usecase.ContextArgs{For: s.Repo.RootRef(ref)})
		return err
	})
	m.page(w, r, "context", "Context for "+ref, fr, p, err)
}
