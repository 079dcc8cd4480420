//go:build unix

package main

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// spawnDetached starts exe with args in a session of its own (no
// controlling terminal; the command's Ctrl-C and hang-up do not reach it),
// from the root folder (it pins no folder), standard input /dev/null,
// standard output and error to out. It is not waited for.
func spawnDetached(exe string, args, env []string, out *os.File) error {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	closeInherited()
	cmd := exec.Command(exe, args...)
	cmd.Dir, cmd.Env = "/", env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// noFollow opens a file of the canon folder without following a
// symbolic link in its place.
const noFollow = syscall.O_NOFOLLOW

// signalStop asks the watcher pid to stop as Ctrl-C does.
func signalStop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

// closeInherited marks every descriptor above standard error close-on-exec,
// so that the watcher holds none the command inherited (a caller's pipe
// read until its end, a make jobserver's): Go marks only its own. The
// command itself keeps them open.
func closeInherited() {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return // no /proc: the watcher may hold what the command was given
	}
	for _, e := range fds {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
