package gitsync

import (
	"testing"

	"github.com/canon-md/canon/index/indextest/gitenv"
)

// TestMain keeps the tests' git in their own repositories when the suite
// runs under a git that exported GIT_DIR (a hook, rebase --exec).
func TestMain(m *testing.M) { gitenv.Main(m) }
