package indextest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/scan"
)

// Write writes files (path: content) under root, making their folders.
func Write(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must.OK(tb, os.MkdirAll(filepath.Dir(p), 0o755))
		must.OK(tb, os.WriteFile(p, []byte(content), 0o644))
	}
}

// Build is a fresh index of the documents under root as cfg finds them,
// in a temporary folder, closed when the test ends.
func Build(tb testing.TB, root string, cfg *config.Config) *index.Store {
	tb.Helper()
	st, _, err := index.Open(filepath.Join(tb.TempDir(), "index.db"))
	must.OK(tb, err)
	tb.Cleanup(func() { st.Close() })
	files, err := scan.NewScope(root, cfg, "").Walk()
	must.OK(tb, err)
	_, err = st.Rebuild(context.Background(), index.NewLoader(root, cfg), files, nil, nil)
	must.OK(tb, err)
	return st
}

// Tree is every file under root (by its full path) and its content: what
// a test compares before and after a write that must change nothing.
func Tree(tb testing.TB, root string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	must.OK(tb, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	}))
	return out
}
