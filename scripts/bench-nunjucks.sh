#!/usr/bin/env bash
# bench-nunjucks.sh: time `promptc build` against Nunjucks, the fastest JavaScript template engine we compare with,
# rendering the same artifacts byte for byte, both as whole processes, on the same generated project (internal/gen,
# 2,000 blocks x 20 tasks by default), on the same machine, in the same run. The target is promptc >= 10x faster.
#
# Steps:
#   1. build promptc and promptc-gen; generate the project;
#   2. install nunjucks and smol-toml with npm into a cache directory when they are missing there (a measurement
#      tool's dependencies: promptc itself downloads nothing);
#   3. `node scripts/bench-nunjucks.js prepare` turns the project into a Nunjucks one (each block body a .njk
#      template, the rest as JSON); not timed: it is the peer's source tree;
#   4. run both once and compare the output trees with diff -r: they must be identical, or the script exits 1;
#   5. time both: with hyperfine when installed (one invocation, both commands), else a loop that alternates
#      them so that both see the same machine load; print min and median wall time, CPU time (user+sys) per run,
#      and the ratio of Nunjucks to promptc.
#
# scripts/bench-nunjucks.js says what the Nunjucks driver does besides the templates (gates, order, limits,
# escaping, joining) and why it is the same work promptc does. This is a measurement, not a test: it is in
# `make bench`, not in `make test` or `make integration`.
#
# Environment:
#   BENCH_BLOCKS   blocks in the generated project (default 2000)
#   BENCH_TASKS    tasks (default 20)
#   BENCH_RUNS     timed runs of each (default 20)
#   BENCH_LOOP=1   use the plain loop even when hyperfine is installed
#   BENCH_PROMPTC  a prebuilt promptc binary to time instead of building ./cmd/promptc (to compare revisions)
#   BENCH_NPM_DIR  where nunjucks is installed (default ${XDG_CACHE_HOME:-~/.cache}/promptc-bench)
set -euo pipefail

cd "$(dirname "$0")/.."
blocks=${BENCH_BLOCKS:-2000}
tasks=${BENCH_TASKS:-20}
runs=${BENCH_RUNS:-20}
npm_dir=${BENCH_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/promptc-bench}

command -v node >/dev/null 2>&1 || { echo "bench-nunjucks: node is not installed" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/promptc-bench-njk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -n "${BENCH_PROMPTC:-}" ]; then
	cp "$BENCH_PROMPTC" "$tmp/promptc"
else
	go build -o "$tmp/promptc" ./cmd/promptc
fi
go build -o "$tmp/promptc-gen" ./internal/gen/cmd/promptc-gen

if [ ! -f "$npm_dir/node_modules/nunjucks/package.json" ] || [ ! -f "$npm_dir/node_modules/smol-toml/package.json" ]; then
	echo "installing nunjucks and smol-toml into $npm_dir" >&2
	mkdir -p "$npm_dir"
	(cd "$npm_dir" && npm install --no-audit --no-fund --silent nunjucks@3 smol-toml@1 >&2)
fi
export NODE_PATH="$npm_dir/node_modules"
njk_version=$(node -p 'require("nunjucks/package.json").version')

proj="$tmp/project"
"$tmp/promptc-gen" -blocks "$blocks" -tasks "$tasks" -out "$proj"
node scripts/bench-nunjucks.js prepare "$proj" "$tmp/njk"
cp scripts/bench-nunjucks.js "$tmp/bench-nunjucks.js"

# The first runs create the output trees (and warm the page cache); the timed runs rewrite them.
"$tmp/promptc" -C "$proj" build --out "$tmp/out-promptc"
node "$tmp/bench-nunjucks.js" render "$tmp/njk" "$tmp/out-njk"
if ! diff -r "$tmp/out-promptc" "$tmp/out-njk" >"$tmp/diff"; then
	echo "bench-nunjucks: the outputs differ, so the timing would compare different work:" >&2
	head -n 40 "$tmp/diff" >&2
	exit 1
