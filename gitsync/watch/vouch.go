package watch

import (
	"context"

	"github.com/canon-md/canon/gitsync"
)

// A server that listens (canon mcp, canon serve) answers the commands'
// cookies too (ADR-0086), as canon watch does, but only while it takes
// every edit in: its watches are all in place, its events flow, and its
// last catch-up (the first one a reconcile of the whole working tree)
// succeeded. While it does, it holds a listener lock
// (gitsync.AcquireListener), so that a command knows it may ask; when it
// stops doing so, it lets the lock go and answers nothing, and commands
// walk the working tree themselves.

// Asked hears a cookie a command dropped (at most one signal waits): the
// server then takes its turn, catches up (Flush) and says how it went
// (Vouch), which answers the cookie.
func (w *Watcher) Asked() <-chan struct{} { return w.asked }

// Vouch is a listening server's word after a catch-up: err is nil when
// the index holds every edit heard before it (Flush) and every edit made
// before the server listened (its first reconcile). Then the cookies
// flushed are answered and the listener lock is held; otherwise it is let
// go and the cookies are left to time out.
func (w *Watcher) Vouch(err error) {
	w.mu.Lock()
	cookies := w.flushed
	w.flushed = nil
	healthy := err == nil && !w.broken && !w.tree.missed
	w.mu.Unlock()
	if !healthy {
		w.unvouch()
		return
	}
	if w.vouching == nil {
		l, err := gitsync.AcquireListener(w.s.Repo.CanonDir())
		if err != nil {
			return // not said: commands walk, and the cookies time out
		}
		w.vouching = l
	}
	answer(cookies)
}

// unvouch lets the listener lock go: commands no longer ask.
func (w *Watcher) unvouch() {
	if w.vouching != nil {
		w.vouching.Release()
		w.vouching = nil
	}
}

// Answer runs takeIn on a goroutine of its own: once at once (the first
// catch-up, which reconciles what was edited before the server listened,
// so that it vouches before any call), then each time a command asks,
// until ctx ends; the channel it returns is closed then. takeIn takes the
// server's turn, catches up and Vouches.
func (w *Watcher) Answer(ctx context.Context, takeIn func(ctx context.Context)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		takeIn(ctx)
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.asked:
				takeIn(ctx)
			}
		}
	}()
	return done
}
