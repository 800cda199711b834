#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf c2c and perf mem on the plugin's perf.data (docs/perf.md): the
# false-sharing program (tests/qemu/false_sharing.c: the main thread and two
# workers, so three PEs) through QEMU 10.0 and the plugin, then perf
# VERSION's `c2c report` and `mem report` exit 0 (perf c2c said "Failed
# setup nodes" and exited 234 on a file without a NUMA topology), and
# `report --header-only -I` shows the topology the plugin gives: each
# thread's PE is CPU n of its AUX data and core n, all in one cluster
# (perf's socket) on node 0; its cpuid is the plugin's midr= (Neoverse N1
# r3p1 by default).
#
#   perf_c2c.sh QEMU PLUGIN PROGRAM PERF_VERSION PERF_COMMAND...
# Prints "SKIPPED: why" when QEMU, the plugin, the program or perf is
# missing.
set -u
qemu=$1 plugin=$2 program=$3 perf_version=$4
shift 4
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" 10.0 "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (gcc-aarch64-linux-gnu)"
need_perf "$perf_version" "$@"
make_work
"$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p,perf_version=$perf_version,quiet=on" \
  "$program" >/dev/null || { echo "FAIL: the program under QEMU failed"; exit 1; }
fail=0
for tool in c2c mem; do
  if "$@" $tool report -i "$work/p.perf.data" --stdio >"$work/$tool" 2>&1; then
    echo "ok: perf $perf_version $tool report exits 0"
  else
    echo "FAIL: perf $perf_version $tool report exits $?:"
    head -n 20 "$work/$tool"
    fail=1
  fi
done
grep -q "Shared Data Cache Line Table" "$work/c2c" ||
  { echo "FAIL: perf c2c report printed no cache line table"; fail=1; }
"$@" report -i "$work/p.perf.data" --header-only -I >"$work/header" 2>&1 ||
  { echo "FAIL: perf report --header-only failed"; cat "$work/header"; exit 1; }
for want in "sibling sockets : 0-2" "sibling threads : 0" "sibling threads : 2" \
  "CPU 0: Core ID 0, Socket ID 0" "CPU 1: Core ID 1, Socket ID 0" \
  "CPU 2: Core ID 2, Socket ID 0" "node0 cpu list : 0-2"; do
  if grep -qF "# $want" "$work/header"; then
    echo "ok: the header says '$want'"
  else
    echo "FAIL: the header does not say '$want':"
    grep -E "sibling|CPU [0-9]|node" "$work/header"
    fail=1
  fi
done
# the CPUs' MIDR_EL1 (perf's cpuid): Neoverse N1 r3p1, Ampere Altra's
# core, by default; midr= names another Neoverse (V2 here)
grep -qF "# cpuid : 0x00000000413fd0c1" "$work/header" && echo "ok: the header's cpuid is N1 r3p1, the default" ||
  { echo "FAIL: the header's cpuid: '$(grep -F '# cpuid' "$work/header")', wanted 0x00000000413fd0c1"; fail=1; }
"$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/v2,midr=410fd4f0,perf_version=$perf_version,quiet=on" \
  "$program" >/dev/null || { echo "FAIL: the program under QEMU with midr= failed"; exit 1; }
"$@" report -i "$work/v2.perf.data" --header-only >"$work/header-v2" 2>&1
grep -qF "# cpuid : 0x00000000410fd4f0" "$work/header-v2" && echo "ok: midr=410fd4f0: the header's cpuid is V2's" ||
  { echo "FAIL: midr=410fd4f0: the header's cpuid: '$(grep -F '# cpuid' "$work/header-v2")'"; fail=1; }
exit $fail
