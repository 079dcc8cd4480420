#!/bin/sh
# The parallel-agents replay of issue 25 (docs/benchmarks.md, Parallel
# agents; `make bench` runs it): AGENTS agents, each in its own worktree
# and branch, make ROUNDS rounds of backlog work (take an id, create an
# item under a shared feature, log it in the feature's worklog, mark the
# previous item done, add a blocks edge, commit), merged into main in a
# random order, some through a rebase; once with plain git and once with
# canon (hooks, merge driver, canon id next); then a third time with the
# agents acting through canon alone (items: canon ready, then claim, log,
# done and new, each --commit; a claim another agent made first is
# refused). It prints a Markdown table: duplicate ids on main, merges that
# needed a human, lines lost, canon verify, claims refused, stories taken
# twice.
#
#   ./scripts/bench_agents.sh                         8 agents x 50 rounds, seed 1
#   AGENTS=3 ROUNDS=5 ./scripts/bench_agents.sh       a quick look
#   SEED=7 MODES=canon ./scripts/bench_agents.sh
#   MODES=items ./scripts/bench_agents.sh             canon's write path alone
#
# Work goes to scripts/out/agents (emptied first).
set -eu
cd "$(dirname "$0")/.."
if [ ! -x bin/canon ]; then
	echo "bench-agents: error: ./bin/canon not found: run make build" >&2
	exit 1
fi
exec go run ./scripts/benchagents -canon bin/canon -work scripts/out/agents \
	-agents "${AGENTS:-8}" -rounds "${ROUNDS:-50}" -seed "${SEED:-1}" -modes "${MODES:-git,canon,items}"
