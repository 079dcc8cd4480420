package workset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
)

func TestValidateName(t *testing.T) {
	t.Parallel()
	good := []string{"fix-retries", "KB-TSK-0007", "a", "v1.2_final", "0day", strings.Repeat("x", MaxNameLen)}
	for _, n := range good {
		if err := ValidateName(n); err != nil {
			t.Errorf("ValidateName(%q) = %v, want ok", n, err)
		}
	}
	bad := []struct{ name, why string }{
		{"", "empty"},
		{"../x", "separator"},
		{"a/b", "separator"},
		{`a\b`, "separator"},
		{"..", ".."},
		{"a..b", ".."},
		{".hidden", "dot"},
		{".", "dot"},
		{strings.Repeat("x", 300), "300 characters"},
		{strings.Repeat("x", MaxNameLen+1), "characters long"},
		{"-rf", "starts with -"},
		{"_x", "starts with _"},
		{"a b", "' '"},
		{"a\x00b", `'\x00'`},
		{"naïve", "'ï'"},
		{"a:b", "':'"},
		{"~", "'~'"},
		{"name.", "ends with a dot"},
	}
	for _, b := range bad {
		err := ValidateName(b.name)
		if err == nil {
			t.Errorf("ValidateName(%q) accepted it", b.name)
			continue
		}
		if !errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), b.why) {
			t.Errorf("ValidateName(%q) = %v, want ErrBadName saying %q", b.name, err, b.why)
		}
	}
}

func TestFolderStaysInside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p, err := Folder(root, "fix-retries")
	if err != nil || p != filepath.Join(root, ".cache", "worksets", "fix-retries") {
		t.Fatalf("Folder = %q, %v", p, err)
	}
	for _, n := range []string{"../x", "..", "a/../../b", "/etc", ""} {
		if p, err := Folder(root, n); err == nil {
			t.Errorf("Folder(%q) = %q, want an error", n, p)
		}
	}
}

// TestReadOwnStaysInside: a workset's files are read as regular files
// inside the repository, bounded: members.keys as a link to /dev/zero
// sends the caller to the database, plan.md as a link out is refused.
func TestReadOwnStaysInside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir, err := Folder(root, "w")
	if err != nil {
		t.Fatal(err)
	}
	must.OK(t, os.MkdirAll(dir, 0o755))
	must.OK(t, os.Symlink("/dev/zero", filepath.Join(dir, KeysFile)))
	if _, ok := readKeys(root, dir); ok {
		t.Error("members.keys -> /dev/zero was read")
	}
	os.Remove(filepath.Join(dir, KeysFile))
	must.OK(t, os.WriteFile(filepath.Join(dir, KeysFile), []byte("a\nb\n"), 0o644))
	if keys, ok := readKeys(root, dir); !ok || len(keys) != 2 {
		t.Errorf("members.keys: %v %v", keys, ok)
	}
	must.OK(t, os.Symlink("/proc/self/environ", filepath.Join(dir, PlanFile)))
	if data, err := ReadFile(context.Background(), &Env{Root: root}, "w", PlanFile); err == nil || !strings.Contains(err.Error(), "canon reads nothing outside it") {
		t.Errorf("plan.md -> /proc/self/environ: %d bytes, %v", len(data), err)
	}
	if _, err := ReadFile(context.Background(), &Env{Root: root}, "../x", PlanFile); !errors.Is(err, ErrBadName) {
		t.Errorf("a bad name: %v", err)
	}
}
