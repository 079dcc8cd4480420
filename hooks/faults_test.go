package hooks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest/must"
)

// failing makes the rename and write seams fail as the test says, and
// puts them back when it ends. Tests that use it do not run in parallel.
func failing(t *testing.T, ren func(from, to string) error, write func(string, []byte, os.FileMode, ...string) error) {
	t.Helper()
	oldRename, oldWrite := rename, writeFile
	t.Cleanup(func() { rename, writeFile = oldRename, oldWrite })
	if ren != nil {
		rename = ren
	}
	if write != nil {
		writeFile = write
	}
}

var errInjected = errors.New("injected failure")

// TestInstallReportsAHookLeftAside: when canon's shim cannot be written
// after the user's hook was moved aside, the hook is put back; when that
// rename fails too, the error says where the user's hook is and how to
// put it back, never nothing.
func TestInstallReportsAHookLeftAside(t *testing.T) {
	foreign := []byte("#!/bin/sh\necho mine\n")
	for _, putBack := range []bool{true, false} {
		dir := t.TempDir()
		p := filepath.Join(dir, "post-commit")
		must.OK(t, os.WriteFile(p, foreign, 0o755))
		calls := 0
		failing(t, func(from, to string) error {
			calls++
			if calls > 1 && !putBack { // the rename that puts the hook back
				return errInjected
			}
			return os.Rename(from, to)
		}, func(string, []byte, os.FileMode, ...string) error { return errInjected })
		_, err := installOne(dir, dir, "post-commit", false)
		if err == nil || !errors.Is(err, errInjected) {
			t.Fatalf("putBack %v: installOne = %v, want the write's failure", putBack, err)
		}
		if putBack {
			if got, _ := os.ReadFile(p); !bytes.Equal(got, foreign) {
				t.Fatalf("the user's hook was not put back: %q", got)
			}
			continue
		}
		kept := p + origSuffix
		if !strings.Contains(err.Error(), "your own hook is kept as "+kept) || !strings.Contains(err.Error(), "rename it to "+p) {
			t.Fatalf("the error does not say where the user's hook is: %v", err)
		}
		if got, _ := os.ReadFile(kept); !bytes.Equal(got, foreign) {
			t.Fatalf("the user's hook is not where the error says: %q", got)
		}
	}
}

// TestUninstallReportsAFailedRestore: a chained hook that cannot be
// renamed back is an error of uninstall (both its ways: canon's own shims
// and those a hook manager's folder held), not a hook silently left as
// NAME.canon-orig.
func TestUninstallReportsAFailedRestore(t *testing.T) {
	foreign := []byte("#!/bin/sh\necho mine\n")
	chained := func(t *testing.T) (root, dir string) {
		root = t.TempDir()
		if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		dir = filepath.Join(root, ".githooks")
		must.OK(t, os.MkdirAll(dir, 0o755))
		must.OK(t, os.WriteFile(filepath.Join(dir, "post-commit"), foreign, 0o755))
		if _, err := installOne(root, dir, "post-commit", false); err != nil {
			t.Fatal(err)
		}
		return root, dir
	}
	failRestore := func(from, to string) error {
		if strings.HasSuffix(from, origSuffix) {
			return errInjected
		}
		return os.Rename(from, to)
	}

	root, dir := chained(t)
	failing(t, failRestore, nil)
	if _, err := removeShims(root, dir); !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "restore the earlier post-commit hook") {
		t.Fatalf("removeShims = %v, want the failed restore", err)
	}

	root, dir = chained(t)
	r, err := gitsync.Discover(root)
	must.OK(t, err)
	if _, _, err := Uninstall(context.Background(), r, dir); !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "restore the earlier post-commit hook") {
		t.Fatalf("Uninstall = %v, want the failed restore", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "post-commit"+origSuffix)); !bytes.Equal(got, foreign) {
		t.Fatalf("the user's hook is lost: %q", got)
	}
}
