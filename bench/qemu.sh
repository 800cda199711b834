#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU plugin against QEMU alone (issue 23, part 6): each QEMU (Debian
# 12's 7.2 and the 10.0 frontends/qemu/build-qemu.sh builds) runs the same
# guest program alone, with the plugin in fast mode and in exact mode; best
# of RUNS wall times; guest instructions per second (the plugin's own
# instruction count) and the slowdown against QEMU alone. The floor rows
# are QEMU's plugin interface by itself (bench/qemu/floor.c): callbacks per
# TB and per access (exact mode's registrations, and 7.2's fast mode's),
# per TB alone (blocks: the access callbacks' cost is the difference),
# and on 10.0 fast mode's inline counting with its conditional callback
# never firing (count) or firing every 1024 instructions (visits), all
# doing nothing.
#   bench/qemu.sh [BUILD [RUNS [SCALE]]]
# BUILD: a build folder with the plugins (default build-bench, configured
# and built here when missing); SCALE multiplies bench/qemu/work.c's work
# (default 20: about a thousand million instructions). Debian's gzip
# (tools/arm64-root.sh) is measured too when its root is in the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
runs=${2:-3}
scale=${3:-20}
if [ ! -f "$build/frontends/qemu/libarmprof_qemu.so" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMPROF_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j2 --target armprof_qemu armprof_qemu7 armprof_qemu_floor \
    armprof_qemu7_floor >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
aarch64-linux-gnu-gcc -O2 -static -o "$work/work" bench/qemu/work.c
q10=$(sh frontends/qemu/build-qemu.sh --locate 2>/dev/null | sed -n 's/^QEMU_AARCH64=//p')
cache=${ARMPROF_CACHE:-$HOME/.cache/armprof}
gzip_root=$cache/gzip-1.13-arm64/root
seq 1 2000000 >"$work/in.txt"

best() { # best wall seconds of RUNS runs of the command
  local b=""
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    b=$(awk -v b="$b" -v t="$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')" \
      'BEGIN { print (b == "" || t < b) ? t : b }')
  done
  echo "$b"
}

printf '%-8s %-6s %-15s %10s %14s %9s\n' qemu program mode seconds "guest insn/s" slowdown
measure() { # QEMU VERSION PLUGIN NAME ARGS...
  local qemu=$1 version=$2 plugin=$3 name=$4
  shift 4
  local alone insns
  alone=$(best "$qemu" -cpu max,pauth=off "$@")
  "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p,quiet=on" "$@" >/dev/null
  insns=$(awk '/^thread/ { s += $4 } END { print s }' "$work/p.summary")
  printf '%-8s %-6s %-15s %10.2f %14.3g %9s\n' "$version" "$name" alone "$alone" \
    "$(awk -v i="$insns" -v t="$alone" 'BEGIN { print i / t }')" 1.00
  row() { # MODE SECONDS
    printf '%-8s %-6s %-15s %10.2f %14.3g %9.2f\n' "$version" "$name" "$1" "$2" \
      "$(awk -v i="$insns" -v t="$2" 'BEGIN { print i / t }')" \
      "$(awk -v a="$alone" -v t="$2" 'BEGIN { print t / a }')"
  }
  for mode in fast exact; do
    row "$mode" "$(best "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p,quiet=on,mode=$mode" "$@")"
  done
  # QEMU's plugin interface alone: the same registrations, callbacks that
  # do nothing (bench/qemu/floor.c)
  local floor=${plugin%.so}_floor.so what
  if [ -f "$floor" ]; then
    for what in callbacks blocks count visits; do
      # QEMU 7.2 has no inline counting nor conditional callbacks
      [ "$version" = 7.2 ] && { [ "$what" = count ] || [ "$what" = visits ]; } && continue
      row "floor:$what" "$(best "$qemu" -cpu max,pauth=off -plugin "$floor,what=$what" "$@")"
    done
  fi
}
for v in 7.2 10.0; do
  if [ "$v" = 7.2 ]; then qemu=/usr/bin/qemu-aarch64 plugin=$build/frontends/qemu/libarmprof_qemu7.so
  else qemu=$q10 plugin=$build/frontends/qemu/libarmprof_qemu.so; fi
  if [ -z "$qemu" ] || [ ! -x "$qemu" ] || [ ! -f "$plugin" ]; then
    echo "(QEMU $v or its plugin missing: not measured)"
    continue
  fi
  measure "$qemu" "$v" "$plugin" work "$work/work" "$scale"
  if [ -x "$gzip_root/usr/bin/gzip" ]; then
    measure "$qemu" "$v" "$plugin" gzip -L "$gzip_root" "$gzip_root/usr/bin/gzip" -c "$work/in.txt"
  fi
done
