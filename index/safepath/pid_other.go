//go:build !unix

package safepath

// PIDAlive cannot ask the system here; the watcher lock alone decides.
func PIDAlive(pid int) bool { return pid > 0 }
