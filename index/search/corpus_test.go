package search

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

// corpusIndex builds an index of files (path: content) with the default
// configuration and returns it. It is closed when the test
// ends.
func corpusIndex(t testing.TB, files map[string]string) *index.Store {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, rel)
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must.OK(t, os.WriteFile(p, []byte(content), 0o644))
	}
	cfg := config.Default()
	st, _, err := index.Open(filepath.Join(t.TempDir(), "index.db"))
	must.OK(t, err)
	t.Cleanup(func() { st.Close() })
	walked, err := scan.NewScope(root, cfg, "").Walk()
	must.OK(t, err)
	_, err = st.Rebuild(context.Background(), index.NewLoader(root, cfg), walked, nil, nil)
	must.OK(t, err)
	return st
}
