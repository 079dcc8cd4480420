// Command bench measures canon against the floors that issues 2, 3 and 4 and
// docs/benchmarks.md (Targets) define, in one run, and prints Markdown tables
// for docs/benchmarks.md.
// Run it through scripts/bench.sh (or `make bench`), from the repository root:
//
//	./scripts/bench.sh                     # 1k and 10k items
//	./scripts/bench.sh -large              # and 100k (generating it takes about a minute)
//	./scripts/bench.sh -sizes 1000 -runs 2 # a quick look while developing
//
// Corpora are generated once into scripts/out/corpus-<N> and reused while the
// generator is unchanged; every case starts by resetting its corpus to the
// generated commit and dropping the index. Raw samples go to
// scripts/out/bench-<timestamp>.json, the tables to stdout and a .md beside it.
//
// It owns scripts/out (corpora, cloned histories, results) and writes
// nothing outside it. It measures the canon binary from outside, as a user
// runs it; the only package of canon's it imports is gitsync, to time what
// go-git's open costs a catch-up apart from canon's own work. No package
// imports it: it is off the ladder (cmd → hooks → gitsync, workset → graph
// → index).
package main
