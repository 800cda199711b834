#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf record -e arm_spe_0// in the guest, on the model (issue 25, part 5):
# the STACK guest with its own perf runs a shell loop under perf record once
# per CASE, with a 4-page AUX buffer so that the driver's buffer-full
# handling (PMBIRQ) runs many times; the plugin gives the model the
# operations (system mode). Each perf.data comes out through the console
# (base64) and is checked on the host with the stack's own perf (Debian
# 12's; 7.3 under qemu-aarch64): records decode with no bad packet, and
#   u        /u: every PC packet at EL0 (PMSCR_EL1.E0SPE, exclude_kernel)
#   k        /k: every PC packet at EL1 (E1SPE, exclude_user)
#   ev4      event_filter=0x4: every record's Events packet has L1D access
#            (PMSEVFR_EL1.E[2], from FEAT_SPEv1p4: a sample is recorded only
#            with every event the filter names, CollectRecord())
#   ev8      event_filter=0x8: every record has L1D refill (E[3], which
#            Linux 6.1 allows; it refuses E[2])
#   nev4     inv_event_filter=0x4: no record has L1D access (PMSNEVFR_EL1)
#   br       branch_filter=1: every record is a branch's (PMSFCR_EL1.FT and B:
#            only branches are recorded)
#   ld, st   load_filter=1, store_filter=1: every record a load's, a store's
#            (PMSFCR_EL1.LD, ST; "for filtering purposes, store operations
#            include ... all atomic operations": an atomic's record says LD
#            AT, and the store filter keeps it)
#   lat20    min_latency=20: every record's total latency is at least 20
#            (PMSLATFR_EL1.MINLAT: samples with less are not recorded)
#   discard  discard=1: the buffer gets no record (PMBLIMITR_EL1.FM Discard),
#            while the model still samples (the plugin's summary: discarded)
# The u and k cases also want several AUX events (the buffer filled and was
# serviced). Skipped with the reason when a part cannot be had.
#   record.sh REPO STACK PLUGIN "CASES" PERF_COMMAND...
set -euo pipefail
repo=$1 stack=$2 plugin=$3 cases=$4
shift 4
skip() { echo "SKIPPED: $*"; exit 0; }
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ $# -gt 0 ] || skip "no perf $stack for the host (.ci/run installs linux-perf; tools/perf-root.sh)"
version=$("$@" --version 2>&1) || skip "perf does not run: $version"
case $version in *"perf version $stack"*) ;; *) skip "not perf $stack: $version" ;; esac
qemu=$(sh "$repo/frontends/qemu-system/build.sh" --locate 2>/dev/null | sed -n 's/^QEMU_SYSTEM_AARCH64=//p') ||
  true
[ -n "$qemu" ] || skip "no armprof qemu-system-aarch64 (.ci/run runs frontends/qemu-system/build.sh)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# each case's perf event
event_of() {
  case $1 in
    u) echo 'arm_spe_0/ts_enable=1,pa_enable=1,jitter=1/u' ;;
    k) echo 'arm_spe_0/ts_enable=1,pa_enable=1,jitter=1/k' ;;
    ev4) echo 'arm_spe_0/ts_enable=1,event_filter=0x4/u' ;;
    ev8) echo 'arm_spe_0/ts_enable=1,event_filter=0x8/u' ;;
    nev4) echo 'arm_spe_0/ts_enable=1,inv_event_filter=0x4/u' ;;
    br) echo 'arm_spe_0/ts_enable=1,branch_filter=1/u' ;;
    ld) echo 'arm_spe_0/ts_enable=1,load_filter=1/u' ;;
    st) echo 'arm_spe_0/ts_enable=1,store_filter=1/u' ;;
    lat20) echo 'arm_spe_0/ts_enable=1,min_latency=20/u' ;;
    discard) echo 'arm_spe_0/ts_enable=1,discard=1/u' ;;
    *) echo "record.sh: unknown case $1" >&2; exit 2 ;;
  esac
}
{
  echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
  for c in $cases; do
    echo "perf record -e $(event_of "$c") -c 1024 -m,4 -o /tmp/$c.data -- busybox sh -c 'i=0; while [ \$i -lt 1500 ]; do i=\$((i+1)); done' 2>&1 | sed 's/^/armprof-guest: perf $c: /'"
    echo "echo 'armprof-guest: begin $c'; base64 /tmp/$c.data; echo 'armprof-guest: end $c'"
  done
} >"$work/script"
guest=$(ARMPROF_GUEST_PERF=1 sh "$repo/frontends/qemu-system/guest.sh" "$stack" "$work/script" 2>"$work/guest.err") ||
  skip "the $stack guest's packages: $(tail -n 1 "$work/guest.err")"
kernel=$(sed -n 's/^KERNEL=//p' <<<"$guest")
initrd=$(sed -n 's/^INITRD=//p' <<<"$guest")
timeout 900 "$qemu" -M virt -cpu max,pauth=off,armprof=on -m 1G -nographic -nic none -no-reboot \
  -kernel "$kernel" -initrd "$initrd" -append "console=ttyAMA0 panic=-1 quiet" \
  -plugin "$plugin" >"$work/console" 2>&1 || true
