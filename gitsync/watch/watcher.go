package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// Triggers: what a sync answers.
const (
	TriggerStart    = "start"    // the first sync: whatever changed while nobody watched
	TriggerEdit     = "edit"     // files saved, created, removed or renamed
	TriggerGit      = "git"      // HEAD or a branch ref moved (a checkout, a commit, a reset)
	TriggerRescan   = "rescan"   // the periodic safety rescan
	TriggerOverflow = "overflow" // the system dropped events: everything is looked at
	TriggerIgnore   = "ignore"   // a .gitignore changed: which files are documents may have
	TriggerConfig   = "config"   // .canon/config.yaml changed
)

// Options tune a Watcher.
type Options struct {
	// Debounce is the quiet time before a sync; MaxDelay bounds the wait
	// under a steady stream of events; Rescan is the period of the safety
	// rescan (0: none).
	Debounce, MaxDelay, Rescan time.Duration
	// Lock, when set, is where the watcher writes its status.
	Lock *gitsync.WatcherLock
	// OnSync hears about every sync, in order, on the syncing goroutine:
	// worksets are invalidated here with Result.Changes.Keys.
	OnSync func(*Report)
	// OnError hears about a failed sync (retried with a growing pause)
	// and about folders that cannot be watched.
	OnError func(error)
	// Idle, when not 0, stops Run after that long with no command's
	// cookie (a watcher a command started, ADR-0089).
	Idle time.Duration
	// StartedBy is written in the status (gitsync.StartedByHand or
	// StartedByCommand).
	StartedBy string
}

// Why Run stopped by itself (Watcher.Stopped); "" when its context ended.
const (
	StopIdle = "idle" // Options.Idle passed with no cookie
	StopGone = "gone" // the working tree or the git folder went away
	// StopSchema: another canon migrated the index to its schema; this
	// one's syncs and answers would be of the old code.
	StopSchema = "schema"
	// StopMissed: a watcher a command started (StartedByCommand) could
	// not watch every folder (the system's limit): it answers nothing
	// then, so it lets the commands walk and gives the watches back.
	StopMissed = "missed"
)

// goneCheck is how often Run looks whether the working tree and the git
// folder are still there.
const goneCheck = 5 * time.Second

// Report says what one sync did.
type Report struct {
	At      time.Time // when the sync started
	Trigger string
	Events  int // file-system events folded into it
	Paths   int // paths an edit sync looked at
	Result  *gitsync.Result
	Elapsed time.Duration
}

// Changed reports a sync that changed the index's content.
func (r *Report) Changed() bool {
	if r.Result == nil {
		return false
	}
	if r.Result.Action == gitsync.ActionRebuild {
		return true
	}
	return r.Result.Changes != nil && !r.Result.Changes.None()
}

// Watcher follows one worktree. Two goroutines share it: one folds
// file-system events into the pending set (and adds and drops watches), the
// other waits for the set to settle and syncs it. They meet in a
// capacity-1 channel: a send that finds it full is dropped, because one
// wake-up already covers everything pending.
type Watcher struct {
	s   *gitsync.Session
	opt Options
	fsw *fsnotify.Watcher

	mu   sync.Mutex // guards tree and p
	tree *tree
	p    *pending

	kick   chan struct{}
	status gitsync.WatcherStatus // owned by the syncing goroutine

	errMu  sync.Mutex
	errMsg string // the last error reported, said once until it changes

	// A listening server's part (vouch.go). listening: Listen was called;
	// asked: a cookie came; flushed: the cookies a Flush passed, which
	// its caller's Vouch answers; broken: an event was lost that no
	// reconcile was asked for (guarded by mu). Guarded by vouchMu:
	// vouching, the listener lock, held while the server vouches;
	// lockLost, the last Vouch was healthy but could not take it; closed,
	// Close has stopped the vouching for good. acquire takes the lock
	// (gitsync.AcquireListener; a test's stand-in).
	listening bool
	asked     chan struct{}
	flushed   []string
	broken    bool
	vouchMu   sync.Mutex
	vouching  *gitsync.ListenerLock
	lockLost  bool
	closed    bool
	acquire   func(canonDir string) (*gitsync.ListenerLock, error)

	// settling, when set (by a test, before Run), hears each wait settle
	// begins and how long it is: a test waits for the wait it means to
	// cut short, not for a sleep that guesses when it began.
	settling func(wait time.Duration)

	// askedAt is when the latest cookie came (guarded by mu), the start
	// before one did: Options.Idle counts from it. stopped is why Run
	// stopped by itself.
	askedAt time.Time
	stopped string
	// goneEvery, when set (by a test), replaces goneCheck.
	goneEvery time.Duration
}

