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
