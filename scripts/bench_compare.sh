#!/bin/sh
# Two canon binaries in one benchmark session: the older one, the newer one,
# then the older one again (its two runs show how far the machine drifted),
# each with the same flags, and the rows side by side.
#
#   ./scripts/bench_compare.sh OLD_BIN NEW_BIN [bench flags...]
#   ./scripts/bench_compare.sh /tmp/canon-before bin/canon -sizes 1000,10000 -runs 3 -hook-runs 10
#
# A row is slower beyond noise when new/old is further from 1 than the two
# runs of the older binary are from each other, and its ratio to the floor
# measured in the same run moved the same way.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/bench_compare.sh OLD_BIN NEW_BIN [bench flags...]" >&2; exit 2; }
old=$1 new=$2; shift 2
export CGO_ENABLED=1
go build -tags sqlite_fts5 -o scripts/out/bench-bin ./scripts/bench
run() { bin=$1; shift; ./scripts/out/bench-bin -canon "$bin" "$@" >/dev/null && ls -t scripts/out/bench-*.json | head -1; }
a=$(run "$old" "$@"); b=$(run "$new" "$@"); c=$(run "$old" "$@")
echo "## old ($old) against new ($new)"
./scripts/out/bench-bin -compare "$a,$b"
echo
echo "## old against old (the noise between two runs of the same binary)"
./scripts/out/bench-bin -compare "$a,$c"
