package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

// The board writes through the use cases of canon set and canon claim
// (usecase.Move, usecase.Claim), with their refusals: a state the
// repository's documents of that kind are not in, an item taken here or
// on another branch or worktree, an edit canon check would report. A
// move or a claim is a POST the guard let through (the server's Origin,
// the cookie, the session's form token); its answer is JSON, canon's
// lines or its refusal in one sentence, which the page shows. The page
// then follows the write as it follows any sync: the hub hears the index
// move and the page fetches itself again.

// written is the answer to a move or a claim.
type written struct {
	OK bool `json:"ok"`
	// Text is what canon set or claim says: the changes and where they
	// were written, or the refusal.
	Text   string `json:"text"`
	Commit string `json:"commit,omitempty"`
}

// move answers POST /move (ref, state): canon set ITEM state=STATE.
func (m *Server) move(w http.ResponseWriter, r *http.Request) {
	ref, state := r.PostFormValue("ref"), strings.TrimSpace(r.PostFormValue("state"))
	m.write(w, r, func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
		return usecase.Move(ctx, s, ref, state, usecase.ItemArgs{Commit: m.commit, Command: "canon set"})
	})
}

// claim answers POST /claim (ref, as): canon claim ITEM --as NAME, the
// name the one who runs canon serve goes by when as is empty.
func (m *Server) claim(w http.ResponseWriter, r *http.Request) {
	ref, as := r.PostFormValue("ref"), strings.TrimSpace(r.PostFormValue("as"))
	if as == "" {
		as = m.me
	}
	m.write(w, r, func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
		return usecase.Claim(ctx, s, ref, as, usecase.ItemArgs{Commit: m.commit})
	})
}

// write runs one item edit in the session's turn and answers what it
// did, or canon's refusal.
func (m *Server) write(w http.ResponseWriter, r *http.Request, edit func(context.Context, *gitsync.Session) (*usecase.ItemEdited, error)) {
	var res *usecase.ItemEdited
	_, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		var err error
		res, err = edit(ctx, s)
		return err
	})
	code, out := http.StatusOK, written{OK: err == nil}
	msg, refused := usecase.Refusal(err)
	switch {
	case refused:
		code, out.Text = http.StatusUnprocessableEntity, msg
	case err != nil:
		code, out.Text = http.StatusInternalServerError, gitsync.Explain(err, "")
	default:
		var b strings.Builder
		_ = res.WriteText(&b)
		out.Text, out.Commit = strings.TrimSpace(b.String()), res.Commit
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(out)
}
