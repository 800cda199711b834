#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Long fuzzing runs, outside CI (docs/conformance.md, "Fuzzing"):
#
#   tools/fuzz.sh [SECONDS] [TARGET...]
#
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer, in build-fuzz/long), then runs each TARGET
# (scenario, decode, perfdata, api; all four by default, the targets
# .ci/run fuzzes) for SECONDS (default 3600)
# one after the other, from its committed seeds (tools/fuzz-seeds.sh, the
# same as .ci/run) copied into a fresh working corpus. A run that takes
# longer than -timeout on one input is a finding, like a crash or a leak.
# Prints per target the executions, the coverage (cov: and ft: of
# libFuzzer's last status line) and the findings (crash-*, timeout-*,
# leak-*, oom-* files), which stay in the findings directory it names with
# the logs and the grown corpora. Exits 1 if any target found something,
# 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=3600
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scenario decode perfdata api)
for t in "${targets[@]}"; do
  case "$t" in
    scenario | decode | perfdata | api) ;;
    *)
      echo "usage: tools/fuzz.sh [SECONDS] [scenario|decode|perfdata|api ...]" >&2
      exit 2
      ;;
  esac
done
command -v clang >/dev/null || { echo "fuzz.sh: needs clang (with libFuzzer)" >&2; exit 2; }

build=${ARMPROF_FUZZ_BUILD:-build-fuzz/long}
out=${ARMPROF_FUZZ_OUT:-build-fuzz/findings/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

build_targets=()
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
# The decoder's seeds include the records test_spe_roundtrip writes; the
# perf.data reader's are files the armprof command writes.
for t in "${targets[@]}"; do
  case "$t" in
    decode) build_targets+=(test_spe_roundtrip) ;;
    perfdata) build_targets+=(armprof) ;;
  esac
done
echo "== building ${build_targets[*]} in $build =="
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DARMPROF_SANITIZE=ON -DARMPROF_FUZZ=ON \
  -DARMPROF_BUILD_TESTS=ON -DARMPROF_BUILD_BENCH=OFF >"$out/cmake.log" 2>&1 ||
  { tail -n 30 "$out/cmake.log"; exit 2; }
cmake --build "$build" -j2 --target "${build_targets[@]}" >"$out/build.log" 2>&1 ||
  { tail -n 30 "$out/build.log"; exit 2; }

# Longest input and per-input time limit: as .ci/run.
max_len() {
  case "$1" in
    decode) echo 1024 ;;
    perfdata) echo 4096 ;;
    *) echo 2048 ;;
  esac
}

found=0
summary=()
for t in "${targets[@]}"; do
  dir="$out/$t"
  mkdir -p "$dir/corpus" "$dir/findings"
  # the tool fuzz-seeds.sh runs to make the seeds, for the targets that need one
  seed_tool=""
  case "$t" in
    decode) seed_tool="$build/tests/test_spe_roundtrip" ;;
    perfdata) seed_tool="$build/armprof" ;;
  esac
  tools/fuzz-seeds.sh "$t" "$dir/corpus" $seed_tool
  seeds=$(find "$dir/corpus" -type f | wc -l)
  echo "== fuzz_$t: ${seconds} s from $seeds seeds =="
  rc=0
  ASAN_OPTIONS=detect_leaks=1 "$build/fuzz_$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$dir/findings/" "$dir/corpus" \
    >"$dir/fuzz.log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$dir/fuzz.log" | tail -n 1 || true)
  findings=$(find "$dir/findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
    -o -name 'oom-*' \) | sort)
  n=$(printf '%s' "$findings" | grep -c . || true)
  line="fuzz_$t: ${execs:-?} executions, ${cov:-cov: ? ft: ?}, $n findings"
  if [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
    line="$line, exit status $rc (see $dir/fuzz.log)"
    found=1
  fi
  echo "$line"
  if [ "$n" -gt 0 ]; then
    found=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_api: )' "$dir/fuzz.log" | head -n 5 || true
    printf '%s\n' "$findings" | sed 's/^/  /'
  fi
  summary+=("$line")
done

echo "== summary (findings, logs and corpora in $out) =="
printf '%s\n' "${summary[@]}"
exit "$found"
