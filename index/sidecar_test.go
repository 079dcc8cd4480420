package index

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/vectors"
)

// TestSidecarFollowsTheFile: a long-lived store (canon mcp) sees an import,
// a damage, a repair and a removal at its next search, not the first state
// it read.
func TestSidecarFollowsTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "vectors.bin")
	v := &vectorSidecar{path: path, roots: []string{dir}}
	table := func() *vectors.Table {
		t.Helper()
		tb, err := v.load()
		must.OK(t, err)
		return tb
	}
	if table() != nil {
		t.Fatal("a table with no sidecar")
	}
	tb, err := vectors.Read([]byte("quietly 1 0 1\nsilently 1 0.1 1\n"), 10)
	must.OK(t, err)
	must.OK(t, os.WriteFile(path, tb.Encode(), 0o644))
	if got := table(); got == nil || got.Len() != 2 {
		t.Fatalf("after an import: %v, want the two words", got)
	}
	must.OK(t, os.WriteFile(path, []byte("damaged"), 0o644))
	future := time.Now().Add(time.Minute) // a new stamp even where mtimes are coarse
	must.OK(t, os.Chtimes(path, future, future))
	if _, err := v.load(); err == nil {
		t.Fatal("a damaged sidecar read as whole")
	}
	must.OK(t, os.Remove(path))
	if table() != nil {
		t.Fatal("a removed sidecar still bridges, or its failure stays")
	}
	must.OK(t, os.WriteFile(path, tb.Encode(), 0o644))
	if table() == nil {
		t.Fatal("a sidecar imported again is not read")
	}
}
