package graph

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest"
)

// benchQueries are what an agent might ask of a checkout backlog: two or
// three words from the corpus generator's domain vocabulary.
var benchQueries = []string{
	"webhook retry", "refund ledger", "session token", "fraud score", "address validation",
	"payment timeout", "idempotency key", "settlement reconciliation", "cart discount", "challenge issuer",
	"inbox event sequence", "capture authorisation", "postal code country", "review queue analyst",
	"dashboard alert", "rollout flag", "chargeback dispute", "currency rounding", "courier tracking",
	"login password reset", "cache invalidation", "worker batch job", "consent cookie", "tax invoice",
	"retry back-off", "token refresh", "search ranking", "stock reservation", "circuit breaker fallback",
	"webhook", "refund", "migration schema",
}

// BenchmarkContextPack measures a context pack as canon context builds it:
// search seeds, two hops, a 4,000-token budget, on a generated corpus of
// 10,000 items (CANON_BENCH_N=100000 for the design target). The corpus and
// its index are built once and kept in $TMPDIR/canon-bench (or
// CANON_BENCH_DIR); the first run takes a while. Besides ns/op it reports
// the p50 and p90 of single packs, over the rotating query list.
func BenchmarkContextPack(b *testing.B) {
	st := benchIndex(b, indextest.Size(b, 10000))
	g := New(st)
	ctx := context.Background()
	opt := OptionsFrom(config.DefaultContext())
	opt.Depth, opt.Budget = 2, 4000
	// Warm the page cache and prepared state once per query.
	for _, q := range benchQueries {
		opt.Query = q
		if _, err := g.Pack(ctx, opt); err != nil {
			b.Fatal(err)
		}
	}
	times := make([]time.Duration, 0, b.N)
	entries, tokens := 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		opt.Query = benchQueries[i%len(benchQueries)]
		start := time.Now()
		p, err := g.Pack(ctx, opt)
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		entries += len(p.Entries)
		tokens += p.Tokens
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
	b.ReportMetric(ms(times[len(times)*9/10]), "p90-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	b.ReportMetric(float64(entries)/float64(b.N), "entries/op")
	b.ReportMetric(float64(tokens)/float64(b.N), "tokens/op")
}

// BenchmarkContextPackSeeds is the same pack from given seeds only: the
// graph part without full-text search.
func BenchmarkContextPackSeeds(b *testing.B) {
	n := indextest.Size(b, 10000)
	st := benchIndex(b, n)
	g := New(st)
	ctx := context.Background()
	var seeds []string
	for i := 1; i <= 50; i++ {
		seeds = append(seeds, fmt.Sprintf("KB-TSK-%04d", i*(n/200+1)%max(n/2, 1)+1))
	}
	opt := OptionsFrom(config.DefaultContext())
	opt.Depth, opt.Budget = 2, 4000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		opt.Seeds = []string{seeds[i%len(seeds)]}
		if _, err := g.Pack(ctx, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// benchIndex returns the index of a generated corpus of n items, building
// (and caching) it the first time.
func benchIndex(b *testing.B, n int) *index.Store {
	return indextest.Corpus(b, "context", n, "..")
}
