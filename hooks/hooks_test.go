package hooks

import (
	"bytes"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestShims(t *testing.T) {
	t.Parallel()
	for _, name := range Names {
		for _, chained := range []bool{false, true} {
			s := string(Shim(name, chained))
			if !strings.HasPrefix(s, "#!/bin/sh\n") || !strings.Contains(s, Marker) {
				t.Fatalf("%s: not a marked shell script:\n%s", name, s)
			}
			if strings.Contains(s, name+origSuffix) != chained {
				t.Errorf("%s chained=%v: kept hook mentioned wrongly:\n%s", name, chained, s)
			}
			blocking := name == "pre-commit" || name == "pre-push"
			handed := strings.Contains(s, "exec canon hook "+name) ||
				name == "pre-push" && chained && strings.HasSuffix(s, "printf '%s' \"$input\" | canon hook pre-push \"$@\"\n")
			if handed != blocking {
				t.Errorf("%s: only pre-commit and pre-push may hand their status to git:\n%s", name, s)
			}
			// The shim must be valid sh.
			if out, err := exec.Command("sh", "-n", "-c", s).CombinedOutput(); err != nil {
				t.Errorf("%s: sh -n: %v\n%s", name, err, out)
			}
		}
	}
}

func TestInstallOneKeepsForeignHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	foreign := []byte("#!/bin/sh\necho mine\n")
	p := filepath.Join(dir, "post-commit")
	if err := os.WriteFile(p, foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := installOne(dir, dir, "post-commit", false)
	if err != nil || a.Did != "chained" {
		t.Fatalf("installOne = %+v, %v", a, err)
	}
	kept, _ := os.ReadFile(p + origSuffix)
	if !bytes.Equal(kept, foreign) {
		t.Fatal("the foreign hook was not kept byte for byte")
	}
	if a, _ := installOne(dir, dir, "post-commit", false); a.Did != "unchanged" {
		t.Fatalf("second install did %q", a.Did)
	}
	if st := statusOf(dir, dir, "post-commit"); st.State != StateChained || st.Stale {
		t.Fatalf("status = %+v", st)
	}
	// A file already where canon keeps hooks: refused without --force.
	must.OK(t, os.WriteFile(filepath.Join(dir, "post-merge"), foreign, 0o755))
	must.OK(t, os.WriteFile(filepath.Join(dir, "post-merge"+origSuffix), []byte("older"), 0o755))
	if _, err := installOne(dir, dir, "post-merge", false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("expected a refusal naming --force, got %v", err)
	}
}

// TestReadHookStaysInside: a hook file is read bounded, as a regular
// file, inside the hooks folder or the repository: a link to a script of
// the repository is read; one to /dev/zero or out of both is not.
func TestReadHookStaysInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	dir := filepath.Join(root, ".git", "hooks")
	must.OK(t, os.MkdirAll(dir, 0o755))
	must.OK(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(root, "scripts", "pre-commit"), []byte("#!/bin/sh\ncanon hook pre-commit\n"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(base, "elsewhere"), []byte("#!/bin/sh\ncanon hook post-commit\n"), 0o755))
	must.OK(t, os.Symlink("../../scripts/pre-commit", filepath.Join(dir, "pre-commit")))
	must.OK(t, os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(dir, "post-commit")))
	must.OK(t, os.Symlink("/dev/zero", filepath.Join(dir, "post-merge")))
	if st := statusOf(root, dir, "pre-commit"); st.State != StateForeign || !st.Canons {
		t.Errorf("a hook linked into the repository: %+v", st)
	}
	for _, name := range []string{"post-commit", "post-merge"} {
		if _, err := readHook(root, dir, filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was read", name)
		}
	}
}

// TestOldNoteOnce: the pre-commit note about problems the changed files
// already had is said when it is news, not on every commit to the same
// files with the same problems.
func TestOldNoteOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := &check.Result{NewOnly: true, Old: 2, OldFiles: []string{"a.md"}}
	b := &check.Result{NewOnly: true, Old: 1, OldFiles: []string{"b.md"}}
	for i, tc := range []struct {
		res  *check.Result
		want bool
	}{{a, true}, {a, false}, {b, true}, {a, true}, {&check.Result{NewOnly: true}, false}, {a, false}} {
		if got := newOldNote(dir, tc.res); got != tc.want {
			t.Errorf("step %d: %v, want %v", i, got, tc.want)
		}
	}
}

// Without canon on PATH git cannot run the merge driver either: status
// says so when the clone registered it, and only the hooks otherwise.
func TestStatusSaysTheDriverNeedsCanonOnPath(t *testing.T) {
	for _, c := range []struct {
		driver DriverState
		want   string
	}{
		{DriverState{Named: true, Registered: true}, "canon is not on PATH: the hooks will do nothing, and every merge of a Markdown file stops as a conflict (git cannot run the merge driver), until it is\n"},
		{DriverState{}, "canon is not on PATH: the hooks will do nothing until it is\n"},
	} {
		var b strings.Builder
		rep := &Inspection{Dir: "/r/.git/hooks", MergeDriver: c.driver, root: "/r"}
		if err := rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("driver %+v: status says\n%s\nwant the line %q", c.driver, b.String(), c.want)
		}
	}
}
