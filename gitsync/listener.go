package gitsync

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gofrs/flock"

	"github.com/canon-md/canon/index/safepath"
)

// A server that listens for edits (canon mcp, canon serve) holds a
// listener lock of its own in the canon folder while it takes every edit
// in (ADR-0086): listen-PID-N.lock, locked exclusively. A command asks
// (a cookie, as it asks canon watch) only when some such lock is held;
// the kernel lets it go when the process dies, however it dies.
const listenerPrefix = "listen-"

// ListenerLock is one server's listener lock.
type ListenerLock struct{ fl *flock.Flock }

var listenerSeq atomic.Int64

// AcquireListener takes a new listener lock in canonDir, and removes the
// files of listeners that are gone.
func AcquireListener(canonDir string) (*ListenerLock, error) {
	if err := os.MkdirAll(canonDir, 0o755); err != nil {
		return nil, err
	}
	removeStaleListeners(canonDir)
	name := fmt.Sprintf("%s%d-%d.lock", listenerPrefix, os.Getpid(), listenerSeq.Add(1))
	fl := safepath.NewLock(filepath.Join(canonDir, name))
	ok, err := fl.TryLock()
	if err != nil || !ok {
		// Only a command's look holds it (shared, an instant): the
		// next catch-up tries again.
		return nil, fmt.Errorf("take the listener lock: %w", safepath.LockError(fl.Path(), err))
	}
	if err := safepath.Locked(fl); err != nil {
		return nil, err
	}
	return &ListenerLock{fl: fl}, nil
}

// Release lets the lock go and removes its file.
func (l *ListenerLock) Release() {
	os.Remove(l.fl.Path())
	_ = l.fl.Unlock()
}

// removeStaleListeners removes the lock files of listener processes that
// are gone.
func removeStaleListeners(canonDir string) {
	entries, _ := os.ReadDir(canonDir)
	for _, e := range entries {
		pid, ok := listenerPID(e.Name())
		if ok && !safepath.PIDAlive(pid) {
			_ = os.Remove(filepath.Join(canonDir, e.Name()))
		}
	}
}

func listenerPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, listenerPrefix)
	if !ok || !strings.HasSuffix(rest, ".lock") {
		return 0, false
	}
	pid, _, _ := strings.Cut(rest, "-")
	n, err := strconv.Atoi(pid)
	return n, err == nil
}

// ListenerRunning reports whether a server holds a listener lock in
// canonDir: it takes each lock shared for an instant (a command's look
// never stops another's).
func ListenerRunning(canonDir string) bool {
	return len(listenerPIDs(canonDir, true)) > 0
}

// ListenerPIDs are the pids of the servers that hold a listener lock in
// canonDir, in the order of their files' names.
func ListenerPIDs(canonDir string) []int { return listenerPIDs(canonDir, false) }

func listenerPIDs(canonDir string, first bool) []int {
	entries, err := os.ReadDir(canonDir)
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, ok := listenerPID(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if watcherLockHeld(filepath.Join(canonDir, e.Name())) {
			pids = append(pids, pid)
			if first {
				break
			}
		}
	}
	return pids
}
