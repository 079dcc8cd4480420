//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// spawnDetached starts exe with args in a session of its own (no
// controlling terminal; the command's Ctrl-C and hang-up do not reach it),
// from the root folder (it pins no folder), standard input /dev/null,
// standard output and error to out. It is not waited for.
func spawnDetached(exe string, args []string, out *os.File) error {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = "/"
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
