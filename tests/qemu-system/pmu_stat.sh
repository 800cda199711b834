#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The guest's PMU is the model's (issue 38): in the STACK guest, with its
# own perf, on tests/qemu/loop.S (static, no C library; what it does is
# read off its text: the count=EVENT=N arguments, the same as the user-mode
# test's, tests/qemu/run.sh):
#   - the arm_pmuv3 driver's events (sysfs events/) are the events the
#     model's PMCEID0_EL0 and PMCEID1_EL0 report (pmu_caps, on a PE of the
#     glue's configuration), no more and no fewer, but for SW_INCR (0x0000)
#     and CHAIN (0x001E), which neither kernel's driver lists (observed;
#     docs/spec-notes.md);
#   - perf stat counts at EL0 (:u) exactly the program's instructions (both
#     the generic `instructions` and inst_retired), branches (br_retired),
#     loads (ld_retired), stores (st_retired), and loads + stores
#     (mem_access); l1d_cache counts 0: the plugin in system mode models no
#     cache (docs/memory-model.md, what each mode claims), so the kernel's
#     counter of the event, programmed, sees none;
#   - perf record -e instructions:u -c 100003 takes floor(instructions /
#     100003) samples (the counter overflows once per period: PMUIRQ
#     through the GIC, the driver's overflow handler), every one in loop,
#     the program's hot loop, as perf report says (--symfs);
#   - with a period of 2^32 + 100 it takes none: the driver uses 64-bit
#     counters (PMCR_EL0.LP with FEAT_PMUv3p5, ID_AA64DFR0_EL1.PMUVer from
#     the model), which a 32-bit overflow would have sampled after 100;
#   - booted again with armprof-preset=armv8.2-spe (FEAT_PMUv3p1: 32-bit
#     counters, no PMCR_EL0.LP), the driver's events are that PE's, and its
#     64-bit events (`long`, config1 bit 0) are pairs of counters whose odd
#     one counts CHAIN: perf stat of them counts as before, and perf
#     record -c 100003 of one samples 9 times (each overflow the even
#     counter's wrap carried by CHAIN into the odd one, whose overflow
#     raises PMUIRQ).
#   pmu_stat.sh REPO STACK PLUGIN LOOP PMU_CAPS COUNTS PERF_COMMAND...
#     COUNTS: "count=instructions=N count=branches=N ..." (one argument)
# ARMPROF_RECORD_KEEP=DIR keeps the console and the perf.data files there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 plugin=$3 loop=$4 pmu_caps=$5 counts=$6
shift 6
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$loop" ] || skip "no loop program ($loop): it needs aarch64-linux-gnu-as and -ld"
. "$(dirname "$0")/guest_run.sh"
guest_prepare "$stack" "$@"
perf=("$@")
want() { sed -n "s/.*count=$1=\([0-9]*\).*/\1/p" <<<"$counts"; }
instructions=$(want instructions) branches=$(want branches) loads=$(want loads) stores=$(want stores)
[ -n "$instructions" ] && [ -n "$stores" ] || { echo "FAIL: no counts in '$counts'"; exit 1; }
prog=/usr/local/bin/loop
mkdir -p "$work/symfs/usr/local/bin"
cp "$loop" "$work/symfs$prog"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The guest's script: its driver's events, then COMMANDS (perf stat lines
# as "stat", perf record NAME's as "perf NAME", and NAME's file sent back)
guest_script() { # SUFFIX ("" or ,long) RECORDS...: each NAME:PERIOD:EVENT
  local suffix=$1 r name period event
  shift
  echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
  echo 'd=$(ls -d /sys/bus/event_source/devices/armv8_pmuv3* | head -n 1); p=${d##*/}'
  echo 'echo "armprof-guest: pmu $p"'
  echo 'for f in "$d"/events/*; do echo "armprof-guest: sysfs $(cat "$f") ${f##*/}"; done'
  # at most 6 counters a run (PMCR_EL0.N; a 64-bit event of a PMUv3p1 PE
  # takes two), so that perf multiplexes none
  if [ -z "$suffix" ]; then
    echo "perf stat -x ';' -e instructions:u,\$p/inst_retired/u,\$p/br_retired/u,\$p/ld_retired/u,\$p/st_retired/u,cycles:u $prog 2>&1 | sed 's/^/armprof-guest: stat /'"
    echo "perf stat -x ';' -e \$p/mem_access/u,\$p/l1d_cache/u $prog 2>&1 | sed 's/^/armprof-guest: stat /'"
  else
    echo "perf stat -x ';' -e \$p/inst_retired$suffix/u,\$p/br_retired$suffix/u,\$p/ld_retired$suffix/u $prog 2>&1 | sed 's/^/armprof-guest: stat /'"
    echo "perf stat -x ';' -e \$p/st_retired$suffix/u,\$p/mem_access$suffix/u $prog 2>&1 | sed 's/^/armprof-guest: stat /'"
  fi
  for r in "$@"; do
    IFS=: read -r name period event <<<"$r"
    echo "perf record -e $event -c $period -o /tmp/$name.data $prog 2>&1 | sed 's/^/armprof-guest: perf $name: /'"
    guest_send_file "$name" "/tmp/$name.data"
  done
}

# the driver's events, against PMCEID<n>_EL0's of PRESET's PE
check_events() { # PRESET
  "$pmu_caps" "$1" | grep '^event=' | grep -v -x 'event=0x0000\|event=0x001e' | sort >"$work/want.events"
  grep -a '^armprof-guest: sysfs ' "$work/out" | awk '{ print $3 }' | sed 's/,.*//' | sort -u >"$work/got.events"
  if [ ! -s "$work/got.events" ]; then
    bad "$1: the guest's driver shows no events"
  elif ! diff "$work/want.events" "$work/got.events" >"$work/events.diff"; then
    bad "$1: the driver's events are not PMCEID<n>_EL0's (< the model's, > the driver's): $(tr '\n' ' ' <"$work/events.diff")"
  else
    echo "ok: $1: the driver lists the $(wc -l <"$work/got.events") events PMCEID0_EL0 and PMCEID1_EL0 report"
  fi
}

# perf stat -x ';': value;unit;event;run time;share; the value of the event
# named e (instructions:u) or PMU/e.../u, counted the whole run (share
# 100.00: not scaled)
stat_of() {
  awk -F';' -v e="$1" '$1 ~ /^armprof-guest: stat / && ($3 == e || index($3, "/" e "/") || index($3, "/" e ",")) {
    sub(/^armprof-guest: stat /, "", $1); print ($5 == "100.00" ? $1 : $1 " (counted " $5 "%)"); exit }' "$work/out"
}
check_stat() { # EVENT=N...
  local c ev n got
  for c in "$@"; do
    ev=${c%%=*} n=${c#*=}
    got=$(stat_of "$ev")
    [ "$got" = "$n" ] && echo "ok: perf stat $ev $got" || bad "perf stat $ev ${got:-none}, the program does $n"
  done
}

# NAME.data: how many samples perf report finds (empty: no file)
samples_of() {
  guest_received "$1"
  [ -s "$work/$1.data" ] || { bad "$1: no perf.data"; return 0; }
  "${perf[@]}" report -i "$work/$1.data" --stdio --sort sym --symfs "$work/symfs" >"$work/$1.report" 2>"$work/$1.err" ||
    bad "$1: perf report failed: $(tail -n 1 "$work/$1.err")"
  sed -n 's/^# Samples: \([0-9]*\).*/\1/p' "$work/$1.report" | sed -n '1,1p'
}
check_period() { # NAME [MOST]: one sample a period of 100003, every one in
  # loop: floor(instructions / 100003) samples, or up to MOST
  local samples least most share sym
  samples=$(samples_of "$1")
  [ -s "$work/$1.data" ] || return 0
  least=$((instructions / 100003)) most=${2:-$((instructions / 100003))}
  [ "${samples:-0}" -ge "$least" ] && [ "${samples:-0}" -le "$most" ] &&
    echo "ok: $1: perf record -c 100003: $samples samples" ||
    bad "$1: perf record -c 100003: ${samples:-no} samples, the counter overflows $least to $most times"
  read -r share _ sym < <(grep -E '^ +[0-9.]+%' "$work/$1.report" | sed -n '1,1p') || true
  [ "${sym:-}" = loop ] && [ "${share:-}" = "100.00%" ] && echo "ok: $1: every sample in loop" ||
    bad "$1: perf report puts '${share:-} ${sym:-}' first, not '100.00% loop'"
}

# the default preset: FEAT_PMUv3p9, 64-bit counters
guest_script "" period:100003:instructions:u long:4294967396:instructions:u \
  cycles:100003:cycles:u >"$work/script"
guest_run "$stack" "$plugin" 1 "$work/symfs$prog"
grep -a 'armprof-guest: pmu\|armprof-guest: stat\|armprof-guest: perf\|^vcpu' "$work/out" || true
check_events armv9.4-all
check_stat "instructions:u=$instructions" "inst_retired=$instructions" "br_retired=$branches" \
  "ld_retired=$loads" "st_retired=$stores" "mem_access=$((loads + stores))" \
  "l1d_cache=0"
check_period period
# every operation takes at least a cycle (the plugin's timing: one a run's
# operation, the timing model's for the others: its latencies, at most a few
# hundred cycles, at the few operations a visit retires one by one; one an
# exception), so the cycle counter (PMCCNTR_EL0) overflows at least as often
# as the instruction counter, and here at most once more (1000 cycles more)
cycles=$(stat_of cycles:u)
if [ -n "$cycles" ] && [ "$cycles" -ge "$instructions" ] 2>/dev/null; then
  echo "ok: perf stat cycles:u $cycles, at least the $instructions instructions"
  check_period cycles $(((instructions + 1000) / 100003))
else
  bad "perf stat cycles:u ${cycles:-none}, fewer than the $instructions instructions"
fi
n=$(samples_of long)
if [ -s "$work/long.data" ]; then
  [ "${n:-0}" = 0 ] && echo "ok: a period of 2^32 + 100 takes no sample (64-bit counters)" ||
    bad "a period of 2^32 + 100 took ${n} samples: the counter overflowed at 32 bits"
fi

# FEAT_PMUv3p1: the driver chains counters for its 64-bit events
guest_script ,long "chain:100003:\$p/inst_retired,long/u" >"$work/script"
guest_run "$stack" "$plugin" 1 "$work/symfs$prog" armprof-preset=armv8.2-spe
grep -a 'armprof-guest: stat\|armprof-guest: perf\|^vcpu' "$work/out" || true
check_events armv8.2-spe
check_stat "inst_retired=$instructions" "br_retired=$branches" "ld_retired=$loads" \
  "st_retired=$stores" "mem_access=$((loads + stores))"
check_period chain
[ "$fail" = 0 ] && echo "ok: perf $stack counts and samples loop on the model's PMU"
exit "$fail"
