# need.sh: sourced by the scripts of `make integration` (scripts/test-*.sh). Each of them drives a real tool
# (Neovim, Chromium, taplo, pre-commit, vsce) and installs it when it is missing: Debian packages with apt-get (after
# apt-get update), npm packages with npm.
#
# A tool that cannot be had is never a pass. In CI (the CI variable set, and not empty, 0 or false in any case, the
# rule `promptc check --update` follows: GitHub Actions, GitLab CI and .ci/run's caller set CI=true) the script fails,
# exit 1, saying what could not be installed: a test that ran nothing must not turn the run green. Elsewhere (a
# laptop without apt-get, a machine offline) it is skipped with a banner on standard error, exit 0, so that
# `make integration` goes on with the other scripts.

# in_ci: whether the CI variable says this is a CI run.
in_ci() {
	case "${CI:-}" in
	"" | 0 | [Ff][Aa][Ll][Ss][Ee]) return 1 ;;
	esac
	return 0
}

# unavailable MESSAGE: the test cannot run because MESSAGE (what is missing and what failed to install it).
unavailable() {
	local script
	script=$(basename "$0")
	if in_ci; then
		echo "FAIL: $script: $* (CI=$CI: a tool this test needs could not be installed, and a test that runs nothing must not pass)" >&2
		exit 1
	fi
	{
		echo "################################################################################"
		echo "SKIP: $script ran NOTHING: $*"
		echo "      This is a skip, not a pass; with CI=true it fails the run."
		echo "################################################################################"
	} >&2
	exit 0
}

# as_root COMMAND...: runs COMMAND as root (directly, or through sudo -n when there is one).
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		echo "not root, and no sudo to run: $*" >&2
		return 1
	fi
}

# need_apt COMMAND PACKAGE: makes sure COMMAND is on PATH, installing Debian's PACKAGE with apt-get (after
# apt-get update) when it is not; calls unavailable, with apt-get's last lines, when that fails.
need_apt() {
	local cmd=$1 pkg=$2 log
	command -v "$cmd" >/dev/null 2>&1 && return 0
	command -v apt-get >/dev/null 2>&1 || unavailable "$cmd is not installed, and there is no apt-get to install $pkg"
	echo "installing $pkg with apt-get (for $cmd)"
	log=$(mktemp)
	if ! { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } >"$log" 2>&1; then
		local tail
		tail=$(tail -n 5 "$log" | tr '\n' ' ')
		rm -f "$log"
		unavailable "$cmd is not installed, and apt-get could not install $pkg: $tail"
	fi
	rm -f "$log"
	command -v "$cmd" >/dev/null 2>&1 || unavailable "apt-get installed $pkg, but there is no $cmd on PATH"
}

# need CMD WHY: makes sure CMD is on PATH, for a tool no package here installs (Go: the version go.mod names is
# newer than Debian's golang-go); calls unavailable, with WHY, when it is not.
need() {
	command -v "$1" >/dev/null 2>&1 || unavailable "$1 is not installed: $2"
}

# need_debs PACKAGE...: makes sure Debian's packages are installed (libraries and headers, which put no command on
# PATH), installing the missing ones with apt-get (after apt-get update); calls unavailable, with apt-get's last
# lines, when that fails.
need_debs() {
	local missing=() pkg log
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	command -v apt-get >/dev/null 2>&1 || unavailable "${missing[*]} not installed, and there is no apt-get to install them"
	echo "installing ${missing[*]} with apt-get"
	log=$(mktemp)
	if ! { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
		local tail
		tail=$(tail -n 5 "$log" | tr '\n' ' ')
		rm -f "$log"
		unavailable "apt-get could not install ${missing[*]}: $tail"
	fi
	rm -f "$log"
}
