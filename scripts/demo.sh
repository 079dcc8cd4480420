#!/usr/bin/env bash
# The README's first command (make demo): turn the example backlog in
# testdata/example into a real git repository, install canon's hooks, make a
# commit and a branch switch, and watch the index follow; then print a
# context pack and the defects canon check finds; end with how to open the
# board (canon serve). Runs in a temporary folder (or DEMO_DIR) and leaves
# the repository there for you to explore.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
canon=${CANON:-$here/bin/canon} # CANON: an installed canon (scripts/release_test.sh)
[ -x "$canon" ] || { echo "demo: $canon is missing; run make build first" >&2; exit 1; }
bindir=$(cd "$(dirname "$canon")" && pwd)
export PATH="$bindir:$PATH" # the hooks call canon from PATH

demo=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/canon-demo.XXXXXX")}
mkdir -p "$demo"
if [ -n "$(ls -A "$demo")" ]; then
  echo "demo: $demo is not empty; set DEMO_DIR to an empty or new folder" >&2
  exit 1
fi
cp -R "$here/testdata/example/." "$demo/"
cd "$demo"

# A private git identity, so the demo runs on a machine without one.
export GIT_AUTHOR_NAME="Canon Demo" GIT_AUTHOR_EMAIL="demo@canon.invalid"
export GIT_COMMITTER_NAME="Canon Demo" GIT_COMMITTER_EMAIL="demo@canon.invalid"
git() { command git -c init.defaultBranch=main -c advice.detachedHead=false "$@"; }

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "A backlog in git: $demo"
git init -q
git add -A
git commit -q -m "Checkout backlog"
run git log --oneline

step "canon init writes .canon/config.yaml and builds the index"
run canon init

step "Install the hooks (pre-commit validates, post-* keep the index fresh)"
run canon hooks install

step "Search and show answer from the index"
run canon search "3-D Secure challenge" --limit 3
run canon show KB-TSK-0002

step "A commit: the post-commit hook updates the index"
task=_kano/backlog/products/checkout/items/task/0000/KB-TSK-0003_request-sca-exemptions.md
sed -i.bak 's/^state: .*/state: Done/' "$task" && rm -f "$task.bak"
printf '\n2025-03-01 10:00 [agent=demo] Fallback verified against the PSP sandbox.\n' >>"$task"
git add "$task"
run git commit -q -m "KB-TSK-0003 done"
run canon status
# The task's first lines: the index has its new state.
printf '$ canon show KB-TSK-0003 | sed -n 1,4p\n'
canon show KB-TSK-0003 | sed -n 1,4p

step "A branch with a new task; switching branches moves the index along"
git switch -q -c spike
mkdir -p _kano/backlog/products/checkout/items/task/0000
cat >_kano/backlog/products/checkout/items/task/0000/KB-TSK-0099_apple-pay-spike.md <<'EOF'
---
id: KB-TSK-0099
uid: 019c0000-0000-7000-8000-000000000099
type: Task
title: Spike Apple Pay on the payment page
state: Ready
priority: P2
parent: KB-USR-0001
created: 2025-03-01
updated: 2025-03-01
---
# Context
Shoppers on iOS ask for Apple Pay. See [[KB-FTR-0001_3ds2-authentication]] for the
payment page and [ADR-0001](../../../decisions/ADR-0001_hosted-3ds2-sdk.md).

# Acceptance Criteria
- [ ] A sandbox payment goes through with Apple Pay.
EOF
git add -A
run git commit -q -m "Apple Pay spike"
run canon search "Apple Pay"
run git switch -q main
run canon search "Apple Pay"
run git switch -q spike
run canon status

step "A context pack for an agent: search seeds, two hops, a token budget"
run canon context "Apple Pay" --depth 2 --budget 1200

step "canon check --all finds the example's deliberate defects (see testdata/example/DEFECTS.md)"
run canon check --all || true

step "The index is derived: verify compares it with a fresh rebuild"
run canon verify

printf '\nThe demo repository stays in %s\n' "$demo"

# Last, the board: the demo stays non-interactive, so it says how to start
# canon serve rather than starting it (each start prints a new token).
step "The board in a browser: canon serve"
printf 'Run\n\n  %s serve --repo %s\n\nand open the URL it prints, http://127.0.0.1:7474/?token=... (the token is new at each start):\nthe board by state, each item with its graph, branches, problems and search, live; a card'"'"'s ⋯ menu\n(or m) moves or claims it as canon set and canon claim do. Ctrl-C stops it.\n' "$canon" "$demo"
