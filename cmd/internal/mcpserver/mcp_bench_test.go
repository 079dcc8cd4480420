package mcpserver

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCP measures, from the client's side of an in-memory
// transport, tools/call search and context in a warm server on the
// repository CANON_BENCH_DIR (a generated corpus: go run ./scripts/gencorpus
// -n 100000 -git -out DIR). It reports the medians and 90th percentiles.
//
//	CANON_BENCH_DIR=$PWD/scripts/out/corpus-100000 go test -tags sqlite_fts5,urfave_cli_no_docs ./cmd/internal/mcpserver -run XXX -bench MCP -benchtime 200x
func BenchmarkMCP(b *testing.B) {
	dir := os.Getenv("CANON_BENCH_DIR")
	if dir == "" {
		b.Skip("CANON_BENCH_DIR names no corpus")
	}
	cs := connect(b, dir)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"search", map[string]any{"query": "webhook retry"}},
		{"context", map[string]any{"query": "webhook retry", "budget": 4000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			call := func() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %+v", c.name, err, res)
				}
			}
			call() // warm: the first call may build the index
			times := make([]float64, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				call()
				times = append(times, float64(time.Since(start).Microseconds())/1000)
			}
			sort.Float64s(times)
			b.ReportMetric(times[len(times)/2], "p50-ms")
			b.ReportMetric(times[len(times)*9/10], "p90-ms")
		})
	}
}
