//go:build unix

package safepath

import (
	"errors"
	"syscall"
)

// PIDAlive reports whether a process with this pid exists (signal 0 checks
// without sending anything; EPERM means it exists under another user).
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
