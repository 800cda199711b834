#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# armprof record (issue 45) on one QEMU: tests/record/hot.c, static and
# dynamic, whose time is nearly all in hot_loop.
#   record.sh CASE QEMU QEMU_VERSION ARMPROF PLUGIN STATIC DYNAMIC [PERF...]
# CASE:
#   run      both programs: status 0, the three files, the summary's PC
#            samples led by hot_loop, records that decode; the dynamic one
#            with its libraries from /usr/aarch64-linux-gnu, chosen alone
#   status   the program's exit status 3; 139 (128 + SIGSEGV) for one the
#            signal killed
#   filters  -e load_filter=1: every record a load (Operation Type class
#            0b01 load/store, bit 0 0: D18.2.3); store_filter=1: every one a
#            store; min_latency=5 (exact mode): no total latency below 5
#            (PMSLATFR_EL1), and more than 100 records
#   perf     perf report -i PREFIX.perf.data names hot_loop first
set -u
case_=$1 qemu=$2 qemu_version=$3 armprof=$4 plugin=$5 static=$6 dynamic=$7
shift 7
. "$(dirname "$0")/../qemu/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$static" ] && [ -x "$dynamic" ] || skip "no test programs (aarch64-linux-gnu-gcc)"
make_work
cd "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
record() { # PREFIX ARGS...: armprof record with this QEMU; its status in $rc
  local prefix=$1
  shift
  "$armprof" record --qemu "$qemu" -o "$prefix" "$@" >"$prefix.out" 2>"$prefix.err"
  rc=$?
}
# The operation types of PREFIX.spe's records, one "class ldst" a line
# (load/store records) or "class -" (others).
op_types() {
  "$armprof" decode --json "$1.spe" | grep -o '"type":"Operation Type"[^}]*}' |
    sed -E 's/.*"class":([0-9]+).*/\1 &/; s/^([0-9]+) .*"ldst":([0-9]+).*/\1 \2/; t; s/^([0-9]+) .*/\1 -/'
}
case $case_ in
run)
  for prog in "$static" "$dynamic"; do
    name=$(basename "$prog")
    record "$name" -- "$prog"
    [ "$rc" = 0 ] || { bad "$name: status $rc"; cat "$name.err"; continue; }
    for f in spe perf.data summary; do
      [ -s "$name.$f" ] || bad "$name: no $name.$f"
    done
    top=$(sed -n '/^pc samples by symbol/{n;p}' "$name.summary" | awk '{ print $3 }')
    [ "$top" = hot_loop ] && echo "ok: $name: hot_loop leads the PC samples" ||
      bad "$name: the first PC-sample symbol is '$top', not hot_loop"
    n=$(op_types "$name" | wc -l)
    [ "$n" -gt 1000 ] && echo "ok: $name: $n records" || bad "$name: $n records"
    grep -q "next: armprof report $name.spe" "$name.err" || bad "$name: no next step printed"
    grep -q "^thread " "$name.err" || bad "$name: the summary was not printed"
  done
  grep -q "libraries from /usr/aarch64-linux-gnu" "$(basename "$dynamic").err" &&
    echo "ok: the dynamic program's libraries from /usr/aarch64-linux-gnu" ||
    bad "the dynamic program's root was not /usr/aarch64-linux-gnu: $(head -n 1 "$(basename "$dynamic").err")"
  ;;
status)
  record three -- "$static" 3
  [ "$rc" = 3 ] && echo "ok: exit 3" || bad "exit 3 gave status $rc"
  record segv -- "$static" segv
  [ "$rc" = 139 ] && echo "ok: SIGSEGV: 139" || bad "SIGSEGV gave status $rc, not 139"
  # whole records up to the end, whatever QEMU does on the way out
  [ -s segv.spe ] && "$armprof" decode segv.spe >/dev/null && [ -s segv.summary ] &&
    echo "ok: SIGSEGV: segv.spe decodes, segv.summary written" ||
    bad "SIGSEGV: segv.spe or segv.summary missing or bad"
  # the perf.data too: QEMU 7.2 skips the plugin's exit callback on a fatal
  # signal, and armprof record then makes it from segv.spe; its records are
  # the .spe's (decode counts a record a line, after a blank one)
  spe_records=$("$armprof" decode segv.spe | grep -c '^$' || true)
  perf_records=$("$armprof" decode segv.perf.data | grep -c '^$' || true)
  [ -s segv.perf.data ] && [ "$perf_records" = "$spe_records" ] &&
    echo "ok: SIGSEGV: segv.perf.data holds the $spe_records records of segv.spe" ||
    bad "SIGSEGV: segv.perf.data missing or not segv.spe's records ($perf_records, $spe_records)"
  ;;
filters)
  record ld -e load_filter=1 -- "$static"
  types=$(op_types ld | sort | uniq -c)
  n=$(op_types ld | wc -l)
  if [ "$rc" = 0 ] && [ "$n" -gt 100 ] && [ "$(op_types ld | grep -vc '^1 0$')" = 0 ]; then
    echo "ok: load_filter=1: $n records, every one a load"
  else
    bad "load_filter=1 (status $rc): $types"
  fi
  record st -e store_filter=1 -- "$static"
  n=$(op_types st | wc -l)
  if [ "$rc" = 0 ] && [ "$n" -gt 100 ] && [ "$(op_types st | grep -vc '^1 1$')" = 0 ]; then
    echo "ok: store_filter=1: $n records, every one a store"
  else
    bad "store_filter=1 (status $rc): $(op_types st | sort | uniq -c)"
  fi
  # unfiltered, the same program has branches and other operations too
  record all -- "$static"
  [ "$(op_types all | grep -c '^2 ')" -gt 100 ] && echo "ok: unfiltered: branches recorded" ||
    bad "unfiltered: no branch records"
  # exact mode, 5 cycles: a load or store takes at least the issue and the
  # L1D's 4 cycles there (docs/memory-model.md), any other operation 2;
  # fast mode models no memory, so its loads take 2 too
  record lat --mode exact -e min_latency=5 -- "$static"
  lats=$("$armprof" decode --json lat.spe | grep -o '"name":"total latency","count":[0-9]*' |
    sed 's/.*://')
  below=$(echo "$lats" | awk '$1 < 5' | wc -l)
  n=$(echo "$lats" | grep -c .)
  [ "$rc" = 0 ] && [ "$n" -gt 100 ] && [ "$below" = 0 ] &&
    echo "ok: min_latency=5: $n records, none below 5" ||
    bad "min_latency=5 (status $rc): $n records, $below below 5"
  ;;
perf)
  need_perf 6.1 "$@"
  record p -- "$static"
  first=$("$@" report -i p.perf.data --itrace=i1i --sort sym --stdio 2>/dev/null |
    grep -v '^#' | grep -v '^$' | head -n 1)
  case $first in
  *hot_loop*) echo "ok: perf report: $first" ;;
  *) bad "perf report's first line is '$first', not hot_loop" ;;
  esac
  ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
exit $fail
