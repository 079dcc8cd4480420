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
#      (npm i -D), npx canon runs the platform package's binary, and husky
#      runs it on commit (a broken link is refused);
#   6. go install module@version, from a file-based module proxy holding
#      the committed tree, builds a canon that prints that version.
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

step "the archive, as the README installs it"
(cd "$tmp" && tar -xzf "$dist/canon_${version}_linux_amd64.tar.gz" canon && expect_version "$(./canon --version)" && rm canon)

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

step "husky runs the npm-installed canon on commit"
# husky 9.1.7, the version scripts/hookmanagers.sh installs (so it is in
# npm's cache on CI); outside CI, without it in the cache, this skips.
if (cd "$js" && npm install --offline --silent --no-audit --no-fund --save-dev husky@9.1.7) 2>/dev/null; then
  (
    cd "$js"
    export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@canon.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@canon.invalid
    npm pkg set scripts.test=true
    npx --offline husky init
    mkdir -p docs
    printf -- '---\nid: NOTE-1\ntitle: A note\n---\n# A note\n\nbanana bread\n' >docs/note.md
    npx --offline canon init >/dev/null
    npx --offline canon hooks install --manager husky
    git add -A && git commit -q -m 'canon through husky'
    npx --offline canon status | tee "$tmp/status.out"
    grep -q 'up to date$' "$tmp/status.out" || fail "the index is not up to date after a commit through husky"
    printf -- '---\nid: NOTE-2\ntitle: Broken\n---\n# Broken\n\nSee [there](nowhere.md).\n' >docs/broken.md
    git add -A
    if git commit -q -m broken 2>"$tmp/commit.err"; then fail "husky let a broken link through: canon did not run"; fi
    grep 'broken-link' "$tmp/commit.err" || { cat "$tmp/commit.err"; fail "the commit was refused, but not by canon"; }
  )
elif [ "${CI:-}" = true ]; then
  fail "husky@9.1.7 is not in npm's cache (scripts/hookmanagers.sh installs it)"
else
  echo "skipped: husky@9.1.7 is not in npm's cache (scripts/hookmanagers.sh installs it)"
fi
step "go install from a module proxy (a file-based one holding this commit)"
# The proxy holds the committed tree (git archive) as a pseudo-version of
# this commit; the dependencies come from the module cache, as make build
# left them. canon --version then prints the module's version, as go
# install module@version builds say. A version names one content for good:
# the go command indexes what it unpacked by module and version
# (GOCACHE/modindex), so another commit under the same version would be
# built from the first one's file list.
mv_=v0.0.0-$(TZ=UTC git -C "$here" log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S)-$(git -C "$here" rev-parse --short=12 HEAD)
proxy=$tmp/proxy/github.com/canon-md/canon/@v
mkdir -p "$proxy" "$tmp/gobin"
git -C "$here" archive --format=zip --prefix="github.com/canon-md/canon@$mv_/" -o "$proxy/$mv_.zip" HEAD
git -C "$here" show HEAD:go.mod >"$proxy/$mv_.mod"
printf '{"Version":"%s","Time":"%s"}\n' "$mv_" "$(TZ=UTC git -C "$here" log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)" >"$proxy/$mv_.info"
echo "$mv_" >"$proxy/list"
modcache=$(go env GOMODCACHE)
forget() { # the module cache keeps what it unpacked: drop this test's version
  chmod -R u+w "$modcache/github.com/canon-md/canon@$mv_" 2>/dev/null || true
  rm -rf "$modcache/github.com/canon-md/canon@$mv_" "$modcache/cache/download/github.com/canon-md/canon"
}
forget
GOPROXY="file://$tmp/proxy,$(go env GOPROXY)" GONOSUMDB=github.com/canon-md/canon GOFLAGS=-modcacherw GOBIN="$tmp/gobin" \
  go install -tags sqlite_fts5,urfave_cli_no_docs "github.com/canon-md/canon/cmd/canon@$mv_" || { forget; fail "go install failed"; }
forget
out=$("$tmp/gobin/canon" --version)
echo "$out"
[ "$out" = "canon version ${mv_#v}" ] || fail "go install's canon says $out, want canon version ${mv_#v}"

echo
echo "release_test: all passed"
