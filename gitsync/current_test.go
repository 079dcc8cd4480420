package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCurrentTakesInEdits checks that Current takes in what the working
// tree holds: an edit whose stat changed, and one of the same size whose
// time is what the index holds (an edit in the same tick as the read,
// git's racy case), which only a read of the file can tell; a command
// with nothing edited writes nothing.
func TestCurrentTakesInEdits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"a.md": "---\nid: A-1\n---\n# A\n\nplain one\n"})
	if _, _, err := s.Current(ctx); err != nil {
		t.Fatal(err)
	}
	taken := func() int {
		t.Helper()
		_, n, err := s.Current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := taken(); n != 0 {
		t.Fatalf("nothing edited: took in %d", n)
	}
	write(t, dir, "a.md", "---\nid: A-1\n---\n# A\n\nan edit, longer\n")
	if n := taken(); n != 1 {
		t.Fatalf("an edit: took in %d, want 1", n)
	}
	// The same size and the time the index holds, after the last walk
	// began: racy.
	p := filepath.Join(dir, "a.md")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.md", "---\nid: A-1\n---\n# A\n\nan EDIT, longer\n")
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.SetMeta(ctx, map[string]string{"scan_ns": "1"}); err != nil {
		t.Fatal(err)
	}
	if n := taken(); n != 1 {
		t.Fatalf("a racy edit: took in %d, want 1", n)
	}
	syncID := func() string {
		v, err := s.Store.Meta("sync_id")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := syncID()
	if n := taken(); n != 0 {
		t.Fatalf("nothing edited since: took in %d", n)
	}
	if syncID() != before {
		t.Fatal("a command with nothing to take in wrote the index")
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}

// Status asks no listener by itself: a listening server calls it inside
// its own turn, where a cookie would wait for that turn. Only a caller
// that asked first (Vouched, the command line) spares the count.
func TestStatusDropsNoCookie(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"a.md": "---\nid: A-1\n---\n# A\n"})
	l, err := AcquireListener(s.Repo.CanonDir()) // a server that never answers
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	write(t, dir, "a.md", "---\nid: A-1\n---\n# A\n\nedited\n")
	done := make(chan *Status, 1)
	go func() {
		st, err := s.Status(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	cookie := ""
	for {
		entries, _ := os.ReadDir(s.Repo.GitDir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), CookiePrefix) {
				cookie = e.Name()
			}
		}
		select {
		case st := <-done:
			if cookie != "" {
				t.Fatalf("Status dropped a cookie (%s) for a listener", cookie)
			}
			if st != nil && st.WorktreeChanged != 1 {
				t.Fatalf("worktree_changed = %d, want 1 (counted, not vouched)", st.WorktreeChanged)
			}
			return
		default:
		}
	}
}
