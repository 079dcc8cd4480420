#!/usr/bin/env bash
# Two canon binaries, run by run: for each command the old and the new
# binary take turns (old, new, new, old, ...) on the same repository, so
# that whatever else the machine does falls on both alike. It prints the
# median of each and new/old. bench_compare.sh compares whole runs (with
# floors); this is the sharper test when the machine is not quiet.
# bench_guard.sh builds the two binaries and runs this.
#
#   ./scripts/bench_ab.sh OLD_BIN NEW_BIN [CORPUS_DIR] [RUNS]
#   ROWS=check,commit,search,context ./scripts/bench_ab.sh OLD NEW DIR
#
# CORPUS_DIR is a generated corpus (scripts/out/corpus-10000, made by
# ./scripts/bench.sh or go run ./scripts/gencorpus -n 10000 -git); it is
# copied, never changed: once for each binary, which builds its own index
# there (two builds may differ in schema, and each would rebuild the
# other's), and each command runs in its binary's copy. ROWS picks rows (default all): checkout, commit,
# version, status, search, show, context, ready, readymoved, branches,
# idnext, graph, check, check-all, sync, index. readymoved is the first
# canon ready after HEAD moved one commit (its post-checkout hook run,
# untimed): on a corpus with remote refs (bench_guard.sh's, made by
# scripts/benchteam) it and branches are where a per-ref cost shows. The staged check is timed with its floor, `git diff --cached
# --raw -z`, in the same turns, and the last column says new/floor.
# Every row gives wall time and CPU time (user+sys of the command, from
# the shell's times); WALKFLOOR=BIN (go build ./scripts/walkfloor) times
# `BIN .`, the bare getdents+fstatat walk of the tree, beside the rows
# whose commands walk the working tree (status, search, show, ready).
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
src=$(realpath "${3:-scripts/out/corpus-10000}") runs=${4:-15}
rows=,${ROWS:-checkout,commit,version,status,search,show,context,ready,readymoved,branches,idnext,graph,check,check-all,sync,index},
[ -d "$src/.git" ] || { echo "bench_ab: $src is not a corpus (a git repository)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/canon-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export GIT_AUTHOR_NAME=ab GIT_AUTHOR_EMAIL=ab@canon.invalid GIT_COMMITTER_NAME=ab GIT_COMMITTER_EMAIL=ab@canon.invalid
export GIT_AUTHOR_DATE=2025-01-01T12:00:00Z GIT_COMMITTER_DATE=2025-01-01T12:00:00Z
into() { cd "$work/$1"; }
# Two commits that differ in one document, for the hooks: the same in both
# copies (the same dates), each indexed at c2 by its own binary.
for side in old new; do
	mkdir "$work/$side"
	cp -a "$src/." "$work/$side/"
	into $side
	git config core.hooksPath /dev/null
	rm -rf .git/canon
	"${!side}" index --full >/dev/null
	doc=$(git ls-files '*.md' | sed -n 100p)
	c1=$(git rev-parse HEAD)
	printf '\nOne more line for the benchmark.\n' >>"$doc"
	git commit -qam 'ab: one document'
	c2=$(git rev-parse HEAD)
	"${!side}" sync >/dev/null
done

want() { [[ $rows == *,$1,* ]]; }
# ms CMD...: "WALL_US CPU_US" of one run (CPU: user+sys of the command).
ms() {
	local t0 t1 c
	t0=$(date +%s%N)
	c=$( ("$@" >/dev/null 2>&1 || true; times) | tail -1)
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000)) $(awk '{t=0; for (i=1;i<=2;i++) {split($i,a,/[ms]/); t+=a[1]*60+a[2]} printf "%d", t*1e6}' <<<"$c")"
}
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }
ratio() { echo "$1 / $2" | bc -l; }
line() { # NAME OLD_MS NEW_MS [FLOOR_MS]
	printf '| %s | %s ms | %s ms | %.2f |' "$1" "$2" "$3" "$(ratio "$3" "$2")"
	if [ -n "${4:-}" ]; then printf ' %.2f (floor %s ms) |' "$(ratio "$3" "$4")" "$4"; else printf ' |'; fi
	if [ -s "$work/old.c" ]; then # the CPU times of the same runs
		local oc nc fc
		oc=$(median <"$work/old.c") nc=$(median <"$work/new.c") fc=$(if [ -s "$work/floor.c" ]; then median <"$work/floor.c"; fi)
		printf ' %s / %s ms, %.2f' "$oc" "$nc" "$(ratio "$nc" "$oc")"
		if [ -n "$fc" ]; then printf ' (floor %s ms)' "$fc"; fi
		printf ' |'
	fi
	printf '\n'
}
# record FILE: split "WALL CPU" lines from ms into FILE.t and FILE.c.
record() { while read -r w c; do echo "$w" >>"$1.t"; echo "$c" >>"$1.c"; done; }
reset_times() { : >"$work/old.t"; : >"$work/new.t"; : >"$work/floor.t"; : >"$work/old.c"; : >"$work/new.c"; : >"$work/floor.c"; }
# turn I: the order of the two binaries in run I (old first in odd runs).
turn() { if (($1 % 2)); then echo old new; else echo new old; fi; }

