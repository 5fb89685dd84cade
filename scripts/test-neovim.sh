#!/usr/bin/env bash
# Drives `promptc lsp` from a real editor: headless Neovim (Debian's neovim package, installed with apt-get when
# missing) attaches it to a copy of the reference project, examples/tracker, and scripts/nvim/lsp_test.lua checks a
# diagnostic for an unsaved typo (and its withdrawal), go to definition of a constant, the inlay hints, code lens and
# semantic tokens that show the cache (decoded with the legend the server announces) and a rename; this script
# then checks on disk that the rename edited the definition and every user and that the project still checks.
#
# Usage: scripts/test-neovim.sh   (installs neovim with apt-get when missing; when it cannot, fails under CI=true
# and skips loudly elsewhere: scripts/need.sh)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/need.sh"
need_apt nvim neovim
need go "the test builds promptc (https://go.dev/dl)"
echo "using $(nvim --version | head -n 1)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$src" && go build -o "$tmp/promptc" ./cmd/promptc)
cp -R "$src/examples/tracker" "$tmp/tracker"
rm -rf "$tmp/tracker/.git"

export PROJECT="$tmp/tracker" PROMPTC="$tmp/promptc" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data"
mkdir -p "$HOME"
status=0
timeout 180 nvim --headless --clean -c "luafile $src/scripts/nvim/lsp_test.lua" </dev/null >"$tmp/out.log" 2>"$tmp/err.log" || status=$?
cat "$tmp/out.log"
if [ "$status" -ne 0 ]; then
	cat "$tmp/err.log"
	echo "FAIL: neovim exited with status $status"
	exit 1
fi

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}
cd "$PROJECT"
new=$(grep -rl 'act_only_through_cli' promptc.toml blocks templates | sort | tr '\n' ' ')
[ "$new" = "blocks/00-core.toml blocks/10-commands.toml blocks/consts.toml templates/commands.md " ] ||
	fail "the rename edited [$new], want the definition and its three users"
if grep -rq 'command_boundary' blocks templates; then
	fail "the old name is left in: $(grep -rn 'command_boundary' blocks templates | head -n 3)"
fi
"$PROMPTC" check >"$tmp/check.log" 2>&1 || fail "promptc check after the rename: $(cat "$tmp/check.log")"
if [ "$failed" -ne 0 ]; then
	exit 1
fi
echo "ok   neovim: the rename edited the definition and every user; promptc check passes"
