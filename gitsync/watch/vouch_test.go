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
func listening(t *testing.T) (*Watcher, string) {
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
	return w, root
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
	w, _ := listening(t)
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
