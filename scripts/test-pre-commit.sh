#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml with the real pre-commit framework (https://pre-commit.com).
#
# It snapshots this working tree (tracked and untracked, non-ignored files) into a throwaway git repository, which a
# second throwaway repository holding a copy of examples/tracker uses as its hook repository at that commit, as a
# user's .pre-commit-config.yaml would. pre-commit then builds promptc from the snapshot with `go install ./...`
# (language: golang), so the first run takes a while: it needs Go and the Go module proxy.
#
# Checks: `pre-commit run --all-files` passes on the clean project; after one byte of a block changes it fails and
# prints promptc check's report; with `pre-commit install`, `git commit` of that change is refused, and a commit that
# leaves the artifacts alone goes through.
#
# Usage: scripts/test-pre-commit.sh   (installs pre-commit with apt-get when missing and run as root; else skips)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)

skip() {
	echo "SKIP: $*"
	exit 0
}

if ! command -v pre-commit >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "installing pre-commit with apt-get"
		# A package mirror that cannot be reached is the machine's problem, not the hook's: skip, loudly.
		if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null; }; then
			skip "apt-get could not install pre-commit"
		fi
	else
		skip "pre-commit is not installed (apt-get install pre-commit, or pipx install pre-commit)"
	fi
fi
command -v git >/dev/null 2>&1 || skip "git not found"
command -v go >/dev/null 2>&1 || skip "go not found: pre-commit's golang language builds promptc with it"
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || skip "$src is not a git work tree"
echo "using $(pre-commit --version), $(go version)"

work=$(mktemp -d "${TMPDIR:-/tmp}/promptc-pre-commit.XXXXXX")
cleanup() {
	chmod -R u+w "$work" 2>/dev/null || true # Go leaves its module cache read-only
	rm -rf "$work"
}
trap cleanup EXIT

# Git and pre-commit see nothing of the machine's or the caller's setup: no global config, no repository inherited
# through GIT_DIR (as when this runs from inside a hook), a pre-commit cache of its own.
while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^GIT_' || true)
cat >"$work/gitconfig" <<'EOF'
[user]
	name = promptc test
	email = test@example.com
[init]
	defaultBranch = main
[commit]
	gpgsign = false
[advice]
	detachedHead = false
EOF
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
export PRE_COMMIT_HOME="$work/cache"

fail() {
	echo "FAIL: $*"
	exit 1
}

# run NAME COMMAND...: runs a command in the project, keeping its output in $work/NAME.out and its status in $status.
run() {
	local name=$1
	shift
	status=0
	(cd "$work/project" && "$@") >"$work/$name.out" 2>&1 || status=$?
	echo "--- $* (exit $status)"
	sed 's/^/    /' "$work/$name.out"
}

# The hook repository: this working tree as it is now, committed. pre-commit needs a commit to check out.
mkdir "$work/promptc"
while IFS= read -r -d '' f; do
	# A tracked file deleted from the working tree is not part of its state.
	if [ -e "$src/$f" ] || [ -L "$src/$f" ]; then printf '%s\0' "$f"; fi
done < <(git -C "$src" ls-files -z --cached --others --exclude-standard) >"$work/files"
tar -C "$src" --null -T "$work/files" -cf - | tar -C "$work/promptc" -xf -
git -C "$work/promptc" init -q
git -C "$work/promptc" add -A
git -C "$work/promptc" commit -q -m "snapshot of $src"
rev=$(git -C "$work/promptc" rev-parse HEAD)
echo "hook repository: $work/promptc at $rev ($(tr -cd '\0' <"$work/files" | wc -c | tr -d ' ') files)"

# The user's repository: a prompt project in a subdirectory, named by the hooks' args.
mkdir "$work/project"
cp -R "$src/examples/tracker" "$work/project/tracker"
cat >"$work/project/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $work/promptc
    rev: $rev
    hooks:
      - id: promptc-check
        args: [tracker]
      - id: promptc-lint
        args: [tracker]
EOF
git -C "$work/project" init -q
git -C "$work/project" add -A
git -C "$work/project" commit -q -m "prompts"

echo "== 1. clean project: pre-commit run --all-files passes (the first run builds promptc)"
run clean pre-commit run --all-files
[ "$status" = 0 ] || fail "pre-commit run on the clean project exited $status"
grep -q '^promptc check\.*Passed$' "$work/clean.out" || fail "promptc-check did not pass"
grep -q '^promptc lint\.*Passed$' "$work/clean.out" || fail "promptc-lint did not pass"

echo "== 2. one byte of a block changed: pre-commit run --all-files fails with the check report"
block="$work/project/tracker/blocks/00-core.toml"
cp "$block" "$work/block.orig"
text=$(cat "$block" && echo .) # the dot keeps trailing newlines from $(...)
text=${text%.}
printf '%s' "${text/Tracker Agent Runtime/tracker Agent Runtime}" >"$block"
[ "$(cmp -l "$block" "$work/block.orig" | wc -l | tr -d ' ')" = 1 ] || fail "the edit did not change exactly one byte"
run drift pre-commit run --all-files
[ "$status" = 1 ] || fail "pre-commit run on the drifted project exited $status, want 1"
grep -q '^promptc check\.*Failed$' "$work/drift.out" || fail "promptc-check did not fail"
grep -Eq 'differs? from golden/' "$work/drift.out" || fail "no check report in the output"
grep -q 'blocks/00-core.toml' "$work/drift.out" || fail "the report does not name the changed block's source"

echo "== 3. pre-commit install: git commit of the drifted block is refused"
run install pre-commit install
[ "$status" = 0 ] || fail "pre-commit install exited $status"
head=$(git -C "$work/project" rev-parse HEAD)
run commit-drift git commit -q -a -m "drift"
[ "$status" != 0 ] || fail "git commit of a drifted block was made"
[ "$(git -C "$work/project" rev-parse HEAD)" = "$head" ] || fail "HEAD moved although the commit was refused"
grep -Eq 'differs? from golden/' "$work/commit-drift.out" || fail "no check report in the refused commit's output"

echo "== 4. a change that leaves every artifact alone commits"
cp "$work/block.orig" "$block"
printf '\n# A comment changes no artifact.\n' >>"$block"
run commit-ok git commit -q -a -m "comment"
[ "$status" = 0 ] || fail "git commit of an artifact-neutral change was refused"
[ "$(git -C "$work/project" rev-parse HEAD)" != "$head" ] || fail "HEAD did not move"

echo "ok: pre-commit hooks promptc-check and promptc-lint work end to end"
