#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf report names the guest program's functions (issue 44, defect 1): in
# system mode the Timestamp packets are the guest's system counter, as the
# guest's perf expects (it converts them with the kernel's time conversion
# and places each sample among the program's exec and mmap events). They
# were the plugin's modelled cycles, which put every sample before the
# program's exec: perf said "perf-exec" and printed raw addresses.
#
# The STACK guest with its perf records tests/qemu-system/hot.c (spe_hot,
# static) three times, with load_filter, branch_filter and store_filter,
# reading the guest's CNTVCT_EL0 (spe_hot counter) and /proc/uptime just
# before and just after each recording. On the host, perf STACK with the
# program's symbols (--symfs):
#   - the first line of `perf report --sort comm,sym` is spe_hot's, and its
#     function is load_heavy, branch_heavy, store_heavy: the only function
#     rich in loads, branches, stores (hot.c);
#   - every Timestamp packet lies within the recording's counter values.
#     Linux programs PMSCR_EL1.PCT for the physical count (or the virtual
#     one when not perfmon_capable); the guest has no EL2, so CNTVOFF_EL2
#     is not applied (GetTimestamp()) and both are the counter the guest's
#     CNTVCT_EL0 reads.
#   symbols.sh REPO STACK PLUGIN HOT PERF_COMMAND...
# ARMPROF_RECORD_KEEP=DIR keeps the console and each case's perf.data there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 plugin=$3 hot=$4
shift 4
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$hot" ] || skip "no spe_hot program ($hot): it needs aarch64-linux-gnu-gcc"
. "$(dirname "$0")/guest_run.sh"
guest_prepare "$stack" "$@"
# case: the driver's filter and the function it must put first
cases="ld:load_filter:load_heavy br:branch_filter:branch_heavy st:store_filter:store_heavy"
prog=/usr/local/bin/spe_hot
{
  echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
  for c in $cases; do
    IFS=: read -r name filter _ <<<"$c"
    echo "echo \"armprof-guest: window $name begin \$($prog counter) \$(cut -d' ' -f1 /proc/uptime)\""
    echo "perf record -e arm_spe_0/ts_enable=1,jitter=1,$filter=1/u -c 1024 -m,64 -o /tmp/$name.data -- $prog 2>&1 | sed 's/^/armprof-guest: perf $name: /'"
    echo "echo \"armprof-guest: window $name end \$($prog counter) \$(cut -d' ' -f1 /proc/uptime)\""
    guest_send_file "$name" "/tmp/$name.data"
  done
} >"$work/script"
# the guest's program under its name, where perf looks for it
mkdir -p "$work/symfs/usr/local/bin"
cp "$hot" "$work/symfs$prog"
guest_run "$stack" "$plugin" 1 "$work/symfs$prog"
grep -a 'armprof-guest: perf \|armprof-guest: window\|^vcpu' "$work/out" || true
fail=0
for c in $cases; do
  IFS=: read -r name filter want <<<"$c"
  guest_received "$name"
  [ -s "$work/$name.data" ] || { echo "FAIL: $name: no perf.data"; fail=1; continue; }
  # the recording's counter values: "window NAME begin|end counter VALUE FREQ UPTIME"
  read -r begin freq up0 < <(awk -v n="$name" '$2 == "window" && $3 == n && $4 == "begin" { print $6, $7, $8 }' "$work/out")
  read -r end _ up1 < <(awk -v n="$name" '$2 == "window" && $3 == n && $4 == "end" { print $6, $7, $8 }' "$work/out")
  [ -n "${begin:-}" ] && [ -n "${end:-}" ] || { echo "FAIL: $name: the guest printed no counter window"; fail=1; continue; }
  # every Timestamp packet, as perf decodes it
  "$@" report -D -i "$work/$name.data" 2>/dev/null | grep -Eo ' TS [0-9]+' | awk '{ print $2 }' >"$work/$name.ts" || true
  n=$(wc -l <"$work/$name.ts")
  outside=$(awk -v b="$begin" -v e="$end" '$1 < b || $1 > e' "$work/$name.ts" | wc -l)
  range=$(sort -n "$work/$name.ts" | sed -n '1p;$p' | tr '\n' ' ')
  echo "$name: $n Timestamp packets, $outside outside the recording's counter $begin..$end" \
    "(${freq} Hz; uptime $up0..$up1 s); first and last: ${range:-none}"
  [ "$n" -gt 20 ] || { echo "FAIL: $name: $n Timestamp packets, wanted more than 20"; fail=1; }
  [ "$outside" = 0 ] || { echo "FAIL: $name: $outside Timestamp packets outside $begin..$end"; fail=1; }
  # every record is an instruction sample (--itrace=i1i), as in tests/qemu/perf_report.sh
  if ! "$@" report -i "$work/$name.data" --stdio --sort comm,sym --itrace=i1i --symfs "$work/symfs" \
    >"$work/$name.report" 2>"$work/$name.err"; then
    echo "FAIL: $name: perf report failed: $(tail -n 1 "$work/$name.err")"
    fail=1
    continue
  fi
  grep -E '^ +[0-9.]+%' "$work/$name.report" | sed -n '1,4p' | sed "s/^/$name: /"
  read -r _ comm _ sym _ < <(grep -E '^ +[0-9.]+%' "$work/$name.report" | sed -n '1,1p') || true
  [ "${comm:-}" = spe_hot ] && [ "${sym:-}" = "$want" ] ||
    { echo "FAIL: $name: perf puts '${comm:-} ${sym:-}' first, not 'spe_hot $want'"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: perf $stack names spe_hot's load_heavy, branch_heavy, store_heavy under their filters; every timestamp within the recording"
exit "$fail"
