package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest/rounds"
)

// BenchmarkSearchFloor measures Hits (the 10 best documents and one more,
// as the MCP search tool asks) and RankSections (the 40 best sections, as
// a context pack's seeds ask) against their floor, in the same loop, the
// order turning each round: the match alone (count(*)), FTS5's bm25
// scoring every match (which counts each phrase's matches again for every
// query), and canon_bm25 scoring every match with the counts a store that
// keeps its pages remembers (the same scores, ADR-0025). The floors are
// FTS5's own statements, asked through the index's Querier.
// The index is CANON_BENCH_DIR's (.git/canon/index.db of a generated
// corpus, indexed once: canon index --full), kept in pages as canon mcp
// keeps it, the query "webhook retry" (CANON_BENCH_QUERY).
//
//	CANON_BENCH_DIR=$PWD/scripts/out/corpus-100000 go test -tags sqlite_fts5 ./index/search -run XXX -bench SearchFloor -benchtime 200x
func BenchmarkSearchFloor(b *testing.B) {
	dir := os.Getenv("CANON_BENCH_DIR")
	if dir == "" {
		b.Skip("CANON_BENCH_DIR names no corpus")
	}
	text := os.Getenv("CANON_BENCH_QUERY")
	if text == "" {
		text = "webhook retry"
	}
	st, _, err := index.OpenIndex(filepath.Join(dir, ".git", "canon", "index.db"))
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
			return st.Read(func(db index.Querier) error {
				_, err := index.RunForTest(ctx, db, query, q)
				return err
			})
		}
	}
	// The counts canon_bm25 is told, as a store that keeps its pages
	// remembers them between queries.
	counts := []string{}
	for _, p := range index.FTSPhrases(q) {
		err := st.Read(func(db index.Querier) error {
			n, err := index.CountForTest(ctx, db, `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, p)
			counts = append(counts, strconv.FormatInt(n, 10))
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	steps := []rounds.Step{
		{Name: "match", Run: rows(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{Name: "bm25", Run: rows(`SELECT rowid, bm25(chunks_fts, 10.0, 4.0, 1.0) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{Name: "canon_bm25", Run: rows(`SELECT rowid, canon_bm25(chunks_fts, 10.0, 4.0, 1.0, 0, ` + strings.Join(counts, ", ") + `) FROM chunks_fts WHERE chunks_fts MATCH ?`)},
		{Name: "search", Run: func() error { _, err := Hits(ctx, st, text, Options{Limit: 11}); return err }},
		{Name: "rank40", Run: func() error { _, err := RankSections(ctx, st, text, 40); return err }},
	}
	// CANON_BENCH_VECTORS names a word-vectors sidecar (canon vectors
	// import): search again bridged by it, in turn with the others, on a
	// store of its own.
	if path := os.Getenv("CANON_BENCH_VECTORS"); path != "" {
		vst, _, err := index.OpenIndex(filepath.Join(dir, ".git", "canon", "index.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer vst.Close()
		if err := vst.KeepPages(); err != nil {
			b.Fatal(err)
		}
		vst.UseVectors(path, filepath.Dir(path))
		steps = append(steps, rounds.Step{Name: "search-vectors", Run: func() error {
			f, err := Search(ctx, vst, text, Options{Limit: 11})
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
