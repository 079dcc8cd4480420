package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/canon-md/canon/gitsync"
)

// Live pages: while a page is open it listens on GET /events (server-sent
// events). The hub looks once a second, in the session's turn, whether
// anything moved: it catches the index up (a commit, a checkout, an edit
// the listener heard, a sync the hooks or canon watch made) and brings the
// other branches' and worktrees' overlays up to date; when the index's
// sync, HEAD or a followed ref moved, every open page hears "sync" and
// fetches its data again. Every event carries the freshness the page
// shows. The hub runs only while some page listens.

// pollEvery is how often the hub looks.
const pollEvery = time.Second

// hub tells the open pages of each sync.
type hub struct {
	m     *Server
	every time.Duration

	mu      sync.Mutex
	subs    map[chan Fresh]bool
	running bool
	closed  bool
	stop    chan struct{}
	last    string // what the pages last heard: sync id, HEAD, the refs
}

func newHub(m *Server) *hub {
	return &hub{m: m, every: pollEvery, subs: map[chan Fresh]bool{}, stop: make(chan struct{})}
}

// subscribe adds a listener and starts the loop when it is the first;
// nil when the hub is closed.
func (h *hub) subscribe() chan Fresh {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	c := make(chan Fresh, 1)
	h.subs[c] = true
	if !h.running {
		h.running = true
		go h.loop()
	}
	return c
}

func (h *hub) unsubscribe(c chan Fresh) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, c)
}

// close ends the loop and every stream.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.stop)
	}
}

// loop looks every h.every until no page listens.
func (h *hub) loop() {
	t := time.NewTicker(h.every)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		h.mu.Lock()
		if len(h.subs) == 0 {
			h.running = false
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		f, mark, err := h.look()
		if err != nil {
			continue // the next look tries again; the pages keep what they show
		}
		h.mu.Lock()
		moved := mark != h.last
		h.mu.Unlock()
		if moved {
			// The pages fetch themselves at once: the board's base is
			// read for them first, in the same look, so that the board
			// they fetch is a kept one.
			h.m.warm()
		}
		h.mu.Lock()
		if mark != h.last {
			h.last = mark
			for c := range h.subs {
				select {
				case <-c: // a page that has not read the last one gets the newest
				default:
				}
				c <- f
			}
		}
		h.mu.Unlock()
	}
}

// warm reads the board's base for the index as it stands, unless it is
// kept already (Server.base): after a sync, before any page asks.
func (m *Server) warm() {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	go func() { // a server that stops does not wait for it
		select {
		case <-m.hub.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	_, _ = m.call(ctx, func(ctx context.Context, s *gitsync.Session, f Fresh) error {
		_, err := m.base(ctx, s, f)
		return err
	})
}

// look catches up and says where the index and the followed refs stand.
func (h *hub) look() (Fresh, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	var mark strings.Builder
	f, err := h.m.call(ctx, func(ctx context.Context, s *gitsync.Session, f Fresh) error {
		fmt.Fprintf(&mark, "%s %s %s", f.SyncID, f.Indexed, f.Head)
		if _, err := s.Overlays(ctx); err != nil {
			return err
		}
		refs, err := s.Store.Refs(ctx)
		if err != nil {
			return err
		}
		for _, r := range refs {
			fmt.Fprintf(&mark, " %s=%s", r.Name, r.OID)
		}
		return nil
	})
	return f, mark.String(), err
}

// mark is where the index stands now, as look says it: the first answer
// of a stream, so that it tells only what moves after.
func (h *hub) current() (Fresh, error) {
	f, mark, err := h.look()
	if err == nil {
		h.mu.Lock()
		if h.last == "" {
			h.last = mark
		}
		h.mu.Unlock()
	}
	return f, err
}

// events answers GET /events: a stream of "fresh" (at once) and "sync"
// (each time the index or a followed ref moved) events.
func (m *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "canon serve: streaming is not supported here", http.StatusInternalServerError)
		return
	}
	c := m.hub.subscribe()
	if c == nil {
		http.Error(w, "canon serve: stopping", http.StatusServiceUnavailable)
		return
	}
	defer m.hub.unsubscribe(c)
	f, err := m.hub.current()
	if err != nil {
		http.Error(w, "canon serve: "+gitsync.Explain(err, ""), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	send := func(name string, f Fresh) bool {
		data, _ := json.Marshal(f) // strings only
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	if !send("fresh", f) {
		return
	}
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-m.hub.stop:
			return
		case f := <-c:
			if !send("sync", f) {
				return
			}
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}
