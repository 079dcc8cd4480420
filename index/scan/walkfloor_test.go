//go:build linux && (amd64 || arm64)

package scan

import (
	"testing"

	"github.com/canon-md/canon/scripts/walkfloor/floor"
)

// benchFloor is the floor of a stat walk, beside BenchmarkWalk's: every
// folder read with getdents64, every .md file in it lstat'ed by its name
// relative to the open folder, and nothing else (scripts/walkfloor runs
// the same walk as a command).
func init() { benchFloor = walkFloor }

func walkFloor(b *testing.B, root string) {
	buf := make([]byte, 1<<16)
	for b.Loop() {
		if _, err := floor.Walk(root, buf); err != nil {
			b.Fatal(err)
		}
	}
}
