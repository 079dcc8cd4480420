package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/canon-md/canon/cmd/internal/mcpserver"
	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
)

// Server holds one session on the repository for its whole life, as canon
// mcp's does: a request takes its turn on it, catches the index up with
// HEAD and with the edits the listener heard, and answers in its turn.
// The board is one person's: requests are few, and answering one at a
// time keeps the overlays' writes and the catch-up apart.
type Server struct {
	turn   chan struct{} // holding it: a send; capacity 1
	s      *gitsync.Session
	listen *watch.Watcher // nil when the system cannot watch the folders
	looked bool           // the first catch-up reconciled the working tree
	// The listener answers the commands' cookies (ADR-0086) on a
	// goroutine of its own until stop; answered is closed when it has.
	stop     context.CancelFunc
	answered <-chan struct{}
	hub      *hub
	kept     *boardBase // the board's base at the last sync it was read (in the turn)
	// timeout bounds a request's work after its catch-up.
	timeout time.Duration
	csrf    string // the session's form token (the guard's), for the pages
	me      string // who a claim names when the page names no one
	commit  bool   // a move or a claim is committed alone (canon serve --commit)
}

// requestTimeout bounds the work of one page.
const requestTimeout = 30 * time.Second

// New opens the repository around dir. Its wait for another process's
// schema migration of the index ends when ctx does.
func New(ctx context.Context, dir string) (*Server, error) {
	s, err := gitsync.OpenContext(ctx, dir, "canon serve")
	if err != nil {
		return nil, err
	}
	s.OnSync(hooks.TellWorksets(nil, nil))
	hooks.FinishWrites(ctx, s, func(msg string) { fmt.Fprintln(os.Stderr, "canon: "+msg) })
	s.Store.UseVectors(s.Repo.VectorsPath(), s.Repo.GitDir) // as canon search does
	m := &Server{s: s, turn: make(chan struct{}, 1), timeout: requestTimeout, me: usecase.Claimant(ctx, s, "")}
	if w, err := watch.New(s, watch.Options{}); err == nil {
		w.Listen()
		m.listen = w
		var bg context.Context
		bg, m.stop = context.WithCancel(context.WithoutCancel(ctx))
		m.answered = w.Answer(bg, func(ctx context.Context) { _, _ = m.call(ctx, nil) })
	}
	m.hub = newHub(m)
	return m, nil
}

// Close stops listening and releases the repository's index, once the
// call in its turn ends: it takes the turn and keeps it, so that no call
// runs on the closed session (one that waits ends with its request).
func (m *Server) Close() {
	m.hub.close()
	if m.stop != nil {
		m.stop()
		<-m.answered // before the turn: it may wait for it
	}
	m.turn <- struct{}{}
	if m.listen != nil {
		_ = m.listen.Close()
	}
	m.s.Close()
}

// Fresh is how fresh a page is: the indexed commit, HEAD, and when the
// index last synced.
type Fresh struct {
	Indexed  string `json:"indexed"`
	Head     string `json:"head"`
	SyncedAt string `json:"synced_at"`
	SyncID   string `json:"-"`
	Edits    int    `json:"edits,omitempty"` // edits this catch-up took in
}

// call runs fn on the session in its turn, once the index has caught up.
func (m *Server) call(ctx context.Context, fn func(ctx context.Context, s *gitsync.Session, f Fresh) error) (Fresh, error) {
	select {
	case m.turn <- struct{}{}:
	case <-ctx.Done():
		return Fresh{}, ctx.Err()
	}
	defer func() { <-m.turn }()
	f, err := m.catchUp(ctx)
	if err != nil {
		return f, err
	}
	if fn == nil {
		return f, nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	return f, fn(ctx, m.s, f)
}

// catchUp brings the index to HEAD and to the edits heard; the caller
// holds the turn. A listening server vouches for the index when it
// succeeds (watch.Watcher.Vouch) and stops when it fails.
func (m *Server) catchUp(ctx context.Context) (Fresh, error) {
	f, err := m.takeIn(ctx)
	if m.listen != nil {
		m.listen.Vouch(err)
	}
	return f, err
}

// takeIn is catchUp's work.
func (m *Server) takeIn(ctx context.Context) (Fresh, error) {
	s := m.s
	if _, err := s.Fresh(ctx); err != nil {
		return Fresh{}, err
	}
	var f Fresh
	switch {
	case m.listen != nil && !m.looked:
		m.listen.Flush(ctx) //nolint:errcheck // the reconcile reads it all again
		res, err := s.Reconcile(ctx)
		if err != nil {
			return f, err
		}
		m.looked = true
		f.Edits = res.Changes.Files()
	case m.listen != nil:
		n, err := m.listen.Flush(ctx)
		if err != nil {
			return f, err
		}
		f.Edits = n
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		return f, err
	}
	f.Indexed, f.SyncedAt, f.SyncID = meta[index.MetaHead], meta[index.MetaSyncedAt], meta[index.MetaSyncID]
	f.Head, _, _ = s.Repo.Head()
	return f, nil
}

// Options say how canon serve serves.
type Options struct {
	// Addr is a loopback address (127.0.0.1:PORT, localhost:PORT,
	// [::1]:PORT) or unix:PATH.
	Addr string
	// Token is what every request carries, in the cookie or the URL.
	Token string
	// Ready, when set, hears the address once the server listens.
	Ready func(addr string)
	// Commit commits each move and claim made on the board alone, as
	// canon set --commit and canon claim --commit do.
	Commit bool
}

// unixPrefix marks an address that is a Unix socket.
const unixPrefix = "unix:"

// CheckAddr refuses an address another machine could reach (canon mcp's
// rule).
func CheckAddr(addr string) error { return mcpserver.CheckAddr(addr) }

// NewToken makes a token: 128 random bits, in base32.
func NewToken() string { return mcpserver.NewToken() }

// Serve serves o.Addr until ctx ends.
func (m *Server) Serve(ctx context.Context, o Options) error {
	if len(o.Token) < 16 {
		return errors.New("canon serve needs a token of 16 characters or more")
	}
	l, err := mcpserver.Listen(o.Addr)
	if err != nil {
		return err
	}
	addr := l.Addr().String()
	if l.Addr().Network() == "unix" {
		addr = o.Addr
		defer os.Remove(strings.TrimPrefix(o.Addr, unixPrefix))
	}
	m.commit = o.Commit
	srv := &http.Server{Handler: m.Handler(addr, o.Token), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		m.hub.close() // the event streams end, then the server
		srv.Close()
	}()
	go m.warm() // the first board, read while the user opens the URL
	if o.Ready != nil {
		o.Ready(addr)
	}
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler is the whole application behind its guard, served at addr (a
// loopback host:port, or unix:PATH).
func (m *Server) Handler(addr, token string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", m.board)
	mux.HandleFunc("GET /item", m.item)
	mux.HandleFunc("GET /context", m.pack)
	mux.HandleFunc("GET /branches", m.branches)
	mux.HandleFunc("GET /problems", m.problems)
	mux.HandleFunc("GET /search", m.search)
	mux.HandleFunc("GET /events", m.events)
	mux.HandleFunc("POST /move", m.move)
	mux.HandleFunc("POST /claim", m.claim)
	mux.Handle("GET /static/", staticHandler())
	g := newGuard(addr, token, mux)
	m.csrf = g.csrf
	return g
}
