//go:build !unix

package main

import (
	"errors"
	"os"
)

var errNoDetach = errors.New("starting a watcher in the background is supported on Linux and other Unix systems only")

const noFollow = 0

func spawnDetached(string, []string, []string, *os.File) error { return errNoDetach }

func signalStop(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
