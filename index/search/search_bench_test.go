package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/canon-md/canon/index/indextest/rounds"
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
	steps := []rounds.Step{
		{Name: "match", Run: rows(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{Name: "bm25", Run: rows(`SELECT rowid, bm25(chunks_fts, 10.0, 4.0, 1.0) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{Name: "canon_bm25", Run: func() error {
			rank, err := st.rankExpr(ctx, st.db, q, 0)
			if err != nil {
				return err
			}
			return rows(`SELECT rowid, ` + rank + ` FROM chunks_fts WHERE chunks_fts MATCH ?`)()
		}},
		{Name: "search", Run: func() error { _, err := st.Search(ctx, text, SearchOptions{Limit: 11}); return err }},
		{Name: "rank40", Run: func() error { _, err := st.RankSections(ctx, text, 40); return err }},
	}
	// CANON_BENCH_VECTORS names a word-vectors sidecar (canon vectors
	// import): search again bridged by it, in turn with the others.
	if path := os.Getenv("CANON_BENCH_VECTORS"); path != "" {
		vs := &vectorSidecar{path: path, roots: []string{filepath.Dir(path)}}
		steps = append(steps, rounds.Step{Name: "search-vectors", Run: func() error {
			st.vectors = vs
			defer func() { st.vectors = nil }()
			f, err := st.SearchRead(ctx, text, SearchOptions{Limit: 11})
			if err == nil && len(f.Read.Added) == 0 && os.Getenv("CANON_BENCH_VECTORS_ADDED") != "" {
				err = fmt.Errorf("%q: the bridge added no word", text)
			}
			return err
		}})
	}
	times := rounds.Times(b, fmt.Sprintf("%q, ", text), steps)
	for j, s := range steps {
		b.ReportMetric(rounds.P(times[j], 50), s.Name+"-p50-ms")
	}
}
