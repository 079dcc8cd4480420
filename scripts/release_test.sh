#!/usr/bin/env bash
# Proves a release build installs and runs the way users install it
# (ADR-0075), from the dist/ that make release-snapshot leaves:
#   1. the archives match checksums.txt;
#   2. the amd64 binary is static, so it runs on any Linux libc;
#   3. the .deb installs with dpkg -i into a dpkg database of its own (a
#      temporary --root, so the machine's own packages are untouched), and
#      the installed canon prints the release's version and runs the demo;
#   4. the arm64 binary runs under qemu-user (Debian's qemu-user), when
#      qemu-aarch64 is there, and indexes and searches the example;
#   5. the npm tarballs install offline into a fresh JavaScript repository
#      (npm i -D), and npx canon runs the platform package's binary.
# Usage: scripts/release_test.sh [DIST]  (default dist)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dist=$(cd "${1:-$here/dist}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/canon-release.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

step() { printf '\n== %s\n' "$*"; }
fail() { echo "release_test: $*" >&2; exit 1; }
version=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).version)' "$dist/metadata.json")
[ -n "$version" ] || fail "no version in $dist/metadata.json"
expect_version() { # the output of canon --version names the release's version and commit
  local out=$1
  printf '%s\n' "$out"
  case "$out" in "canon version $version, commit "*) ;; *) fail "not the version of $version: $out" ;; esac
  printf '%s\n' "${out#"canon version $version"}" | grep -Eq '^, commit [0-9a-f]{40}, built 2[0-9]{3}-[0-9]{2}-[0-9]{2}T' ||
    fail "no commit and date stamped (GoReleaser reads them from git, with a remote): $out"
}

step "checksums ($version)"
(cd "$dist" && sha256sum --check --strict checksums.txt)
for arch in amd64 arm64; do
  grep -q "canon_${version}_linux_${arch}.tar.gz" "$dist/checksums.txt" || fail "no $arch archive in checksums.txt"
done

step "the amd64 binary is static"
bin=$(find "$dist" -path '*linux_amd64*/canon' -type f | head -1)
[ -n "$bin" ] || fail "no amd64 binary in $dist"
if readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
  fail "$bin needs shared libraries: $(readelf -d "$bin" | grep NEEDED)"
fi
echo "$bin: no shared libraries"

step "dpkg -i the .deb into a dpkg root of its own"
deb=$(ls "$dist"/canon_*_amd64.deb)
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-not-root --force-script-chrootless --log=/dev/null -i "$deb"
dpkg --root="$root" -s canon | grep -E '^(Package|Status|Version):'
expect_version "$("$root/usr/bin/canon" --version)"

step "the demo, run by the installed canon"
CANON=$root/usr/bin/canon DEMO_DIR=$tmp/demo "$here/scripts/demo.sh" >"$tmp/demo.log" 2>&1 || { cat "$tmp/demo.log"; fail "the demo failed"; }
grep -q "Apple Pay" "$tmp/demo.log" || fail "the demo found no Apple Pay spike"
tail -n 3 "$tmp/demo.log"

step "the arm64 binary under qemu-user"
arm=$(find "$dist" -path '*linux_arm64*/canon' -type f | head -1)
[ -n "$arm" ] || fail "no arm64 binary in $dist"
if command -v qemu-aarch64 >/dev/null; then
  expect_version "$(qemu-aarch64 "$arm" --version)"
  ex=$tmp/arm64
  cp -R "$here/testdata/example" "$ex"
  git -C "$ex" init -q -b main
  git -C "$ex" add -A
  git -C "$ex" -c user.name=t -c user.email=t@canon.invalid commit -q -m example
  (cd "$ex" && qemu-aarch64 "$arm" init >/dev/null && qemu-aarch64 "$arm" search "3-D Secure challenge" --limit 1) | tee "$tmp/arm.out"
  grep -q KB- "$tmp/arm.out" || fail "the arm64 canon found nothing"
elif [ "${CI:-}" = true ]; then
  fail "qemu-aarch64 is missing (Debian's qemu-user)"
else
  echo "skipped: qemu-aarch64 is missing (apt-get install qemu-user)"
fi

step "npm i -D the tarballs into a fresh JavaScript repository, offline"
js=$tmp/js
mkdir -p "$js"
(
  cd "$js"
  git init -q -b main
  npm init -y >/dev/null
  # The main package and this machine's platform package, as a registry
  # would give them; the other platforms' packages stay optional and absent.
  npm install --offline --no-audit --no-fund --save-dev \
    "$dist/npm/canon-md-canon-$version.tgz" "$dist/npm/canon-md-canon-linux-x64-$version.tgz"
  out=$(npx --offline canon --version)
  expect_version "$out"
  ls node_modules/@canon-md
)
echo
echo "release_test: all passed"
