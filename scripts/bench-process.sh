#!/usr/bin/env bash
# bench-process.sh: time `promptc build` as a whole process (start-up, load, compile, render, atomic writes) on
# generated projects of growing size, to check the issue's budget: 2,000 blocks x 20 tasks within 300 ms on a
# 2-core machine, with cost growing linearly in the number of blocks.
#
# Uses hyperfine when installed, else a plain loop timed with `date +%s%N`. Prints one row per size: artifacts and
# bytes written, min and median wall time, CPU time (user+sys) per run, and the marginal cost per 1,000 blocks
# between consecutive sizes, which stays flat when growth is linear.
#
# Environment:
#   BENCH_SIZES   block counts to measure (default "200 1000 2000")
#   BENCH_TASKS   tasks per project (default 20)
#   BENCH_RUNS    timed runs per size (default 20)
#   BENCH_LOOP=1  use the plain loop even when hyperfine is installed
#   BENCH_ENFORCE=1  exit 1 when the 2,000-block median exceeds BENCH_LIMIT_MS (default 300)
#   BENCH_PROMPTC a prebuilt promptc binary to time instead of building ./cmd/promptc (to compare revisions)
set -euo pipefail

cd "$(dirname "$0")/.."
sizes=${BENCH_SIZES:-200 1000 2000}
tasks=${BENCH_TASKS:-20}
runs=${BENCH_RUNS:-20}
limit_ms=${BENCH_LIMIT_MS:-300}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/promptc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -n "${BENCH_PROMPTC:-}" ]; then
	cp "$BENCH_PROMPTC" "$tmp/promptc"
else
	go build -o "$tmp/promptc" ./cmd/promptc
fi
go build -o "$tmp/promptc-gen" ./internal/gen/cmd/promptc-gen

tool=loop
if [ "${BENCH_LOOP:-}" != 1 ] && command -v hyperfine >/dev/null 2>&1; then
	tool=hyperfine
fi

# json_field FILE KEY: the first numeric value of "KEY" in hyperfine's JSON export (seconds).
json_field() {
	sed -n "s/^ *\"$2\": *\([0-9.eE+-]*\),\{0,1\}$/\1/p" "$1" | head -n 1
}

# ms SECONDS: seconds as milliseconds with one decimal.
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }

# time_loop PROJECT OUT: run the build $runs times; print "min_s median_s cpu_s" (cpu: mean user+sys).
time_loop() {
	local proj=$1 out=$2 i t0 t1
	: >"$tmp/wall" && : >"$tmp/cpu"
	local TIMEFORMAT='%3U %3S'
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		{ time "$tmp/promptc" -C "$proj" build --out "$out" 2>"$tmp/err"; } 2>>"$tmp/cpu" ||
			{ cat "$tmp/err" >&2; exit 2; }
		t1=$(date +%s%N)
		echo $((t1 - t0)) >>"$tmp/wall"
	done
	sort -n "$tmp/wall" | awk -v cpu="$(awk '{ s += $1 + $2 } END { printf "%.6f", s / NR }' "$tmp/cpu")" '
		{ t[NR] = $1 / 1e9 }
		END {
			med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			printf "%.6f %.6f %s\n", t[1], med, cpu
		}'
}

# time_hyperfine PROJECT OUT: the same figures, measured by hyperfine (no intermediate shell).
time_hyperfine() {
	local proj=$1 out=$2 json="$tmp/hyperfine.json"
	hyperfine --shell=none --style none --warmup 3 --runs "$runs" --export-json "$json" \
		"$tmp/promptc -C $proj build --out $out" >/dev/null
	local user sys
	user=$(json_field "$json" user)
	sys=$(json_field "$json" system)
	echo "$(json_field "$json" min) $(json_field "$json" median) $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.6f", u + s }')"
}

