package watch

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/hang"
)

// running is a Watcher at work on a real repository, its reports collected.
type running struct {
	t      *testing.T
	root   string
	w      *Watcher
	mu     sync.Mutex
	syncs  []*Report
	errs   []error
	waits  []time.Duration // the waits settle began, in order
	cancel context.CancelFunc
	done   chan error
}

func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	for name, content := range files {
		write(t, filepath.Join(root, name), content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(gitsync.ScrubbedEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

func startWatcher(t *testing.T, root string, opt Options) *running {
	t.Helper()
	s, err := gitsync.Open(root, "canon watch (test)")
	if err != nil {
		t.Fatal(err)
	}
	s.LockWait = 100 * time.Millisecond // TestFailedSyncIsRetried holds the lock
	r := &running{t: t, root: root, done: make(chan error, 1)}
	if opt.Debounce == 0 {
		opt.Debounce = 20 * time.Millisecond
	}
	opt.OnSync = func(rep *Report) {
		r.mu.Lock()
		r.syncs = append(r.syncs, rep)
		r.mu.Unlock()
	}
	opt.OnError = func(err error) {
		r.mu.Lock()
		r.errs = append(r.errs, err)
		r.mu.Unlock()
	}
	w, err := New(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	w.settling = func(wait time.Duration) {
		r.mu.Lock()
		r.waits = append(r.waits, wait)
		r.mu.Unlock()
	}
	r.w = w
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- w.Run(ctx) }()
	t.Cleanup(func() {
		r.stop("the watcher did not stop when its context ended")
		w.Session().Close()
		if t.Failed() {
			r.mu.Lock()
			t.Logf("the watcher's %d syncs; its errors: %v", len(r.syncs), r.errs)
			r.mu.Unlock()
		}
	})
	r.waitSync(func(rep *Report) bool { return rep.Trigger == TriggerStart })
	return r
}

// stop ends the watcher's context and waits for Run to return; a Run
// that does not return fails the test as hung, saying what: the wait it
// was stuck in.
func (r *running) stop(what string) {
	r.t.Helper()
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.cancel = nil
	if err := hang.Wait(r.t, r.done, what); err != nil {
		r.t.Error(err)
	}
}

// until polls what the watcher reported (under r.mu) until cond holds;
// a watcher that never gets there fails the test as hung, after
// hang.Limit.
func (r *running) until(what string, cond func() bool) {
	r.t.Helper()
	hang.Until(r.t, what, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return cond()
	})
}

// waitSync polls the reports until one satisfies ok.
func (r *running) waitSync(ok func(*Report) bool) *Report {
	r.t.Helper()
	var found *Report
	r.until("no such sync", func() bool {
		for _, rep := range r.syncs {
			if ok(rep) {
				found = rep
				return true
			}
		}
		return false
	})
	return found
}

func touched(path string) func(*Report) bool {
	return func(rep *Report) bool {
		ch := rep.Result.Changes
		if ch == nil {
			return false
		}
		for _, l := range [][]string{ch.Added, ch.Modified, ch.Deleted} {
			for _, p := range l {
				if p == path {
					return true
				}
			}
		}
		return false
	}
}

// unwatch drops a folder's watch, as a lost event would leave it unseen.
func (r *running) unwatch(rel string) {
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	r.w.tree.dropTree(rel)
}

func (r *running) watched(rel string) bool {
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	return r.w.tree.dirs[rel]
}

func TestOverflowReconcilesEverything(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n", "other/b.md": "# B\n"})
	r := startWatcher(t, root, Options{})
	// An edit the watcher cannot see, then the kernel says it dropped
	// events: everything is looked at, and the folder is watched again.
	r.unwatch("other")
	write(t, filepath.Join(root, "other/b.md"), "# B, unseen\n")
	r.w.overflowed()
	rep := r.waitSync(touched("other/b.md"))
	if rep.Trigger != TriggerOverflow || rep.Result.Action != gitsync.ActionReconcile {
		t.Fatalf("trigger %s, action %s", rep.Trigger, rep.Result.Action)
	}
	if !r.watched("other") {
		t.Fatal("the folder is not watched again after the overflow")
	}
}

func TestPeriodicRescan(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n", "other/b.md": "# B\n"})
	r := startWatcher(t, root, Options{Rescan: 100 * time.Millisecond})
	r.unwatch("other")
	write(t, filepath.Join(root, "other/b.md"), "# B, unseen\n")
	rep := r.waitSync(touched("other/b.md"))
	if rep.Trigger != TriggerRescan {
		t.Fatalf("trigger %s", rep.Trigger)
	}
}

func TestFailedSyncIsRetried(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{})
	// Another process holds the writer lock (a long canon index --full).
	other, _, err := index.Open(filepath.Join(root, ".git", "canon", "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	unlock, err := other.Lock(context.Background(), "canon index --full (test)", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "items/a.md"), "# A, edited\n")
	r.until("the locked index was not reported", func() bool { return len(r.errs) > 0 })
	r.mu.Lock()
	var le *index.LockedError
	if !errors.As(r.errs[0], &le) || !strings.Contains(le.Holder, "canon index --full (test)") {
		t.Fatalf("error %v does not name the holder", r.errs[0])
	}
	r.mu.Unlock()
	unlock()
	r.waitSync(touched("items/a.md"))
}

// A move of HEAD ends a burst: the watcher syncs soon after it (gitQuiet),
// not after its configured quiet time, even when an edit made before it
// had already started that wait. Here the quiet time is an hour.
func TestMoveOfHEADSyncsWithoutTheQuietTime(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n"})
	r := startWatcher(t, root, Options{Debounce: time.Hour, MaxDelay: time.Hour})
	write(t, filepath.Join(root, "items/a.md"), "# A, committed\n")
	// The edit's event is in: the hour-long wait has begun.
	r.until("the edit never started the quiet time's wait", func() bool {
		return len(r.waits) > 0 && r.waits[len(r.waits)-1] > time.Minute
	})
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "edit")
	cmd.Dir = root
	cmd.Env = append(gitsync.ScrubbedEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	rep := r.waitSync(touched("items/a.md"))
	if rep.Result.To == "" || rep.Trigger != TriggerGit {
		t.Fatalf("trigger %s, to %q", rep.Trigger, rep.Result.To)
	}
}

// TestStopEndsAReopensWait: a configuration change reopens the session;
// when another process is migrating the index, that open waits for its
// lock, and stopping the watcher (Ctrl-C) ends the wait, not the
// migration's own limit: under MigrationHeld that wait has none, so a
// stop that did not end it would hang.
func TestStopEndsAReopensWait(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n", ".canon/config.yaml": "roots: [.]\n"})
	r := startWatcher(t, root, Options{Debounce: 300 * time.Millisecond}) // the change stays pending a while
	indextest.MigrationHeld(t, filepath.Join(root, ".git", "canon", "index.db"))
	write(t, filepath.Join(root, ".canon", "config.yaml"), "roots: [items]\n")
	r.waitConfig(true)  // the change seen
	r.waitConfig(false) // and taken by the sync that reopens
	r.stop("the reopen's wait for the migration did not end with the watcher")
}

// waitConfig polls until the pending set's configuration change is as
// wanted.
func (r *running) waitConfig(want bool) {
	r.t.Helper()
	hang.Until(r.t, fmt.Sprintf("the pending configuration change never became %v", want), func() bool {
		r.w.mu.Lock()
		defer r.w.mu.Unlock()
		return r.w.p.config == want
	})
}

// TestBranchMoveBringsTheOverlaysUp: a branch created while the watcher
// runs is in the overlays before any command reads them (hooks never do
// this work, ADR-0056: the watcher does it in the background).
func TestBranchMoveBringsTheOverlaysUp(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "---\nid: A-1\nstate: To Do\n---\n"})
	r := startWatcher(t, root, Options{})
	gitIn := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(gitsync.ScrubbedEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("branch", "side")
	hang.Until(t, "the watcher did not bring the overlay of refs/heads/side up", func() bool {
		refs, err := r.w.Session().Store.Refs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(refs) == 1 && refs[0].Name == "refs/heads/side"
	})
}

// TestExcludeChangeIsHeard: info/exclude decides which files are documents
// as a .gitignore does; a rule taken out brings its file in at once (a
// reviewer's watcher kept answering without it).
func TestExcludeChangeIsHeard(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n", "d/ex.md": "# Ex\n\nquokka\n"})
	exclude := filepath.Join(root, ".git", "info", "exclude")
	write(t, exclude, "d/ex.md\n")
	r := startWatcher(t, root, Options{})
	write(t, exclude, "# nothing left out\n")
	rep := r.waitSync(touched("d/ex.md"))
	if rep.Trigger != TriggerIgnore {
		t.Fatalf("trigger %s, want %s", rep.Trigger, TriggerIgnore)
	}
}
