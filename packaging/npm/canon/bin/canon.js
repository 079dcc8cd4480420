#!/usr/bin/env node
// canon's npm entry point. The binary comes in a package of its own for
// each platform, which npm installs as an optional dependency when its
// os and cpu match (the layout esbuild and lefthook use): nothing is
// downloaded at install time. This script finds that package and runs
// its binary with the same arguments, standard streams and exit code.
"use strict";
const { spawnSync } = require("node:child_process");

const platforms = {
  "linux x64": "@canon-md/canon-linux-x64",
  "linux arm64": "@canon-md/canon-linux-arm64",
};

const key = `${process.platform} ${process.arch}`;
const pkg = platforms[key];
if (!pkg) {
  console.error(`canon: no npm package has a binary for ${key}; build canon from source (see its README)`);
  process.exit(1);
}
let bin;
try {
  bin = require.resolve(`${pkg}/bin/canon`);
} catch {
  console.error(`canon: ${pkg} is not installed; npm installs it as an optional dependency of @canon-md/canon, unless optional dependencies are omitted (--omit=optional)`);
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error(`canon: ${r.error.message}`);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status ?? 1);