echo "promptc build as a whole process: $tasks tasks, $runs runs per size, $(nproc 2>/dev/null || echo '?') CPUs, timed by $tool"
printf '%7s %6s %10s %11s %9s %10s %8s %14s\n' blocks tasks artifacts bytes min_ms median_ms cpu_ms 'ms/1k_blocks'
median_2000=
prev_n= prev_med=
for n in $sizes; do
	proj="$tmp/project-$n"
	out="$tmp/out-$n"
	"$tmp/promptc-gen" -blocks "$n" -tasks "$tasks" -out "$proj"
	# The first build creates the output tree (and warms the page cache); the timed runs rewrite it, as a
	# developer's repeated `promptc build` does.
	"$tmp/promptc" -C "$proj" build --out "$out"
	artifacts=$(find "$out" -type f -name '*.md' | wc -l)
	bytes=$(find "$out" -type f -name '*.md' -exec cat {} + | wc -c)
	times=$("time_$tool" "$proj" "$out")
	read -r min med cpu <<<"$times"
	marginal=-
	if [ -n "$prev_n" ]; then
		marginal=$(awk -v a="$prev_med" -v b="$med" -v na="$prev_n" -v nb="$n" 'BEGIN { printf "%.1f", (b - a) * 1e6 / (nb - na) }')
	fi
	printf '%7d %6d %10d %11d %9s %10s %8s %14s\n' "$n" "$tasks" "$artifacts" "$bytes" "$(ms "$min")" "$(ms "$med")" "$(ms "$cpu")" "$marginal"
	if [ "$n" = 2000 ]; then
		median_2000=$med
	fi
	prev_n=$n prev_med=$med
done
echo "(ms/1k_blocks: added median time per 1,000 more blocks than the row above; flat means linear growth)"

# The guard's figures (the issue's targets in brackets). They need hyperfine, which reports exit codes too.
# hyper_median CMD...: the median wall time of a command in ms; -i because a failing check exits 1 on purpose.
hyper_median() {
	local json="$tmp/guard.json"
	hyperfine --shell=none --style none -i --warmup 3 --runs "$runs" --export-json "$json" "$*" >/dev/null 2>&1
	ms "$(json_field "$json" median)"
}
if [ "$tool" = hyperfine ]; then
	echo
	echo "promptc check as a whole process (median of $runs runs):"
	printf '  %-58s %8s ms   [15 ms]\n' "clean check, examples/tracker" "$(hyper_median "$tmp/promptc" -C examples/tracker check)"
	big="$tmp/project-2000"
	if [ -d "$big" ]; then
		"$tmp/promptc" -C "$big" check --update --force 2>/dev/null
		build_ms=$(hyper_median "$tmp/promptc" -C "$big" build --out "$tmp/out-2000")
		check_ms=$(hyper_median "$tmp/promptc" -C "$big" check)
		printf '  %-58s %8s ms\n' "build, 2000 blocks x $tasks tasks" "$build_ms"
		printf '  %-58s %8s ms   [<= 1.2x build: %sx]\n' "unchanged check, 2000 blocks" "$check_ms" \
			"$(awk -v c="$check_ms" -v b="$build_ms" 'BEGIN { printf "%.2f", c / b }')"
		# One word of the first global block changes: every runbook differs from its first section on.
		first=$(grep -rl '^\[\[block\]\]' "$big/blocks" | sort | head -n 1)
		awk '!done && prev ~ /^body = / { sub(/^[A-Za-z]+/, "& CHANGED"); done = 1 } { print; prev = $0 }' "$first" >"$tmp/edited"
		cp "$tmp/edited" "$first"
		printf '  %-58s %8s ms   [1000 ms]\n' "check after a global block changed, 2000 blocks (exit 1)" "$(hyper_median "$tmp/promptc" -C "$big" check)"
	fi
fi

if [ -n "$median_2000" ]; then
	over=$(awk -v m="$median_2000" -v l="$limit_ms" 'BEGIN { print (m * 1000 > l) ? 1 : 0 }')
	if [ "$over" = 1 ]; then
		echo "2000 blocks: median $(ms "$median_2000") ms exceeds the ${limit_ms} ms budget"
		if [ "${BENCH_ENFORCE:-}" = 1 ]; then
			exit 1
		fi
	else
		echo "2000 blocks: median $(ms "$median_2000") ms, within the ${limit_ms} ms budget"
	fi
fi
