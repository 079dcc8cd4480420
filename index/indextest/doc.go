// Package indextest builds generated corpora and their indexes for the
// benchmarks of the packages that read an index (graph, workset). It is for
// tests only. It also crafts databases as another program would write
// them (Craft), for the tests of what canon does with them.
//
// It owns the cache of built corpora ($CANON_BENCH_DIR, by default
// $TMPDIR/canon-bench) and nothing else; it runs scripts/gencorpus to make
// one. No package but a _test.go file may import it.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it sits just above index (it builds through index.Store) and
// beside the test code of graph and workset.
package indextest
