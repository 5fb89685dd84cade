#!/usr/bin/env bash
# fuzz.sh: run every fuzz target of every package, one after the other, each for FUZZTIME; keep going after a
# failure; print a summary table (package, target, result, time, note) and exit 1 when any target failed.
#
# Targets are discovered with `go test -list '^Fuzz'` over FUZZPKGS, so a new Fuzz function is fuzzed without
# editing this script or the Makefile. A failing input that the fuzzer writes lands in the package's
# testdata/fuzz/<target>/ (the note names it): commit it, so that `go test` replays it from then on.
#
# Minimisation of a failing input gets FUZZMINIMIZETIME, not the fuzzer's default of 60s, so that a failure
# cannot eat the budget of the targets after it.
#
# Go 1.26's fuzz coordinator can fail a target at the end of a -fuzztime window with a bare "context deadline
# exceeded" and no failing input: a race between the timeout and its worker context in internal/fuzz (reported as
# golang/go#75804), not a finding. Such a run is retried FUZZRETRY times before it counts as a failure, and the note
# says so; any other failure is never retried.
#
# Environment:
#   GO                go command, with arguments if need be (default go)
#   FUZZTIME          budget per target, passed to -fuzztime: a duration (30s) or a count of runs (100000x)
#                     (default 30s)
#   FUZZMINIMIZETIME  budget to minimise a failing input, passed to -fuzzminimizetime (default 10s)
#   FUZZPKGS          packages to search for targets (default ./...)
#   FUZZTARGETS       regular expression (grep -E) a target name must match to run (default: every target)
#   FUZZRETRY         reruns of a target whose only failure is the deadline race above (default 1)
#   FUZZLOGDIR        where each run's output is kept (default: a temporary directory, removed when all pass)
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
read -ra gocmd <<<"${GO:-go}" # a command with arguments, as make's $(GO) may be
fuzztime=${FUZZTIME:-30s}
minimizetime=${FUZZMINIMIZETIME:-10s}
pkgs=${FUZZPKGS:-./...}
match=${FUZZTARGETS:-.}
retries=${FUZZRETRY:-1}

keeplogs=1
logdir=${FUZZLOGDIR:-}
if [ -z "$logdir" ]; then
	logdir=$(mktemp -d "${TMPDIR:-/tmp}/promptc-fuzz.XXXXXX")
	keeplogs=0
fi
mkdir -p "$logdir"

module=$("${gocmd[@]}" list -m) || exit 2

