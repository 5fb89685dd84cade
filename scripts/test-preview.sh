#!/usr/bin/env bash
# End-to-end test of promptc serve in a real browser: headless Chromium (Debian's chromium package), driven by
# playwright-core from npm (which uses that browser and downloads none), on a copy of the reference project in a git
# repository of three commits ending at the project as it is: a global constant changed, then turn text.
#
# With no server running (scripts/test-preview.js export):
#   - promptc serve --export writes the same page twice (byte for byte), and with --base;
#   - a plain `chromium --headless --screenshot` and `--dump-dom` of the exported page (no DevTools driver, no
#     server) show the artifact, the prefixes chart and the simulation, and the screenshot is what a driven browser
#     shows of the same file;
#   - the exported page, driven from disk, passes the checks of the live page below, fetches nothing and breaks no
#     CSP rule; markup in a constant shows as text; the export with --base draws the comparison.
# Against promptc serve (scripts/test-preview.js live):
#   - the index links every artifact; the artifact pane's text (and a selection of all of it) is the artifact's
#     bytes exactly, wrapped or in the exact layout; lines are coloured by scope, block starts outlined, Anthropic's
#     cache breakpoints marked;
#   - clicking a line (the first, the last, one in a block in the middle) shows that line's block, scope, source and
#     what wrote it, as /api/artifact and /api/explain give them, in view beside the line;
#   - opening an artifact shows the simulation of its task; each layout has its own dash and a legend that says what
#     it is, and layouts with the same figures are drawn apart;
#   - nothing is requested from any origin but the server's own; markup in a constant shows as text and runs
#     nothing; an edited constant shows up without reloading; a broken project shows its diagnostics and recovers;
#   - --base HEAD~2 (the global constant) and --base HEAD~1 (turn text only) show what promptc diff --format json
#     reports of the same revisions: the changed artifacts marked, the lines interleaved with the changed words
#     marked, both sides' breakpoints and scope boundaries, and per task the cached prefix before and after.
# The pictures of docs/preview.md and README.md are the ones these checks take: docs/preview.png (the live page),
# docs/preview-base.png (--base HEAD~2) and docs/preview-export.png (the plain screenshot of the exported page).
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
need git "the test builds the project's history with git"

tmp=$(mktemp -d)
servers=()
cleanup() {
	for pid in "${servers[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "installing playwright-core with npm (no browser download: it drives /usr/bin/chromium)"
npm install --silent --no-audit --no-fund --prefix "$tmp/node" playwright-core@1.65.1 >"$tmp/npm.log" 2>&1 ||
	unavailable "npm could not install playwright-core: $(tail -n 5 "$tmp/npm.log" | tr '\n' ' ')"

(cd "$src" && go build -o "$tmp/promptc" ./cmd/promptc)
promptc() { "$tmp/promptc" "$@"; }

# The history, ending at the reference project as it is (so the pictures show its bytes): a first commit where a
# global constant and a turn block read otherwise, a commit that changes the constant to today's wording, one that
# changes only the turn text.
p="$tmp/project"
cp -r "$src/examples/tracker" "$p"
rm -rf "$p/build"
g() { git -C "$p" -c user.name=Test -c user.email=test@example.com -c commit.gpgsign=false "$@"; }
g init -q
sed -i 's/^never_post_secrets = "Never put a secret into a comment/never_post_secrets = "Do not put a secret into a comment/' "$p/blocks/consts.toml"
sed -i 's/The quoted text comes from a person, not from Tracker,/The quoted text comes from a person and not from Tracker,/' "$p/blocks/40-turn.toml"
grep -q "Do not put a secret" "$p/blocks/consts.toml" && grep -q "a person and not from" "$p/blocks/40-turn.toml" ||
	{ echo "FAIL: could not write the first commit's wording"; exit 1; }
g add .
g commit -q -m "the reference project, as it was"
cp "$src/examples/tracker/blocks/consts.toml" "$p/blocks/consts.toml"
g commit -q -am "a global constant"
cp "$src/examples/tracker/blocks/40-turn.toml" "$p/blocks/40-turn.toml"
g commit -q -am "turn text"
diff -r -x .git -x build "$src/examples/tracker" "$p" >/dev/null || { echo "FAIL: the working tree is not the reference project"; exit 1; }
promptc -C "$p" diff HEAD~2 --format json >"$tmp/diff-global.json"
promptc -C "$p" diff HEAD~1 --format json >"$tmp/diff-turn.json"

# Exports, with no server running.
promptc -C "$p" serve --export "$tmp/export" 2>/dev/null
promptc -C "$p" serve --export "$tmp/export-again" 2>/dev/null
cmp "$tmp/export/index.html" "$tmp/export-again/index.html" || { echo "FAIL: two exports of the same project differ"; exit 1; }
echo "ok   promptc serve --export writes the same bytes twice ($(wc -c <"$tmp/export/index.html") bytes)"
promptc -C "$p" serve --export "$tmp/export-base" --base HEAD~2 2>/dev/null
cp -r "$p" "$tmp/hostile"
sed -i 's|^never_post_secrets = "|never_post_secrets = "</script><script>window.__pwned=1</script><img src=x onerror=\\"window.__pwned=2\\"> |' "$tmp/hostile/blocks/consts.toml"
promptc -C "$tmp/hostile" serve --export "$tmp/export-hostile" 2>/dev/null

# A plain headless Chromium: no DevTools driver, no server; it must render the page on its own.
plain() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--user-data-dir="$tmp/chromium-profile" --window-size=1440,1000 "$@" 2>/dev/null
}
plain --screenshot="$tmp/plain.png" "file://$tmp/export/index.html" >/dev/null
plain --screenshot="$tmp/plain-base.png" "file://$tmp/export-base/index.html" >/dev/null
plain --dump-dom "file://$tmp/export/index.html" >"$tmp/plain-dom.html"
[ -s "$tmp/plain.png" ] && [ -s "$tmp/plain-base.png" ] || { echo "FAIL: chromium --headless --screenshot wrote no picture"; exit 1; }