// Stopped says why Run returned by itself (StopIdle, StopGone), or ""
// when its context ended.
func (w *Watcher) Stopped() string { return w.stopped }

// New prepares a watcher over the session's worktree. The session must
// stay open while the watcher runs; Run may swap in a new one when the
// configuration changes, and closes what it swapped out.
func New(s *gitsync.Session, opt Options) (*Watcher, error) {
	if opt.MaxDelay < opt.Debounce {
		opt.MaxDelay = opt.Debounce
	}
	fsw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return nil, fmt.Errorf("start watching files: %w", err)
	}
	w := &Watcher{s: s, opt: opt, fsw: fsw, p: newPending(), kick: make(chan struct{}, 1), asked: make(chan struct{}, 1), acquire: gitsync.AcquireListener}
	w.tree = newTree(s.Repo, s.Cfg, fsw, func(msg string) { w.report(errors.New(msg)) })
	return w, nil
}

// Session is the session the watcher syncs through now.
func (w *Watcher) Session() *gitsync.Session { return w.s }

// Folders is the number of folders watched.
func (w *Watcher) Folders() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tree.count()
}

// Start sets up the watches. Run calls it if the caller did not.
func (w *Watcher) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.tree.dirs) > 0 {
		return
	}
	w.tree.resync()
	w.tree.watchGit()
	removeStaleCookies(w.s.Repo.GitDir, time.Now())
}

// removeStaleCookies removes the cookies of commands that are gone (killed
// while they waited for a watcher that stopped): a cookie made while this
// watcher watches is answered by its next sync. A cookie is stale when its
// command's PID is not alive, or when it is older than cookieMaxAge,
// whatever process its PID names now (PIDs are reused).
func removeStaleCookies(gitDir string, now time.Time) {
	entries, _ := os.ReadDir(gitDir)
	for _, e := range entries {
		if cookieStale(e, now) {
			_ = os.Remove(filepath.Join(gitDir, e.Name()))
		}
	}
}

// cookieMaxAge is the age past which a cookie is stale: a command waits
// for its answer a few seconds (gitsync's cookieWait) and then removes it
// itself.
const cookieMaxAge = time.Minute

// cookieStale reports whether e is a command's cookie that nobody waits
// for any more: its PID is not alive, or it was made (its modification
// time: nothing writes a cookie after it is made) over cookieMaxAge ago.
func cookieStale(e os.DirEntry, now time.Time) bool {
	rest, ok := strings.CutPrefix(e.Name(), gitsync.CookiePrefix)
	pid, _, _ := strings.Cut(rest, "-")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil {
		return false
	}
	if !safepath.PIDAlive(n) {
		return true
	}
	fi, err := e.Info()
	return err == nil && now.Sub(fi.ModTime()) > cookieMaxAge
}

