package index

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSwapInReportsFailedFlushes: a full build's new file that cannot be
// flushed to the disk is not put in place (the old index stays, the new
// file is removed) and the error says so; a folder that cannot be flushed
// after the rename is reported too, except where the file system cannot
// flush folders at all (EINVAL).
func TestSwapInReportsFailedFlushes(t *testing.T) {
	t.Cleanup(func() { syncFile = flushPath })
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	st, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	newBuild := func() string {
		t.Helper()
		tmp := path + buildSuffix
		b, _, err := Open(tmp)
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		return tmp
	}
	eio := syscall.EIO

	// The new file's flush fails: nothing moves.
	tmp := newBuild()
	before, _ := os.Stat(path)
	syncFile = func(p string) error {
		if p == tmp {
			return eio
		}
		return flushPath(p)
	}
	if err := st.swapIn(tmp); !errors.Is(err, eio) || !strings.Contains(err.Error(), "flush the new index to disk") {
		t.Fatalf("swapIn = %v, want the failed flush of the new file", err)
	}
	if now, _ := os.Stat(path); !os.SameFile(before, now) {
		t.Fatal("a new index that was never flushed replaced the old one")
	}
	if _, err := os.Lstat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the unflushed build is left beside the index: %v", err)
	}

	// The folder's flush fails after the rename: in place, and said.
	for _, tc := range []struct {
		err  error
		want string
	}{{eio, "its folder could not be flushed"}, {syscall.EINVAL, ""}} {
		tmp := newBuild()
		syncFile = func(p string) error {
			if p == dir {
				return tc.err
			}
			return flushPath(p)
		}
		err := st.swapIn(tmp)
		if tc.want == "" {
			if err != nil {
				t.Fatalf("a folder that cannot be flushed (EINVAL): %v, want no error", err)
			}
			continue
		}
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("swapIn = %v, want the folder's failed flush", err)
		}
		if _, err := os.Lstat(tmp); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("the new index was not renamed into place")
		}
	}
}
