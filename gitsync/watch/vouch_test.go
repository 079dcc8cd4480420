package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest/hang"
)

// listening is a Watcher a server would run: Listen, Flush and Vouch on
// the test's goroutine.
func listening(t *testing.T) *Watcher {
	t.Helper()
	root := gitRepo(t, map[string]string{"items/a.md": "---\nid: A-1\n---\n# A\n"})
	s, err := gitsync.Open(root, "canon mcp (test)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w, err := New(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Listen()
	t.Cleanup(func() { w.Close() })
	return w
}

// cookie drops a command's cookie and waits until the listener heard it.
func cookie(t *testing.T, w *Watcher, name string) string {
	t.Helper()
	p := filepath.Join(w.s.Repo.GitDir, gitsync.CookiePrefix+name)
	write(t, p, "")
	select {
	case <-w.Asked():
	case <-time.After(hang.Limit):
		t.Fatalf("hung: the listener never heard the cookie %s", name)
	}
	return p
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// A listening server answers a command's cookie only after a catch-up
// that succeeded, and says it listens (the lock commands look for) only
// while its catch-ups succeed and every folder is watched (ADR-0086).
func TestListenerVouchesOnlyWhenItTookEverythingIn(t *testing.T) {
	w := listening(t)
	canonDir := w.s.Repo.CanonDir()
	ctx := context.Background()
	if gitsync.ListenerRunning(canonDir) {
		t.Fatal("a listener that has not caught up yet says it listens")
	}

	c := cookie(t, w, "1-1")
	if _, err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Vouch(errors.New("the reconcile failed"))
	if !exists(c) || gitsync.ListenerRunning(canonDir) {
		t.Fatalf("a failed catch-up answered the cookie (%v) or says it listens (%v)", !exists(c), gitsync.ListenerRunning(canonDir))
	}
	os.Remove(c) // the command gave up and walked

	c = cookie(t, w, "1-2")
	if _, err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Vouch(nil)
	if exists(c) || !gitsync.ListenerRunning(canonDir) {
		t.Fatalf("a catch-up that succeeded left the cookie (%v) or does not say it listens (%v)", exists(c), gitsync.ListenerRunning(canonDir))
	}

	// A folder it could not watch: its edits would go unheard.
	w.mu.Lock()
	w.tree.missed = true
	w.mu.Unlock()
	c = cookie(t, w, "1-3")
	if _, err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Vouch(nil)
	if !exists(c) || gitsync.ListenerRunning(canonDir) {
		t.Fatalf("a listener missing a folder answered (%v) or says it listens (%v)", !exists(c), gitsync.ListenerRunning(canonDir))
	}
	os.Remove(c)

	// Events lost (the watches closed under it).
	w.mu.Lock()
	w.tree.missed = false
	w.mu.Unlock()
	w.Vouch(nil)
	if !gitsync.ListenerRunning(canonDir) {
		t.Fatal("a listener healthy again does not say it listens")
	}
	w.lost()
	w.Vouch(nil)
	if gitsync.ListenerRunning(canonDir) {
		t.Fatal("a listener that lost events says it listens")
	}
}

// Close stops the answers before it lets the lock go, for good: a call
// still in flight that Vouches after it neither answers a cookie nor
// takes the listener lock again (ADR-0086).
func TestClosedListenerNeverVouchesAgain(t *testing.T) {
	w := listening(t)
	canonDir := w.s.Repo.CanonDir()
	ctx := context.Background()
	if _, err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Vouch(nil)
	if !gitsync.ListenerRunning(canonDir) {
		t.Fatal("a healthy listener does not say it listens")
	}
	c := cookie(t, w, "1-1")
	if _, err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if gitsync.ListenerRunning(canonDir) {
		t.Fatal("a closed listener still holds its lock")
	}
	// The watches' end marks the events lost, on readEvents' goroutine
	// and after Close returned: a call in flight may Vouch before that.
	hang.Until(t, "the closed watches are seen", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.broken
	})
	w.mu.Lock()
	w.broken = false
	w.mu.Unlock()
	w.Vouch(nil) // the call in flight
	if gitsync.ListenerRunning(canonDir) || !exists(c) {
		t.Fatalf("after Close a Vouch took the lock again (%v) or answered a cookie (%v)", gitsync.ListenerRunning(canonDir), !exists(c))
	}
}

// A listener that could not take its lock (a command's look held the
// file that instant) tries again by itself, without a request or a
// cookie: nobody asks a server that does not say it listens.
func TestListenerTakesALostLockAgain(t *testing.T) {
	w := listening(t)
	canonDir := w.s.Repo.CanonDir()
	tries := make(chan int, 8)
	n := 0
	w.acquire = func(dir string) (*gitsync.ListenerLock, error) {
		n++
		defer func() { tries <- n }()
		if n == 1 {
			return nil, errors.New("take the listener lock: held")
		}
		return gitsync.AcquireListener(dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := w.Answer(ctx, func(ctx context.Context) {
		_, err := w.Flush(ctx)
		w.Vouch(err)
	})
	defer func() { cancel(); <-done }()
	for want := 1; want <= 2; want++ {
		select {
		case got := <-tries:
			if got != want {
				t.Fatalf("try %d, want %d", got, want)
			}
		case <-time.After(hang.Limit):
			t.Fatalf("hung: a listener that lost its lock never tried again (tries: %d)", want-1)
		}
	}
	if !gitsync.ListenerRunning(canonDir) {
		t.Fatal("the second try took no lock")
	}
}

// canon watch's own loop answers cookies as a server's Vouch does: not
// while a folder is unwatched or the events stopped, for an answer would
// vouch for edits it may not have heard (a reviewer saw a search miss a
// word written in a folder the inotify limit left unwatched).
func TestWatchAnswersOnlyWhileHealthy(t *testing.T) {
	w := listening(t)
	p := filepath.Join(w.s.Repo.GitDir, gitsync.CookiePrefix+"2-1")
	write(t, p, "")
	w.mu.Lock()
	w.tree.missed = true
	w.mu.Unlock()
	w.answer([]string{p})
	if !exists(p) {
		t.Fatal("a watcher missing a folder answered a cookie")
	}
	w.mu.Lock()
	w.tree.missed = false
	w.mu.Unlock()
	w.lost()
	w.answer([]string{p})
	if !exists(p) {
		t.Fatal("a watcher whose events stopped answered a cookie")
	}
	w.mu.Lock()
	w.broken = false
	w.mu.Unlock()
	w.answer([]string{p})
	if exists(p) {
		t.Fatal("a healthy watcher left the cookie")
	}
}
