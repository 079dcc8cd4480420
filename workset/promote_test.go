package workset

import (
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

func TestADRSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Keep the inbox table, drop the queue":                                      "keep-the-inbox-table-drop-the-queue",
		"retry with exponential back-off, capped at ten minutes and then some more": "retry-with-exponential-back-off-capped-at-ten",
		"Ünïcode — only?":        "ncode-only",
		"!!!":                    "decision",
		"PSP's 3DS2 SDK, v2.1.0": "psp-s-3ds2-sdk-v2-1-0",
	} {
		if got := adrSlug(in); got != want {
			t.Errorf("adrSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStamp(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 30, 5, 0, time.FixedZone("", 3600))
	for old, want := range map[string]string{
		"2025-01-02":                "2025-03-01",
		"2025-01-02T08:00:00Z":      "2025-03-01T12:30:05+01:00",
		"2025-01-02 08:00:00+00:00": "2025-03-01 12:30:05+01:00",
		"2025-01-02T08:00:00+0000":  "2025-03-01T12:30:05+0100",
		"2025-01-02 08:00":          "2025-03-01 12:30",
		"last week":                 "2025-03-01",
		"":                          "2025-03-01",
	} {
		if got := stamp(old, now); got != want {
			t.Errorf("stamp(%q) = %q, want %q", old, got, want)
		}
	}
}

func TestSafePath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("items/a.md")
	write("items/notes.txt")
	must.OK(t, os.WriteFile(filepath.Join(outside, "x.md"), []byte("# x\n"), 0o644))
	must.OK(t, os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(root, "items/link.md")))
	must.OK(t, os.Symlink(outside, filepath.Join(root, "ext")))
	must.OK(t, os.MkdirAll(filepath.Join(root, "items/dir.md"), 0o755))
	cfg, err := config.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	scope := index.NewScope(root, cfg, "")
	for _, tc := range []struct {
		rel       string
		mustExist bool
		err       string // "" when allowed
	}{
		{"items/a.md", true, ""},
		{"items/new.md", false, ""},
		{"decisions/ADR-0001_x.md", false, ""}, // a folder still to be made
		{"items/new.md", true, "does not exist"},
		{"../x.md", false, "not a path inside the repository"},
		{"/etc/x.md", false, "not a path inside the repository"},
		{"items/../items/a.md", false, "not a path inside the repository"},
		{"items/notes.txt", true, "outside the canonical roots"},
		{".cache/worksets/w/notes.md", false, "outside the canonical roots"},
		{".git/x.md", false, "outside the canonical roots"},
		{"items/link.md", true, "is a symbolic link"},
		{"ext/x.md", true, "symbolic link that leaves the repository"},
		{"ext/new.md", false, "symbolic link that leaves the repository"},
		{"items/dir.md", true, "not a regular file"},
	} {
		_, err := safePath(root, tc.rel, scope, tc.mustExist)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.rel, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err = %v, want %q", tc.rel, err, tc.err)
		}
	}
}
