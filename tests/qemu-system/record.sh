#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf record -e arm_spe_0// in the guest, on the model (issue 25, part 5):
# the STACK guest with its own perf runs a workload under perf record once
# per CASE, with a 4-page AUX buffer so that the driver's buffer-full
# handling (PMBIRQ) runs many times (64 pages for the mix cases below); the plugin gives the model the
# operations (system mode). Each perf.data comes out through the console
# (base64) and is checked on the host twice: with the stack's own perf
# (Debian 12's; 7.3 under qemu-aarch64), records decode with no bad packet;
# with armprof's reader and decoder (CHECKER, tests/qemu-system/spe_filter.c),
# every record obeys what the case asked the driver for, as the manual's
# filters define it (SPECollectRecord()), and the records are not too few;
# `armprof report` of the same build reads the file and counts as many.
# Workload sh is a busybox shell loop; mix is tests/qemu-system/mix.S, whose
# 25-instruction loop has every operation type.
#   u        /u: every PC packet at EL0 (PMSCR_EL1.E0SPE, exclude_kernel)
#   k        /k: every PC packet at EL1 (E1SPE, exclude_user)
#   ev4      event_filter=0x4: every record's Events packet has L1D access
#            (PMSEVFR_EL1.E[2], from FEAT_SPEv1p4: a sample is recorded only
#            with every event the filter names, SPEFilterByEvents())
#   ev8      event_filter=0x8: every record has L1D refill (E[3], which
#            Linux 6.1 allows; it refuses E[2]), on tests/qemu/footprint.c
#            reading 8 MB a line at a time, 4 times: every load after the
#            first pass misses the 64 KB L1D and the 1 MB L2 of exact
#            mode's defaults (docs/memory-model.md), and hits the SLC
#   nev4     inv_event_filter=0x4: no record has L1D access (PMSNEVFR_EL1)
#   br       branch_filter=1: every record is a branch's (PMSFCR_EL1.FT and B:
#            only branches are recorded)
#   ld, st   load_filter=1, store_filter=1: every record a load's, a store's
#            (PMSFCR_EL1.LD, ST; "for filtering purposes, store operations
#            include ... all atomic operations": an atomic's record says LD
#            AT, and the store filter keeps it)
#   lat20    min_latency=20: every record's total latency is at least 20
#            (PMSLATFR_EL1.MINLAT: samples with less are not recorded), on
#            footprint as ev8: its loads from the SLC take 1 + 76 cycles;
#            an L1D hit 1 + 4, an L2 hit 1 + 11, and are not recorded.
#            (mix's 1 MB buffer, which it only reads, is the kernel's one
#            zero page in every page: one 4 KB of physical lines, L1D hits)
#   discard  discard=1: the buffer gets no record (PMBLIMITR_EL1.FM Discard),
#            while the model still samples (the plugin's summary: discarded)
#   eret     branch_filter=1 over a loop of system calls: branches only,
#            among them the kernel's exception returns to EL0 (their target
#            address at EL0, taken: D17.6.3 treats a sampled exception
#            return as an unconditional branch). Not with /k: SPEBranch()
#            runs at the level an exception return goes to, where /k has
#            profiling disabled, so it records no branch
# Every case: no unconditional branch says "not taken" (D18.2.6).
# And on mix, with FEAT_SPE_EFT's masks (SPEFilterByType(): the types
# whose mask bit is 0 are ORed, those whose mask bit is 1 must each match,
# 1 wanted and 0 refused):
#   jit      jitter=1 (PMSIRR_EL1.RND, or with FEAT_SPE_ERnd the random
#            PMSICR_EL1.ECOUNT): every type recorded, loads from data
#            source 0 among them, and no PC has more than a fifth of the
#            records: the random part of each interval moves the sample
#            about the 25 instructions
#   nojit    jitter=0, with a 64-page buffer that never fills: a sample
#            every 1025 operations (SPEToCollectSample(): INTERVAL 1024, and
#            the reload takes one), 41 iterations, at the same instruction:
#            one PC has most of the records. The first load of each of the
#            256 pages of mix's buffer takes a translation fault, and runs
#            again after it: an operation more each time (the aborted one
#            is in the population, "whether the sampled operation generated
#            an exception", D17.6), which moves the sample one instruction.
#            Alone (CASES "nojit"), the population of the plugin's summary
#            is also checked: mix's 25 * 50000 operations, plus at most 1000
#            for its start, its end and the faults. The instructions after a
#            faulting load in its TB did not run, and must not be counted
#            (9 for each of 256 pages, +2304)
#   nbr      branch_filter_mask=1: no branch (TYPE.B 0, TYPEm.B 1)
#   ldonly   load_filter=1,load_filter_mask=1,store_filter_mask=1: loads
#            that are not stores, so no atomic
#   atomic   load and store filters and masks all 1: loads that are also
#            stores, the atomics that return a value (LD AT) only
#   simd     simd_filter=1: SIMD operations only (PMSFCR_EL1.SIMD)
#   fp       float_filter=1: floating-point operations only (PMSFCR_EL1.FP)
#   fpnosimd float_filter=1,float_filter_mask=1,simd_filter_mask=1: FP and
#            not SIMD (fadd d0 and str d0, not fmla v3.4s nor ldr q4)
#   nosimd   simd_filter_mask=1: no SIMD operation
#   nodram   inv_data_src_filter=0x4000: no load whose data source is 0xe
#            (DRAM in the Neoverse encoding, docs/memory-model.md), and
#            loads from others (L1, 0x0) still recorded (PMSFCR_EL1.FDS
#            with PMSDSFR_EL1 = NOT bit 14, the driver's inversion)
#   noslc    inv_data_src_filter=0x800 over footprint (8 MB, twice: its
#            loads from the SLC, 0xb) then mix (its loads from the L1,
#            0x0), in exact mode: no load whose data source is 0xb, and
#            mix's loads from the L1 still recorded
#   smp2     a two-CPU guest (the case alone in CASES boots with -smp 2),
#            perf record -a -e arm_spe_0//u over two mix processes at once:
#            one buffer per CPU, each CPU's AUX data with records, each
#            record's PC at EL0
# The u and k cases also want several AUX events (the buffer filled and was
# serviced). Skipped with the reason when a part cannot be had.
# The cases that filter by what only exact mode models (ev4, ev8, nev4:
# the L1D events; lat20: the latency; jit's Data Source 0 and nodram: the
# Data Source) run with PLUGIN,mode=exact: fast mode models no memory and
# says nothing of it (docs/memory-model.md).
#   record.sh REPO STACK PLUGIN[,OPTIONS] CHECKER MIX FOOTPRINT "CASES" PERF_COMMAND...
# ARMPROF_RECORD_KEEP=DIR keeps the console and each case's perf.data there.
set -euo pipefail
repo=$1 stack=$2 plugin=$3 checker=$4 mix=$5 footprint=$6 cases=$7
shift 7
. "$(dirname "$0")/../skip.sh"
[ -f "${plugin%%,*}" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$checker" ] || skip "no checker ($checker)"
# the armprof command of the same build (tests/spe_filter beside ../armprof)
cli=$(dirname "$checker")/../armprof
. "$(dirname "$0")/guest_run.sh"
guest_prepare "$stack" "$@"
# each case's perf event, workload and checks (spe_filter's arguments)
uses_mix=0
for c in $cases; do case $c in smp2 | jit | nojit | nbr | ldonly | atomic | simd | fp | fpnosimd | nosimd | nodram | noslc) uses_mix=1 ;; esac; done
if [ "$uses_mix" = 1 ]; then
  [ -f "$mix" ] || skip "no mix program ($mix): it needs aarch64-linux-gnu-as and -ld"
  loop=$(nm "$mix" | awk '$3 == "loop" { print "0x" $1 }')
  [ -n "$loop" ] || { echo "FAIL: no symbol loop in $mix"; exit 1; }
  # ldr q4 is LD SIMD, str d0 ST FP (D17.8.3; tests/qemu-system/mix.S)
  mixpcs="--pc $(printf '0x%x' $((loop + 0x1c))) 0x12 --pc $(printf '0x%x' $((loop + 0x20))) 0xc"
