#!/usr/bin/env bash
# Checks scripts/need.sh, which every other script of `make integration` relies on to never pass having run nothing:
# a tool that cannot be had fails the script (exit 1, naming it) whenever CI is set (not empty, 0 or false), and
# outside CI skips it (exit 0) with a SKIP banner on standard error; a tool that is there is used as it is.
#
# Usage: scripts/test-need.sh   (needs nothing but bash)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# run CI CODE: runs CODE after sourcing need.sh with CI set to the value given ("unset" for none), with a PATH
# that holds bash and cat but no apt-get or sudo, so that nothing is installed; sets $status, $out and $err.
mkdir "$tmp/bin"
for cmd in bash cat basename id tail tr rm mktemp; do ln -s "$(command -v "$cmd")" "$tmp/bin/$cmd"; done
run() {
	local ci=$1 code=$2
	status=0
	if [ "$ci" = unset ]; then
		env -u CI PATH="$tmp/bin" bash -c ". '$src/scripts/need.sh'; $code; echo REACHED" >"$tmp/out" 2>"$tmp/err" || status=$?
	else
		env CI="$ci" PATH="$tmp/bin" bash -c ". '$src/scripts/need.sh'; $code; echo REACHED" >"$tmp/out" 2>"$tmp/err" || status=$?
	fi
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

for ci in true 1 yes TRUE; do
	run "$ci" 'need_apt promptc-no-such-tool promptc-no-such-package'
	if [ "$status" = 1 ] && [ -z "$out" ] && [[ $err == *"FAIL: "*"promptc-no-such-tool is not installed, and there is no apt-get to install promptc-no-such-package"*"CI=$ci"* ]]; then
		echo "ok   CI=$ci: a tool that cannot be installed fails the run, naming it"
	else
		fail "CI=$ci: need_apt of a missing tool exited $status, printed [$out], said [$err]"
	fi
done
for ci in unset "" 0 false FALSE; do
	run "$ci" 'need promptc-no-such-tool "it is made up"'
	if [ "$status" = 0 ] && [ -z "$out" ] && [[ $err == *"SKIP: "*"ran NOTHING: promptc-no-such-tool is not installed: it is made up"* ]]; then
		echo "ok   CI=${ci:-(empty)}: a missing tool skips the script, loudly on standard error"
	else
		fail "CI=$ci: need of a missing tool exited $status, printed [$out], said [$err]"
	fi
done
run true 'need bash "it is there"; need_apt cat coreutils'
if [ "$status" = 0 ] && [ "$out" = REACHED ] && [ -z "$err" ]; then
	echo "ok   a tool that is there is used as it is, even in CI"
else
	fail "need of a present tool exited $status, printed [$out], said [$err]"
fi
if [ "$failed" -ne 0 ]; then
	exit 1
fi
echo "ok   scripts/need.sh: no integration script passes without its tool in CI"