// Run watches until ctx is done: a first sync of whatever changed while
// nobody watched, then one sync per settled burst of events, a full
// reconcile every Rescan. A sync in flight when ctx ends is finished, not
// cut short (a configuration's reopen still waiting for another process's
// migration is given up: it has written nothing); events still pending
// then are left for the next sync.
func (w *Watcher) Run(ctx context.Context) error {
	defer w.fsw.Close()
	w.Start()
	w.status = gitsync.WatcherStatus{PID: os.Getpid(), StartedAt: time.Now().UTC(), Folders: w.Folders(), Debounce: w.opt.Debounce.Milliseconds(),
		StartedBy: w.opt.StartedBy, IdleMs: w.opt.Idle.Milliseconds()}
	if w.opt.Lock != nil {
		w.status.StartedAt = w.opt.Lock.StartedAt().UTC()
	}
	w.mu.Lock()
	w.askedAt = time.Now()
	w.mu.Unlock()
	w.writeStatus()

	go w.readEvents()

	// Watches are in place before the first look, so nothing falls between.
	first := newPending()
	first.requestFull(TriggerStart, time.Now())
	var retry <-chan time.Time
	backoff := time.Second
	if err := w.syncOne(ctx, first); err != nil {
		w.requeue(first)
		retry = time.After(backoff)
		backoff *= 2
	}

	var rescan <-chan time.Time
	if w.opt.Rescan > 0 {
		t := time.NewTicker(w.opt.Rescan)
		defer t.Stop()
		rescan = t.C
	}
	stop := w.stopTimers()
	defer stop.close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.kick:
		case <-retry:
			retry = nil
		case now := <-rescan:
			w.mu.Lock()
			w.p.requestFull(TriggerRescan, now)
			w.mu.Unlock()
		case <-stop.idle:
			if w.idleFor(stop) {
				return nil
			}
			continue
		case <-stop.gone:
			if w.gone() {
				w.stopped = StopGone
				return nil
			}
			continue
		}
		w.notePending()
		if !w.settle(ctx) {
			return nil
		}
		if w.s.Store.SchemaChanged(ctx) {
			w.stopped = StopSchema // no answer: the commands walk, with the index of their own version
			return nil
		}
		if w.opt.StartedBy == gitsync.StartedByCommand && w.missed() {
			w.stopped = StopMissed
			return nil
		}
		w.mu.Lock()
		p := w.p
		w.p = newPending()
		w.mu.Unlock()
		if p.empty() {
			w.answer(p.cookies)
			continue
		}
		if err := w.syncOne(ctx, p); err != nil {
			w.requeue(p)
			retry = time.After(backoff)
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		w.answer(p.cookies)
		backoff = time.Second
	}
}

// stopTimers are Run's clocks for stopping by itself: the idle timer
// (nil channel without Options.Idle) and the look for a vanished
// worktree.
type stopTimers struct {
	idleT *time.Timer
	goneT *time.Ticker
	idle  <-chan time.Time
	gone  <-chan time.Time
}

func (w *Watcher) stopTimers() *stopTimers {
	every := goneCheck
	if w.goneEvery > 0 {
		every = w.goneEvery
	}
	st := &stopTimers{goneT: time.NewTicker(every)}
	st.gone = st.goneT.C
	if w.opt.Idle > 0 {
		st.idleT = time.NewTimer(w.opt.Idle)
		st.idle = st.idleT.C
	}
	return st
}

func (st *stopTimers) close() {
	st.goneT.Stop()
	if st.idleT != nil {
		st.idleT.Stop()
	}
}

// idleFor reports whether Options.Idle passed since the last cookie (Run
// then stops); otherwise it sets the timer for the rest.
func (w *Watcher) idleFor(st *stopTimers) bool {
	w.mu.Lock()
	since := time.Since(w.askedAt)
	w.mu.Unlock()
	if since >= w.opt.Idle {
		w.stopped = StopIdle
		return true
	}
	st.idleT.Reset(w.opt.Idle - since)
	return false
}

// gone reports that the working tree or the git folder is no longer
// there (the worktree removed, the clone deleted): nothing is left to
// watch.
func (w *Watcher) gone() bool {
	for _, d := range []string{w.s.Repo.Root, w.s.Repo.GitDir} {
		if info, err := os.Stat(d); err != nil || !info.IsDir() {
			return true
		}
	}
	return false
}