fi
artifacts=$(find "$tmp/out-promptc" -type f -name '*.md' | wc -l)
bytes=$(find "$tmp/out-promptc" -type f -name '*.md' -exec cat {} + | wc -c)

promptc_cmd=("$tmp/promptc" -C "$proj" build --out "$tmp/out-promptc")
njk_cmd=(node "$tmp/bench-nunjucks.js" render "$tmp/njk" "$tmp/out-njk")

tool=loop
if [ "${BENCH_LOOP:-}" != 1 ] && command -v hyperfine >/dev/null 2>&1; then
	tool=hyperfine
fi

# stats FILE: "min_s median_s" of the wall times in FILE (nanoseconds, one a line).
stats() {
	sort -n "$1" | awk '
		{ t[NR] = $1 / 1e9 }
		END {
			med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			printf "%.6f %.6f\n", t[1], med
		}'
}

# run_timed NAME CMD...: one run; appends its wall time (ns) to $tmp/NAME.wall and user+sys (s) to $tmp/NAME.cpu.
run_timed() {
	local name=$1 t0 t1
	shift
	local TIMEFORMAT='%3U %3S'
	t0=$(date +%s%N)
	{ time "$@" 2>"$tmp/err"; } 2>>"$tmp/$name.cpu" || { cat "$tmp/err" >&2; exit 2; }
	t1=$(date +%s%N)
	echo $((t1 - t0)) >>"$tmp/$name.wall"
}

if [ "$tool" = hyperfine ]; then
	hyperfine --shell=none --style none --warmup 3 --runs "$runs" --export-json "$tmp/h.json" \
		"${promptc_cmd[*]}" "${njk_cmd[*]}" >/dev/null
	# One "times" array per command, in the order given; user and system are means.
	node -e '
		const r = require(process.argv[1]).results;
		const names = ["promptc", "njk"];
		r.forEach((x, i) => {
			const t = [...x.times].sort((a, b) => a - b);
			const n = t.length, med = n % 2 ? t[(n - 1) / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
			console.log(names[i], t[0], med, x.user + x.system);
		});' "$tmp/h.json" >"$tmp/figures"
else
	for ((i = 0; i < 3; i++)); do "${promptc_cmd[@]}" && "${njk_cmd[@]}"; done
	: >"$tmp/promptc.wall" && : >"$tmp/promptc.cpu" && : >"$tmp/njk.wall" && : >"$tmp/njk.cpu"
	for ((i = 0; i < runs; i++)); do
		run_timed promptc "${promptc_cmd[@]}"
		run_timed njk "${njk_cmd[@]}"
	done
	for name in promptc njk; do
		echo "$name $(stats "$tmp/$name.wall") $(awk '{ s += $1 + $2 } END { printf "%.6f", s / NR }' "$tmp/$name.cpu")"
	done >"$tmp/figures"
fi

echo "promptc build vs Nunjucks $njk_version (node $(node --version)), whole processes: $blocks blocks x $tasks tasks," \
	"$artifacts artifacts, $bytes bytes, identical; $runs runs each, $(nproc 2>/dev/null || echo '?') CPUs, timed by $tool"
awk '
	{ name[NR] = $1; min[NR] = $2 * 1000; med[NR] = $3 * 1000; cpu[NR] = $4 * 1000 }
	END {
		printf "%-10s %9s %10s %8s\n", "", "min_ms", "median_ms", "cpu_ms"
		printf "%-10s %9.1f %10.1f %8.1f\n", "promptc", min[1], med[1], cpu[1]
		printf "%-10s %9.1f %10.1f %8.1f\n", "nunjucks", min[2], med[2], cpu[2]
		printf "promptc is %.1fx faster (medians), %.1fx (minimums), %.1fx in CPU time; the target is 10x\n",
			med[2] / med[1], min[2] / min[1], cpu[2] / cpu[1]
	}' "$tmp/figures"