NODE_PATH="$tmp/node/node_modules" EXPORT="$tmp/export" EXPORT_BASE="$tmp/export-base" EXPORT_HOSTILE="$tmp/export-hostile" \
	PLAIN_SHOT="$tmp/plain.png" PLAIN_SHOT_BASE="$tmp/plain-base.png" PLAIN_DOM="$tmp/plain-dom.html" \
	DIFF_GLOBAL="$tmp/diff-global.json" node "$src/scripts/test-preview.js" export

# The live page: the working tree, and against each revision.
# serve NAME ARGS... starts promptc serve on a free port and sets $served to its URL.
serve() {
	local log="$tmp/serve-$1.log"
	shift
	: >"$log" # before the server starts: the loop below may read it before the child's redirection makes it
	# The binary itself, not the promptc function: $! must be the server, for cleanup to stop it.
	"$tmp/promptc" -C "$p" serve --addr 127.0.0.1:0 "$@" 2>"$log" &
	servers+=("$!")
	served=""
	for _ in $(seq 1 100); do
		served=$(sed -n 's|^promptc serve: \(http://[^ ]*\) .*|\1|p' "$log")
		[ -n "$served" ] && return
		sleep 0.1
	done
	cat "$log"
	echo "FAIL: promptc serve $* printed no URL"
	exit 1
}
serve live
url=$served
serve global --base HEAD~2
url_global=$served
serve turn --base HEAD~1
url_turn=$served
# The timeline: two requests of today (75% read from the cache) and the history above; of its last two commits only the
# global constant invalidated a prefix.
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for id in msg_1 msg_2; do
	printf '{"time": "%s", "task": "issue", "response": {"id": "%s", "type": "message", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 100, "cache_read_input_tokens": 300, "output_tokens": 5}}}\n' "$now" "$id"
done >"$tmp/usage.jsonl"
serve timeline --usage "$tmp/usage.jsonl" --log HEAD~2..HEAD
url_timeline=$served
echo "promptc serve at $url, --base HEAD~2 at $url_global, --base HEAD~1 at $url_turn"

NODE_PATH="$tmp/node/node_modules" PREVIEW_URL="$url" BASE_GLOBAL_URL="$url_global" BASE_TURN_URL="$url_turn" PROJECT="$p" TIMELINE_URL="$url_timeline" \
	GLOBAL_COMMIT="$(g rev-parse HEAD~1)" SHOT="$tmp/preview.png" SHOT_BASE="$tmp/preview-base.png" DIFF_GLOBAL="$tmp/diff-global.json" DIFF_TURN="$tmp/diff-turn.json" \
	node "$src/scripts/test-preview.js" live

cp "$tmp/preview.png" "$src/docs/preview.png"
cp "$tmp/preview-base.png" "$src/docs/preview-base.png"
cp "$tmp/plain.png" "$src/docs/preview-export.png"
echo "pictures written: docs/preview.png, docs/preview-base.png, docs/preview-export.png"
echo "ok   promptc serve in headless Chromium"
