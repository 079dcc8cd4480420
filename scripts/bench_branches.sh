#!/usr/bin/env bash
# The overlays of other refs (ADR-0042, issue 26) at scale: canon ready with
# overlays against canon ready --here, the overlay update after a commit on
# one branch against git diff-tree of that commit, and the catch-up after a
# git fetch that moves every remote ref.
#
#   ./scripts/bench_branches.sh                    # 100k documents, 50 branches × 20 changed documents
#   ./scripts/bench_branches.sh -n 10000 -runs 5
#
# The corpus is scripts/out/corpus-N (shared with bench.sh), generated when
# absent; the work folder is scripts/out/branches-N.
set -euo pipefail
cd "$(dirname "$0")/.."
n=100000 runs=11 branches=50 docs=20 corpus=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-branches) branches=$2; shift 2 ;;
	-docs) docs=$2; shift 2 ;;
	-corpus) corpus=$2; shift 2 ;;
	-h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-branches: error: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done
corpus=${corpus:-scripts/out/corpus-$n}
[ -d "$corpus/.git" ] || go run ./scripts/gencorpus -n "$n" -seed 1 -out "$corpus" -git
make build >/dev/null
go run -tags sqlite_fts5,urfave_cli_no_docs ./scripts/benchbranches -corpus "$corpus" -work "scripts/out/branches-$n" \
	-canon bin/canon -branches "$branches" -docs "$docs" -runs "$runs"
