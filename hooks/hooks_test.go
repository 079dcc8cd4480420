package hooks

import (
	"bytes"
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
			blocking := name == "pre-commit"
			if strings.Contains(s, "exec canon hook "+name) != blocking {
				t.Errorf("%s: only pre-commit may hand its status to git:\n%s", name, s)
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
	os.WriteFile(filepath.Join(dir, "post-merge"), foreign, 0o755)
	os.WriteFile(filepath.Join(dir, "post-merge"+origSuffix), []byte("older"), 0o755)
	if _, err := installOne(dir, dir, "post-merge", false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("expected a refusal naming --force, got %v", err)
	}
}
