package watch

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/hang"
)

// stopped waits for Run to return by itself and says why it did.
func (r *running) stopped(what string) string {
	r.t.Helper()
	if err := hang.Wait(r.t, r.done, what); err != nil {
		r.t.Fatal(err)
	}
	r.cancel()
	r.cancel = nil // Run returned: the cleanup has nothing to wait for
	return r.w.Stopped()
}

// A watcher with Options.Idle stops by itself when no command asked it for
// that long, and a cookie answered puts the stop off.
func TestIdleWatcherStops(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{Idle: 300 * time.Millisecond})
	cookie := filepath.Join(r.w.Session().Repo.GitDir, gitsync.CookiePrefix+"1-1")
	write(t, cookie, "")
	hang.Until(t, "the cookie was never answered", func() bool {
		_, err := os.Lstat(cookie)
		return os.IsNotExist(err)
	})
	if why := r.stopped("the idle watcher never stopped"); why != StopIdle {
		t.Fatalf("Stopped() = %q, want %q", why, StopIdle)
	}
}

// A watcher whose working tree is removed stops by itself.
func TestWatcherStopsWhenTheWorktreeGoes(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{})
	gone := root + "-gone"
	if err := os.Rename(root, gone); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Rename(gone, root) }) // TempDir removes it
	if why := r.stopped("the watcher of a removed worktree never stopped"); why != StopGone {
		t.Fatalf("Stopped() = %q, want %q", why, StopGone)
	}
}

// A watcher of an older canon stops, answering nothing, once a newer one
// migrated the index to its schema: its syncs and answers would be the
// old code's (a reviewer's upgraded binary was answered by the old
// watcher a command had started).
func TestWatcherStopsWhenTheSchemaChanges(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{})
	repo := r.w.Session().Repo
	if err := indextest.Craft(repo.IndexPath(), `PRAGMA user_version = `+strconv.Itoa(index.SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	cookie := filepath.Join(repo.GitDir, gitsync.CookiePrefix+"1-1")
	write(t, cookie, "")
	if why := r.stopped("the watcher of another schema's index never stopped"); why != StopSchema {
		t.Fatalf("Stopped() = %q, want %q", why, StopSchema)
	}
	if _, err := os.Lstat(cookie); err != nil {
		t.Fatal("the watcher of another schema's index answered the cookie")
	}
}

// A watcher a command started that cannot watch every folder stops, so
// that the commands walk at once rather than wait for answers it will not
// give, and the watches go back to the system (ADR-0089).
func TestStartedWatcherStopsWhenItMissesAFolder(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{StartedBy: gitsync.StartedByCommand})
	r.w.mu.Lock()
	r.w.tree.missed = true // as when the system's limit of watches is reached
	r.w.mu.Unlock()
	write(t, filepath.Join(root, "items", "a.md"), "# A again\n")
	if why := r.stopped("the watcher missing a folder never stopped"); why != StopMissed {
		t.Fatalf("Stopped() = %q, want %q", why, StopMissed)
	}
}
