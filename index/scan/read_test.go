package scan

import (
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

// TestReadDocument: a path the index or a workset holds is untrusted; it
// is read only inside the repository, as a regular file, under the cap.
func TestReadDocument(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	must.OK(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# A\n"), 0o644))
	must.OK(t, os.WriteFile(filepath.Join(base, "secret"), []byte("s3cr3t"), 0o600))
	must.OK(t, os.Symlink(filepath.Join(base, "secret"), filepath.Join(root, "docs", "out.md")))
	must.OK(t, os.WriteFile(filepath.Join(root, "docs", "big.md"), []byte(strings.Repeat("x", 100)), 0o644))
	cfg := config.Default()
	cfg.MaxFileSize = 50
	if data, err := ReadDocument(root, cfg, "docs/a.md"); err != nil || string(data) != "# A\n" {
		t.Errorf("docs/a.md: %q, %v", data, err)
	}
	for rel, want := range map[string]any{
		"../secret":     new(*safepath.RelError),
		"/etc/passwd":   new(*safepath.RelError),
		"docs/out.md":   new(*safepath.OutsideError),
		"docs/big.md":   new(*safepath.TooLargeError),
		"docs/a.md\x00": new(*safepath.RelError),
	} {
		if data, err := ReadDocument(root, cfg, rel); !errors.As(err, want) {
			t.Errorf("%q: %q, %v; want %T", rel, data, err, want)
		}
	}
}

// TestHashFileStreams: the blob id of a file over the cap, read as a
// stream, is git's.
func TestHashFileStreams(t *testing.T) {
	root := t.TempDir()
	content := []byte(strings.Repeat("line\n", 100000))
	p := filepath.Join(root, "big.md")
	must.OK(t, os.WriteFile(p, content, 0o644))
	if got, want := hashFile(p, root), BlobOID(content); got != want {
		t.Errorf("hashFile = %s, want %s", got, want)
	}
	must.OK(t, os.Symlink("/dev/zero", filepath.Join(root, "zero.md")))
	if got := hashFile(filepath.Join(root, "zero.md"), root); got != "" {
		t.Errorf("hashFile of /dev/zero = %q", got)
	}
}
