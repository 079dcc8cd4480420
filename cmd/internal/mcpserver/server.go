package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/scan"
)

// Server holds one session on the repository for its whole life. A call
// takes its turn on it to catch up with HEAD (a sync of the session's
// index); a read-only call then answers beside the others, from SQLite's
// snapshot of the index, while a call that writes, or that takes the
// index's writer lock (check: one lock per process, Store.Lock) or reads
// the store's file state as a catch-up does (status), answers in its turn
// (ADR-0030).
type Server struct {
	turn   chan struct{} // holding it: a send; capacity 1
	s      *gitsync.Session
	server *mcp.Server
	// timeout bounds a read-only call's work after its catch-up.
	timeout time.Duration

	// The working tree's drift from the index is a stat walk of every
	// document: counted at the first call, then again in the background
	// when the last count is old enough (driftDue), so that an answer
	// never waits for it (Freshness.WorkingTreeCheckedAt says when).
	driftMu      sync.Mutex
	drift        int
	driftAt      time.Time     // when the last count ended
	driftTook    time.Duration // how long it took
	driftRunning bool
	driftGen     int // bumped when the index moves: an older background count is dropped

	// listen hears the working tree's edits (file-system events) and
	// brings them in before each answer (watch.Watcher.Flush): an agent
	// sees its own edit at its next call, at the cost of the edited files.
	// nil when the system cannot watch the folders (then the drift count
	// says what an answer leaves out). looked: the first answer has
	// reconciled what was edited before the server listened.
	listen *watch.Watcher
	looked bool
	// The listener answers the commands' cookies (ADR-0086) on a
	// goroutine of its own until stop; answered is closed when it has.
	// unreported, behind: the edits its catch-ups took in and whether
	// one caught up with HEAD, which the next answer's freshness says (in
	// the turn).
	stop       context.CancelFunc
	answered   <-chan struct{}
	unreported int
	behind     bool

	// Close waits for the calls in flight and the background counts
	// (inflight) before it closes the session; closed, once set, turns
	// new ones away (guarded by closeMu). closing, when set (by a test),
	// hears that Close has begun.
	closeMu  sync.Mutex
	closed   bool
	inflight sync.WaitGroup
	closing  func()
}

// A background count of the drift starts once the last one is driftEvery
// old, and not before it has been driftSpacing times as long as that
// count took: the counts take at most a tenth of a core. At 10k
// documents a count is a walk of about 60 ms (every 2 s); at 100k about
// 0.5 s, every 2 s it took a quarter of a core from the answers (their
// p90 rose by half), now about every 5 s (ADR-0023).
const (
	driftEvery   = 2 * time.Second
	driftSpacing = 10
)

// A server lives long and answers one call at a time: it keeps its garbage
// four times as long as Go's default before collecting it (GOGC 400). At
// 100k documents that took 0.2 ms off a search's 5 and 0.7 ms off a context
// pack's 10, for 13 MB more resident memory (58 MB) once the working-tree
// count gives its garbage back (workingTreeDrift) (ADR-0025). A soft memory
// limit on top (256 MB) kept 195 MB resident: with a limit, Go returns
// freed memory to the system only near it. GOGC, when set, is the user's
// and stays.
const gcPercent = 400

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// driftDue reports whether the last count is old enough for another.
func (m *Server) driftDue() bool {
	return time.Since(m.driftAt) > max(driftEvery, driftSpacing*m.driftTook)
}

// New opens the repository around dir and makes the server: its tools,
// resources and a prompt per query template. version names canon to the
// client. Its wait for another process's schema migration of the index
// ends when ctx does (Ctrl-C, SIGTERM).
func New(ctx context.Context, dir, version string) (*Server, error) {
	tuneGC()
	s, err := gitsync.OpenContext(ctx, dir, "canon mcp")
	if err != nil {
		return nil, err
	}
	s.OnSync(hooks.TellWorksets(nil, nil))
	// A write a killed command left: finished or undone, said on stderr
	// (stdout is the protocol's).
	hooks.FinishWrites(ctx, s, func(msg string) { fmt.Fprintln(os.Stderr, "canon: "+msg) })
	s.Store.UseVectors(s.Repo.VectorsPath(), s.Repo.GitDir) // as search and context do (ADR-0050)
	if err := s.Store.KeepPages(); err != nil {
		s.Close()
		return nil, err
	}
	m := &Server{s: s, turn: make(chan struct{}, 1), timeout: callTimeout}
	if w, err := watch.New(s, watch.Options{}); err == nil {
		w.Listen()
		m.listen = w
		var bg context.Context
		bg, m.stop = context.WithCancel(context.WithoutCancel(ctx))
		m.answered = w.Answer(bg, m.answer)
	}
	m.server = mcp.NewServer(&mcp.Implementation{Name: "canon", Version: version}, &mcp.ServerOptions{
		Instructions: "canon indexes this repository's Markdown (backlog items, ADRs, notes). Start with search or context; show reads one document; ready/blocked list open work. Every result says how fresh the index is.",
	})
	m.addTools()
	m.addResources()
	if err := m.addPrompts(); err != nil {
		s.Close()
		return nil, err
	}
	return m, nil
}

