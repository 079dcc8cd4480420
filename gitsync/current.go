package gitsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/canon-md/canon/index/scan"
)

// Current is Fresh for the command line's commands: they answer from the
// working tree as it is (ADR-0081). After the catch-up, a running canon
// watch is asked whether it holds every edit made before now (a cookie it
// answers once it synced them); without one, a stat walk compares every
// document with what the index read of it (Store.Unread, reading no file),
// and only when one differs does it take the writer lock and reconcile,
// reading the files that changed. taken counts the files edited, added or
// deleted in the working tree that it took in itself.
func (s *Session) Current(ctx context.Context) (res *Result, taken int, err error) {
	res, err = s.CatchUp(ctx)
	if err != nil || res.Action == ActionRebuild {
		s.current = err == nil
		return res, 0, err
	}
	if s.listener = s.watcherVouches(ctx); s.listener == ListenerVouched {
		s.current = true // canon watch took every edit in already
		return res, 0, nil
	}
	n, racy, err := s.Store.Unread(ctx, s.Scope)
	if err == nil && n == 0 && len(racy) > 0 {
		n, err = s.racyEdited(ctx, racy)
	}
	if err != nil || n == 0 {
		s.current = err == nil
		return res, 0, err
	}
	rec, err := s.lockedWithin(ctx, min(s.LockWait, readerLockWait), func() (*Result, error) { return s.reconcileLocked(ctx) })
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, err
		}
		// A reading command answers from the index as it is rather than
		// fail: the writer lock busy past readerLockWait (a rebuild), an
		// index it may not write. Untaken says so; a writer's own
		// SyncWorkingTree reconciles again and fails with the cause.
		s.untaken, s.untakenWhy = n, err
		return res, 0, nil
	}
	s.current = true
	if rec.Changes != nil {
		taken = rec.Changes.Files()
	}
	return rec, taken, nil
}

// readerLockWait is how long Current waits for another writer before it
// leaves the edits it found to the next command: a reader answers within
// seconds, where a writer waits as long as LockWait.
const readerLockWait = 2 * time.Second

// Untaken is how many edited files Current found but could not take in,
// and why (0, nil when it took every one in): the command's answer is
// the index's as of the last sync.
func (s *Session) Untaken() (int, error) { return s.untaken, s.untakenWhy }

// maxRacyReads is how many files whose stat cannot tell an edit Current
// reads itself before it leaves them to a reconcile.
const maxRacyReads = 64

// racyEdited counts the files among racy (their stat as the index holds
// it, but modified since the last stat walk) whose content is not what the
// index read: each is read and hashed, nothing is written. Files written
// by canon or taken in by a watcher stay racy until the next reconcile,
// so that the next command reads a few files rather than walking again.
func (s *Session) racyEdited(ctx context.Context, racy []scan.FileInfo) (int, error) {
	if len(racy) > maxRacyReads {
		return len(racy), nil
	}
	paths := make([]string, len(racy))
	for i, fi := range racy {
		paths[i] = fi.Path
	}
	stored, err := s.Store.StoredFiles(ctx, paths)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, fi := range racy {
		f, ok := scan.Read(s.Repo.Root, s.Cfg, fi)
		st, known := stored[fi.Path]
		switch {
		case !ok || !known || f.Skip != "" || !st.Doc:
			n++ // gone since, or not a plain document: the reconcile decides
		case s.Loader.StampOf(fi.Path, scan.BlobOID(f.Content)) != st.OID:
			n++ // the stored stamp holds a README's sidecar too
		}
	}
	return n, nil
}

// CookiePrefix starts the name of the file a command drops in the git
// folder to ask a running canon watch whether the index holds every edit
// made before it (ADR-0081). The watcher sees it after every event that
// came before (one queue of events), syncs what is pending at once and
// removes it.
const CookiePrefix = "canon-cookie-"

// cookieWait is how long a command waits for the watcher to answer before
// it walks the working tree itself.
const cookieWait = 2 * time.Second

// ListenerSeen is what a command's look for a listener found.
type ListenerSeen int

const (
	// ListenerUnasked: the command did not look (it has not taken the
	// working tree in, or a rebuild came first).
	ListenerUnasked ListenerSeen = iota
	// ListenerNone: no canon watch runs and no server listens for this
	// worktree; the command walked.
	ListenerNone
	// ListenerSilent: one runs but did not answer in time; the command
	// walked.
	ListenerSilent
	// ListenerVouched: one answered the cookie; the command did not walk.
	ListenerVouched
)

// Listener says what Current's look for a listener found: a command that
// found none may start one (watch.auto, ADR-0089).
func (s *Session) Listener() ListenerSeen { return s.listener }

// Vouched asks the worktree's listener, when one runs, whether the index
// holds every edit made before now; canon status asks before Status,
// which then counts no edit. Never from inside a listening server's turn:
// the cookie would wait for the turn the caller holds.
func (s *Session) Vouched(ctx context.Context) bool {
	s.listener = s.watcherVouches(ctx)
	return s.listener == ListenerVouched
}

// watcherVouches asks the worktree's running canon watch, or a server that
// listens for edits and holds its listener lock (ADR-0086), whether the
// index holds every edit made before now: a cookie in the git folder,
// answered when one of them removes it. It says ListenerNone when none
// runs, ListenerSilent when none answered within cookieWait (the command
// then walks). The git folder and the canon folder are the worktree's own
// (a linked worktree's are under .git/worktrees/NAME), so a listener of
// another worktree never hears the cookie.
func (s *Session) watcherVouches(ctx context.Context) ListenerSeen {
	w, err := ObserveWatcher(s.Repo.CanonDir())
	if err != nil || w == nil || (!w.Running && !w.Listening) {
		return ListenerNone
	}
	if !w.Listening && w.Status != nil && w.Status.NotVouching != "" {
		return ListenerSilent // it said it cannot answer: walk now
	}
	name := filepath.Join(s.Repo.GitDir, fmt.Sprintf("%s%d-%d", CookiePrefix, os.Getpid(), time.Now().UnixNano()))
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return ListenerSilent
	}
	f.Close()
	deadline := time.Now().Add(cookieWait)
	for delay := 50 * time.Microsecond; ; delay = min(2*delay, 5*time.Millisecond) {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return ListenerVouched
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			os.Remove(name)
			return ListenerSilent
		}
		time.Sleep(delay) // the watcher's answer is the file's removal: a poll of one stat
	}
}
