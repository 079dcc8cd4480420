package statfile

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStamped checks the stat cache reads back what was written
// under the same sync id, and nothing under another id, nor from a
// damaged or unsorted file.
func TestStamped(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.db.stat")
	rows := []Row{{"a b.md", 1, 10, true}, {"a/x.md", 0, -5, false}, {"a\nnewline.md", 7, 1 << 40, true},
		{"max.md", math.MaxInt64, 1764380000123456789, true}, {"neg.md", -1, -math.MaxInt64, false}}
	rows = Sorted(rows)
	if err := Write(path, "id1", rows); err != nil {
		t.Fatal(err)
	}
	got, ok := Read(path, "id1")
	if !ok || !slices.Equal(got, rows) {
		t.Fatalf("read back %v, %v; want %v", got, ok, rows)
	}
	if _, ok := Read(path, "id2"); ok {
		t.Fatal("a cache of another sync id was read")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"truncated":    data[:len(data)-3],
		"unsorted":     []byte(Magic + "id1\nb.md\x001\x002\x001\x00a.md\x001\x002\x001\x00"),
		"not a number": []byte(Magic + "id1\na.md\x00one\x002\x001\x00"),
		"bad kind":     []byte(Magic + "id1\na.md\x001\x002\x002\x00"),
		"no kind":      []byte(Magic + "id1\na.md\x001\x002\x00"),
		"no number":    []byte(Magic + "id1\na.md\x00\x002\x001\x00"),
		"a sign alone": []byte(Magic + "id1\na.md\x00-\x002\x001\x00"),
		"overflow":     []byte(Magic + "id1\na.md\x009223372036854775808\x002\x001\x00"),
		"20 digits":    []byte(Magic + "id1\na.md\x0012345678901234567890\x002\x001\x00"),
		"empty":        nil,
	} {
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := Read(path, "id1"); ok {
			t.Errorf("%s: read as a cache", name)
		}
	}
}

// BenchmarkRead reads the stat cache CANON_STAT_BENCH names (an index's
// index.db.stat) under the sync id it holds.
func BenchmarkRead(b *testing.B) {
	path := os.Getenv("CANON_STAT_BENCH")
	if path == "" {
		b.Skip("CANON_STAT_BENCH names no stat cache")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(string(data), Magic), "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Read(path, head); !ok {
			b.Fatal("not read")
		}
	}
}
