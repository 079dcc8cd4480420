package mcpserver

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index/indextest/rounds"
	"github.com/canon-md/canon/index/search"
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
	tool := func(name string, args map[string]any) func() error {
		return func() error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err == nil && res.IsError {
				err = fmt.Errorf("%+v", res)
			}
			return err
		}
	}
	steps := []rounds.Step{
		{Name: "search", Run: tool("search", map[string]any{"query": query})},
		{Name: "context", Run: tool("context", map[string]any{"query": query, "budget": 4000})},
		{Name: "ping", Run: func() error { return cs.Ping(ctx, nil) }},
		{Name: "fresh", Run: func() error {
			_, err := srv.call(ctx, shared, func(context.Context, *gitsync.Session) error { return nil })
			return err
		}},
		{Name: "search-inproc", Run: func() error {
			_, err := search.Hits(ctx, srv.s.Store, query, search.Options{Limit: 11})
			return err
		}},
		{Name: "pack-inproc", Run: func() error {
			opt := graph.OptionsFrom(srv.s.Cfg.Context)
			opt.Budget, opt.Query = 4000, query
			_, err := graph.New(srv.s.Store).Pack(ctx, opt)
			return err
		}},
	}
	times := rounds.Times(b, "", steps)
	for j, s := range steps[:2] { // the two calls are the figures
		b.ReportMetric(rounds.P(times[j], 50), s.Name+"-p50-ms")
		b.ReportMetric(rounds.P(times[j], 90), s.Name+"-p90-ms")
	}
}
