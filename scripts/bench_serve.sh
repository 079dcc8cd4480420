#!/usr/bin/env bash
# The board at size (issue 44): BenchmarkServe through canon serve's
# handler (the guard, the catch-up, the use cases, the template) on a
# generated corpus: the board with its base kept (board), the board read
# again as after a sync (board-cold: what the hub now reads before the
# pages ask), an item's page (item) and a catch-up with nothing to do
# (fresh), taking turns; wall p50 and p90, and each step's CPU p50
# (user+sys), in ms.
#
#   ./scripts/bench_serve.sh              # scripts/out/corpus-10000, 30 rounds (make bench)
#   ./scripts/bench_serve.sh -n 100000 -runs 10
#
# The corpus is scripts/out/corpus-N (shared with bench.sh), generated when
# absent.
set -euo pipefail
cd "$(dirname "$0")/.."
n=10000 runs=30
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-serve: error: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done
corpus=scripts/out/corpus-$n
[ -d "$corpus/.git" ] || go run ./scripts/gencorpus -n "$n" -seed 1 -out "$corpus" -git
CANON_BENCH_DIR=$PWD/$corpus go test -tags sqlite_fts5,urfave_cli_no_docs ./cmd/internal/web \
	-run XXX -bench Serve -benchtime "${runs}x" -count 1
