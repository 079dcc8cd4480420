package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// The index of a configuration left for another is kept, and comes back
// when that configuration does; one that does not fit is dropped.
func TestSpareIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	cfg := config.Default()
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte("---\nid: A-1\ntitle: Alpha\n---\n# Alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ld := NewLoader(root, cfg)
	build := func(hash string) {
		t.Helper()
		if _, err := st.Rebuild(ctx, ld, mustWalk(t, root, cfg), map[string]string{MetaConfig: hash, MetaHead: "c-" + hash}, nil); err != nil {
			t.Fatal(err)
		}
	}
	config := func() string {
		t.Helper()
		m, err := st.AllMeta()
		if err != nil {
			t.Fatal(err)
		}
		return m[MetaConfig]
	}
	build("A")
	if ok, err := st.RestoreSpare(ctx, "B"); err != nil || ok {
		t.Fatalf("RestoreSpare(B) with no spare: %v, %v", ok, err)
	}
	if err := st.KeepSpare(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(st.sparePath("A")); err != nil {
		t.Fatalf("no spare kept: %v", err)
	}
	if !spareFits(ctx, st.sparePath("A"), "A") {
		t.Fatal("the spare kept does not fit")
	}
	build("B")
	if ok, err := st.RestoreSpare(ctx, "A"); err != nil || !ok {
		t.Fatalf("RestoreSpare(A): %v, %v; want the kept index", ok, err)
	}
	if got := config(); got != "A" {
		t.Fatalf("live index of configuration %q after the restore, want A", got)
	}
	if c, err := st.Counts(ctx); err != nil || c.Documents != 1 {
		t.Fatalf("the restored index holds %+v (%v), want 1 document", c, err)
	}
	// B's was kept in turn, and comes back.
	if ok, err := st.RestoreSpare(ctx, "B"); err != nil || !ok || config() != "B" {
		t.Fatalf("RestoreSpare(B): %v, %v, live %q", ok, err, config())
	}
	// A spare that is not an index is dropped, not used.
	bad := st.sparePath("C")
	if err := os.WriteFile(bad, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.RestoreSpare(ctx, "C"); err != nil || ok {
		t.Fatalf("RestoreSpare(C) of a damaged spare: %v, %v", ok, err)
	}
	if _, err := os.Lstat(bad); err == nil {
		t.Error("the damaged spare is still there")
	}
	// One spare is kept.
	for _, h := range []string{"D", "E", "F"} {
		build(h)
		if err := st.KeepSpare(ctx); err != nil {
			t.Fatal(err)
		}
	}
	found, _ := filepath.Glob(path + spareInfix + "*")
	if len(found) > 1 {
		t.Errorf("%d spares kept (%v), want one", len(found), found)
	}
}