# row NAME ARGS...: time "canon ARGS" with both binaries, taking turns;
# with FLOOR set (a command), time it in the new copy after each pair too.
row() {
	local name=$1 side; shift
	reset_times
	for i in $(seq "$runs"); do
		for side in $(turn "$i"); do
			into $side
			ms "${!side}" "$@" | record "$work/$side"
		done
		if [ -n "${FLOOR:-}" ]; then ms $FLOOR | record "$work/floor"; fi
	done
	line "$name" "$(median <"$work/old.t")" "$(median <"$work/new.t")" "$([ -s "$work/floor.t" ] && median <"$work/floor.t")"
}

# hookrow HOOK: each copy's index goes back and forth between c1 and c2,
# one document each way; each run is one catch-up of one document.
hookrow() {
	local from=$c2 to=$c1 side # both indexes are at c2
	reset_times
	for i in $(seq "$runs"); do
		for side in $(turn "$i"); do
			into $side
			git checkout -q --detach "$to"
			if [ "$1" = post-checkout ]; then ms "${!side}" hook post-checkout "$from" "$to" 1 | record "$work/$side"
			else ms "${!side}" hook "$1" | record "$work/$side"; fi
		done
		local t=$from; from=$to; to=$t
	done
	line "hook $1, one document" "$(median <"$work/old.t")" "$(median <"$work/new.t")"
	for side in old new; do
		into $side
		git checkout -q "$c2"
		"${!side}" sync >/dev/null
	done
}

# readyrow: as hookrow, HEAD back and forth between c1 and c2 with the
# post-checkout hook run untimed; each run times the first canon ready.
readyrow() {
	local from=$c2 to=$c1 side
	reset_times
	for i in $(seq "$runs"); do
		for side in $(turn "$i"); do
			into $side
			git checkout -q --detach "$to"
			"${!side}" hook post-checkout "$from" "$to" 1 >/dev/null 2>&1 || true
			ms "${!side}" ready | record "$work/$side"
		done
		local t=$from; from=$to; to=$t
	done
	line "ready, the first after HEAD moved one commit" "$(median <"$work/old.t")" "$(median <"$work/new.t")"
	for side in old new; do
		into $side
		git checkout -q "$c2"
		"${!side}" sync >/dev/null
	done
}

into new
echo "| command ($(git ls-files '*.md' | wc -l) documents, $runs runs each, taking turns) | old | new | new/old | new/floor | CPU old / new, new/old |"
echo "|---|---|---|---|---|---|"
walkfloor=${WALKFLOOR:+$(realpath "$WALKFLOOR") .}
want checkout && hookrow post-checkout
want commit && hookrow post-commit
want version && row "--version (start-up)" --version
want status && FLOOR=$walkfloor row "status" status
want search && FLOOR=$walkfloor row "search \"webhook retry\"" search "webhook retry"
want show && FLOOR=$walkfloor row "show (a document by id)" show "$(basename "$doc" .md | cut -d_ -f1)"
want context && row "context \"webhook retry\" --budget 4000" context "webhook retry" --budget 4000
want ready && FLOOR=$walkfloor row "ready" ready
want readymoved && readyrow
want branches && row "branches" branches
want idnext && row "id next task" id next task
want graph && row "graph stats" graph stats
if want check; then
	for side in old new; do
		into $side
		printf '\nAnd one staged.\n' >>"$doc"
		git add "$doc"
	done
	FLOOR="git diff --cached --raw -z" row "check (one staged document)" check
	for side in old new; do into $side; git reset -q --hard; done
fi
want check-all && row "check --all" check --all
want sync && row "sync (a stat walk, nothing changed)" sync
if want index; then runs=$(((runs + 2) / 3)) row "index --full" index --full; fi
