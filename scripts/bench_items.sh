#!/bin/sh
# canon's writes against Backlog.md's (issue 47, item 6; docs/benchmarks.md,
# Writes; `make bench` runs it): canon new, set, claim, log and done side
# by side with Backlog.md's task create and task edit on Backlog.md's own
# backlog at a pinned commit, taking turns, and the same writes on the
# generated 1k backlog (LARGE=1: and 100k, copied first). Medians of wall
# and CPU time (user+sys, getrusage).
#
#   ./scripts/bench_items.sh                    7 runs
#   ./scripts/bench_items.sh -runs 3            a quick look
#   LARGE=1 ./scripts/bench_items.sh            with the 100k backlog
#   BACKLOG_REPO=/path/to/clone ./scripts/bench_items.sh
#
# Backlog.md's CLI is the npm package backlog.md, installed into
# scripts/out/backlog as .ci/run installs it; work goes to
# scripts/out/items (emptied first).
set -eu
cd "$(dirname "$0")/.."
if [ ! -x bin/canon ]; then
	echo "bench-items: error: ./bin/canon not found: run make build" >&2
	exit 1
fi
bl=scripts/out/backlog/node_modules/.bin/backlog
if [ ! -x "$bl" ] && command -v npm >/dev/null 2>&1; then
	mkdir -p scripts/out/backlog && printf 'module fenced\n\ngo 1.26\n' >scripts/out/backlog/go.mod
	npm install --silent --no-audit --no-fund --prefix scripts/out/backlog backlog.md@1.52.0 >&2 ||
		echo "bench-items: could not install Backlog.md's CLI" >&2
fi
repo=${BACKLOG_REPO:-https://github.com/MrLesk/Backlog.md}
if [ ! -x "$bl" ]; then
	echo "bench-items: Backlog.md's CLI is not installed; measuring canon alone" >&2
	repo=
fi
corpora=scripts/out/corpus-1000
if [ "${LARGE:-}" = 1 ]; then
	corpora="$corpora,scripts/out/corpus-100000"
fi
exec go run ./scripts/benchitems -canon bin/canon -backlog "$bl" -repo "$repo" \
	-rev "${BACKLOG_REV:-6286bf972ce376cf7b9c30b3cf329d856c08285b}" -corpora "$corpora" "$@"
