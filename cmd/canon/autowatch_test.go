package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No watcher is started by a process git runs, in CI or when the user
// says not to; an empty or false value is no setting.
func TestAutoWatchOff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{"CANON_NO_AUTOWATCH": "1"}, "CANON_NO_AUTOWATCH"},
		{map[string]string{"CANON_NO_AUTOWATCH": "0", "CI": "false"}, ""},
		{map[string]string{"CANON_NO_AUTOWATCH": ""}, ""},
		{map[string]string{"CI": "true"}, "CI"},
		{map[string]string{"CI": "1"}, "CI"},
		{map[string]string{"GIT_EXEC_PATH": "/usr/lib/git-core"}, "git"},
		{map[string]string{"GIT_PREFIX": ""}, ""},
		{map[string]string{"GIT_INDEX_FILE": ".git/index"}, "git"},
	} {
		got := autoWatchOff(func(k string) string { return c.env[k] })
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("autoWatchOff(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// The started watcher's log is appended to, emptied at a start once past
// its bound, and a symbolic link in its place is not followed.
func TestWatchLogIsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, autoWatchLog)
	if err := os.WriteFile(path, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := openWatchLog(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("more\n")
	f.Close()
	if b, _ := os.ReadFile(path); string(b) != "kept\nmore\n" {
		t.Fatalf("log = %q, want it appended to", b)
	}
	if err := os.WriteFile(path, make([]byte, autoWatchLogMax+1), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = openWatchLog(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if info, _ := os.Stat(path); info.Size() != 0 {
		t.Fatalf("a log past its bound is %d bytes at a start, want 0", info.Size())
	}
	target := filepath.Join(dir, "elsewhere")
	link := filepath.Join(dir, "linked.log")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if f, err := openWatchLog(link); err == nil {
		f.Close()
		t.Fatal("openWatchLog followed a symbolic link")
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("openWatchLog created the link's target")
	}
}
