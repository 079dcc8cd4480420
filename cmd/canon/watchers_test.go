package main

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/canon-md/canon/gitsync"
)

// stopWatchers stops every canon watch still running for a repository
// under dir (a script's work folder): a watcher a command started in the
// background (watch.auto) is no child of the script, so testscript's own
// kill of background commands misses it. SIGTERM first, SIGKILL when it
// does not stop; a script that left one running fails, so that every
// script stops what it starts.
func stopWatchers(t testscript.T, dir string) {
	var left []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "objects" {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != gitsync.WatcherLockFile {
			return nil
		}
		canonDir := filepath.Dir(path)
		w, err := gitsync.ObserveWatcher(canonDir)
		if err != nil || w == nil || !w.Running || w.Status == nil || w.Status.PID <= 1 {
			return nil
		}
		pid := w.Status.PID
		if w.Status.StartedBy == gitsync.StartedByCommand {
			left = append(left, canonDir)
		}
		_ = syscall.Kill(pid, syscall.SIGTERM)
		if !waitWatcherGone(canonDir, 10*time.Second) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatal("a watcher a command started was still running after the script (stopped now; end the script with canon watch --stop): ", left)
	}
}
