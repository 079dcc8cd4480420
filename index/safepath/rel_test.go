package safepath

import (
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestCleanRel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rel, want, why string
	}{
		{"docs/a.md", "docs/a.md", ""},
		{"docs/./x/../a.md", "docs/a.md", ""},
		{"docs/", "docs", ""},
		{".", ".", ""},
		{"a/..", ".", ""},
		{"..a/b", "..a/b", ""},
		{"", "", "is empty"},
		{"/etc/passwd", "", "is absolute"},
		{`\\server\share`, "", "is absolute"},
		{"C:/Windows", "", "is absolute"},
		{"c:x", "", "is absolute"},
		{"..", "", "leaves the repository"},
		{"../x", "", "leaves the repository"},
		{"docs/../../x", "", "leaves the repository"},
		{"docs/a.md\x00.txt", "", "holds a NUL byte"},
	} {
		got, err := CleanRel(tt.rel)
		var re *RelError
		switch {
		case tt.why == "" && (err != nil || got != tt.want):
			t.Errorf("CleanRel(%q) = %q, %v; want %q", tt.rel, got, err, tt.want)
		case tt.why != "" && (!errors.As(err, &re) || re.Why != tt.why):
			t.Errorf("CleanRel(%q) = %q, %v; want an error that it %s", tt.rel, got, err, tt.why)
		}
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		root, p string
		want    bool
	}{
		{"/r", "/r", true},
		{"/r", "/r/a", true},
		{"/r", "/r/../r/a", true},
		{"/r", "/ra", false},
		{"/r", "/r/../x", false},
		{"/r", "/", false},
		{"/r", "r/a", false}, // relative against absolute
		{"", "a/b", true},    // the top of a relative tree
		{"", "../a", false},
		{"a", "a/b", true},
		{"a", "ab", false},
		{"/r", "/r/a\x00b", false},
	} {
		if got := Within(tt.root, tt.p); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.root, tt.p, got, tt.want)
		}
	}
}

func TestJoin(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	must.OK(t, os.MkdirAll(filepath.Join(repo, "docs"), 0o755))
	must.OK(t, os.Symlink(base, filepath.Join(repo, "up")))
	if p, err := Join(repo, "docs/a.md"); err != nil || p != filepath.Join(repo, "docs", "a.md") {
		t.Errorf("Join docs/a.md = %q, %v", p, err)
	}
	for _, rel := range []string{"up/x", "../x", "/etc/passwd", "a\x00"} {
		if p, err := Join(repo, rel); err == nil {
			t.Errorf("Join(%q) = %q, want an error", rel, p)
		}
	}
}

// FuzzCleanRel: whatever the text, a path CleanRel accepts is relative,
// clean, without NUL, and joined under any root it stays there by text.
func FuzzCleanRel(f *testing.F) {
	for _, s := range []string{"docs/a.md", "../x", "/etc", "a/../../b", "C:x", `\x`, "a\x00b", ".", "..a", "a/./b//c/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		c, err := CleanRel(rel)
		if err != nil {
			var re *RelError
			if !errors.As(err, &re) {
				t.Fatalf("CleanRel(%q): %v is no RelError", rel, err)
			}
			return
		}
		if c == "" || strings.IndexByte(c, 0) >= 0 || path.IsAbs(c) || c != path.Clean(c) || c == ".." || strings.HasPrefix(c, "../") {
			t.Fatalf("CleanRel(%q) = %q", rel, c)
		}
		root := "/repo/root"
		if p := filepath.Join(root, filepath.FromSlash(c)); !Within(root, p) {
			t.Fatalf("CleanRel(%q) = %q, which joined is %q outside %q", rel, c, p, root)
		}
		if !Within("", filepath.FromSlash(c)) {
			t.Fatalf("CleanRel(%q) = %q, not Within the top", rel, c)
		}
	})
}
