#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every benchmark once (Release build in build-bench unless BUILD is set)
# and prints one table: each figure, its target (issues 16, 22 and 41) and the ratio of
# the figure to the target (>= 1.00 meets it; for "x read-only" the target
# is a maximum and the ratio is target / figure).
#   bench/run.sh [SCALE]   SCALE divides the default work (1 = full size)
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
build=${BUILD:-build-bench}
if [ -z "${BUILD:-}" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMPROF_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j2 --target bench_spe bench_pmu bench_sysreg bench_decode bench_pe bench_records armprof >/dev/null
fi
b="$build/bench"
spe=$("$b/bench_spe" $((100000000 / scale)))
pmu=$("$b/bench_pmu" $((100000000 / scale)))
sysreg=$("$b/bench_sysreg" $((50000000 / scale)))
decode=$("$b/bench_decode")
pe=$("$b/bench_pe" $((20000 / scale)))
records=$("$b/bench_records" $((2000000 / scale)))
# The command line on a file: the demo's records (20 million operations,
# about 6.6 MB) repeated 16 times, decoded and reported to /dev/null.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/armprof" demo -o "$work/demo.spe" --ops $((20000000 / scale)) --quiet >/dev/null
for _ in $(seq 16); do cat "$work/demo.spe"; done >"$work/big.spe"
file_mb=$(awk -v b="$(wc -c <"$work/big.spe")" 'BEGIN { printf "%.1f", b / 1e6 }')
cli_rate() { # MB/s of armprof ARGS on the file (best of three, CPU time as the
  local best=0 t # benchmarks take it: user + system); INPUT overrides the file
  for _ in 1 2 3; do
    t=$( { /usr/bin/env time -f "%U %S" "$build/armprof" "$@" "${INPUT:-$work/big.spe}" >/dev/null; } 2>&1 | tail -n 1 | awk '{ print $1 + $2 }')
    best=$(awk -v m="$file_mb" -v t="$t" -v b="$best" 'BEGIN { r = t > 0 ? m / t : 0; printf "%.0f", (r > b ? r : b) }')
  done
  echo "$best"
}
# field LINE-PATTERN WORD-BEFORE: the number that precedes WORD in the line
pick() { grep -- "$1" | sed -n '1,1p' | sed -E "s|.* ([0-9.]+) $2.*|\1|"; }
row() { # name figure unit target kind(min|max)
  awk -v n="$1" -v f="$2" -v u="$3" -v t="$4" -v k="$5" 'BEGIN {
    if (k == "none") { printf "| %-42s | %10s %-8s | %-9s | %-12s |\n", n, f, u, "-", "-"; exit }
    r = (k == "max") ? t / f : f / t
    printf "| %-42s | %10s %-8s | %s %-6s | %5.2f %-7s |\n", n, f, u, (k == "max" ? "<=" : ">="), t, r, (r >= 1 ? "met" : "not met") }'
}
echo "| benchmark | figure | target | ratio |"
echo "| --- | --- | --- | --- |"
row "bench_spe: read-only fill of armprof_op" "$(echo "$spe" | pick 'read-only fill' 'million')" "M ops/s" 0 none
row "bench_spe: armprof_retire() one at a time" "$(echo "$spe" | pick 'through the model' 'million')" "M ops/s" 200 min
row "bench_spe: ... time / read-only fill" "$(echo "$spe" | pick 'through the model' 'times')" "x" 2.5 max
row "bench_spe: skip-ahead interface" "$(echo "$spe" | pick 'skip-ahead' 'million')" "M ops/s" 500 min
row "bench_spe: ... time / read-only scan" "$(echo "$spe" | pick 'skip-ahead' 'times')" "x" 1.3 max
row "bench_spe: armprof_retire(), profiling disabled" "$(echo "$spe" | pick 'profiling disabled' 'million')" "M ops/s" 0 none
row "bench_spe: ... time / read-only fill" "$(echo "$spe" | pick 'profiling disabled' 'times')" "x" 0 none
row "bench_pmu: armprof_retire() + cycles(1)" "$(echo "$pmu" | pick 'operations in' 'million')" "M ops/s" 0 none
row "bench_pmu: batch interface" "$(echo "$pmu" | pick 'batch interface' 'million')" "M ops/s" 200 min
row "bench_records: records constructed and written" "$(echo "$records" | pick 'bench_records:' 'million')" "M rec/s" 20 min
row "bench_sysreg: MRS/MSR" "$(echo "$sysreg" | pick 'accesses in' 'million')" "M/s" 100 min
row "bench_pe: PE creation and destruction" "$(echo "$pe" | pick 'destroyed in' 'PEs per')" "PEs/s" 100000 min
row "bench_decode: records (structured)" "$(echo "$decode" | pick 'records:' 'MB/s')" "MB/s" 500 min
row "bench_decode: streaming records" "$(echo "$decode" | pick 'stream:' 'MB/s')" "MB/s" 500 min
row "bench_decode: text" "$(echo "$decode" | pick 'text:' 'MB/s')" "MB/s" 80 min
row "bench_decode: JSON" "$(echo "$decode" | pick 'json:' 'MB/s')" "MB/s" 60 min
row "armprof decode FILE (text, end to end)" "$(cli_rate decode)" "MB/s" 80 min
row "armprof decode --json FILE (end to end)" "$(cli_rate decode --json)" "MB/s" 60 min
row "armprof report FILE (end to end)" "$(cli_rate report)" "MB/s" 300 min
row "armprof perf-data FILE (perf.data written)" "$(cli_rate perf-data -o "$work/big.data")" "MB/s" 200 min
row "armprof report PERF.DATA (end to end)" "$(INPUT=$work/big.data cli_rate report)" "MB/s" 300 min
row "armprof decode PERF.DATA (text, end to end)" "$(INPUT=$work/big.data cli_rate decode)" "MB/s" 80 min
echo
echo "  (every figure from CPU time; the command-line rows: a $file_mb MB file, /usr/bin/time's"
echo "  10 ms resolution)"
echo "$spe" | grep -E "identical|DIFFERENT" | sed 's/^/  /'
echo "$pmu" | grep -E "identical|DIFFERENT" | sed 's/^/  /'
