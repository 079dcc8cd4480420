#!/usr/bin/env bash
# The overlays of other refs (ADR-0042, issue 26) at scale: canon ready with
# overlays against canon ready --here, the overlay update after a commit on
# one branch against git diff-tree of that commit, and the catch-up after a
# git fetch that moves every remote ref.
#
#   ./scripts/bench_branches.sh                    # 100k documents, 50 branches × 20 changed documents
#   ./scripts/bench_branches.sh -n 10000 -runs 5
#   ./scripts/bench_branches.sh -corpus /tmp/shared/corpus-100000 -reuse
#
# The corpus is scripts/out/corpus-N (shared with bench.sh), generated when
# absent, or -corpus (only cloned: never written); the work folder is
# scripts/out/branches-N (-reuse keeps its repository and index from the
# last run). The anchor, Backlog.md's board load across the same branches,
# runs when its backlog command is installed (npm install --prefix
# scripts/out/npm backlog.md, or backlog in PATH); else it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
n=100000 runs=11 branches=50 docs=20 corpus= reuse=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-branches) branches=$2; shift 2 ;;
	-docs) docs=$2; shift 2 ;;
	-corpus) corpus=$2; shift 2 ;;
	-reuse) reuse=-reuse; shift ;;
	-h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-branches: error: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done
corpus=${corpus:-scripts/out/corpus-$n}
[ -d "$corpus/.git" ] || go run ./scripts/gencorpus -n "$n" -seed 1 -out "$corpus" -git
make build >/dev/null
backlog=$(command -v scripts/out/npm/node_modules/.bin/backlog || command -v backlog || true)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go run -tags sqlite_fts5,urfave_cli_no_docs ./scripts/benchbranches -corpus "$corpus" -work "scripts/out/branches-$n" \
	-canon bin/canon -branches "$branches" -docs "$docs" -runs "$runs" -backlog "$backlog" $reuse
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
