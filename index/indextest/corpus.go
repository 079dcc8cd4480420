package indextest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/scan"
)

// Size is the corpus size a benchmark runs at: CANON_BENCH_N, else def.
func Size(tb testing.TB, def int) int {
	s := os.Getenv("CANON_BENCH_N")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 {
		tb.Fatalf("CANON_BENCH_N=%q is not a number of items (at least 100)", s)
	}
	return n
}

// Corpus returns an index of a generated corpus of n items, building both
// once into $CANON_BENCH_DIR (default $TMPDIR/canon-bench)/NAME-nN and
// reusing them after (rebuilt when the index schema changed). moduleRoot
// is the path from the calling package to the module root, where
// scripts/gencorpus lives. The store is closed when the benchmark ends.
func Corpus(tb testing.TB, name string, n int, moduleRoot string) *index.Store {
	tb.Helper()
	base := os.Getenv("CANON_BENCH_DIR")
	if base == "" {
		base = filepath.Join(os.TempDir(), "canon-bench")
	}
	dir := filepath.Join(base, fmt.Sprintf("%s-n%d", name, n))
	corpus, db, done := filepath.Join(dir, "corpus"), filepath.Join(dir, "index.db"), filepath.Join(dir, "done")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		start := time.Now()
		cmd := exec.Command("go", "run", "./scripts/gencorpus", "-n", strconv.Itoa(n), "-out", corpus)
		cmd.Dir = moduleRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("gencorpus: %v\n%s", err, out)
		}
		st, _, err := index.Open(db)
		if err != nil {
			tb.Fatal(err)
		}
		cfg := config.Default()
		files, err := scan.NewScope(corpus, cfg, "").Walk()
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := st.Rebuild(context.Background(), index.NewLoader(corpus, cfg), files, nil, nil); err != nil {
			tb.Fatal(err)
		}
		st.Close()
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("built a corpus of %d items and its index in %s (kept in %s)", n, time.Since(start).Round(time.Second), dir)
	}
	st, needsBuild, err := index.Open(db)
	if err != nil {
		tb.Fatal(err)
	}
	if needsBuild {
		// The schema changed since the cache was made: start over.
		st.Close()
		os.Remove(done)
		return Corpus(tb, name, n, moduleRoot)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
