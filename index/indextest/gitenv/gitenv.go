// Package gitenv keeps a test's git commands in the test's own
// repositories. Git run from a hook, from `git rebase --exec` or from
// `git bisect run` exports GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE and
// their kin; a test that runs git with the inherited environment then
// writes into the repository the tests were started from, not into its
// temporary one: a worktree, a branch or `core.bare` in the developer's
// own clone. Clear, called from TestMain, removes every variable git
// calls local to a repository (git rev-parse --local-env-vars), so each
// git a test runs finds its repository from its directory alone.
//
// It imports nothing of canon's, so any package's tests can use it.
package gitenv

import (
	"os"
	"testing"
)

// local are the variables `git rev-parse --local-env-vars` names (git
// 2.39), plus GIT_CEILING_DIRECTORIES and GIT_DISCOVERY_ACROSS_FILESYSTEM,
// which change where git looks for a repository.
var local = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE",
	"GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
}

// Clear unsets the repository-local git variables of this process.
func Clear() {
	for _, k := range local {
		_ = os.Unsetenv(k)
	}
}

// Main is a TestMain that clears them and runs the package's tests.
func Main(m *testing.M) {
	Clear()
	os.Exit(m.Run())
}
