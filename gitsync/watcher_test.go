package gitsync

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestLockAndStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := AcquireWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireWatcher(dir); err == nil {
		t.Fatal("a second watcher took the lock")
	} else {
		var busy *WatcherBusyError
		if !errors.As(err, &busy) || busy.PID != os.Getpid() || busy.Since.IsZero() {
			t.Fatalf("err = %v (%+v)", err, busy)
		}
	}
	obs, err := ObserveWatcher(dir)
	if err != nil || !obs.Running || obs.Status.PID != os.Getpid() {
		t.Fatalf("starting watcher: %+v, %v", obs, err)
	}
	now := time.Now()
	if err := l.Write(&WatcherStatus{PID: os.Getpid(), StartedAt: now, Syncs: 3, LastSyncAt: &now}); err != nil {
		t.Fatal(err)
	}
	obs, err = ObserveWatcher(dir)
	if err != nil || !obs.Running || obs.Status.Syncs != 3 {
		t.Fatalf("running watcher: %+v, %v", obs, err)
	}
	// The lock survives its holder only while the holder lives: a status
	// file left with the lock free is a dead watcher's.
	l.fl.Unlock()
	obs, err = ObserveWatcher(dir)
	if err != nil || obs.Running || obs.StalePID != os.Getpid() {
		t.Fatalf("dead watcher: %+v, %v", obs, err)
	}
	l2, err := AcquireWatcher(dir)
	if err != nil {
		t.Fatalf("the lock of a dead watcher was not free: %v", err)
	}
	l2.Release()
	obs, err = ObserveWatcher(dir)
	if err != nil || obs.Running || obs.StalePID != 0 {
		t.Fatalf("after a clean stop: %+v, %v", obs, err)
	}
}

// A status file that names another pid than the lock's holder (a killed
// watcher's, its pid perhaps reused) is not the running watcher's: canon
// watch --stop would signal that pid. A new watcher removes it on taking
// the lock, and ObserveWatcher trusts only the holder's pid.
func TestStatusOfAnotherPIDIsNotTheWatcher(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := os.Getppid() // alive, and not this process
	dead, err := AcquireWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := dead.Write(&WatcherStatus{PID: other, StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	dead.fl.Unlock() // killed: its status file stays
	l, err := AcquireWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	obs, err := ObserveWatcher(dir)
	if err != nil || !obs.Running || obs.Status.PID != os.Getpid() {
		t.Fatalf("after a new watcher took the lock: %+v, %v", obs, err)
	}
	// A status file written over by anyone but the holder.
	if err := l.Write(&WatcherStatus{PID: other, StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if obs, err = ObserveWatcher(dir); err != nil || !obs.Running || obs.Status.PID != os.Getpid() {
		t.Fatalf("a status naming pid %d was taken for the holder's: %+v, %v", other, obs.Status, err)
	}
}
