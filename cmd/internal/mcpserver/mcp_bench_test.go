package mcpserver

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
)

// BenchmarkMCP measures, from the client's side of an in-memory
// transport, tools/call search and context in a warm server on the
// repository CANON_BENCH_DIR (a generated corpus: go run ./scripts/gencorpus
// -n 100000 -git -out DIR). It reports the medians and 90th percentiles.
//
// Beside the two calls, interleaved in the same loop (the order turns
// each round), it times what they are made of: a ping (the protocol's
// round trip, no tool), a call's catch-up and freshness with nothing to
// answer, and the search and the context pack called in process. The
// difference between a call and its in-process answer is what the server
// adds: freshness, JSON, the schema check, the transport.
//
//	CANON_BENCH_DIR=$PWD/scripts/out/corpus-100000 go test -tags sqlite_fts5,urfave_cli_no_docs ./cmd/internal/mcpserver -run XXX -bench MCP -benchtime 200x
func BenchmarkMCP(b *testing.B) {
	dir := os.Getenv("CANON_BENCH_DIR")
	if dir == "" {
		b.Skip("CANON_BENCH_DIR names no corpus")
	}
	srv, cs := serve(b, dir)
	ctx := context.Background()
	const query = "webhook retry"
	tool := func(name string, args map[string]any) func() {
		return func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil || res.IsError {
				b.Fatalf("%s: %v %+v", name, err, res)
			}
		}
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	steps := []struct {
		name string
		run  func()
	}{
		{"search", tool("search", map[string]any{"query": query})},
		{"context", tool("context", map[string]any{"query": query, "budget": 4000})},
		{"ping", func() { must(cs.Ping(ctx, nil)) }},
		{"fresh", func() {
			_, err := srv.call(ctx, func(*gitsync.Session) error { return nil })
			must(err)
		}},
		{"search-inproc", func() {
			_, err := srv.s.Store.Search(ctx, query, index.SearchOptions{Limit: 11})
			must(err)
		}},
		{"pack-inproc", func() {
			opt := graph.OptionsFrom(srv.s.Cfg.Context)
			opt.Budget, opt.Query = 4000, query
			_, err := graph.New(srv.s.Store).Pack(ctx, opt)
			must(err)
		}},
	}
	for _, s := range steps {
		s.run() // warm: the first call may build the index
	}
	load := func() string {
		data, _ := os.ReadFile("/proc/loadavg")
		return strings.Join(strings.Fields(string(data))[:min(3, len(strings.Fields(string(data))))], " ")
	}
	b.Logf("load average before: %s", load())
	times := make([][]float64, len(steps))
	b.ResetTimer()
	for i := range b.N {
		for k := range steps {
			j := (i + k) % len(steps)
			start := time.Now()
			steps[j].run()
			times[j] = append(times[j], float64(time.Since(start).Microseconds())/1000)
		}
	}
	b.StopTimer()
	b.Logf("load average after: %s", load())
	var line []string
	for j, s := range steps {
		t := times[j]
		sort.Float64s(t)
		p50, p90 := t[len(t)/2], t[len(t)*9/10]
		if j < 2 { // the two calls are the figures
			b.ReportMetric(p50, s.name+"-p50-ms")
			b.ReportMetric(p90, s.name+"-p90-ms")
		}
		line = append(line, fmt.Sprintf("%s %.2f / %.2f", s.name, p50, p90))
	}
	b.Logf("p50 / p90 ms (%d rounds): %s", b.N, strings.Join(line, ", "))
}
