#!/bin/sh
# bench_merge.sh: canon merge-driver against git merge-file, and the
# parallel-agents replay of issue 24 (docs/merge-driver.md).
#
#   ./scripts/bench_merge.sh                  1k and 100k documents, 40 runs
#   SIZES=1000 RUNS=10 ./scripts/bench_merge.sh   a quick look
#
# 1. The driver on one document's three versions (ours and theirs each
#    append to the Worklog; ours bumps updated, theirs adds a tag and
#    changes the state) beside `git merge-file` on the same three files:
#    both are one process, as git starts the driver once per file changed
#    on both sides. Runs take turns; the medians are printed.
# 2. The replay: AGENTS branches each make the allowed edits (worklog
#    lines, some identical, a link added, updated bumped, a state changed
#    on the documents that agent owns) to DOCS shared documents, and are
#    merged into main one after the other; the files left conflicted are
#    counted with the driver and with plain git on the same branches.
#
# Corpora are generated with scripts/gencorpus into scripts/out/corpus-<N>
# (the same as bench.sh's) once and reused; work goes to scripts/out/merge.
set -eu
cd "$(dirname "$0")/.."
root=$PWD
if [ ! -x bin/canon ]; then
	echo "bench_merge: error: ./bin/canon not found: run make build" >&2
	exit 1
fi
export PATH="$root/bin:$PATH" CANON_SKIP=1
SIZES=${SIZES:-"1000 100000"}
RUNS=${RUNS:-40}
AGENTS=${AGENTS:-6}
DOCS=${DOCS:-30}
out=$root/scripts/out/merge
mkdir -p "$out"

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%.1f", m/1e6}'; }

corpus() {
	dir=$root/scripts/out/corpus-$1
	if [ ! -d "$dir/.git" ]; then
		rm -rf "$dir"
		go run ./scripts/gencorpus -n "$1" -out "$dir" -git >&2
	fi
	echo "$dir"
}

# three writes one document's base, ours and theirs into .bench-merge/.
three() {
	d=$1 f=$2
	mkdir -p "$d/.bench-merge"
	git -C "$d" show "HEAD:$f" >"$d/.bench-merge/O"
	cp "$d/.bench-merge/O" "$d/.bench-merge/A0"
	cp "$d/.bench-merge/O" "$d/.bench-merge/B"
	sed -i "s/^updated: .*/updated: '2030-01-02'/" "$d/.bench-merge/A0"
	printf '2030-01-02 10:00 [agent=ours] wrote the parser.\n2030-01-02 11:00 [agent=ours] same words.\n' >>"$d/.bench-merge/A0"
	sed -i "s/^tags: \[\(.*\)\]/tags: [\1, bench]/; s/^state: .*/state: Done/" "$d/.bench-merge/B"
	printf '2030-01-02 10:30 [agent=theirs] same words.\n' >>"$d/.bench-merge/B"
}

echo "## canon merge-driver against git merge-file ($RUNS runs each, taking turns; $(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| documents | git merge-file (ms) | canon merge-driver (ms) | ratio | driver exit |"
echo "|---|---|---|---|---|"
for n in $SIZES; do
	d=$(corpus "$n")
	f=$(git -C "$d" ls-files '*.md' | grep -m1 /task/)
	three "$d" "$f"
	b=$d/.bench-merge
	: >"$out/git-$n" && : >"$out/canon-$n"
	i=0
	while [ $i -lt "$RUNS" ]; do
		cp "$b/A0" "$b/A"
		t0=$(now)
		git -C "$d" merge-file -p "$b/A" "$b/O" "$b/B" >/dev/null || true
		t1=$(now)
		echo $((t1 - t0)) >>"$out/git-$n"
		cp "$b/A0" "$b/A"
		t0=$(now)
		code=0
		(cd "$d" && canon merge-driver .bench-merge/O .bench-merge/A .bench-merge/B 7 "$f") || code=$?
		t1=$(now)
		echo $((t1 - t0)) >>"$out/canon-$n"
		i=$((i + 1))
	done
	g=$(median <"$out/git-$n")
	c=$(median <"$out/canon-$n")
	echo "| $n | $g | $c | $(awk -v c="$c" -v g="$g" 'BEGIN {printf "%.2fx", c/g}') | $code |"
	cp "$b/A" "$out/merged-$n.md"
	rm -rf "$b"
done

# The replay, on the first size's corpus, in a clone of it.
n=$(echo "$SIZES" | awk '{print $1}')
src=$(corpus "$n")
replay() {
	replay_run "$1" >&2
	cat "$out/replay-$1.result"
}
replay_run() {
	mode=$1
	w=$out/replay-$mode
	rm -rf "$w"
	git clone -q "$src" "$w"
	cd "$w"
	git config user.email bench@canon.invalid
	git config user.name bench
	canon hooks install >/dev/null
	git add .gitattributes
	git commit -q -m 'merge driver'
	[ "$mode" = git ] && git config --remove-section merge.canon
	git ls-files '*.md' | grep /task/ | head -n "$DOCS" >"$out/docs"
	a=0
	while [ $a -lt "$AGENTS" ]; do
		git switch -q -c "agent-$a" main
		k=0
		while read -r f; do
			k=$((k + 1))
			# Each agent edits two thirds of the documents.
			[ $(((k + a) % 3)) -eq 0 ] && continue
			printf '2030-01-%02d 1%d:00 [agent=agent-%d] worked on it.\n2030-01-%02d 1%d:30 [agent=agent-%d] ran the tests.\n' \
				$((a + 1)) "$a" "$a" $((a + 1)) "$a" "$a" >>"$f"
			sed -i "s/^updated: .*/updated: '2030-01-$(printf %02d $((a + 1)))'/" "$f"
			sed -i "s/^  relates: \[\(.*\)\]/  relates: [\1, KB-TSK-9$a$k]/; s/^  relates: \[, /  relates: [/" "$f"
			# The state belongs to one agent per document.
			[ $((k % AGENTS)) -eq "$a" ] && sed -i "s/^state: .*/state: InProgress/" "$f"
		done <"$out/docs"
		git commit -q -am "agent $a"
		a=$((a + 1))
	done
	git switch -q main
	conflicts=0
	a=0
	while [ $a -lt "$AGENTS" ]; do
		if ! git merge -q --no-edit "agent-$a" >/dev/null 2>&1; then
			c=$(git diff --name-only --diff-filter=U | wc -l)
			conflicts=$((conflicts + c))
			git checkout -q --theirs -- . 2>/dev/null || true
			git add -A
			git commit -q --no-edit
		fi
		a=$((a + 1))
	done
	lost=0
	if [ "$mode" = canon ]; then
		a=0
		while [ $a -lt "$AGENTS" ]; do
			want=$(git log -p "agent-$a" -1 | grep -c '^+20[0-9-]* [0-9:]* \[agent=agent-' || true)
			have=$(git grep -h "\[agent=agent-$a\]" -- '*.md' | wc -l)
			[ "$have" -lt "$want" ] && lost=$((lost + want - have))
			a=$((a + 1))
		done
	fi
	echo "$conflicts $lost" >"$out/replay-$mode.result"
	cd "$root"
}
set -- $(replay canon)
canon_conflicts=$1 lost=$2
set -- $(replay git)
git_conflicts=$1
echo
echo "## Parallel-agents replay ($AGENTS agents, $DOCS shared documents of the $n-document corpus)"
echo
echo "| merge | files left conflicted | worklog lines lost |"
echo "|---|---|---|"
echo "| plain git (driver named, not registered) | $git_conflicts | - |"
echo "| canon merge-driver | $canon_conflicts | $lost |"
