#!/bin/sh
# canon's benchmark (`make bench` builds canon, then runs this): measures canon
# against the floors of issues 2-4 and docs/benchmarks.md (Targets) in one
# run and prints Markdown tables for docs/benchmarks.md. Flags go to scripts/bench (see -h):
#
#   ./scripts/bench.sh                       1k and 10k items, 5 runs (hooks 20)
#   ./scripts/bench.sh -large                and 100k items
#   ./scripts/bench.sh -sizes 1000 -runs 2   a quick look
#   ./scripts/bench.sh -repo ../rfcs         the hooks on a real repository's
#                                            own history (a clone or a bare
#                                            mirror; comma separated for more)
#
# Corpora are generated into scripts/out/corpus-<N> once and reused; raw
# numbers go to scripts/out/bench-<timestamp>.json.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x bin/canon ]; then
	echo "bench: error: ./bin/canon not found: run make build" >&2
	exit 1
fi
BENCH_COMMAND="./scripts/bench.sh${*:+ $*}"
export BENCH_COMMAND CGO_ENABLED=1
exec go run -tags sqlite_fts5 ./scripts/bench "$@"
