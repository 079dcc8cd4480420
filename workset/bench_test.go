package workset

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest"
)

// The benchmarks run on a generated corpus of 10,000 items
// (CANON_BENCH_N=100000 for 100k), built once and kept in
// $TMPDIR/canon-bench (or CANON_BENCH_DIR), shared with the graph
// package's benchmarks.
//
//	go test -tags sqlite_fts5 -run '^$' -bench . ./workset/

// BenchmarkInvalidate measures what a sync adds for worksets: without any
// (one directory read), and with 10 worksets of a task and its neighbours
// when the change misses them all or hits one.
func BenchmarkInvalidate(b *testing.B) {
	ctx := context.Background()
	st, n := benchIndex(b)
	b.Run("none", func(b *testing.B) {
		root := b.TempDir()
		ch := &index.Changes{Keys: []string{"KB-TSK-0001"}, Modified: []string{"x.md"}}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := Invalidate(ctx, root, st, Sync{Action: SyncDiff, To: "c", Changes: ch}); err != nil {
				b.Fatal(err)
			}
		}
	})
	e := benchEnv(b, st)
	var members []string
	for w := 0; w < 10; w++ {
		name := fmt.Sprintf("w%d", w)
		info, err := Create(ctx, e, name, CreateOptions{Spec: Spec{Seeds: []string{fmt.Sprintf("KB-TSK-%04d", w*(n/40)+1)}}})
		if err != nil {
			b.Fatal(err)
		}
		if w == 0 {
			d, _ := Show(ctx, e, name)
			members = keysOf(d.Members)
		}
		b.Logf("%s: %d documents", name, info.Docs)
	}
	b.Run("miss-10", func(b *testing.B) {
		ch := &index.Changes{Keys: []string{"no-such-key"}, Modified: []string{"x.md"}}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if m, err := Invalidate(ctx, e.Root, st, Sync{Action: SyncDiff, To: "c", Changes: ch}); err != nil || len(m) != 0 {
				b.Fatal(m, err)
			}
		}
	})
	b.Run("hit-1-of-10", func(b *testing.B) {
		ch := &index.Changes{Keys: []string{members[0]}}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if m, err := Invalidate(ctx, e.Root, st, Sync{Action: SyncDiff, To: strconv.Itoa(i), Changes: ch}); err != nil || len(m) != 1 {
				b.Fatal(m, err)
			}
		}
	})
	b.Run("rebuild-10", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Invalidate(ctx, e.Root, st, Sync{Action: SyncRebuild, To: "c"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCreate measures canon workset new from one seed at depth 1 and
// 2 (selection, row copy, plan and notes), and refresh.
func BenchmarkCreate(b *testing.B) {
	ctx := context.Background()
	st, n := benchIndex(b)
	for _, depth := range []int{1, 2} {
		b.Run(fmt.Sprintf("depth-%d", depth), func(b *testing.B) {
			e := benchEnv(b, st)
			docs := 0
			for i := 0; i < b.N; i++ {
				d := depth
				info, err := Create(ctx, e, "w", CreateOptions{Spec: Spec{Seeds: []string{fmt.Sprintf("KB-TSK-%04d", i%(n/4)+1)}, Depth: &d}})
				if err != nil {
					b.Fatal(err)
				}
				docs += info.Docs
				b.StopTimer()
				if _, err := Remove(ctx, e, "w", true); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(docs)/float64(b.N), "docs/op")
		})
	}
	b.Run("refresh-depth-2", func(b *testing.B) {
		e := benchEnv(b, st)
		d := 2
		if _, err := Create(ctx, e, "w", CreateOptions{Spec: Spec{Seeds: []string{"KB-TSK-0001"}, Depth: &d}}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := Refresh(ctx, e, "w"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchEnv(b *testing.B, st *index.Store) *Env {
	return &Env{Root: b.TempDir(), Index: st, Config: config.Default(), Head: "c", Now: time.Now(), Who: "bench"}
}

// benchIndex returns the index of a generated corpus, building (and
// caching) it the first time.
func benchIndex(b *testing.B) (*index.Store, int) {
	n := indextest.Size(b, 10000)
	return indextest.Corpus(b, "workset", n, ".."), n
}