fi
uses_footprint=0
for c in $cases; do case $c in ev8 | lat20 | noslc) uses_footprint=1 ;; esac; done
[ "$uses_footprint" = 0 ] || [ -x "$footprint" ] ||
  skip "no footprint program ($footprint): it needs aarch64-linux-gnu-gcc"
spe='arm_spe_0/ts_enable=1'
sh_loop="busybox sh -c 'i=0; while [ \$i -lt 1500 ]; do i=\$((i+1)); done'"
case_of() {
  workload=$sh_loop pages=4 all=
  case $1 in
    u) event="$spe,pa_enable=1,jitter=1/u" checks="--el 0 --records 50 1000000" ;;
    k) event="$spe,pa_enable=1,jitter=1/k" checks="--el 1 --records 50 1000000" ;;
    ev4) event="$spe,event_filter=0x4/u" checks="--events-all 0x4 --records 20 1000000" ;;
    nev4) event="$spe,inv_event_filter=0x4/u" checks="--events-none 0x4 --records 20 1000000" ;;
    br) event="$spe,branch_filter=1/u" checks="--type 0x1 0 --records 20 1000000" ;;
    ld) event="$spe,load_filter=1/u" checks="--type 0x2 0 --records 20 1000000" ;;
    st) event="$spe,store_filter=1/u" checks="--type 0x4 0 --records 20 1000000" ;;
    discard) event="$spe,discard=1/u" checks="--records 0 0" ;;
    ev8 | lat20)
      # 8 MB read 4 times, in a 64-page buffer that does not fill
      workload="/usr/local/bin/footprint 8388608 4" pages=64
      case $1 in
        ev8) event="$spe,jitter=1,event_filter=0x8/u" checks="--events-all 0x8" ;;
        lat20) event="$spe,jitter=1,min_latency=20/u" checks="--min-latency 20" ;;
      esac
      checks="$checks --want LD 20 --records 20 1000000"
      ;;
    noslc)
      # footprint's loads from the SLC (0xb), then mix's from the L1 (0x0)
      workload="sh -c '/usr/local/bin/footprint 8388608 2; /usr/local/bin/mix'" pages=64
      event="$spe,jitter=1,inv_data_src_filter=0x800/u"
      checks="--ds-reject 0x800 --want DS0 20 --records 20 1000000"
      ;;
    eret)
      # system calls in a loop (a redirection: open, dup, close, read):
      # their exception returns are sampled kernel branches to EL0
      event="$spe,branch_filter=1,jitter=1/" pages=64
      workload="busybox sh -c 'i=0; while [ \$i -lt 300 ]; do i=\$((i+1)); read x </proc/self/stat; done'"
      checks="--type 0x1 0 --want ERET 3 --records 20 1000000"
      ;;
    *)
      # a 64-page buffer that does not fill: whether perf drains a small
      # one in time depends on the host's load, and what it loses would
      # make the kinds each case wants too few (u and k test PMBIRQ)
      workload=/usr/local/bin/mix pages=64
      case $1 in
        jit) event="$spe,jitter=1/u" checks="--top-pc 0 20 --want B 20 --want LD 20 --want ST 20
          --want FP 20 --want SIMD 20 --want AT 10 --want DS0 10" ;;
        nojit) event="$spe,jitter=0/u" checks="--top-pc 50 100" ;;
        nbr) event="$spe,jitter=1,branch_filter_mask=1/u" checks="--type 0 0x1 --want LD 20" ;;
        ldonly)
          event="$spe,jitter=1,load_filter=1,load_filter_mask=1,store_filter_mask=1/u"
          checks="--type 0x2 0x6 --want LD 20"
          ;;
        atomic)
          event="$spe,jitter=1,load_filter=1,load_filter_mask=1,store_filter=1,store_filter_mask=1/u"
          checks="--type 0x6 0x6 --want AT 20"
          ;;
        simd) event="$spe,jitter=1,simd_filter=1/u" checks="--type 0x10 0 --want SIMD 20" ;;
        fp) event="$spe,jitter=1,float_filter=1/u" checks="--type 0x8 0 --want FP 20" ;;
        fpnosimd)
          event="$spe,jitter=1,float_filter=1,float_filter_mask=1,simd_filter_mask=1/u"
          checks="--type 0x8 0x18 --want FP 20"
          ;;
        nosimd) event="$spe,jitter=1,simd_filter_mask=1/u" checks="--type 0 0x10 --want LD 20" ;;
        nodram) event="$spe,jitter=1,inv_data_src_filter=0x4000/u" checks="--ds-reject 0x4000 --want LD 20" ;;
        smp2)
          event="$spe,jitter=1/u" checks="--el 0 --cpus 2" all=-a
          workload="sh -c '/usr/local/bin/mix & /usr/local/bin/mix; wait'"
          ;;
        *) echo "record.sh: unknown case $1" >&2; exit 2 ;;
      esac
      # the addresses are mix's: not with -a, where other programs run too
      [ -n "$all" ] || checks="$checks $mixpcs"
      checks="$checks --records 20 1000000"
      ;;
  esac
}
{
  echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
  for c in $cases; do
    case_of "$c"
    echo "perf record $all -e $event -c 1024 -m,$pages -o /tmp/$c.data -- $workload 2>&1 | sed 's/^/armprof-guest: perf $c: /'"
    guest_send_file "$c" "/tmp/$c.data"
  done
} >"$work/script"
smp=1
[ "$cases" != smp2 ] || smp=2
files=""
[ "$uses_mix" = 0 ] || files="$mix"
[ "$uses_footprint" = 0 ] || files="$files $footprint"
guest_run "$stack" "$plugin" "$smp" "$files"
grep -a 'armprof-guest: perf \|^vcpu\|^armprof qemu plugin' "$work/out" || true
fail=0
for mode in $cases; do
  guest_received "$mode"
  [ -s "$work/$mode.data" ] || { echo "FAIL: no perf.data for $mode"; fail=1; continue; }
  "$@" report -D -i "$work/$mode.data" >"$work/$mode.dump" 2>/dev/null || true
  pcs=$(grep -Ec ' PC 0x[0-9a-f]+ el[0-3] ' "$work/$mode.dump" || true)
  bad=$(grep -Eic 'bad packet|ARM SPE: .*error' "$work/$mode.dump" || true)
  aux=$(grep -c 'PERF_RECORD_AUX ' "$work/$mode.dump" || true)
  # the event a filter case names, as perf prints it in the Events packet
  case $mode in *8) event=L1D-REFILL ;; *) event=L1D-ACCESS ;; esac
  evs=$(grep -Ec ' EV ' "$work/$mode.dump" || true)
  with=$(grep -E ' EV ' "$work/$mode.dump" | grep -c " $event" || true)
  echo "$mode: perf: $pcs records (PC packets), $bad bad, $aux AUX events, $with of $evs Events packets with $event"
  [ "$bad" = 0 ] || { echo "FAIL: $mode: bad packets"; fail=1; }
  case_of "$mode"
  # shellcheck disable=SC2086 # the checks are words
  if ! "$checker" "$work/$mode.data" $checks >"$work/$mode.check" 2>&1; then fail=1; fi
  sed "s/^/$mode: armprof: /" "$work/$mode.check"
  # and armprof report, the command a user runs on it, counts the same
  if [ -x "$cli" ]; then
    if "$cli" report "$work/$mode.data" >"$work/$mode.report" 2>&1; then
      reported=$(awk '$1 == "records" { print $2; exit }' "$work/$mode.report")
      checked=$(sed -n 's/^records \([0-9]*\) .*/\1/p' "$work/$mode.check")
      [ "$reported" = "$checked" ] ||
        { echo "FAIL: $mode: armprof report says ${reported:-no} records, spe_filter $checked"; fail=1; }
    else
      echo "FAIL: $mode: armprof report: $(tail -n 1 "$work/$mode.report")"
      fail=1
    fi
  fi
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
          grep -Ev "  ($class)( |\$)" | sort -u -k2 | sed -n '1,5p'
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
    nojit)
      if [ "$cases" = nojit ]; then
        population=$(grep -ao 'population [0-9]*' "$work/out" | sed -n '1,1p' | cut -d' ' -f2)
        echo "nojit: population ${population:-none}, mix runs 1250000 operations and its start and end"
        [ "${population:-0}" -ge 1250000 ] && [ "${population:-0}" -le 1251000 ] ||
          { echo "FAIL: nojit: population ${population:-none}, wanted 1250000 to 1251000"; fail=1; }
      fi
      ;;
    discard)
      discarded=$(grep -ao 'discarded [0-9]*' "$work/out" | sed -n '1,1p' | cut -d' ' -f2)
      [ "$pcs" = 0 ] || { echo "FAIL: discard: $pcs records reached the buffer"; fail=1; }
      [ "${discarded:-0}" -gt 50 ] ||
        { echo "FAIL: discard: the model discarded ${discarded:-no} samples"; fail=1; }
      ;;
  esac
done
# Deferred visits (docs/qemu-system.md): at EL0, with no PMU counter
# counting, the plugin queues its calls for samples the guest cannot see
# before the next; the summary counts them ("deferred", every vCPU's).
# Every case but k (EL1) and discard (no buffer writes: PMBPTR_EL1 stays
# at a page's start, where nothing is queued) records at EL0.
deferred=$(grep -ao 'deferred [0-9]*' "$work/out" | awk '{ s += $2 } END { print s + 0 }')
if [[ "$plugin" == *batch=0* ]]; then
  [ "$deferred" = 0 ] || { echo "FAIL: batch=0, yet $deferred samples deferred"; fail=1; }
elif [ -n "$(tr ' ' '\n' <<<"$cases" | grep -Evx 'k|discard')" ]; then
  echo "deferred samples: $deferred"
  [ "$deferred" -gt 0 ] || { echo "FAIL: no sample deferred at EL0"; fail=1; }
fi
[ "$fail" = 0 ] && echo "ok: perf record ($cases) on the model, decoded by perf $stack"
exit "$fail"
