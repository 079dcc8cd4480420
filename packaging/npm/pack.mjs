// Makes canon's npm packages from a release build (make release-snapshot,
// or GoReleaser in the release workflow): one package per platform with
// its binary, and @canon-md/canon, whose optional dependencies are those
// packages and whose bin runs the one npm installed (bin/canon.js).
// Usage: node packaging/npm/pack.mjs [DIST]  (default dist); writes the
// packages to DIST/npm/ and their tarballs (npm pack) beside them.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] ?? "dist");
const out = join(dist, "npm");
const meta = JSON.parse(readFileSync(join(dist, "metadata.json"), "utf8"));
const artifacts = JSON.parse(readFileSync(join(dist, "artifacts.json"), "utf8"));
const version = meta.version;
const npmArch = { amd64: "x64", arm64: "arm64" };
const common = {
  version,
  homepage: "https://github.com/canon-md/canon",
  repository: { type: "git", url: "git+https://github.com/canon-md/canon.git" },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const optional = {};
for (const a of artifacts) {
  if (a.type !== "Binary" || a.goos !== "linux" || !npmArch[a.goarch]) continue;
  const name = `@canon-md/canon-${a.goos}-${npmArch[a.goarch]}`;
  const dir = join(out, `canon-${a.goos}-${npmArch[a.goarch]}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(resolve(a.path), join(dir, "bin", "canon"));
  chmodSync(join(dir, "bin", "canon"), 0o755);
  writeJSON(join(dir, "package.json"), {
    name,
    ...common,
    description: `canon's binary for ${a.goos} ${npmArch[a.goarch]} (installed by @canon-md/canon)`,
    os: [a.goos],
    cpu: [npmArch[a.goarch]],
    files: ["bin/canon"],
    preferUnplugged: true,
  });
  optional[name] = version;
  pack(dir);
}
if (Object.keys(optional).length === 0) {
  throw new Error(`no linux binaries in ${join(dist, "artifacts.json")}`);
}

const main = join(out, "canon");
mkdirSync(join(main, "bin"), { recursive: true });
copyFileSync(join(here, "canon", "bin", "canon.js"), join(main, "bin", "canon.js"));
chmodSync(join(main, "bin", "canon.js"), 0o755);
copyFileSync(join(here, "..", "..", "README.md"), join(main, "README.md"));
writeJSON(join(main, "package.json"), {
  name: "@canon-md/canon",
  ...common,
  description: "Index Markdown backlogs, ADRs and notes in git into SQLite+FTS5; kept fresh by git hooks; CLI and MCP",
  bin: { canon: "bin/canon.js" },
  files: ["bin/canon.js", "README.md"],
  engines: { node: ">=18" },
  optionalDependencies: optional,
});
pack(main);

function writeJSON(path, value) {
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

function pack(dir) {
  const file = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim();
  console.log(join(out, file.split("\n").pop()));
}
