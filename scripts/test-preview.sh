#!/usr/bin/env bash
# End-to-end test of promptc serve in a real browser: headless Chromium (Debian's chromium package), driven by
# playwright-core from npm (which uses that browser and downloads none), opens the preview of a copy of the reference
# project and checks what a person would see:
#   - the index links every artifact; the artifact pane's text is the artifact's bytes exactly, its lines are
#     coloured by scope and every block's start is outlined; Anthropic's cache breakpoints are marked;
#   - clicking a line (the first, one in a block in the middle, the last) shows that line's block, scope, source
#     and what wrote it, as /api/artifact and /api/explain give them for that line;
#   - the shared-prefix chart has a bar per task and the simulation chart a line per layout;
#   - nothing is requested from any origin but the server's own;
#   - markup in a constant (<script>, <img onerror>) shows as text and runs nothing;
#   - an edited constant shows up without reloading the page; a project that stops compiling shows its
#     diagnostics instead of stale bytes, and comes back when fixed;
#   - a screenshot that is not blank (written to $PREVIEW_SCREENSHOT when set, e.g. docs/preview.png).
#
# Usage: scripts/test-preview.sh   (installs chromium, node and npm with apt-get and playwright-core with npm when
# missing; when one cannot be had, fails under CI=true and skips loudly elsewhere: scripts/need.sh)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/need.sh"
need_apt chromium chromium
need_apt node nodejs
need_apt npm npm
need go "the test builds promptc (https://go.dev/dl)"

tmp=$(mktemp -d)
server=""
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "installing playwright-core with npm (no browser download: it drives /usr/bin/chromium)"
npm install --silent --no-audit --no-fund --prefix "$tmp/node" playwright-core@1.65.1 >"$tmp/npm.log" 2>&1 ||
	unavailable "npm could not install playwright-core: $(tail -n 5 "$tmp/npm.log" | tr '\n' ' ')"

(cd "$src" && go build -o "$tmp/promptc" ./cmd/promptc)
cp -r "$src/examples/tracker" "$tmp/project"
rm -rf "$tmp/project/build"

"$tmp/promptc" -C "$tmp/project" serve --addr 127.0.0.1:0 2>"$tmp/serve.log" &
server=$!
url=""
for _ in $(seq 1 100); do
	url=$(sed -n 's|^promptc serve: \(http://[^ ]*\) .*|\1|p' "$tmp/serve.log")
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "FAIL: promptc serve printed no URL"; exit 1; }
echo "promptc serve at $url"

NODE_PATH="$tmp/node/node_modules" PREVIEW_URL="$url" PROJECT="$tmp/project" SHOT="$tmp/preview.png" \
	node "$src/scripts/test-preview.js"

if [ -n "${PREVIEW_SCREENSHOT:-}" ]; then
	cp "$tmp/preview.png" "$PREVIEW_SCREENSHOT"
	echo "screenshot written to $PREVIEW_SCREENSHOT"
fi
echo "ok   promptc serve in headless Chromium"
