package watch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/canon-md/canon/gitsync"
)

// A cookie is stale when its command is gone: its PID is not alive, or it
// is older than any command waits, even though its PID now names a live
// process (a reused PID kept a killed command's cookie for ever).
func TestStaleCookies(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	cookies := map[string]struct {
		pid   int
		age   time.Duration
		stale bool
	}{
		"live, fresh":        {os.Getpid(), 0, false},
		"live, old":          {os.Getpid(), 2 * cookieMaxAge, true},
		"live, nearly stale": {os.Getpid(), cookieMaxAge / 2, false},
		"dead":               {gone.Process.Pid, 0, true},
	}
	paths := map[string]string{}
	i := 0
	for what, c := range cookies {
		i++
		p := filepath.Join(dir, fmt.Sprintf("%s%d-%d", gitsync.CookiePrefix, c.pid, i))
		write(t, p, "")
		at := now.Add(-c.age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		paths[what] = p
	}
	other := filepath.Join(dir, gitsync.CookiePrefix+"not-a-pid")
	write(t, other, "")
	removeStaleCookies(dir, now)
	for what, c := range cookies {
		if exists(paths[what]) == c.stale {
			t.Errorf("%s cookie: removed %v, want %v", what, !exists(paths[what]), c.stale)
		}
	}
	if !exists(other) {
		t.Error("a file that is no command's cookie was removed")
	}
}
