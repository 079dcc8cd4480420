#!/bin/sh
# Benchmarks canon watch (issue 8; docs/benchmarks.md, Targets): the time from saving an
# edit to it being searchable (p50/p90 over RUNS edits, timed in process and
# through `canon search`), and the watcher's CPU time over IDLE of idleness,
# read from /proc/PID/stat. See scripts/benchwatch for what is measured.
#
#   scripts/bench_watch.sh                      # 10,000 items, 40 edits, 60 s idle
#   N=1000 RUNS=20 IDLE=10s scripts/bench_watch.sh
#   DEBOUNCE=50ms scripts/bench_watch.sh        # another --debounce
#
# The corpus (gencorpus -git) and its index are built once and kept in
# $TMPDIR/canon-bench/watch-nN; the edits are reverted at the end.
set -eu

N=${N:-10000}
RUNS=${RUNS:-40}
IDLE=${IDLE:-60s}
DIR=${DIR:-${TMPDIR:-/tmp}/canon-bench/watch-n$N}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CANON=$ROOT/bin/canon

(cd "$ROOT" && CGO_ENABLED=1 go build -tags sqlite_fts5 -o bin/canon ./cmd/canon)
(cd "$ROOT" && CGO_ENABLED=1 go build -tags sqlite_fts5 -o bin/benchwatch ./scripts/benchwatch)

if [ ! -f "$DIR/.git/canon/index.db" ]; then
	echo "building a corpus of $N items in $DIR (once)" >&2
	rm -rf "$DIR"
	mkdir -p "$(dirname "$DIR")"
	(cd "$ROOT" && go run ./scripts/gencorpus -n "$N" -out "$DIR" -git)
	(cd "$DIR" && "$CANON" index >/dev/null)
fi

nproc_=$(nproc 2>/dev/null || echo '?')
echo "machine: $nproc_ CPUs, $(uname -sr)"
exec "$ROOT/bin/benchwatch" -canon "$CANON" -dir "$DIR" -runs "$RUNS" -idle "$IDLE" ${DEBOUNCE:+-debounce "$DEBOUNCE"}