# now prints the wall clock in milliseconds.
now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		local t=${EPOCHREALTIME/[.,]/}
		echo $((10#$t / 1000))
	else
		echo $(($(date +%s) * 1000))
	fi
}

# short turns an import path into the ./dir form the Makefile uses.
short() {
	case $1 in
	"$module") echo . ;;
	"$module"/*) echo "./${1#"$module"/}" ;;
	*) echo "$1" ;;
	esac
}

# Discovery: `go test -list` prints each package's matching names, then its "ok" (or "FAIL") line.
targets=() # "pkg target" pairs
rows=()    # summary rows: pkg, target, result, time, note, tab-separated
failed=0
listlog=$logdir/list.log
echo "fuzz: listing the fuzz targets of $pkgs"
read -ra pkglist <<<"$pkgs"
"${gocmd[@]}" test -list '^Fuzz' "${pkglist[@]}" >"$listlog" 2>&1
liststatus=$?
names=()
while IFS= read -r line; do
	case $line in
	Fuzz*) names+=("$line") ;;
	ok\ * | FAIL\ * | FAIL$'\t'*)
		read -r status pkg _ <<<"$line"
		if [ "$status" = FAIL ]; then
			rows+=("$(short "$pkg")"$'\t'"(list)"$'\t'FAIL$'\t'-$'\t'"go test -list failed: see $listlog")
			failed=1
		fi
		for n in ${names[@]+"${names[@]}"}; do
			if grep -Eq -- "$match" <<<"$n"; then
				targets+=("$pkg $n")
			fi
		done
		names=()
		;;
	esac
done <"$listlog"
if [ "$liststatus" -ne 0 ] && [ "$failed" -eq 0 ]; then
	cat "$listlog" >&2
	echo "fuzz: go test -list $pkgs failed" >&2
	exit 2
fi
if [ ${#targets[@]} -eq 0 ] && [ "$failed" -eq 0 ]; then
	echo "fuzz: no fuzz target in $pkgs matches $match" >&2
	exit 2
fi

interrupted=0
trap 'interrupted=1' INT TERM

# classify LOG DIR STATUS prints the note for a failed run of package DIR and returns 0 when the failure is the bare
# deadline race.
classify() {
	local input
	input=$(grep -o 'Failing input written to [^ ]*' "$1" | head -n 1)
	if [ -n "$input" ]; then
		echo "failing input: $2/${input#Failing input written to }"
		return 1
	fi
	if grep -q 'context deadline exceeded' "$1" && ! grep -Eq '^panic:|^[[:space:]]+[^ ]+_test\.go:[0-9]+:|^# ' "$1"; then
		echo "context deadline exceeded, no failing input (go fuzz coordinator race)"
		return 0
	fi
	# A compile or vet error comes under a "# package" line.
	if grep -q '^# ' "$1"; then
		echo "build failed: $(grep -v '^# ' "$1" | head -n 1)"
		return 1
	fi
	# The first of: an error the target reported (file_test.go:N: ...), a panic, the FAIL line.
	local first
	first=$(grep -m 1 -E '^[[:space:]]+[^ ]+_test\.go:[0-9]+:' "$1" ||
		grep -m 1 '^panic:' "$1" ||
		grep -m 1 -e '--- FAIL' "$1")
	first=${first#"${first%%[![:space:]]*}"}
	echo "${first:-exit status $3, no failure line}"
	return 1
}

total=${#targets[@]}
k=0
for entry in ${targets[@]+"${targets[@]}"}; do
	pkg=${entry%% *}
	t=${entry#* }
	k=$((k + 1))
	dir=$(short "$pkg")
	if [ "$interrupted" -eq 1 ]; then
		rows+=("$dir"$'\t'"$t"$'\t'skipped$'\t'-$'\t'interrupted)
		continue
	fi
	name=${dir#./}
	[ "$name" = . ] && name=root
	log=$logdir/${name//\//_}.$t.log
	note=""
	attempt=0
	start=$(now)
	while :; do
		echo "=== fuzz $k/$total: $dir $t (fuzztime $fuzztime)"
		"${gocmd[@]}" test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" 2>&1 | tee "$log"
		status=${PIPESTATUS[0]}
		if [ "$status" -eq 0 ]; then
			result=ok
			[ "$interrupted" -eq 1 ] && note="interrupted: fuzzed for less than $fuzztime"
			break
		fi
		result=FAIL
		if [ "$interrupted" -eq 1 ]; then
			note=interrupted
			break
		fi
		note=$(classify "$log" "$dir" "$status")
		flake=$?
		if [ "$flake" -eq 0 ] && [ "$attempt" -lt "$retries" ]; then
			attempt=$((attempt + 1))
			cp "$log" "$log.try$attempt"
			echo "fuzz: $dir $t: $note; retrying ($attempt of $retries)"
			continue
		fi
		break
	done
	ms=$(($(now) - start))
	if [ "$result" = ok ] && [ "$attempt" -gt 0 ]; then
		note="passed on retry $attempt after a deadline race (log: $log.try1)"
		keeplogs=1
	fi
	if [ "$result" = FAIL ]; then
		failed=1
		note="$note (log: $log)"
	fi
	rows+=("$dir"$'\t'"$t"$'\t'"$result"$'\t'"$((ms / 1000)).$(((ms % 1000) / 100))s"$'\t'"$note")
done

echo
echo "fuzz summary (fuzztime $fuzztime, fuzzminimizetime $minimizetime):"
{
	printf 'PACKAGE\tTARGET\tRESULT\tTIME\tNOTE\n'
	printf '%s\n' ${rows[@]+"${rows[@]}"}
} | awk -F '\t' '
	{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (i < NF && length($i) > w[i]) w[i] = length($i) } n[NR] = NF }
	END {
		for (r = 1; r <= NR; r++) {
			line = ""
			for (i = 1; i <= n[r]; i++) line = line (i < n[r] ? sprintf("%-" w[i] "s  ", cell[r, i]) : cell[r, i])
			sub(/ +$/, "", line)
			print line
		}
	}'
nok=0
nfail=0
nskip=0
nlist=0
for r in ${rows[@]+"${rows[@]}"}; do
	IFS=$'\t' read -r _ t result _ <<<"$r"
	case $t/$result in
	"(list)"/*) nlist=$((nlist + 1)) ;;
	*/ok) nok=$((nok + 1)) ;;
	*/FAIL) nfail=$((nfail + 1)) ;;
	*) nskip=$((nskip + 1)) ;;
	esac
done
summary="$((nok + nfail + nskip)) targets: $nok ok, $nfail failed"
[ "$nskip" -gt 0 ] && summary="$summary, $nskip skipped"
[ "$nlist" -gt 0 ] && summary="$summary; go test -list failed in $nlist package(s)"
echo "$summary"

if [ "$failed" -eq 0 ] && [ "$keeplogs" -eq 0 ]; then
	rm -rf "$logdir"
fi
if [ "$interrupted" -eq 1 ]; then
	exit 130
fi
exit "$failed"
