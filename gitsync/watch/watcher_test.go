package watch

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest"
)

// running is a Watcher at work on a real repository, its reports collected.
type running struct {
	t      *testing.T
	root   string
	w      *Watcher
	mu     sync.Mutex
	syncs  []*Report
	errs   []error
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
	r.w = w
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- w.Run(ctx) }()
	t.Cleanup(func() {
		r.stop()
		w.Session().Close()
	})
	r.waitSync(func(rep *Report) bool { return rep.Trigger == TriggerStart })
	return r
}

func (r *running) stop() {
	if r.cancel != nil {
		r.cancel()
		if err := <-r.done; err != nil {
			r.t.Error(err)
		}
		r.cancel = nil
	}
}

// waitSync polls the reports until one satisfies ok.
func (r *running) waitSync(ok func(*Report) bool) *Report {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, rep := range r.syncs {
			if ok(rep) {
				r.mu.Unlock()
				return rep
			}
		}
		r.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.t.Fatalf("no such sync among %d (errors: %v)", len(r.syncs), r.errs)
	return nil
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
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.errs)
		r.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the locked index was not reported")
		}
		time.Sleep(5 * time.Millisecond)
	}
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
	time.Sleep(50 * time.Millisecond) // the edit's event is in: the hour-long wait has begun
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
// lock, and stopping the watcher (Ctrl-C) ends the wait at once, not after
// the migration's 30 seconds.
func TestStopEndsAReopensWait(t *testing.T) {
	t.Parallel()
	root := gitRepo(t, map[string]string{"items/a.md": "# A\n", ".canon/config.yaml": "roots: [.]\n"})
	r := startWatcher(t, root, Options{Debounce: 300 * time.Millisecond}) // the change stays pending a while
	indextest.MigrationHeld(t, filepath.Join(root, ".git", "canon", "index.db"))
	write(t, filepath.Join(root, ".canon", "config.yaml"), "roots: [items]\n")
	r.waitConfig(true)  // the change seen
	r.waitConfig(false) // and taken by the sync that reopens
	start := time.Now()
	r.stop()
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stopped after %v; the reopen's wait must end with the watcher", took)
	}
}

// waitConfig polls until the pending set's configuration change is as
// wanted.
func (r *running) waitConfig(want bool) {
	r.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		r.w.mu.Lock()
		got := r.w.p.config
		r.w.mu.Unlock()
		if got == want {
			return
		}
	}
	r.t.Fatalf("the pending configuration change never became %v", want)
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
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		refs, err := r.w.Session().Store.Refs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(refs) == 1 && refs[0].Name == "refs/heads/side" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the watcher did not bring the overlay of refs/heads/side up")
}
