package scan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestScopeIgnored checks nested .gitignore files: a folder without one
// inherits its parent's patterns, and no further.
func TestScopeIgnored(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, content := range map[string]string{
		".gitignore":             "*.tmp.md\n",
		"sub/.gitignore":         "secret.md\n",
		"sub/deep/er/.gitignore": "!keep.tmp.md\n",
	} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := NewScope(root, config.Default(), "")
	tests := []struct {
		path    string
		ignored bool
	}{
		{"a.md", false},
		{"x.tmp.md", true},
		{"sub/secret.md", true},
		{"sub/deep/secret.md", true}, // sub/deep has no .gitignore of its own
		{"sub/deep/x.tmp.md", true},
		{"sub/deep/er/keep.tmp.md", false},
		{"sub/deep/er/secret.md", true},
		{"other/secret.md", false}, // sub's patterns stay in sub
		{"other/deep/y.tmp.md", true},
		{".git/x.md", true},
	}
	for _, tt := range tests {
		if got := s.Ignored(tt.path, false); got != tt.ignored {
			t.Errorf("Ignored(%q) = %v, want %v", tt.path, got, tt.ignored)
		}
	}
}