// Close stops listening and releases the repository's index, in this
// order: no new call, the calls in flight and the listener's catch-ups
// end (none runs on the closed session, none Vouches after), the
// listener stops answering cookies and lets its lock go, the session
// closes.
func (m *Server) Close() {
	m.closeMu.Lock()
	was := m.closed
	m.closed = true
	m.closeMu.Unlock()
	if was {
		return
	}
	if m.closing != nil {
		m.closing()
	}
	if m.stop != nil {
		m.stop()
		<-m.answered
	}
	m.inflight.Wait()
	if m.listen != nil {
		_ = m.listen.Close() // the watches go with the process anyway
	}
	m.s.Close()
}

// errClosed answers a call that comes after Close.
var errClosed = errors.New("the server is stopping")

// enter counts a call or a background count in flight, which Close waits
// for; false once Close has begun (then nothing may run on the session).
// The caller calls m.inflight.Done when it ends.
func (m *Server) enter() bool {
	m.closeMu.Lock()
	defer m.closeMu.Unlock()
	if m.closed {
		return false
	}
	m.inflight.Add(1)
	return true
}

// Run serves one client over stdio until it goes or ctx ends.
func (m *Server) Run(ctx context.Context) error {
	return m.server.Run(ctx, stdioTransport(os.Stdin, os.Stdout))
}

// Connect serves one client over t until it goes (the CLI's test that
// every tool answers as its command does connects in process).
func (m *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return m.server.Connect(ctx, t, nil)
}

// Freshness says what an answer reflects.
type Freshness struct {
	IndexedCommit string `json:"indexed_commit"`
	Head          string `json:"head"`
	// WasBehind: the index was behind HEAD and this call caught up first.
	WasBehind bool `json:"was_behind"`
	// EditsTaken counts the files edited, added or deleted in the working
	// tree since the last answer (by hand or by another program) that
	// this one brought in first: the server listens for edits.
	EditsTaken int `json:"edits_taken,omitempty"`
	// WorkingTreeDiffers counts the files edited, added or deleted since
	// the last sync, which the answer does not reflect (canon sync or a
	// running canon watch brings them in), as counted at
	// WorkingTreeCheckedAt (at most a few seconds ago); 0 while the server
	// listens for edits and brings them in before each answer.
	WorkingTreeDiffers   int    `json:"working_tree_differs"`
	WorkingTreeCheckedAt string `json:"working_tree_checked_at"`
	Watcher              bool   `json:"watcher"`
	SyncedAt             string `json:"synced_at"`
}

func (f Freshness) text() string {
	s := "index at " + human.Commit(f.IndexedCommit)
	if f.WasBehind {
		s += " (caught up with HEAD for this answer)"
	}
	if f.EditsTaken > 0 {
		s += fmt.Sprintf("; took in %s edited since the last answer", human.Plural(f.EditsTaken, "file"))
	}
	if f.WorkingTreeDiffers > 0 {
		s += fmt.Sprintf("; %s edited since the last sync not included", human.Plural(f.WorkingTreeDiffers, "file"))
	}
	return s
}

// callTimeout bounds the work of a read-only call, its catch-up apart
// (that is the repository's work, not the arguments'; cut, the next call
// would start it again). A call that writes is never cut in the middle.
const callTimeout = 60 * time.Second

// How a call shares the session with the others.
type turns int

const (
	// shared: only the catch-up takes the turn, then the call answers
	// beside the others, within the server's timeout.
	shared turns = iota
	// alone: the whole call takes the turn, within the timeout.
	alone
	// writes: the whole call takes the turn, without a timeout.
	writes
)

// call runs fn on the session once the index has caught up with HEAD, and
// returns the freshness of its answer. ctx ends the wait for the turn.
func (m *Server) call(ctx context.Context, how turns, fn func(ctx context.Context, s *gitsync.Session) error) (Freshness, error) {
	if !m.enter() {
		return Freshness{}, errClosed
	}
	defer m.inflight.Done()
	select {
	case m.turn <- struct{}{}:
	case <-ctx.Done():
		return Freshness{}, ctx.Err()
	}
	held := true
	defer func() {
		if held {
			<-m.turn
		}
	}()
	f, err := m.catchUp(ctx)
	if err != nil {
		return f, err
	}
	f.EditsTaken += m.unreported
	f.WasBehind = f.WasBehind || m.behind
	m.unreported, m.behind = 0, false
	if how == shared {
		<-m.turn
		held = false
	}
	if how != writes {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, m.timeout)
		defer cancel()
	}
	err = fn(ctx, m.s)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("the call ran past %s and was stopped; ask for less (fewer words, paths or seeds, a smaller budget)", m.timeout)
	}
	return f, err
}

