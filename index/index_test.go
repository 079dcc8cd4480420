package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/scan"
)

// TestIncrementalEqualsRebuild applies random edits to a tree one batch at a
// time through Reconcile and checks after each that the index dumps exactly
// like a fresh build of the same tree: ids colliding and parting, targets
// appearing and vanishing, renames, skipped files; once with one
// transaction per walk and once (slice 1) with one per changed file.
func TestIncrementalEqualsRebuild(t *testing.T) {
	t.Parallel()
	for _, slice := range []int{DefaultSliceFiles, 1} {
		t.Run(fmt.Sprint("slice ", slice), func(t *testing.T) {
			t.Parallel()
			incrementalEqualsRebuild(t, slice)
		})
	}
}

func incrementalEqualsRebuild(t *testing.T, slice int) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config.Default()
	rng := rand.New(rand.NewSource(7))
	ids := []string{"A-1", "A-2", "A-3", "B-1", "B-2"}
	names := []string{"x/a.md", "x/b.md", "y/c.md", "y/d.md", "z/e.md", "z/f.md", "notes/g.md", "notes/h.md"}
	// identity is the id and uid lines a document is written with; an
	// edit that keeps them is an update in place (inplace.go).
	identity := func() string {
		var b strings.Builder
		if rng.Intn(5) > 0 {
			fmt.Fprintf(&b, "id: %s\n", ids[rng.Intn(len(ids))])
		}
		if rng.Intn(3) == 0 {
			fmt.Fprintf(&b, "uid: u%d\n", rng.Intn(4))
		}
		return b.String()
	}
	identityOf := func(content string) string {
		var b strings.Builder
		for _, line := range strings.Split(content, "\n") {
			if strings.HasPrefix(line, "id: ") || strings.HasPrefix(line, "uid: ") {
				b.WriteString(line + "\n")
			}
		}
		return b.String()
	}
	randomDocAs := func(ident string) string {
		var b strings.Builder
		b.WriteString("---\n")
		b.WriteString(ident)
		fmt.Fprintf(&b, "title: T%d\n", rng.Intn(100))
		if rng.Intn(2) == 0 {
			fmt.Fprintf(&b, "parent: %s\n", ids[rng.Intn(len(ids))])
		}
		if rng.Intn(3) == 0 {
			fmt.Fprintf(&b, "links:\n  blocks: [%s@u%d]\n", ids[rng.Intn(len(ids))], rng.Intn(4))
		}
		if rng.Intn(8) == 0 {
			b.WriteString("bad: [unclosed\n")
		}
		b.WriteString("---\n# Heading\n")
		fmt.Fprintf(&b, "See [[%s]] and [x](../%s).\n", strings.TrimSuffix(filepath.Base(names[rng.Intn(len(names))]), ".md"),
			names[rng.Intn(len(names))])
		fmt.Fprintf(&b, "## Part %d\nwords %d\n", rng.Intn(3), rng.Intn(1000))
		for i := rng.Intn(3); i > 0; i-- {
			fmt.Fprintf(&b, "\n## Log %d\n- entry %d, see [[%s]]\n", i, rng.Intn(100), ids[rng.Intn(len(ids))])
		}
		return b.String()
	}
	randomDoc := func() string { return randomDocAs(identity()) }
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names[:5] {
		write(n, randomDoc())
	}
	live, _, err := Open(filepath.Join(t.TempDir(), "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	live.SliceFiles = slice
	ld := NewLoader(root, cfg)
	if _, err := live.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 60; step++ {
		for k := rng.Intn(3) + 1; k > 0; k-- {
			n := names[rng.Intn(len(names))]
			p := filepath.Join(root, n)
			switch op := rng.Intn(13); {
			case op < 5:
				write(n, randomDoc())
			case op >= 10:
				if data, err := os.ReadFile(p); err == nil {
					write(n, randomDocAs(identityOf(string(data))))
				}
			case op < 7:
				os.Remove(p)
			case op < 9:
				if data, err := os.ReadFile(p); err == nil {
					to := names[rng.Intn(len(names))]
					os.Remove(p)
					write(to, string(data))
				}
			default:
				write(n, "binary\x00data")
			}
		}
		if _, err := live.Reconcile(ctx, ld, scan.NewScope(root, cfg, ""), nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		statCacheAsIndex(t, live, step)
		if diff := diffFromRebuild(t, live, ld, root, cfg); len(diff) > 0 {
			t.Fatalf("step %d: incremental index differs from a rebuild:\n%s", step, strings.Join(diff, "\n"))
		}
	}
}

// statCacheAsIndex checks that the stat cache a reconcile patched through
// its own writes holds what the index does, under the index's sync id.
func statCacheAsIndex(t *testing.T, live *Store, step int) {
	t.Helper()
	id, rows, err := live.readStats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if live.statsID != id || !slices.Equal(live.stats, rows) {
		t.Fatalf("step %d: the stats kept (%s) are not the index's (%s):\n%v\n%v", step, live.statsID, id, live.stats, rows)
	}
	if cached, ok := readStatCache(live.statCachePath(), id); !ok || !slices.Equal(cached, rows) {
		t.Fatalf("step %d: the stat cache is not the index's: %v", step, ok)
	}
}

// diffFromRebuild builds a fresh index of root and lists how live differs
// from it (DiffDumps lines; none when equal).
func diffFromRebuild(t *testing.T, live *Store, ld *Loader, root string, cfg *config.Config) []string {
	t.Helper()
	ctx := context.Background()
	fresh, _, err := Open(filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Rebuild(ctx, ld, mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := live.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return DiffDumps(got, want)
}

func mustWalk(t *testing.T, root string, cfg *config.Config) []scan.FileInfo {
	t.Helper()
	files, err := scan.NewScope(root, cfg, "").Walk()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestSpilledBuildEqualsInMemory builds the same tree twice, once holding
// every link in memory and once spilling them after three, and compares.
func TestSpilledBuildEqualsInMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := config.Default()
	root, err := filepath.Abs("../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	dump := func(spill int) []string {
		st, _, err := Open(filepath.Join(t.TempDir(), "i.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.spillAt = spill
		if _, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
			t.Fatal(err)
		}
		d, err := st.Dump(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, b := dump(1<<30), dump(3)
	if diff := DiffDumps(a, b); len(diff) > 0 || len(a) < 500 {
		t.Fatalf("%d rows; spilled build differs:\n%s", len(a), strings.Join(diff, "\n"))
	}
}

// TestRebuildStoppedSaysSo: a full build whose context ends says it was
// stopped (context.Canceled), not whatever step the rollback cut short,
// and leaves the index as it was.
func TestRebuildStoppedSaysSo(t *testing.T) {
	st, _ := corpusIndex(t, map[string]string{"a.md": "# A\n"})
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "b.md"), []byte("# B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("c%03d.md", i)), []byte("# C\n\ntext\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	for _, at := range []int{-1, 1, 150} { // before it starts, at the first file, half-way
		ctx, cancel := context.WithCancel(context.Background())
		if at < 0 {
			cancel()
		}
		progress := func(done int) {
			if done == at {
				cancel()
			}
		}
		_, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, progress)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a build stopped at %d: %v, want context.Canceled", at, err)
		}
	}
	if n, err := st.Counts(context.Background()); err != nil || n.Documents != 1 {
		t.Fatalf("after stopped builds the index holds %+v (%v), want the one document it had", n, err)
	}
}
