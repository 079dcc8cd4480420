//go:build !unix

package watch

// pidAlive cannot ask the system here; the watcher lock alone decides.
func pidAlive(pid int) bool { return pid > 0 }
