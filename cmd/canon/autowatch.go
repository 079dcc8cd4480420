package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
)

// The files of a watcher a command starts (ADR-0089), in the worktree's
// canon folder beside the watcher's lock and status.
const (
	// autoWatchMark is written when a command starts a watcher: for
	// autoWatchClaim, other commands leave the start to it rather than
	// start one each while it opens the index.
	autoWatchMark  = "watch-start"
	autoWatchClaim = 10 * time.Second
	// autoWatchMissed is written when a watcher a command started stopped
	// because it could not watch every folder (the system's limit): for
	// autoWatchRest no command starts another, which would miss them too.
	autoWatchMissed = "watch-missed"
	autoWatchRest   = time.Hour
	// autoWatchLog takes what the started watcher says (its start, its
	// errors, why it stopped); it is emptied when it grows past
	// autoWatchLogMax at a start.
	autoWatchLog    = "watch.log"
	autoWatchLogMax = 256 << 10
)

// autoWatch starts canon watch in the background when the configuration
// asks for it (watch.auto) and the command found no listener, so that the
// next commands ask it rather than walk the working tree. The command
// does not wait for it: it has walked already. A start that fails never
// fails the command; on a terminal it says so in one line.
func (e *env) autoWatch(s *gitsync.Session) {
	if s == nil || !s.Cfg.Watch.Auto || s.Listener() != gitsync.ListenerNone || autoWatchOff(os.Getenv) != "" {
		return
	}
	if err := startWatch(s.Repo); err != nil && isTerminal(e.rawStderr) {
		e.notef("could not start canon watch (watch.auto): %v; the commands check every file meanwhile", err)
	}
}

// autoWatchOff says why no watcher is started from here ("" when one may
// be): CANON_NO_AUTOWATCH, a CI job, or a process git started (a hook, an
// alias, a merge driver), which exports GIT_EXEC_PATH, GIT_PREFIX or
// GIT_INDEX_FILE to what it runs.
func autoWatchOff(getenv func(string) string) string {
	set := func(k string) bool {
		v := strings.TrimSpace(strings.ToLower(getenv(k)))
		return v != "" && v != "0" && v != "false" && v != "no"
	}
	switch {
	case set("CANON_NO_AUTOWATCH"):
		return "CANON_NO_AUTOWATCH is set"
	case set("CI"):
		return "CI is set"
	case getenv("GIT_EXEC_PATH") != "" || getenv("GIT_PREFIX") != "" || getenv("GIT_INDEX_FILE") != "":
		return "run by git"
	}
	return ""
}

// watchEnv is the started watcher's environment: the command's, without
// git's repository-local variables (a relative GIT_DIR would name another
// folder from the watcher's "/") and without what shapes one process's run
// (a profile file, a frozen clock, a repository -C names already). A
// repository found through GIT_DIR and GIT_WORK_TREE is named to the
// watcher by their absolute paths.
func watchEnv(repo *gitsync.Repo, getenv func(string) string) []string {
	var env []string
	for _, kv := range gitsync.ScrubbedEnv() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(notInherited, name) {
			env = append(env, kv)
		}
	}
	if getenv("GIT_DIR") != "" && getenv("GIT_WORK_TREE") != "" {
		env = append(env, "GIT_DIR="+repo.GitDir, "GIT_WORK_TREE="+repo.Root)
	}
	return env
}

// notInherited are canon's variables for one run that a watcher started
// by it must not take up.
var notInherited = []string{"CANON_CPUPROFILE", "CANON_NOW", "CANON_REPO"}

