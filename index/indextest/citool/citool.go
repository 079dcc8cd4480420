// Package citool decides what a test does when an external tool it needs
// (a hook manager, a validator, a reference renderer) is missing: outside
// CI it skips and says why; in CI (CI=true), where .ci/run installs every
// such tool, it fails, because a CI run must not pass by testing less.
//
// It imports nothing of canon's, so any package's tests can use it.
package citool

import (
	"os"
	"testing"
)

// Need skips t, or fails it under CI=true, saying why.
func Need(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: .ci/run installs it, and a CI run does not pass by skipping)", args...)
	}
	t.Skipf(format, args...)
}
