package gitsync

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/must"
)

// TestOpenToRebuildWaitEndsWithContext: canon index --full waiting for
// another process's schema migration stops at Ctrl-C (its context), with
// nothing written, as every other command's open does.
func TestOpenToRebuildWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "# A\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	s, err := Open(dir, "test")
	must.OK(t, err)
	path := s.Repo.IndexPath()
	s.Close()
	indextest.MigrationHeld(t, path) // another process migrating
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel) // the signal
	start := time.Now()
	s, _, err = OpenToRebuild(ctx, dir, "test")
	if err == nil {
		s.Close()
		t.Fatal("opened an index whose migration waits for a lock someone holds")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stopped after %v; the wait must end with its context", took)
	}
}
