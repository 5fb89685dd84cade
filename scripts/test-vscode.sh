#!/usr/bin/env bash
# The VS Code extension of editors/vscode, built and packaged with the real toolchain from npm (TypeScript,
# vscode-languageclient, @vscode/vsce), then checked twice:
#
# 1. Under Node (scripts/vscode/extension_test.js): the .vsix holds the files its manifest names; loaded with a
#    stand-in for the `vscode` module, activating it registers its command, starts `promptc lsp` through the
#    promptc.path setting, and the packaged language client completes its handshake with the server, answers a
#    definition, and stops it with status 0.
# 2. In a real VS Code (scripts/vscode/code_server_test.js): code-server 4.100.3 from npm (VS Code 1.100 served to
#    a browser) with the .vsix installed, driven by headless Chromium through playwright-core: VS Code activates the
#    extension on the project by itself, the Problems panel shows promptc's diagnostic for a misspelt constant, and
#    its quick fix repairs the file.
#
# code-server is pinned at 4.100.3, the last release for Node 20 (the nodejs package here; later ones want Node 22
# or 24). Its install builds native modules (kerberos, node-pty, spdlog: build-essential, pkg-config, libkrb5-dev,
# libx11-dev, libxkbfile-dev, libsecret-1-dev and Node's headers in /usr/include/node), and fetches a ripgrep
# binary from GitHub, which this machine cannot reach: the script hands it Debian's ripgrep instead, in the cache
# @vscode/ripgrep reads first. That takes some minutes, once: code-server is kept in
# ${XDG_CACHE_HOME:-~/.cache}/promptc-code-server (PROMPTC_CODE_SERVER_DIR overrides it).
#
# Usage: scripts/test-vscode.sh   (installs what it needs with apt-get and npm; when something cannot be had, fails
# under CI=true and skips loudly elsewhere: scripts/need.sh). VSCODE_SCREENSHOT=FILE keeps code-server's last view.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/need.sh"
need_apt node nodejs
need_apt npm npm
need go "the test builds promptc (https://go.dev/dl)"