tr -d '\r' <"$work/console" >"$work/out"
grep -a 'armprof-guest: perf \|^vcpu' "$work/out" || true
fail=0
for mode in $cases; do
  sed -n "/^armprof-guest: begin $mode\$/,/^armprof-guest: end $mode\$/p" "$work/out" |
    grep -v '^armprof-guest' | base64 -d >"$work/$mode.data" 2>/dev/null || true
  [ -s "$work/$mode.data" ] || { echo "FAIL: no perf.data for $mode"; fail=1; continue; }
  "$@" report -D -i "$work/$mode.data" >"$work/$mode.dump" 2>/dev/null || true
  pcs=$(grep -Ec ' PC 0x[0-9a-f]+ el[0-3] ' "$work/$mode.dump" || true)
  bad=$(grep -Eic 'bad packet|ARM SPE: .*error' "$work/$mode.dump" || true)
  aux=$(grep -c 'PERF_RECORD_AUX ' "$work/$mode.dump" || true)
  # the event a filter case names, as perf prints it in the Events packet
  case $mode in *8) event=L1D-REFILL ;; *) event=L1D-ACCESS ;; esac
  evs=$(grep -Ec ' EV ' "$work/$mode.dump" || true)
  with=$(grep -E ' EV ' "$work/$mode.dump" | grep -c " $event" || true)
  echo "$mode: $pcs records (PC packets), $bad bad, $aux AUX events, $with of $evs Events packets with $event"
  [ "$bad" = 0 ] || { echo "FAIL: $mode: bad packets"; fail=1; }
  case $mode in
    u | k)
      want=$([ "$mode" = u ] && echo el0 || echo el1)
      other=$(grep -E ' PC 0x[0-9a-f]+ el[0-3] ' "$work/$mode.dump" | grep -vc " $want " || true)
      [ "$pcs" -gt 50 ] || { echo "FAIL: $mode: too few records ($pcs)"; fail=1; }
      [ "$aux" -gt 3 ] || { echo "FAIL: $mode: the 4-page buffer filled only $aux times"; fail=1; }
      [ "$other" = 0 ] || { echo "FAIL: $mode: $other records outside $want"; fail=1; }
      ;;
    ev*)
      [ "$evs" -gt 20 ] && [ "$with" = "$evs" ] ||
        { echo "FAIL: $mode: $with of $evs records have $event, all wanted"; fail=1; }
      ;;
    nev*)
      [ "$evs" -gt 20 ] && [ "$with" = 0 ] ||
        { echo "FAIL: $mode: $with of $evs records have $event, none wanted"; fail=1; }
      ;;
    br | ld | st)
      # the Operation Type packet's class, as perf prints it: B, LD, ST, OTHER...
      ops=$(grep -Eo '^\.  *[0-9a-f]+:  ([0-9a-f]{2} )+ *(B|LD|ST|OTHER|SVE|TME|LDST)( |$)' "$work/$mode.dump" |
        awk '{ print $NF }' | sort | uniq -c | tr '\n' ' ')
      class=$(case $mode in br) echo B ;; ld) echo LD ;; st) echo 'ST|LD AT' ;; esac)
      kept=$(grep -Ec "^\\.  *[0-9a-f]+:  ([0-9a-f]{2} )+ *($class)( |\$)" "$work/$mode.dump" || true)
      echo "$mode: operation types: $ops"
      if ! [ "$kept" -gt 20 ] || [ "$kept" != "$pcs" ]; then
        echo "FAIL: $mode: $kept $class records of $pcs; others:"
        grep -E '^\.  *[0-9a-f]+:  ([0-9a-f]{2} )+ *(B|LD|ST|OTHER|SVE|TME|LDST)( |$)' "$work/$mode.dump" |
          grep -Ev "  ($class)( |\$)" | sort -u -k2 | head -n 5
        fail=1
      fi
      ;;
    lat20)
      tots=$(grep -Eo ' LAT [0-9]+ TOT' "$work/$mode.dump" | awk '{ print $2 }')
      n=$(wc -l <<<"$tots")
      low=$(awk '$1 < 20' <<<"$tots" | wc -l)
      echo "$mode: $n total latencies, $low below 20"
      [ "$n" -gt 20 ] && [ "$low" = 0 ] || { echo "FAIL: lat20: $low of $n below 20"; fail=1; }
      ;;
    discard)
      discarded=$(grep -ao 'discarded [0-9]*' "$work/out" | head -n 1 | cut -d' ' -f2)
      [ "$pcs" = 0 ] || { echo "FAIL: discard: $pcs records reached the buffer"; fail=1; }
      [ "${discarded:-0}" -gt 50 ] ||
        { echo "FAIL: discard: the model discarded ${discarded:-no} samples"; fail=1; }
      ;;
  esac
done
[ "$fail" = 0 ] && echo "ok: perf record ($cases) on the model, decoded by perf $stack"
exit "$fail"