// Listen sets up the watches and folds events into the pending set
// without syncing them: a caller that answers from the index brings in
// what is pending itself, just before it answers (Flush). canon mcp
// listens so that an agent's next call sees its own edits at once, at the
// cost of the edited files alone. Close stops it.
func (w *Watcher) Listen() {
	w.listening = true
	w.Start()
	go w.readEvents()
}

// Pending is how many events wait for a Flush.
func (w *Watcher) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.p.events
}

// Flush brings into the index, on the caller's goroutine and through the
// watcher's session, the documents edited, added or removed since the
// last Flush (all of them, after an overflow or a .gitignore change: a
// reconcile), and says how many files it changed in the index (a file
// canon itself wrote and synced changes nothing). A moved HEAD and a
// changed configuration are left to the caller's own catch-up.
func (w *Watcher) Flush(ctx context.Context) (int, error) {
	w.mu.Lock()
	p := w.p
	w.p = newPending()
	// Answered by the caller's Vouch, once its whole catch-up is done; a
	// failed Flush requeues the paths, and the next one covers them.
	w.flushed = append(w.flushed, p.cookies...)
	p.cookies = nil
	w.mu.Unlock()
	p.git, p.config = false, false
	if p.empty() {
		return 0, nil
	}
	ctx = context.WithoutCancel(ctx) // a step begun is finished
	if p.full != "" {
		w.rescope()
		res, err := w.s.Reconcile(ctx)
		if err != nil {
			w.requeue(p)
			return 0, err
		}
		return res.Changes.Files(), nil
	}
	ch, _, err := w.applyPaths(ctx, p)
	if err != nil {
		w.requeue(p)
		return 0, err
	}
	if !ch.None() {
		head, _, _ := w.s.Repo.Head()
		w.s.Synced(ctx, &gitsync.Result{Action: gitsync.ActionReconcile, To: head, Changes: ch})
	}
	return ch.Files(), nil
}

// rescope rereads every .gitignore and info/exclude, and watches what is
// now in scope (and only that): what a full reconcile needs first.
func (w *Watcher) rescope() {
	s := w.s
	s.Scope = scan.NewScope(s.Repo.Root, s.Cfg, s.Repo.InfoExclude())
	w.mu.Lock()
	w.tree.setConfig(s.Cfg)
	w.tree.resync()
	w.tree.watchGit()
	w.mu.Unlock()
}

// Close stops the watches (of a watcher that Listens; Run closes its
// own): first it stops answering cookies, then it lets the listener lock
// go (stopVouching).
func (w *Watcher) Close() error {
	w.stopVouching()
	return w.fsw.Close()
}

// readEvents folds events into the pending set until the fsnotify watcher
// is closed.
func (w *Watcher) readEvents() {
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				w.lost()
				return
			}
			w.mu.Lock()
			wake := w.fold(ev, time.Now())
			w.mu.Unlock()
			if wake {
				w.wake()
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				w.lost()
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.overflowed()
				continue
			}
			w.lost()
			w.report(fmt.Errorf("watching files: %w", err))
		}
	}
}

// overflowed handles the kernel's queue overflowing: some events are lost,
// so nothing short of looking at everything (and watching again what was
// missed) is right.
func (w *Watcher) overflowed() {
	w.mu.Lock()
	w.p.markFull(TriggerOverflow, time.Now())
	w.mu.Unlock()
	w.wake()
}

// fold classifies one event into the pending set; it reports whether the
// event asks for a sync. The caller holds mu.
func (w *Watcher) fold(ev fsnotify.Event, now time.Time) bool {
	if w.tree.isCookie(ev) {
		w.p.cookies = append(w.p.cookies, ev.Name)
		w.askedAt = now
		if w.listening {
			select {
			case w.asked <- struct{}{}:
			default: // one ask waiting covers this one
			}
		}
		return true
	}
	if w.tree.isExclude(ev) {
		// Which files are documents may have changed anywhere: rescope
		// (it rereads info/exclude) and reconcile, as for a .gitignore.
		w.tree.setConfig(w.tree.cfg)
		w.p.markFull(TriggerIgnore, now)
		return true
	}
	if isGit, moved := w.tree.gitEvent(ev); isGit {
		if moved {
			w.p.markGit(now)
		}
		return moved
	}
	return w.tree.classify(ev, w.p, now)
}

