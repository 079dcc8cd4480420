package graph

import (
	"context"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest"
)

// BenchmarkWork measures canon ready/blocked on the context benchmarks'
// corpus: every document and every blocking and parent link read, then
// split in memory, each path matched against the archive folders.
func BenchmarkWork(b *testing.B) {
	g := New(benchIndex(b, indextest.Size(b, 10000)))
	ctx := context.Background()
	opt := WorkOptions{States: config.DefaultStates(), Work: config.DefaultWork()}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Work(ctx, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStats measures canon graph stats on the same corpus: every
// document and every resolved link.
func BenchmarkStats(b *testing.B) {
	g := New(benchIndex(b, indextest.Size(b, 10000)))
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Stats(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
