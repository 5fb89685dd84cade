#!/usr/bin/env bash
# Builds and packages the VS Code extension of editors/vscode with the real toolchain from npm (TypeScript,
# vscode-languageclient, @vscode/vsce), then checks the package: it holds the compiled extension, its manifest
# starts `promptc lsp` through the promptc.path setting, and it activates in a workspace with a promptc.toml.
#
# Usage: scripts/test-vscode.sh   (skips, loudly, without npm or when the npm registry cannot be reached)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/need.sh"
need_apt node nodejs
need_apt npm npm

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Build in a copy, so that node_modules/ and out/ never land in the repository's tree.
cp -R "$src/editors/vscode" "$tmp/ext"
rm -rf "$tmp/ext/node_modules" "$tmp/ext/out"
cd "$tmp/ext"
echo "npm ci (editors/vscode/package-lock.json)"
npm ci --no-audit --no-fund --loglevel=error >"$tmp/npm.log" 2>&1 || { cat "$tmp/npm.log"; unavailable "npm ci failed (is the registry reachable?)"; }
npm run --silent compile
npx --no-install vsce package --skip-license -o "$tmp/promptc.vsix" >"$tmp/vsce.log" 2>&1 || { cat "$tmp/vsce.log"; echo "FAIL: vsce package"; exit 1; }
echo "packaged $(du -h "$tmp/promptc.vsix" | cut -f1) promptc.vsix"

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}
# A .vsix is a zip: read it with node rather than depend on unzip.
node - "$tmp/promptc.vsix" <<'JS' || failed=1
const fs = require("fs");
const buf = fs.readFileSync(process.argv[2]);
// The central directory lists every entry: signature 0x02014b50, name length at +28, name at +46.
const names = [];
for (let i = 0; i + 46 < buf.length; i++) {
  if (buf.readUInt32LE(i) === 0x02014b50) {
    const n = buf.readUInt16LE(i + 28), m = buf.readUInt16LE(i + 30), k = buf.readUInt16LE(i + 32);
    names.push(buf.toString("utf8", i + 46, i + 46 + n));
    i += 45 + n + m + k;
  }
}
let ok = true;
for (const want of ["extension/out/extension.js", "extension/package.json", "extension/node_modules/vscode-languageclient/package.json"]) {
  if (!names.includes(want)) { console.log("FAIL: the package lacks " + want); ok = false; }
}
if (names.some((n) => n.startsWith("extension/src/"))) { console.log("FAIL: the package holds the TypeScript sources"); ok = false; }
process.exit(ok ? 0 : 1);
JS
grep -q '"lsp"' out/extension.js || fail "the compiled extension does not start promptc lsp"
grep -q 'workspaceContains:\*\*/promptc.toml' package.json || fail "the extension does not activate on promptc.toml"
if [ "$failed" -ne 0 ]; then
	exit 1
fi
echo "ok   editors/vscode builds and packages with @vscode/vsce"
