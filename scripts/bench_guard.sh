#!/usr/bin/env bash
# `make bench-guard`: the README's benchmark rows replayed against the
# previous build, taking turns, as a table of ratios (ADR-0034). Timing is
# no test: this is not in CI's pass/fail; run it before a release, or when a
# change may cost time, and read the new/old column.
#
#   ./scripts/bench_guard.sh                  # 10k items, 11 runs a row, against the previous build
#   ./scripts/bench_guard.sh -n 100000        # at 100k (generates the corpus once: a minute, 1 GB)
#   ./scripts/bench_guard.sh -rev v0.3.0 -runs 21
#
# The previous build is -rev REV; without it the latest tag before HEAD,
# else the merge base of HEAD and main (HEAD^ when HEAD is on main). It is
# built from `git archive REV` in a temporary folder; the current one from
# the working tree. The rows (scripts/bench_ab.sh): the staged check of one
# document with its floor `git diff --cached --raw -z`, the post-commit
# and post-checkout hooks of a one-document commit, search, context, show,
# status, and check --all up to 10k. The corpus is scripts/out/corpus-N
# (shared with bench.sh), generated when absent; -corpus DIR names another.
#
# Then the same corpus with remote refs (issue 46): scripts/benchteam gives
# it 1,000 commits of history and 200 remote refs forked from it (made once
# in scripts/out/team-guard-N), and the two builds take turns on the hooks,
# ready, the first ready after HEAD moved, branches and id next there; then
# the current build's hooks with 200 refs against the same hooks with none,
# paired in one run (new/0 refs), so that a per-ref cost in a hook shows
# as a ratio whether or not the previous build had it. -refs 0 skips this.
set -euo pipefail
cd "$(dirname "$0")/.."
n=10000 runs=11 rev= corpus= refs=200
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-rev) rev=$2; shift 2 ;;
	-corpus) corpus=$2; shift 2 ;;
	-refs) refs=$2; shift 2 ;;
	-h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-guard: error: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done
if [ -z "$rev" ]; then
	rev=$(git describe --tags --abbrev=0 HEAD^ 2>/dev/null || true)
	if [ -z "$rev" ]; then
		rev=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD^)
		[ "$rev" = "$(git rev-parse HEAD)" ] && rev=$(git rev-parse HEAD^)
	fi
fi
old_commit=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench-guard: error: $rev names no commit here; give -rev a tag, branch or commit" >&2; exit 2; }
corpus=${corpus:-scripts/out/corpus-$n}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/canon-guard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export CGO_ENABLED=1
tags=sqlite_fts5,urfave_cli_no_docs
echo "bench-guard: building the previous build, ${old_commit:0:12} ($rev), and the working tree" >&2
mkdir "$tmp/src"
git archive "$old_commit" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -tags "$tags" -o "$tmp/canon-old" ./cmd/canon)
go build -tags "$tags" -o "$tmp/canon-new" ./cmd/canon

if [ ! -d "$corpus/.git" ]; then
	echo "bench-guard: generating $n items in $corpus (once)" >&2
	go run ./scripts/gencorpus -n "$n" -seed 1 -out "$corpus" -git
fi
rows=checkout,commit,status,search,show,context,check
[ "$n" -le 10000 ] && rows=$rows,check-all
echo "previous: ${old_commit:0:12} ($rev); current: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- || echo ' + uncommitted changes')"
echo
ROWS=$rows ./scripts/bench_ab.sh "$tmp/canon-old" "$tmp/canon-new" "$corpus" "$runs"
[ "$refs" -gt 0 ] || exit 0

team=scripts/out/team-guard-$n
echo
echo "bench-guard: the corpus with $refs remote refs ($team, made once)" >&2
go build -o "$tmp/benchteam" ./scripts/benchteam
"$tmp/benchteam" -corpus "$corpus" -label "guard-$n" -work "$team" -refs "0,$refs" -reuse -setup-only -canon "$tmp/canon-new" >/dev/null
echo "with $refs remote refs (scripts/benchteam: 1,000 commits of history on main, $refs refs forked from it, 1–3 commits each):"
echo
ROWS=checkout,commit,ready,readymoved,branches,idnext ./scripts/bench_ab.sh "$tmp/canon-old" "$tmp/canon-new" "$team/repo-$refs" "$runs"
echo
echo "the current build's hooks, $refs remote refs against none, taking turns (scripts/benchteam -only commit):"
"$tmp/benchteam" -corpus "$corpus" -label "guard-$n" -work "$team" -refs "0,$refs" -reuse -only commit -runs "$runs" -canon "$tmp/canon-new"
