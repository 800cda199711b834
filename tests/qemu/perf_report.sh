#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf report on the plugin's perf.data (docs/qemu.md): the branchy test
# program through QEMU 10.0 and the plugin, then perf VERSION reads
# PREFIX.perf.data and names the program's functions, hot first (3 of its 4
# calls an iteration), then cold.
#
#   perf_report.sh QEMU PLUGIN PROGRAM PERF_VERSION PERF_COMMAND...
# Prints "SKIPPED: why" when QEMU, the plugin, the program or perf is
# missing.
set -u
qemu=$1 plugin=$2 program=$3 perf_version=$4
shift 4
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" 10.0 "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
need_perf "$perf_version" "$@"
make_work
"$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p,perf_version=$perf_version,quiet=on" \
  "$program" || { echo "FAIL: the program under QEMU failed"; exit 1; }
# Every record is an instruction sample (--itrace=i1i): the program's
# operations carry no event perf's other sample kinds follow.
"$@" report -i "$work/p.perf.data" --stdio --sort sym --itrace=i1i >"$work/report" 2>"$work/err" ||
  { echo "FAIL: perf report failed"; cat "$work/err"; exit 1; }
cat "$work/report"
syms=$(grep -E '^ +[0-9.]+%' "$work/report" | awk '{ print $NF }' | head -n 3 | tr '\n' ' ')
case $syms in
  "hot cold "*) echo "ok: perf $perf_version names hot, then cold: $syms" ;;
  *) echo "FAIL: perf $perf_version's first symbols are '$syms', not hot then cold"; exit 1 ;;
esac
