//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/canon-md/canon/gitsync"
	"golang.org/x/sys/unix"
)

// The started watcher runs from "/": a relative GIT_DIR it inherited would
// name another repository (a reviewer's watcher watched the enclosing
// one), and a profile path or a frozen clock is one command's. It gets
// the repository's absolute folders instead, and none of those.
func TestWatchEnv(t *testing.T) {
	repo := &gitsync.Repo{Root: "/r/outer/r2", GitDir: "/r/outer/r2/.git"}
	t.Setenv("GIT_DIR", "../.git")
	t.Setenv("GIT_WORK_TREE", "..")
	t.Setenv("GIT_INDEX_FILE", "x")
	t.Setenv("CANON_CPUPROFILE", "prof.out")
	t.Setenv("CANON_NOW", "2026-01-01T00:00:00Z")
	t.Setenv("CANON_LOCK_WAIT", "5s")
	env := watchEnv(repo, os.Getenv)
	for _, want := range []string{"GIT_DIR=/r/outer/r2/.git", "GIT_WORK_TREE=/r/outer/r2", "CANON_LOCK_WAIT=5s"} {
		if !slices.Contains(env, want) {
			t.Errorf("the watcher's environment lacks %s", want)
		}
	}
	for _, kv := range env {
		for _, bad := range []string{"GIT_DIR=../.git", "GIT_WORK_TREE=..", "GIT_INDEX_FILE=", "CANON_CPUPROFILE=", "CANON_NOW="} {
			if len(kv) >= len(bad) && kv[:len(bad)] == bad {
				t.Errorf("the watcher inherits %s", kv)
			}
		}
	}
	t.Setenv("GIT_DIR", "")
	if env := watchEnv(repo, os.Getenv); slices.Contains(env, "GIT_DIR=/r/outer/r2/.git") {
		t.Error("a repository found by its folder is named by GIT_DIR")
	}
}

// A descriptor the command inherited without close-on-exec (a caller's
// pipe) is not handed on to the watcher.
func TestCloseInherited(t *testing.T) {
	fd, err := syscall.Open(filepath.Join(t.TempDir(), "f"), syscall.O_CREAT|syscall.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil || flags&unix.FD_CLOEXEC != 0 {
		t.Fatalf("set-up: flags %v, err %v", flags, err)
	}
	closeInherited()
	if flags, err = unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Fatalf("an inherited descriptor stays open across exec: flags %v, err %v", flags, err)
	}
}
