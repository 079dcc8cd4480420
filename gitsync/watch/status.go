package watch

import (
	"github.com/canon-md/canon/index/safepath"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Files under the canon folder (git rev-parse --git-path canon).
const (
	LockFile   = "watch.lock" // held by the running watcher, for its life
	StatusFile = "watch.json" // what it is doing, for canon status
)

// Status is what a watcher says of itself in watch.json, rewritten
// atomically at start, when events start to wait and after every sync.
// Its JSON is part of canon status --json.
type Status struct {
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
}

// BusyError says another watcher already runs for the worktree.
type BusyError struct {
	PID   int
	Since time.Time // zero when it has not said
}

func (e *BusyError) Error() string {
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

// Lock is the one-watcher-per-worktree lock. The kernel releases it when
// the process dies, however it dies, so a lock is never stale; the status
// file a killed watcher leaves behind is recognised by its dead pid.
type Lock struct {
	fl        *flock.Flock
	canonDir  string
	startedAt time.Time
}

// Acquire takes the watcher lock of the worktree whose canon folder is
// canonDir, or returns a *BusyError naming the watcher that holds it.
func Acquire(canonDir string) (*Lock, error) {
	if err := os.MkdirAll(canonDir, 0o755); err != nil {
		return nil, err
	}
	fl := flock.New(filepath.Join(canonDir, LockFile))
	// A few tries: canon status takes the lock shared for an instant to
	// see whether anyone holds it.
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 25*time.Millisecond)
	if !ok {
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("take the watcher lock: %w", err)
		}
		return nil, busy(canonDir)
	}
	l := &Lock{fl: fl, canonDir: canonDir, startedAt: time.Now()}
	f, err := os.OpenFile(fl.Path(), os.O_WRONLY|os.O_TRUNC, 0o644)
	if err == nil {
		fmt.Fprintf(f, "%d %s\n", os.Getpid(), l.startedAt.UTC().Format(time.RFC3339Nano))
		f.Close()
	}
	return l, nil
}

// busy reads who holds the lock: the lock file says pid and start time.
func busy(canonDir string) error {
	e := &BusyError{}
	data, _ := os.ReadFile(filepath.Join(canonDir, LockFile))
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
func (l *Lock) Write(st *Status) error {
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
		err = os.Rename(f.Name(), filepath.Join(l.canonDir, StatusFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Release removes the status file and lets the lock go: a clean stop.
func (l *Lock) Release() {
	os.Remove(filepath.Join(l.canonDir, StatusFile))
	l.fl.Unlock()
}

// Observed is what canon status finds: a live watcher's status, or the
// remains of one that did not stop cleanly.
type Observed struct {
	Running bool    `json:"running"`
	Status  *Status `json:"status,omitempty"`
	// StalePID is the pid a dead watcher's leftover status file names.
	StalePID int `json:"stale_pid,omitempty"`
}

// Observe looks for the worktree's watcher without disturbing it: a
// watcher runs when the lock is held and the status file's pid is alive.
func Observe(canonDir string) (*Observed, error) {
	var st *Status
	data, err := os.ReadFile(filepath.Join(canonDir, StatusFile))
	switch {
	case err == nil:
		st = &Status{}
		if err := json.Unmarshal(data, st); err != nil {
			st = nil // a file from an older canon, or damaged: as if absent
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	held := lockHeld(filepath.Join(canonDir, LockFile))
	switch {
	case held && st != nil && safepath.PIDAlive(st.PID):
		return &Observed{Running: true, Status: st}, nil
	case held:
		// Starting up (no status yet): the lock file names it.
		if b, ok := busy(canonDir).(*BusyError); ok && b.PID > 0 && safepath.PIDAlive(b.PID) {
			return &Observed{Running: true, Status: &Status{PID: b.PID, StartedAt: b.Since}}, nil
		}
	case st != nil:
		return &Observed{StalePID: st.PID}, nil
	}
	return &Observed{}, nil
}

// lockHeld reports whether some process holds the lock, by taking it
// shared for an instant.
func lockHeld(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	fl := flock.New(path, flock.SetFlag(os.O_RDONLY))
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
