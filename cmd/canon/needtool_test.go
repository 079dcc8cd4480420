package main

import (
	"os"
	"testing"
)

// needTool skips a test whose external tool is missing; in CI (CI=true),
// where .ci/run installs every such tool, it fails instead: a CI run must
// not pass by testing less.
func needTool(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: .ci/run installs it, and a CI run does not pass by skipping)", args...)
	}
	t.Skipf(format, args...)
}
