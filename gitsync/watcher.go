package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// The watcher's files under the canon folder (git rev-parse --git-path
// canon): its lock and its status, which canon status and the MCP
// server's freshness read. The watcher (gitsync/watch) writes them.
const (
	WatcherLockFile   = "watch.lock" // held by the running watcher, for its life
	WatcherStatusFile = "watch.json" // what it is doing, for canon status
)

// WatcherStatus is what a watcher says of itself in watch.json, rewritten
// atomically at start, when events start to wait and after every sync.
// Its JSON is part of canon status --json.
type WatcherStatus struct {
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"started_at"`
	// Folders is the number of folders watched (worktree and git).
	Folders  int   `json:"folders"`
	Debounce int64 `json:"debounce_ms"`
	// PendingEvents counts the events waiting for a sync when the file was
	// written, PendingSince the first of them: how far behind it is.
	PendingEvents int        `json:"pending_events"`
	PendingSince  *time.Time `json:"pending_since,omitempty"`
	Syncs         int        `json:"syncs"`
	LastSyncAt    *time.Time `json:"last_sync_at,omitempty"`
	LastSyncMs    int64      `json:"last_sync_ms"`
	LastError     string     `json:"last_error,omitempty"`
	UpdatedAt     time.Time  `json:"updated_at"`
	// StartedBy says who started the watcher: "hand" (canon watch run
	// by a person or a script) or "command" (a command that found none,
	// with watch.auto on: ADR-0089).
	StartedBy string `json:"started_by,omitempty"`
	// IdleMs is how long the watcher runs unasked before it stops by
	// itself; 0 when it runs until it is stopped.
	IdleMs int64 `json:"idle_ms,omitempty"`
	// Answered counts the commands' cookies it answered (each a command
	// that did not walk the working tree), LastAskedAt the latest.
	Answered    int        `json:"answered"`
	LastAskedAt *time.Time `json:"last_asked_at,omitempty"`
	// NotVouching says why the watcher answers no cookie now (a folder
	// it could not watch, its events stopped): a command walks at once
	// rather than wait for an answer that will not come.
	NotVouching string `json:"not_vouching,omitempty"`
}

// Who started a watcher (WatcherStatus.StartedBy).
const (
	StartedByHand    = "hand"
	StartedByCommand = "command"
)

// WatcherBusyError says another watcher already runs for the worktree.
type WatcherBusyError struct {
	PID   int
	Since time.Time // zero when it has not said
}

func (e *WatcherBusyError) Error() string {
	who := "another canon watch"
	if e.PID > 0 {
		who = fmt.Sprintf("canon watch (pid %d", e.PID)
		if !e.Since.IsZero() {
			who += ", since " + e.Since.Local().Format("2006-01-02 15:04:05")
		}
		who += ")"
	}
	return who + " already watches this worktree"
}

// WatcherLock is the one-watcher-per-worktree lock. The kernel releases it when
// the process dies, however it dies, so a lock is never stale; the status
// file a killed watcher leaves behind is recognised by its dead pid.
type WatcherLock struct {
	fl        *flock.Flock
	canonDir  string
	startedAt time.Time
}

// AcquireWatcher takes the watcher lock of the worktree whose canon folder is
// canonDir, or returns a *WatcherBusyError naming the watcher that holds it.
func AcquireWatcher(canonDir string) (*WatcherLock, error) {
	if err := os.MkdirAll(canonDir, 0o755); err != nil {
		return nil, err
	}
	fl := safepath.NewLock(filepath.Join(canonDir, WatcherLockFile))
	// A few tries: canon status takes the lock shared for an instant to
	// see whether anyone holds it.
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 25*time.Millisecond)
	if !ok {
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("take the watcher lock: %w", safepath.LockError(fl.Path(), err))
		}
		return nil, watcherBusy(canonDir)
	}
	if err := safepath.Locked(fl); err != nil {
		return nil, fmt.Errorf("take the watcher lock: %w", err)
	}
	l := &WatcherLock{fl: fl, canonDir: canonDir, startedAt: time.Now()}
	// A watcher that was killed left its status file: until this one
	// writes its own, that file names a dead pid, perhaps reused since.
	_ = os.Remove(filepath.Join(canonDir, WatcherStatusFile))
	safepath.WriteLockNote(fl.Path(), fmt.Sprintf("%d %s\n", os.Getpid(), l.startedAt.UTC().Format(time.RFC3339Nano)))
	return l, nil
}

// watcherBusy reads who holds the lock: the lock file says pid and start time.
func watcherBusy(canonDir string) error {
	e := &WatcherBusyError{}
	data := safepath.LockNote(filepath.Join(canonDir, WatcherLockFile))
	fields := strings.Fields(string(data))
	if len(fields) >= 1 {
		e.PID, _ = strconv.Atoi(fields[0])
	}
	if len(fields) >= 2 {
		e.Since, _ = time.Parse(time.RFC3339Nano, fields[1])
	}
	return e
}

// Write replaces the status file atomically.
func (l *WatcherLock) Write(st *WatcherStatus) error {
	st.UpdatedAt = time.Now().UTC()
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	// Temp file and rename, so a reader never sees half a file; no fsync:
	// the file describes a live process and means nothing after a crash.
	f, err := os.CreateTemp(l.canonDir, ".watch-*.json")
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(l.canonDir, WatcherStatusFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Release removes the status file and lets the lock go: a clean stop.
func (l *WatcherLock) Release() {
	os.Remove(filepath.Join(l.canonDir, WatcherStatusFile))
	l.fl.Unlock()
}

// WatcherState is what canon status finds: a live watcher's status, or the
// remains of one that did not stop cleanly.
type WatcherState struct {
	Running bool           `json:"running"`
	Status  *WatcherStatus `json:"status,omitempty"`
	// StalePID is the pid a dead watcher's leftover status file names.
	StalePID int `json:"stale_pid,omitempty"`
	// Listening: a canon mcp or canon serve holds a listener lock, taking
	// every edit in and answering the commands' cookies (ADR-0086);
	// ListenerPIDs are their pids.
	Listening    bool  `json:"listening,omitempty"`
	ListenerPIDs []int `json:"listener_pids,omitempty"`
}

// ObserveWatcher looks for the worktree's watcher without disturbing it: a
// watcher runs when the lock is held and the status file's pid is alive.
// It says too whether a server listens (ListenerRunning).
func ObserveWatcher(canonDir string) (*WatcherState, error) {
	w, err := observeWatcher(canonDir)
	if w != nil {
		w.ListenerPIDs = ListenerPIDs(canonDir)
		w.Listening = len(w.ListenerPIDs) > 0
	}
	return w, err
}

func observeWatcher(canonDir string) (*WatcherState, error) {
	var st *WatcherStatus
	data, err := os.ReadFile(filepath.Join(canonDir, WatcherStatusFile))
	switch {
	case err == nil:
		st = &WatcherStatus{}
		if err := json.Unmarshal(data, st); err != nil {
			st = nil // a file from an older canon, or damaged: as if absent
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	held := watcherLockHeld(filepath.Join(canonDir, WatcherLockFile))
	var holder *WatcherBusyError
	if held && !errors.As(watcherBusy(canonDir), &holder) {
		holder = &WatcherBusyError{}
	}
	switch {
	case held && st != nil && safepath.PIDAlive(st.PID) && (holder.PID == 0 || holder.PID == st.PID):
		// The status file is the lock holder's: canon watch --stop
		// signals that pid and no other.
		return &WatcherState{Running: true, Status: st}, nil
	case held:
		// Starting up (no status yet, or a dead one's): the lock file
		// names it.
		if holder.PID > 0 && safepath.PIDAlive(holder.PID) {
			return &WatcherState{Running: true, Status: &WatcherStatus{PID: holder.PID, StartedAt: holder.Since}}, nil
		}
	case st != nil:
		return &WatcherState{StalePID: st.PID}, nil
	}
	return &WatcherState{}, nil
}

// watcherLockHeld reports whether some process holds the lock, by taking it
// shared for an instant.
func watcherLockHeld(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	fl := safepath.NewLock(path)
	ok, err := fl.TryRLock()
	if err != nil {
		return false
	}
	if ok {
		fl.Unlock()
		return false
	}
	return true
}

// StartedAt is when the lock was taken: when the watcher started.
func (l *WatcherLock) StartedAt() time.Time { return l.startedAt }

// WriteText is canon status's watcher line (nothing when w is nil).
func (w *WatcherState) WriteText(out io.Writer) {
	if w == nil {
		return
	}
	if !w.Running {
		line := "not running; canon watch keeps the index in step with edits and does the hooks' work"
		if w.Listening {
			line = fmt.Sprintf("not running; a canon mcp or canon serve listening for edits (pid %s) answers the commands", joinPIDs(w.ListenerPIDs))
		}
		if w.StalePID > 0 {
			line = fmt.Sprintf("not running (pid %d stopped without cleaning up; canon watch starts a new one)", w.StalePID)
		}
		fmt.Fprintf(out, "watcher   %s\n", line)
		return
	}
	st := w.Status
	line := fmt.Sprintf("pid %d", st.PID)
	if st.StartedBy == StartedByCommand {
		line += ", started by a command (watch.auto)"
	}
	if !st.StartedAt.IsZero() {
		line += " since " + human.Ago(st.StartedAt.Format(time.RFC3339))
	}
	if st.IdleMs > 0 {
		line += fmt.Sprintf(", stops after %s unasked", human.Span(time.Duration(st.IdleMs)*time.Millisecond))
	}
	switch {
	case st.LastError != "":
		line += "; failing: " + st.LastError
	case st.PendingSince != nil:
		line += fmt.Sprintf("; %d+ events waiting since %s", st.PendingEvents, human.Duration(time.Since(*st.PendingSince)))
	case st.LastSyncAt != nil:
		line += fmt.Sprintf("; idle, last sync %s ago (%d ms)", time.Since(*st.LastSyncAt).Round(time.Second), st.LastSyncMs)
	default:
		line += "; starting"
	}
	fmt.Fprintf(out, "watcher   %s\n", line)
}

func joinPIDs(pids []int) string {
	s := make([]string, len(pids))
	for i, p := range pids {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}
