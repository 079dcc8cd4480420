package index

import (
	"context"
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func walSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatalf("no WAL beside the index: %v", err)
	}
	return st.Size()
}

// TestOpenIndexKeepsTheWAL: closing the repository's index leaves what a
// hook wrote in the WAL, for the next process to read (the driver's handle
// was found); the next opener sees it; past walTrimBytes, Close merges the
// WAL and empties it. Open (worksets, verify) still checkpoints on close.
func TestOpenIndexKeepsTheWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetMeta(ctx, map[string]string{MetaHead: "abc"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if walSize(t, path) == 0 {
		t.Fatal("Close merged the WAL: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE did not take (has go-sqlite3 moved its handle?)")
	}
	st, _, err = OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := st.Meta(MetaHead); err != nil || v != "abc" {
		t.Fatalf("the next opener reads %q, %v", v, err)
	}
	big := strings.Repeat("x", walTrimBytes+(1<<20))
	if err := st.SetMeta(ctx, map[string]string{"big": big}); err != nil {
		t.Fatal(err)
	}
	if walSize(t, path) <= walTrimBytes {
		t.Fatal("the test wrote too little to pass walTrimBytes")
	}
	st.Close()
	if n := walSize(t, path); n != 0 {
		t.Fatalf("a WAL of %d bytes after Close, want it merged and emptied", n)
	}
	st, _, err = OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := st.Meta("big"); v != big {
		t.Fatal("the merged WAL lost a row")
	}
	st.Close()

	other := filepath.Join(t.TempDir(), "workset.db")
	ws, _, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	must.OK(t, ws.SetMeta(ctx, map[string]string{MetaHead: "abc"}))
	ws.Close()
	if _, err := os.Stat(other + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open's Close left a WAL: %v", err)
	}
}

// TestOpenIndexOverwrittenFile: a database file another tool overwrote is
// reported as damaged, not read through the WAL the index left beside it.
func TestOpenIndexOverwrittenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	must.OK(t, st.SetMeta(context.Background(), map[string]string{MetaHead: "abc"}))
	st.Close()
	if walSize(t, path) == 0 {
		t.Fatal("no WAL left to test with")
	}
	if err := os.WriteFile(path, []byte("---\ntitle: not a database\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, err = OpenIndex(path)
	if err == nil {
		st.Close()
		t.Fatal("an overwritten index opened")
	}
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "file is not a database") {
		t.Fatalf("err = %v, want the file reported damaged", err)
	}
}
