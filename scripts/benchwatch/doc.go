// Command benchwatch measures canon watch on a generated corpus (the
// targets in docs/benchmarks.md: "a saved edit is searchable within 250 ms;
// idle CPU near zero"). Run
// it through scripts/bench_watch.sh, which builds canon and the corpus:
//
//	scripts/bench_watch.sh                       # 10,000 items, 40 edits, 60 s idle
//	N=1000 RUNS=20 IDLE=10s scripts/bench_watch.sh
//
// It starts `canon watch --quiet` on the corpus and saves N edits the way an
// editor does (a temporary file renamed over the document), each adding a
// word found nowhere else, and times each edit until it is searchable, two
// ways: polling the index in this process every millisecond (the watcher's
// own latency: event, debounce, read, write), and running `canon search`
// back to back until one finds the word (what a person or an agent sees,
// including that process's start). Then it reads the watcher's CPU time from
// /proc/PID/stat before and after an idle period.
//
// It writes only the documents it edits inside the corpus it is given, and
// reads the watcher's index through index.Store (a search, never a write).
// No package imports it: it is off the ladder (cmd → hooks → gitsync,
// workset → graph → index).
package main
