package gitenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestClearCoversGit: every variable the installed git calls local is
// cleared, and Clear removes them from the environment.
func TestClearCoversGit(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--local-env-vars").Output()
	if err != nil {
		t.Skipf("no git: %v", err) // the e2e suites fail without git; this list check needs it
	}
	have := map[string]bool{}
	for _, k := range local {
		have[k] = true
	}
	for _, k := range strings.Fields(string(out)) {
		if !have[k] {
			t.Errorf("git calls %s local, Clear leaves it", k)
		}
	}
	t.Setenv("GIT_DIR", "/elsewhere")
	t.Setenv("GIT_INDEX_FILE", "/elsewhere/index")
	Clear()
	for _, k := range []string{"GIT_DIR", "GIT_INDEX_FILE"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s=%s after Clear", k, v)
		}
	}
}