// wake is the non-blocking send: a wake-up already waiting covers this one.
func (w *Watcher) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// gitQuiet is the quiet time once HEAD or a branch has moved, when the
// configured one is longer. git writes the working tree before it moves
// HEAD or a branch (checkout, reset, merge), so the move is the end of the
// burst; what follows it is git's own bookkeeping (the ref's lock file, the
// reflog, ORIG_HEAD). The post-* hooks leave their work to a running
// watcher (ADR-0024), so this is how soon after a commit or a checkout the
// index has it. A file event that still comes later is one more sync.
const gitQuiet = 20 * time.Millisecond

// settle waits until the pending set is due (see due). It returns false
// when ctx ends first.
func (w *Watcher) settle(ctx context.Context) bool {
	for {
		w.mu.Lock()
		first, last, moved := w.p.first, w.p.last, w.p.git
		w.mu.Unlock()
		quiet := w.opt.Debounce
		if moved {
			quiet = min(quiet, gitQuiet)
		}
		ready, wait := due(first, last, time.Now(), quiet, w.opt.MaxDelay)
		w.mu.Lock()
		asked := len(w.p.cookies) > 0
		w.mu.Unlock()
		if ready || first.IsZero() || asked {
			return true
		}
		if w.settling != nil {
			w.settling(wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		case <-w.kick:
			// A new event: a move of HEAD shortens the wait (gitQuiet).
			t.Stop()
		}
	}
}

// requeue puts a failed sync's paths back, to be retried.
func (w *Watcher) requeue(p *pending) {
	w.mu.Lock()
	w.p.merge(p)
	w.mu.Unlock()
}

// syncOne runs one sync and reports it. A stop (ctx ending) lets a sync
// that has begun writing finish its step; only a wait that writes nothing
// (reopen's for a migration) ends with it, unreported.
func (w *Watcher) syncOne(ctx context.Context, p *pending) error {
	start := time.Now()
	res, paths, err := w.sync(ctx, p)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err // stopped while waiting: nothing was written
	}
	if err != nil {
		w.status.LastError = err.Error()
		w.writeStatus()
		w.report(err)
		return err
	}
	w.errMu.Lock()
	w.errMsg = ""
	w.errMu.Unlock()
	elapsed := time.Since(start)
	at := start.UTC()
	w.status.Syncs++
	w.status.LastSyncAt = &at
	w.status.LastSyncMs = elapsed.Milliseconds()
	w.status.LastError = ""
	w.mu.Lock()
	w.status.PendingEvents, w.status.PendingSince = w.p.events, timePtr(w.p.first)
	w.status.Folders = w.tree.count()
	w.mu.Unlock()
	w.writeStatus()
	if w.opt.OnSync != nil {
		w.opt.OnSync(&Report{At: start, Trigger: p.trigger(), Events: p.events, Paths: paths, Result: res, Elapsed: elapsed})
	}
	return nil
}

