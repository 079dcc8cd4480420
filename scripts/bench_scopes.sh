#!/bin/sh
# Times `canon context --for TASK` (a scoped pack, issue 15) as a user runs
# it, a whole process each, on a generated corpus that is given groups and
# scoped knowledge: 200 groups in 20 chains of 10 (each depends_on the
# next), two pieces of group knowledge per group, 50 global, 100 path and
# 100 task knowledge documents, and 2,000 tasks assigned to groups with
# paths:. Floors timed the same way: `canon --version` (a process start),
# `canon show TASK` (start, open, one lookup) and `canon context --seed
# TASK` (the pack without scopes).
#
#   scripts/bench_scopes.sh                  # 10,000 items, 60 runs
#   N=100000 RUNS=60 scripts/bench_scopes.sh
#
# The corpus comes from scripts/out/corpus-N (./scripts/bench.sh makes it;
# else gencorpus here) and is copied once to scripts/out/scopes-N.
set -eu

N=${N:-10000}
RUNS=${RUNS:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/scripts/out/corpus-$N
DIR=$ROOT/scripts/out/scopes-$N
CANON=$ROOT/bin/canon

(cd "$ROOT" && make -s build)

if [ ! -f "$DIR/.git/canon/index.db" ]; then
	if [ ! -d "$SRC/.git" ]; then
		echo "generating a corpus of $N items in $SRC (once)" >&2
		(cd "$ROOT" && CGO_ENABLED=1 go run -tags sqlite_fts5 ./scripts/gencorpus -n "$N" -out "$SRC" -git)
	fi
	echo "adding groups and scoped knowledge in $DIR (once)" >&2
	rm -rf "$DIR"
	git clone -q --local "$SRC" "$DIR"
	cd "$DIR"
	git config user.email bench@canon.invalid
	git config user.name bench
	mkdir -p scopes/groups scopes/knowledge
	g=0
	while [ $g -lt 200 ]; do
		id=$(printf 'G-%03d' $g)
		dep=""
		if [ $((g % 10)) -ne 9 ]; then dep="depends_on: [$(printf 'G-%03d' $((g + 1)))]"; fi
		printf -- '---\nid: %s\ntype: Group\ntitle: Group %d\n%s\n---\n# Group %d\n\nThe area of group %d.\n' "$id" $g "$dep" $g $g >scopes/groups/$id.md
		for k in 1 2; do
			printf -- '---\nid: K-%s-%d\ntitle: Pattern %d of group %d\nscope: group\ngroup: %s\n---\n# Pattern %d of group %d\n\n## Decision\n\nAlways retry idempotent calls with back-off and jitter; group %d learned it the hard way.\n' \
				"$id" $k $k $g "$id" $k $g $g >scopes/knowledge/K-$id-$k.md
		done
		g=$((g + 1))
	done
	i=0
	while [ $i -lt 50 ]; do
		printf -- '---\nid: K-GLOBAL-%02d\ntitle: Convention %d\nscope: global\n---\n# Convention %d\n\nErrors are one sentence plus the fix (%d).\n' $i $i $i $i >scopes/knowledge/K-GLOBAL-$i.md
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 100 ]; do
		printf -- '---\nid: K-PATH-%03d\ntitle: Code layout %d\nscope: path\nconditions:\n  paths: ["src/area%d/**"]\n---\n# Code layout %d\n\nThe handlers live next to their tests.\n' $i $i $((i % 40)) $i >scopes/knowledge/K-PATH-$i.md
		i=$((i + 1))
	done
	# 2,000 tasks get a group and paths; 100 task notes relate to some.
	git ls-files -- '*/items/task/*' | head -2000 >tasks.txt
	n=0
	while read -r f; do
		g=$(printf 'G-%03d' $((n % 200)))
		sed -i "0,/^id: /s//group: $g\npaths: [src\/area$((n % 40))\/handler.go]\nid: /" "$f"
		if [ $n -lt 100 ]; then
			tid=$(sed -n 's/^id: //p' "$f" | head -1)
			printf -- '---\nid: K-TASK-%03d\ntitle: What task %s taught\nscope: task\nrelates: [%s]\n---\n# What task %s taught\n\nThe provider sends duplicates.\n' $n "$tid" "$tid" "$tid" >scopes/knowledge/K-TASK-$n.md
		fi
		n=$((n + 1))
	done <tasks.txt
	git add -A scopes _kano && git commit -q -m 'groups and scoped knowledge'
	"$CANON" index >/dev/null
	cd "$ROOT"
fi

TASKS=$(cd "$DIR" && head -"$RUNS" tasks.txt | xargs -I{} sed -n 's/^id: //p' {} | head -"$RUNS")
now_ns() { date +%s%N; }
time_runs() {
	label=$1
	shift
	times=$(mktemp)
	for t in $TASKS; do
		start=$(now_ns)
		case $1 in
		for) "$CANON" -C "$DIR" context --for "$t" --budget 4000 >/dev/null ;;
		seed) "$CANON" -C "$DIR" context --seed "$t" --budget 4000 >/dev/null ;;
		show) "$CANON" -C "$DIR" show "$t" >/dev/null ;;
		*) "$CANON" "$@" >/dev/null ;;
		esac
		end=$(now_ns)
		echo $(((end - start) / 1000)) >>"$times"
	done
	sort -n "$times" | awk -v label="$label" -v n="$N" '
		{ t[NR] = $1 }
		END {
			p50 = t[int((NR + 1) / 2)]; p90 = t[int(NR * 0.9 + 0.5)]; mx = t[NR]
			printf "%-28s n=%-7d runs=%-4d p50 %6.1f ms   p90 %6.1f ms   max %6.1f ms\n", label, n, NR, p50 / 1000, p90 / 1000, mx / 1000
		}'
	rm -f "$times"
}

first=$(echo "$TASKS" | head -1)
"$CANON" -C "$DIR" context --for "$first" --budget 4000 >/dev/null # warm the page cache
time_runs "canon --version" --version
time_runs "canon show TASK" show
time_runs "canon context --seed TASK" seed
time_runs "canon context --for TASK" for