// answer is the listener's catch-up when a command asks (a cookie) or the
// server starts: in the turn, as a call's, its edits counted by the next
// call's answer.
func (m *Server) answer(ctx context.Context) {
	select {
	case m.turn <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-m.turn }()
	if f, err := m.catchUp(ctx); err == nil {
		m.unreported += f.EditsTaken
		m.behind = m.behind || f.WasBehind
	}
}

// catchUp brings the index to HEAD (and to what git put back) and says how
// fresh it is; the caller holds the turn. A listening server vouches for
// the index when it succeeds (watch.Watcher.Vouch) and stops when it
// fails.
func (m *Server) catchUp(ctx context.Context) (Freshness, error) {
	f, err := m.takeIn(ctx)
	if m.listen != nil {
		m.listen.Vouch(err)
	}
	return f, err
}

// takeIn is catchUp's work.
func (m *Server) takeIn(ctx context.Context) (Freshness, error) {
	s := m.s
	res, err := s.Fresh(ctx)
	if err != nil {
		return Freshness{}, err
	}
	var f Freshness
	f.WasBehind = res.Action != gitsync.ActionNone
	switch {
	case m.listen != nil && !m.looked:
		// What was edited before the server listened: one reconcile (a
		// stat of every document), once.
		m.listen.Flush(ctx) //nolint:errcheck // the reconcile reads it all again
		if res, err = s.Reconcile(ctx); err != nil {
			return f, err
		}
		m.looked = true
		f.EditsTaken = res.Changes.Files()
	case m.listen != nil:
		if f.EditsTaken, err = m.listen.Flush(ctx); err != nil {
			return f, err
		}
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		return f, err
	}
	f.IndexedCommit, f.SyncedAt = meta[index.MetaHead], meta[index.MetaSyncedAt]
	f.Head, _, _ = s.Repo.Head()
	if f.WasBehind {
		m.driftMu.Lock()
		m.driftAt = time.Time{} // the index moved: count again now
		m.driftGen++
		m.driftMu.Unlock()
	}
	if f.EditsTaken > 0 {
		m.driftMu.Lock()
		m.driftGen++ // a count begun before the edits came in is dropped
		m.driftMu.Unlock()
	}
	var at time.Time
	if m.listen != nil {
		at = time.Now() // every edit heard is in: the listener is the count
	} else if f.WorkingTreeDiffers, at, err = m.workingTreeDrift(s); err != nil {
		return f, err
	}
	f.WorkingTreeCheckedAt = at.UTC().Format(time.RFC3339)
	if w, err := gitsync.ObserveWatcher(s.Repo.CanonDir()); err == nil && w != nil {
		f.Watcher = w.Running
	}
	return f, nil
}

// workingTreeDrift returns the last count of working-tree files that
// differ from the index and when it was made: counted now the first time,
// afterwards refreshed in the background once it is older than driftEvery
// (a sync of this server's also makes it stale: it recounts then).
func (m *Server) workingTreeDrift(s *gitsync.Session) (int, time.Time, error) {
	m.driftMu.Lock()
	defer m.driftMu.Unlock()
	count := func() (int, time.Duration, error) {
		// A scope of its own: the session's serves the calls meanwhile.
		start := time.Now()
		n, err := s.Store.Drift(scan.NewScope(s.Repo.Root, s.Cfg, s.Repo.InfoExclude()))
		took := time.Since(start)
		// The count walked every file: tens of MB of garbage at 100k
		// documents, which GOGC 400 (tuneGC) would keep resident until a
		// later collection (steady 59 MB instead of up to 180 MB). Collect
		// it now and give it back.
		debug.FreeOSMemory()
		return n, took, err
	}
	if m.driftAt.IsZero() {
		n, took, err := count()
		if err != nil {
			return 0, time.Time{}, err
		}
		m.drift, m.driftAt, m.driftTook = n, time.Now(), took
		return n, m.driftAt, nil
	}
	if m.driftDue() && !m.driftRunning && m.enter() {
		m.driftRunning = true
		gen := m.driftGen
		go func() {
			defer m.inflight.Done()
			n, took, err := count()
			m.driftMu.Lock()
			defer m.driftMu.Unlock()
			m.driftRunning = false
			if err == nil && gen == m.driftGen {
				m.drift, m.driftAt, m.driftTook = n, time.Now(), took
			}
		}()
	}
	return m.drift, m.driftAt, nil
}
