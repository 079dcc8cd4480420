package scan

import (
	"os"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// benchFloor, where there is one, times the floor of a stat walk.
var benchFloor func(b *testing.B, root string)

// BenchmarkWalk walks the tree CANON_WALK_BENCH (a generated corpus):
// Walk as a command does, and walkDir, the portable walk, beside it.
func BenchmarkWalk(b *testing.B) {
	root := os.Getenv("CANON_WALK_BENCH")
	if root == "" {
		b.Skip("CANON_WALK_BENCH names no tree")
	}
	b.Run("Walk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewScope(root, config.Default(), "").Walk(); err != nil {
				b.Fatal(err)
			}
		}
	})
	if benchFloor != nil {
		b.Run("floor", func(b *testing.B) { benchFloor(b, root) })
	}
	b.Run("walkDir", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out []FileInfo
			if err := NewScope(root, config.Default(), "").walkDir("", &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
