#!/usr/bin/env bash
# Two canon binaries, run by run: for each command the old and the new
# binary take turns (old, new, new, old, ...) on the same repository, so
# that whatever else the machine does falls on both alike. It prints the
# median of each and new/old. bench_compare.sh compares whole runs (with
# floors); this is the sharper test when the machine is not quiet.
#
#   ./scripts/bench_ab.sh OLD_BIN NEW_BIN [CORPUS_DIR] [RUNS]
#
# CORPUS_DIR is a generated corpus (scripts/out/corpus-10000, made by
# ./scripts/bench.sh or go run ./scripts/gencorpus -n 10000 -git); it is
# copied, never changed.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
src=${3:-scripts/out/corpus-10000} runs=${4:-15}
[ -d "$src/.git" ] || { echo "bench_ab: $src is not a corpus (a git repository)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/canon-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -a "$src/." "$work/"
cd "$work"
export GIT_AUTHOR_NAME=ab GIT_AUTHOR_EMAIL=ab@canon.invalid GIT_COMMITTER_NAME=ab GIT_COMMITTER_EMAIL=ab@canon.invalid
git config core.hooksPath /dev/null
rm -rf .git/canon
"$new" index --full >/dev/null
# Two commits that differ in one document, for the hook.
doc=$(git ls-files '*.md' | sed -n 100p)
c1=$(git rev-parse HEAD)
printf '\nOne more line for the benchmark.\n' >>"$doc"
git commit -qam 'ab: one document'
c2=$(git rev-parse HEAD)
"$new" sync >/dev/null

ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N); echo $(((t1 - t0) / 1000)); }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }

# row NAME ARGS...: time "canon ARGS" with both binaries, taking turns.
row() {
	local name=$1; shift
	: >old.t; : >new.t
	for i in $(seq "$runs"); do
		if ((i % 2)); then ms "$old" "$@" >>old.t; ms "$new" "$@" >>new.t
		else ms "$new" "$@" >>new.t; ms "$old" "$@" >>old.t; fi
	done
	local o n
	o=$(median <old.t) n=$(median <new.t)
	printf '| %s | %s ms | %s ms | %.2f |\n' "$name" "$o" "$n" "$(echo "$n / $o" | bc -l)"
}

# hook: the index goes back and forth between c1 and c2, one document each
# way; each binary's run is one catch-up of one document.
hookrow() {
	: >old.t; : >new.t
	local from=$c2 to=$c1 # the index is at c2
	for i in $(seq "$runs"); do
		for bin in old new; do
			((i % 2)) || bin=$([ $bin = old ] && echo new || echo old)
			git checkout -q --detach "$to"
			ms "${!bin}" hook post-checkout "$from" "$to" 1 >>$bin.t
			local t=$from; from=$to; to=$t
		done
	done
	printf '| %s | %s ms | %s ms | %.2f |\n' "hook post-checkout, one document" "$(median <old.t)" "$(median <new.t)" \
		"$(echo "$(median <new.t) / $(median <old.t)" | bc -l)"
}

echo "| command ($(git ls-files '*.md' | wc -l) documents, $runs runs each, taking turns) | old | new | new/old |"
echo "|---|---|---|---|"
hookrow
git checkout -q "$c2"
"$new" sync >/dev/null
row "--version (start-up)" --version
row "status" status
row "search \"webhook retry\"" search "webhook retry"
row "show (a document by id)" show "$(basename "$doc" .md | cut -d_ -f1)"
row "context \"webhook retry\" --budget 4000" context "webhook retry" --budget 4000
row "ready" ready
row "graph stats" graph stats
printf '\nAnd one staged.\n' >>"$doc"
git add "$doc"
row "check (one staged document)" check
git reset -q --hard
row "check --all" check --all
row "sync (a stat walk, nothing changed)" sync
runs=$(( (runs + 2) / 3 )) row "index --full" index --full
