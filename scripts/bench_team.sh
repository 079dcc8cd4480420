#!/usr/bin/env bash
# Team scale (issue 46): canon with 0, 200 and 1,000 remote refs forked
# from points of a history, each changing documents. For each number of
# refs, paired in one run (scripts/benchteam): the hooks of a one-document
# commit against git diff-tree plus a process start and against the same
# hook with 0 refs; the first canon ready after a commit against ready
# --here; the first ready after a checkout against ready --here plus git
# diff-tree -r --stdin over every ref's (merge base, tip); branches, id
# next, show --branches, the pre-push hook, MCP claims; CPU and peak RSS;
# canon verify at the end (the run fails unless the index matches).
#
#   ./scripts/bench_team.sh                  # the 10k generated corpus and rust-lang/rfcs (make bench)
#   ./scripts/bench_team.sh -large           # adds the 100k corpus (generates it once: minutes, ~2 GB)
#   ./scripts/bench_team.sh -only rfcs -runs 21
#   ./scripts/bench_team.sh -refs 0,200 -reuse -profile scripts/out/team-profiles
#
# The generated corpora are scripts/out/corpus-N (shared with bench.sh),
# generated when absent, given 1,000 commits of history and the refs
# (refs/remotes/origin/bNNNN) by git fast-import, then repacked. rust-lang/rfcs
# is -rfcs PATH (a clone or a bare mirror with GitHub's refs/pull/N/head),
# else $CANON_BENCH_MIRROR/rust-lang+rfcs/repo, else a mirror cloned once into
# scripts/out/rfcs.git; its 1,000 most recently updated pull requests become
# refs/remotes/origin/pr/N. Work folders: scripts/out/team-LABEL (-reuse keeps
# their history and refs). Each corpus's table goes to standard output and
# to scripts/out/team-LABEL/report.md, its samples to result.json there.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=10000 runs=11 refs=0,200,1000 only=generated,rfcs rfcs= extra=()
while [ $# -gt 0 ]; do
	case $1 in
	-large) sizes=10000,100000; shift ;;
	-sizes) sizes=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-refs) refs=$2; shift 2 ;;
	-only) only=$2; shift 2 ;;
	-rfcs) rfcs=$2; shift 2 ;;
	-reuse) extra+=(-reuse); shift ;;
	-profile) extra+=(-profile "$2"); shift 2 ;;
	-h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-team: error: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done
make build >/dev/null
go build -o bin/benchteam ./scripts/benchteam
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ ,$only, == *,generated,* ]]; then
	for n in ${sizes//,/ }; do
		corpus=scripts/out/corpus-$n
		[ -d "$corpus/.git" ] || go run ./scripts/gencorpus -n "$n" -seed 1 -out "$corpus" -git
		label=gen-$((n / 1000))k
		mkdir -p "scripts/out/team-$label"
		./bin/benchteam -corpus "$corpus" -label "$label" -work "scripts/out/team-$label" -canon bin/canon \
			-refs "$refs" -runs "$runs" ${extra[@]+"${extra[@]}"} | tee "scripts/out/team-$label/report.md.tmp"
		mv "scripts/out/team-$label/report.md.tmp" "scripts/out/team-$label/report.md"
	done
fi
if [[ ,$only, == *,rfcs,* ]]; then
	if [ -z "$rfcs" ] && [ -n "${CANON_BENCH_MIRROR:-}" ] && [ -d "$CANON_BENCH_MIRROR/rust-lang+rfcs/repo" ]; then
		rfcs=$CANON_BENCH_MIRROR/rust-lang+rfcs/repo
	fi
	if [ -z "$rfcs" ]; then
		rfcs=scripts/out/rfcs.git
		[ -d "$rfcs" ] || git clone -q --mirror https://github.com/rust-lang/rfcs "$rfcs"
	fi
	mkdir -p scripts/out/team-rfcs
	./bin/benchteam -repo "$rfcs" -label rfcs -work scripts/out/team-rfcs -canon bin/canon \
		-refs "$refs" -runs "$runs" ${extra[@]+"${extra[@]}"} | tee scripts/out/team-rfcs/report.md.tmp
	mv scripts/out/team-rfcs/report.md.tmp scripts/out/team-rfcs/report.md
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