tmp=$(mktemp -d)
server=""
cleanup() {
	if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
# Build in a copy, so that node_modules/ and out/ never land in the repository's tree.
cp -R "$src/editors/vscode" "$tmp/ext"
rm -rf "$tmp/ext/node_modules" "$tmp/ext/out"
cd "$tmp/ext"
echo "npm ci (editors/vscode/package-lock.json)"
npm ci --no-audit --no-fund --loglevel=error >"$tmp/npm.log" 2>&1 || { cat "$tmp/npm.log"; unavailable "npm ci failed (is the registry reachable?)"; }
npm run --silent compile
npx --no-install vsce package --skip-license -o "$tmp/promptc.vsix" >"$tmp/vsce.log" 2>&1 || { cat "$tmp/vsce.log"; echo "FAIL: vsce package"; exit 1; }
echo "packaged $(du -h "$tmp/promptc.vsix" | cut -f1) promptc.vsix"
(cd "$src" && go build -o "$tmp/promptc" ./cmd/promptc)

# 1. Under Node.
cp -R "$src/examples/tracker" "$tmp/tracker"
rm -rf "$tmp/tracker/.git"
mkdir "$tmp/unpacked"
VSIX="$tmp/promptc.vsix" PROMPTC="$tmp/promptc" PROJECT="$tmp/tracker" TMP="$tmp/unpacked" \
	timeout 120 node "$src/scripts/vscode/extension_test.js" || { echo "FAIL: scripts/vscode/extension_test.js"; exit 1; }
echo "ok   editors/vscode: under Node the packaged extension starts promptc lsp and its client completes the handshake"

# 2. In code-server.
need_apt chromium chromium
need_apt rg ripgrep
need_apt python3 python3
need_debs build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || unavailable "code-server 4.100.3 needs Node 20, and this is Node $(node --version)"
node_dir=$(dirname "$(dirname "$(command -v node)")")
[ -f "$node_dir/include/node/node.h" ] ||
	unavailable "no Node headers in $node_dir/include/node, which code-server's native modules are built against"
cs_dir=${PROMPTC_CODE_SERVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/promptc-code-server}
code_server="$cs_dir/node_modules/.bin/code-server"
if ! "$code_server" --version >/dev/null 2>&1; then
	echo "installing code-server 4.100.3 with npm into $cs_dir (it builds native modules: some minutes, once)"
	rm -rf "$cs_dir"
	mkdir -p "$cs_dir"
	# @vscode/ripgrep's install looks in $TMPDIR/vscode-ripgrep-cache-VERSION before it downloads.
	mkdir -p "$tmp/rg/vscode-ripgrep-cache-1.15.11"
	tar -C "$(dirname "$(command -v rg)")" -czf "$tmp/rg/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" rg
	# npm_config_yes: node-pty's install runs npx; unsafe_perm: code-server's refuses to run as root without it;
	# nodedir: node-gyp builds against the installed headers instead of downloading them.
	if ! TMPDIR="$tmp/rg" npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir="$node_dir" \
		npm install --no-audit --no-fund --prefix "$cs_dir" code-server@4.100.3 >"$tmp/cs-npm.log" 2>&1; then
		grep -v '^npm error npm error  *[0-9]' "$tmp/cs-npm.log" | grep -iE 'error|fail' | head -n 20 || true
		rm -rf "$cs_dir"
		unavailable "npm could not install code-server 4.100.3 (the errors of its log above)"
	fi
fi
echo "using code-server $("$code_server" --version | head -n 1)"
echo "installing playwright-core with npm (no browser download: it drives /usr/bin/chromium)"
npm install --silent --no-audit --no-fund --prefix "$tmp/node" playwright-core@1.65.1 >"$tmp/pw.log" 2>&1 ||
	unavailable "npm could not install playwright-core: $(tail -n 5 "$tmp/pw.log" | tr '\n' ' ')"

# Everything code-server keeps goes under $tmp: its configuration, user data (settings) and extensions.
export XDG_CONFIG_HOME="$tmp/cs-config" XDG_DATA_HOME="$tmp/cs-xdg-data"
cs_args=(--extensions-dir "$tmp/cs-ext" --user-data-dir "$tmp/cs-data")
"$code_server" "${cs_args[@]}" --install-extension "$tmp/promptc.vsix" >"$tmp/cs-install.log" 2>&1 ||
	{ cat "$tmp/cs-install.log"; echo "FAIL: code-server --install-extension promptc.vsix"; exit 1; }
# promptc.path names a wrapper that logs how the extension runs it.
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\nexec "%s" "$@"\n' "$tmp/invocations.log" "$tmp/promptc" >"$tmp/promptc-logged"
chmod +x "$tmp/promptc-logged"
mkdir -p "$tmp/cs-data/User"
printf '{\n  "promptc.path": "%s",\n  "security.workspace.trust.enabled": false,\n  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",\n  "extensions.autoCheckUpdates": false,\n  "extensions.autoUpdate": false,
  "update.mode": "none"\n}\n' "$tmp/promptc-logged" >"$tmp/cs-data/User/settings.json"
# The project, with one misspelt constant for the diagnostic and its quick fix.
cp -R "$src/examples/tracker" "$tmp/vsproj"
rm -rf "$tmp/vsproj/.git"
sed -i 's/{{const "command_boundary"}}/{{const "command_boundry"}}/' "$tmp/vsproj/blocks/00-core.toml"
grep -q 'command_boundry' "$tmp/vsproj/blocks/00-core.toml" || { echo "FAIL: no constant to misspell in blocks/00-core.toml"; exit 1; }

"$code_server" "${cs_args[@]}" --auth none --bind-addr 127.0.0.1:0 --disable-telemetry --disable-update-check \
	--disable-workspace-trust "$tmp/vsproj" >"$tmp/cs.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 300); do
	url=$(sed -n 's|.*HTTP server listening on \(http://127\.0\.0\.1:[0-9]*/\).*|\1|p' "$tmp/cs.log")
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/cs.log"; echo "FAIL: code-server printed no address"; exit 1; }
echo "code-server at $url"
status=0
NODE_PATH="$tmp/node/node_modules" URL="${url}?folder=$tmp/vsproj" PROJECT="$tmp/vsproj" INVOCATIONS="$tmp/invocations.log" \
	SHOT="${VSCODE_SCREENSHOT:-$tmp/vscode.png}" timeout 300 node "$src/scripts/vscode/code_server_test.js" || status=$?
if [ "$status" -ne 0 ]; then
	tail -n 20 "$tmp/cs.log"
	echo "FAIL: scripts/vscode/code_server_test.js (VSCODE_SCREENSHOT=FILE keeps a screenshot)"
	exit 1
fi
echo "ok   editors/vscode: in code-server's VS Code the extension activates, shows promptc's diagnostics and applies its quick fix"