// sync brings the index to what p says changed. An edit touches only its
// paths; a moved HEAD is a tree diff (Session.CatchUp); a configuration or
// .gitignore change, an overflow and the rescan reconcile everything
// (Session.Reconcile, a stat walk).
func (w *Watcher) sync(ctx context.Context, p *pending) (*gitsync.Result, int, error) {
	if p.config {
		if err := w.reopen(ctx); err != nil {
			return nil, 0, err
		}
	}
	ctx = context.WithoutCancel(ctx) // a step begun is finished
	if p.full != "" || p.config {
		w.rescope()
		res, err := w.s.Reconcile(ctx)
		return res, 0, err
	}
	res := &gitsync.Result{Action: gitsync.ActionNone}
	if !rebasing(w.s.Repo) {
		// A rebase moves HEAD once per replayed commit: catch up when it
		// ends (its state folder going away is an event too), as the
		// hooks do.
		var err error
		if res, err = w.s.CatchUp(ctx); err != nil {
			return nil, 0, err
		}
		if p.git {
			// HEAD or a branch moved: the overlays of other refs follow
			// here, in the background, so the next ready finds them up
			// to date (hooks never do this work, ADR-0056). A failure
			// only leaves it to that command.
			_, _ = w.s.Overlays(ctx)
		}
		if res.Action == gitsync.ActionRebuild {
			return res, 0, nil // it read every file as it is now
		}
	}
	if len(p.files) == 0 && len(p.dirs) == 0 {
		return res, 0, nil
	}
	ch, n, err := w.applyPaths(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	// The catch-up above told the session's listeners of its part; the
	// edits are told here, on their own.
	head, _, _ := w.s.Repo.Head()
	w.s.Synced(ctx, &gitsync.Result{Action: gitsync.ActionReconcile, To: head, Changes: ch})
	if res.Changes != nil {
		ch = index.MergeChanges(res.Changes, ch)
	}
	if res.Action == gitsync.ActionNone {
		// The working tree was compared with the index, for these paths:
		// a reconcile, as worksets and tools know it.
		res.Action = gitsync.ActionReconcile
	}
	res.Changes = ch
	if res.To == "" {
		res.To, _, _ = w.s.Repo.Head()
	}
	return res, n, nil
}

// applyPaths writes the update for p's paths under the writer lock.
func (w *Watcher) applyPaths(ctx context.Context, p *pending) (*index.Changes, int, error) {
	s := w.s
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	b, n, err := pathBatch(ctx, s, p)
	if err != nil {
		return nil, 0, fmt.Errorf("read the edited files: %w", err)
	}
	if b.Empty() && len(b.Touches) == 0 {
		return &index.Changes{}, n, nil
	}
	ch, err := s.Store.Apply(ctx, b)
	if err != nil {
		return nil, 0, fmt.Errorf("apply %d edited paths: %w", n, err)
	}
	return ch, n, nil
}

// reopen loads the changed configuration into a new session; on an error
// the old one stays. A wait for another process's schema migration ends
// with ctx (the watcher stopping).
func (w *Watcher) reopen(ctx context.Context) error {
	old := w.s
	s, err := gitsync.OpenContext(ctx, old.Repo.Root, old.Who)
	if err != nil {
		return fmt.Errorf("reload %s (the watcher goes on with the previous configuration): %w", config.File, err)
	}
	s.Adopt(old)
	w.s = s
	old.Close()
	return nil
}

// report passes an error on, once until a different one comes.
func (w *Watcher) report(err error) {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	if w.opt.OnError == nil || err.Error() == w.errMsg {
		return
	}
	w.errMsg = err.Error()
	w.opt.OnError(err)
}

// notePending records in the status file that events wait for a sync.
func (w *Watcher) notePending() {
	w.mu.Lock()
	n, first := w.p.events, w.p.first
	w.mu.Unlock()
	if first.IsZero() || w.status.PendingSince != nil {
		return
	}
	w.status.PendingEvents, w.status.PendingSince = n, timePtr(first)
	w.writeStatus()
}

func (w *Watcher) writeStatus() {
	if w.opt.Lock == nil {
		return
	}
	if err := w.opt.Lock.Write(&w.status); err != nil {
		w.report(fmt.Errorf("write the watcher status: %w", err))
	}
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// rebasing reports a rebase or am in progress in this worktree.
func rebasing(r *gitsync.Repo) bool {
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		if _, err := os.Stat(filepath.Join(r.GitDir, d)); err == nil {
			return true
		}
	}
	return false
}
