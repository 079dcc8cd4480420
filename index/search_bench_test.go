package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkSearchFloor measures Store.Search (the 10 best sections and one
// more, as the MCP search tool asks) and RankSections (the 40 best, as a
// context pack's seeds ask) against their floor, in the same loop, the
// order turning each round: the match alone (count(*)), FTS5's bm25
// scoring every match (which counts each phrase's matches again for every
// query), and canon_bm25 scoring every match with the counts it remembers
// (the same scores, ADR-0025).
// The index is CANON_BENCH_DIR's (.git/canon/index.db of a generated
// corpus, indexed once: canon index --full), kept in pages as canon mcp
// keeps it, the query "webhook retry" (CANON_BENCH_QUERY).
//
//	CANON_BENCH_DIR=$PWD/scripts/out/corpus-100000 go test -tags sqlite_fts5 ./index -run XXX -bench SearchFloor -benchtime 200x
func BenchmarkSearchFloor(b *testing.B) {
	dir := os.Getenv("CANON_BENCH_DIR")
	if dir == "" {
		b.Skip("CANON_BENCH_DIR names no corpus")
	}
	text := os.Getenv("CANON_BENCH_QUERY")
	if text == "" {
		text = "webhook retry"
	}
	st, _, err := OpenIndex(filepath.Join(dir, ".git", "canon", "index.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.KeepPages(); err != nil { // as canon mcp does
		b.Fatal(err)
	}
	ctx := context.Background()
	q, err := FTSQuery(text)
	if err != nil {
		b.Fatal(err)
	}
	rows := func(query string) func() error {
		return func() error {
			r, err := st.db.QueryContext(ctx, query, q)
			if err != nil {
				return err
			}
			return eachRow(r, func(*sql.Rows) error { return nil })
		}
	}
	steps := []struct {
		name string
		run  func() error
	}{
		{"match", rows(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{"bm25", rows(`SELECT rowid, bm25(chunks_fts, 10.0, 4.0, 1.0) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{"canon_bm25", func() error {
			rank, err := st.rankExpr(ctx, st.db, q, 0)
			if err != nil {
				return err
			}
			return rows(`SELECT rowid, ` + rank + ` FROM chunks_fts WHERE chunks_fts MATCH ?`)()
		}},
		{"search", func() error { _, err := st.Search(ctx, text, SearchOptions{Limit: 11}); return err }},
		{"rank40", func() error { _, err := st.RankSections(ctx, text, 40); return err }},
	}
	for _, s := range steps {
		if err := s.run(); err != nil { // warm the page cache
			b.Fatal(err)
		}
	}
	times := make([][]float64, len(steps))
	b.ResetTimer()
	for i := range b.N {
		for k := range steps {
			j := (i + k) % len(steps)
			start := time.Now()
			if err := steps[j].run(); err != nil {
				b.Fatal(err)
			}
			times[j] = append(times[j], float64(time.Since(start).Microseconds())/1000)
		}
	}
	b.StopTimer()
	var line []string
	for j, s := range steps {
		t := times[j]
		sort.Float64s(t)
		p50, p90 := t[len(t)/2], t[len(t)*9/10]
		b.ReportMetric(p50, s.name+"-p50-ms")
		line = append(line, fmt.Sprintf("%s %.2f / %.2f", s.name, p50, p90))
	}
	b.Logf("%q, p50 / p90 ms (%d rounds): %s", text, b.N, strings.Join(line, ", "))
}
