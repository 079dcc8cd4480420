package watch

import (
	"context"
	"time"
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
// go and the cookies are left to time out. After Close it does nothing: a
// call still in flight neither answers nor takes the lock again.
func (w *Watcher) Vouch(err error) {
	w.vouchMu.Lock()
	defer w.vouchMu.Unlock()
	w.mu.Lock()
	cookies := w.flushed
	w.flushed = nil
	healthy := err == nil && !w.broken && !w.tree.missed
	w.mu.Unlock()
	if healthy && w.s.Store.SchemaChanged(context.Background()) {
		healthy = false // another canon's index now: this server's catch-ups are the old code's
	}
	if w.closed {
		return
	}
	w.lockLost = false
	if !healthy {
		w.unvouch()
		return
	}
	if w.vouching == nil {
		l, err := w.acquire(w.s.Repo.CanonDir())
		if err != nil {
			// Not said: commands walk, and the cookies time out. Answer
			// tries again (lockRetry), so that an idle server vouches
			// again without waiting for a request.
			w.lockLost = true
			return
		}
		w.vouching = l
	}
	answer(cookies)
}

// unvouch lets the listener lock go: commands no longer ask. The caller
// holds vouchMu.
func (w *Watcher) unvouch() {
	if w.vouching != nil {
		w.vouching.Release()
		w.vouching = nil
	}
}

// stopVouching is Close's part: first no more answers (a Vouch in
// progress ends, none follows), then the lock goes. A command that still
// sees the lock and drops a cookie waits for it in vain and walks.
func (w *Watcher) stopVouching() {
	w.vouchMu.Lock()
	defer w.vouchMu.Unlock()
	w.closed = true
	w.unvouch()
}

// retryLock reports whether the last Vouch was healthy but could not take
// the listener lock.
func (w *Watcher) retryLock() bool {
	w.vouchMu.Lock()
	defer w.vouchMu.Unlock()
	return w.lockLost
}

// The pauses between Answer's tries to take a lost listener lock: from
// lockRetryFirst, doubling up to lockRetryMost, so that a server whose
// lock stays out of reach costs a catch-up every half minute at most.
const (
	lockRetryFirst = 100 * time.Millisecond
	lockRetryMost  = 30 * time.Second
)

// Answer runs takeIn on a goroutine of its own: once at once (the first
// catch-up, which reconciles what was edited before the server listened,
// so that it vouches before any call), then each time a command asks,
// until ctx ends; the channel it returns is closed then. takeIn takes the
// server's turn, catches up and Vouches. When a Vouch could not take the
// listener lock, takeIn runs again after a pause (growing, bounded) until
// one does: nobody asks a server that does not say it listens.
func (w *Watcher) Answer(ctx context.Context, takeIn func(ctx context.Context)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		takeIn(ctx)
		pause := lockRetryFirst
		for {
			retry := time.NewTimer(pause)
			if w.retryLock() {
				pause = min(2*pause, lockRetryMost)
			} else {
				retry.Stop()
				pause = lockRetryFirst
			}
			select {
			case <-ctx.Done():
				retry.Stop()
				return
			case <-w.asked:
				retry.Stop()
			case <-retry.C:
			}
			takeIn(ctx)
		}
	}()
	return done
}
