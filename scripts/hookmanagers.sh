#!/usr/bin/env bash
# Installs the hook managers TestHookManagers runs canon with, into
# scripts/out (and Debian's pre-commit system-wide), the way .ci/run
# installs the SARIF validator: lefthook and husky from npm, the pre-commit
# framework from Debian (3.0.4 on bookworm), and pre-commit 4.x from the
# Debian release after it, unpacked into a venv that borrows the first
# one's Python dependencies. Each step that fails says so and goes on: the
# test of that manager then skips and says why (fails under CI=true).
set -uo pipefail
cd "$(dirname "$0")/.."
out=scripts/out
have() { command -v "$1" >/dev/null 2>&1; }
# A go.mod of their own keeps the packages' files (pre-commit ships Go
# sources as templates) out of canon's ./...
fence() { mkdir -p "$1" && printf 'module fenced\n\ngo 1.26\n' > "$1/go.mod"; }
fence "$out/hookmgr"
fence "$out/precommit4"

if have npm && { [ ! -x "$out/hookmgr/node_modules/.bin/lefthook" ] || [ ! -x "$out/hookmgr/node_modules/.bin/husky" ]; }; then
  # --ignore-scripts: lefthook's postinstall would install its hooks into
  # canon's own repository; its binary comes as a plain dependency.
  npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$out/hookmgr" lefthook@2.2.2 husky@9.1.7 \
    || echo "hookmanagers: could not install lefthook and husky from npm; their tests will fail under CI=true"
fi

if ! [ -x /usr/bin/pre-commit ]; then
  if [ "$(id -u)" = 0 ] && have apt-get; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null; } \
      || echo "hookmanagers: could not install Debian's pre-commit; the pre-commit tests will fail under CI=true"
  else
    echo "hookmanagers: Debian's pre-commit is not installed (needs root and apt-get); the pre-commit tests will fail under CI=true"
  fi
fi

pc4="$out/precommit4"
if [ -x /usr/bin/pre-commit ] && ! [ -x "$pc4/bin/pre-commit" ] && have apt-get && have dpkg-deb; then
  (
    set -e
    rm -rf "$pc4" && mkdir -p "$pc4/apt/lists/partial" "$pc4/apt/cache/archives/partial" && fence "$pc4"
    # A private apt configuration: the system's sources stay as they are.
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$pc4/apt/sources.list"
    opts=(-o "Dir::Etc::SourceList=$PWD/$pc4/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$PWD/$pc4/apt/lists" -o "Dir::Cache=$PWD/$pc4/apt/cache" -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq
    (cd "$pc4" && apt-get "${opts[@]}" download pre-commit >/dev/null)
    dpkg-deb -x "$pc4"/pre-commit_4.*_all.deb "$pc4/pkg"
    /usr/bin/python3 -m venv --without-pip --system-site-packages "$pc4/venv"
    site=$(echo "$pc4"/venv/lib/python3*/site-packages)
    echo "$PWD/$pc4/pkg/usr/lib/python3/dist-packages" > "$site/pre_commit_4.pth"
    mkdir -p "$pc4/bin"
    printf '#!%s\nimport sys\nfrom pre_commit.main import main\nsys.exit(main())\n' "$PWD/$pc4/venv/bin/python3" > "$pc4/bin/pre-commit"
    chmod 755 "$pc4/bin/pre-commit"
    "$pc4/bin/pre-commit" --version
  ) || { echo "hookmanagers: could not set up pre-commit 4.x; its test will fail under CI=true"; rm -rf "$pc4/bin"; }
fi
exit 0
