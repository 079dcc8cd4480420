package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"syscall"
	"testing"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest/rounds"
)

// BenchmarkServe measures, through the handler (the guard, the catch-up,
// the use cases, the template), the board (its base kept from the last
// request, and read again: board-cold) and an item's page in a warm
// server on the repository CANON_BENCH_DIR (a generated corpus: go run
// ./scripts/gencorpus -n 10000 -git -out DIR), and a catch-up with nothing
// to do beside them. It reports the medians and 90th percentiles.
//
//	CANON_BENCH_DIR=/tmp/corpus10k go test -tags sqlite_fts5,urfave_cli_no_docs ./cmd/internal/web -run XXX -bench Serve -benchtime 50x
func BenchmarkServe(b *testing.B) {
	dir := os.Getenv("CANON_BENCH_DIR")
	if dir == "" {
		b.Skip("CANON_BENCH_DIR names no corpus")
	}
	srv, err := New(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	h := srv.Handler(testAddr, testToken)
	var item string
	if _, err := srv.call(context.Background(), func(ctx context.Context, s *gitsync.Session, f Fresh) error {
		base, err := srv.base(ctx, s, f)
		if err != nil {
			return err
		}
		bd, err := boardOf(ctx, s, base, Filter{})
		if err == nil && len(bd.Columns) > 0 {
			item = bd.Columns[0].Cards[0].Key
		}
		return err
	}); err != nil || item == "" {
		b.Fatalf("no item on the board: %v", err)
	}
	get := func(path string) func() error {
		return func() error {
			r := httptest.NewRequest(http.MethodGet, "http://"+testAddr+path, nil)
			r.AddCookie(&http.Cookie{Name: "canon_serve_7474", Value: testToken})
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				return fmt.Errorf("GET %s: %d", path, w.Code)
			}
			return nil
		}
	}
	steps := []rounds.Step{
		{Name: "board", Run: get("/")},
		{Name: "board-cold", Run: func() error {
			if _, err := srv.call(context.Background(), func(context.Context, *gitsync.Session, Fresh) error { srv.kept = nil; return nil }); err != nil {
				return err
			}
			return get("/")()
		}},
		{Name: "item", Run: get("/item?ref=" + item)},
		{Name: "fresh", Run: func() error { _, err := srv.call(context.Background(), nil); return err }},
	}
	// Beside the wall times, each step's CPU time (user+sys of the
	// process: the step is all it does), which the machine's load does
	// not stretch.
	cpu := make([][]float64, len(steps))
	for j := range steps {
		run := steps[j].Run
		steps[j].Run = func() error {
			before := cpuMS()
			err := run()
			cpu[j] = append(cpu[j], cpuMS()-before)
			return err
		}
	}
	times := rounds.Times(b, "", steps)
	for j, s := range steps {
		b.ReportMetric(rounds.P(times[j], 50), s.Name+"-p50-ms")
		b.ReportMetric(rounds.P(times[j], 90), s.Name+"-p90-ms")
		sort.Float64s(cpu[j])
		b.ReportMetric(rounds.P(cpu[j], 50), s.Name+"-cpu-p50-ms")
	}
}

// cpuMS is the process's CPU time so far (user and system), in ms.
func cpuMS() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}
