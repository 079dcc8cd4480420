#!/bin/sh
# Times `canon context QUERY --depth 2 --budget 4000` as a user runs it (a
# whole process: start, open the index, the O(1) HEAD check, the pack,
# printing) on a generated corpus, and prints the p50, p90 and max over
# many queries. Two floors are timed the same way: `canon --version` (a
# process start) and `canon search QUERY -n 8` (start, open the index, the
# HEAD check and the same full-text search the pack's seeds come from).
#
#   scripts/bench_context.sh                 # 10,000 items, 60 runs
#   N=100000 RUNS=100 scripts/bench_context.sh
#   DIR=/tmp/mycorpus scripts/bench_context.sh   # an existing canon-indexed git corpus
#
# The corpus (gencorpus -git) and its index are built once and kept in
# $TMPDIR/canon-bench/cli-nN.
set -eu

N=${N:-10000}
RUNS=${RUNS:-60}
DIR=${DIR:-${TMPDIR:-/tmp}/canon-bench/cli-n$N}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CANON=$ROOT/bin/canon

(cd "$ROOT" && CGO_ENABLED=1 go build -tags sqlite_fts5 -o bin/canon ./cmd/canon)

if [ ! -f "$DIR/.git/canon/index.db" ]; then
	echo "building a corpus of $N items in $DIR (once)" >&2
	rm -rf "$DIR"
	mkdir -p "$(dirname "$DIR")"
	(cd "$ROOT" && go run ./scripts/gencorpus -n "$N" -out "$DIR" -git)
	(cd "$DIR" && "$CANON" index >/dev/null)
fi

QUERIES="webhook retry|refund ledger|session token|fraud score|address validation|payment timeout|idempotency key|settlement reconciliation|cart discount|challenge issuer|inbox event sequence|capture authorisation|postal code country|review queue analyst|dashboard alert|rollout flag|chargeback dispute|currency rounding|courier tracking|login password reset|cache invalidation|worker batch job|consent cookie|tax invoice|retry back-off|token refresh|search ranking|stock reservation|circuit breaker fallback|webhook|refund|migration schema"
NQ=$(printf '%s' "$QUERIES" | awk -F'|' '{print NF}')

now_ns() { date +%s%N; }

# time_runs LABEL CMD...: runs CMD RUNS times, the query substituted for @Q.
time_runs() {
	label=$1
	shift
	times=$(mktemp)
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		q=$(printf '%s' "$QUERIES" | cut -d'|' -f$((i % NQ + 1)))
		start=$(now_ns)
		case $1 in
		context) "$CANON" -C "$DIR" context "$q" --depth 2 --budget 4000 >/dev/null ;;
		search) "$CANON" -C "$DIR" search "$q" -n 8 >/dev/null ;;
		*) "$CANON" "$@" >/dev/null ;;
		esac
		end=$(now_ns)
		echo $(((end - start) / 1000)) >>"$times"
		i=$((i + 1))
	done
	sort -n "$times" | awk -v label="$label" -v n="$N" '
		{ t[NR] = $1 }
		END {
			p50 = t[int((NR + 1) / 2)]; p90 = t[int(NR * 0.9 + 0.5)]; mx = t[NR]
			printf "%-22s n=%-7d runs=%-4d p50 %6.1f ms   p90 %6.1f ms   max %6.1f ms\n", label, n, NR, p50 / 1000, p90 / 1000, mx / 1000
		}'
	rm -f "$times"
}

# Warm the page cache.
"$CANON" -C "$DIR" context "webhook retry" --depth 2 --budget 4000 >/dev/null

time_runs "canon --version" --version
time_runs "canon search" search
time_runs "canon context" context