// startWatch starts `canon watch --started-by-command` for repo, detached:
// its own session (no terminal, no signal of the command's), standard
// input from /dev/null, its output to the canon folder's watch.log. It
// does not wait for it; the watcher lock decides between two started at
// once (the loser stops at once).
func startWatch(repo *gitsync.Repo) error {
	canonDir := repo.CanonDir()
	if err := os.MkdirAll(canonDir, 0o755); err != nil {
		return err
	}
	if info, err := os.Lstat(filepath.Join(canonDir, autoWatchMissed)); err == nil && time.Since(info.ModTime()) < autoWatchRest {
		return nil // the last one could not watch every folder
	}
	mark := filepath.Join(canonDir, autoWatchMark)
	if info, err := os.Lstat(mark); err == nil && time.Since(info.ModTime()) < autoWatchClaim && time.Since(info.ModTime()) > -time.Minute {
		return nil // another command started one a moment ago
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if err := writeNoFollow(mark, fmt.Sprintf("%d\n", os.Getpid())); err != nil {
		return err
	}
	log, err := openWatchLog(filepath.Join(canonDir, autoWatchLog))
	if err != nil {
		return err
	}
	defer log.Close()
	if err := spawnDetached(exe, []string{"-C", repo.Root, "watch", "--" + startedByCommand}, watchEnv(repo, os.Getenv), log); err != nil {
		os.Remove(mark)
		return err
	}
	return nil
}

func writeNoFollow(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openWatchLog opens the started watcher's log for appending, emptied
// first when it has grown past autoWatchLogMax.
func openWatchLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && (!info.Mode().IsRegular() || info.Size() > autoWatchLogMax) {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func isWatcherBusy(err error) bool {
	var busy *gitsync.WatcherBusyError
	return errors.As(err, &busy)
}

// stopWatch is canon watch --stop: it signals the worktree's watcher
// (SIGTERM, which it takes as Ctrl-C) and waits until its lock is free.
func (e *env) stopWatch(c *cli.Context) error {
	repo, err := gitsync.Discover(e.dir)
	if err != nil {
		return err
	}
	w, err := gitsync.ObserveWatcher(repo.CanonDir())
	if err != nil {
		return err
	}
	res := stopResult{}
	if w != nil && w.Running && w.Status != nil && w.Status.PID > 1 && w.Status.PID != os.Getpid() {
		st := w.Status
		res = stopResult{Stopped: true, PID: st.PID, StartedBy: st.StartedBy, StartedAt: st.StartedAt}
		if err := signalStop(st.PID); err != nil {
			return fmt.Errorf("stop canon watch (pid %d): %w", st.PID, err)
		}
		if !waitWatcherGone(repo.CanonDir(), 10*time.Second) {
			return fail(1, "canon watch (pid %d) did not stop within 10s; kill -9 %d stops it", st.PID, st.PID)
		}
	}
	_ = os.Remove(filepath.Join(repo.CanonDir(), autoWatchMark)) // the next command may start one at once
	_ = os.Remove(filepath.Join(repo.CanonDir(), autoWatchMissed))
	res.Auto = autoOn(repo)
	if c.Bool("json-events") {
		return writeJSON(e.stdout, res)
	}
	if !res.Stopped {
		fmt.Fprintln(e.stdout, "no canon watch runs for this worktree")
		return nil
	}
	by := "started by hand"
	if res.StartedBy == gitsync.StartedByCommand {
		by = "started by a command (watch.auto)"
	}
	fmt.Fprintf(e.stdout, "stopped canon watch (pid %d, %s, since %s)\n", res.PID, by, human.Ago(res.StartedAt.Format(time.RFC3339)))
	if res.Auto {
		fmt.Fprintln(e.stdout, "watch.auto is on: the next command starts another (CANON_NO_AUTOWATCH=1 or watch.auto: false keeps it off)")
	}
	return nil
}

// stopResult is canon watch --stop --json.
type stopResult struct {
	Stopped   bool      `json:"stopped"`
	PID       int       `json:"pid,omitempty"`
	StartedBy string    `json:"started_by,omitempty"`
	StartedAt time.Time `json:"started_at,omitzero"`
	// Auto: watch.auto is on, so the next command starts another.
	Auto bool `json:"auto"`
}

// autoOn reads watch.auto from the worktree's configuration (false when
// it cannot be read).
func autoOn(repo *gitsync.Repo) bool {
	cfg, err := config.Load(repo.Root)
	return err == nil && cfg.Watch.Auto
}

// waitWatcherGone polls until no watcher holds the worktree's lock, at
// most limit.
func waitWatcherGone(canonDir string, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		w, err := gitsync.ObserveWatcher(canonDir)
		if err == nil && (w == nil || !w.Running) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}
