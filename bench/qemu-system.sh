#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The armprof qemu-system-aarch64 against the same QEMU 10.0 built from the
# same source without the patch (issue 25, part 6; docs/qemu-system.md):
#   boot     the STACK guest from the kernel's start to its power-off, its
#            init loading arm_spe_pmu and nothing recording: best wall time
#            of RUNS on the stock emulator, on armprof's without the plugin
#            and with it (SPE idle), and the slowdowns against stock
#   record   a workload in the guest (busybox gzip of a 6.9 MB file, timed
#            by the guest's /proc/uptime): alone on stock and on armprof's
#            with the plugin; under perf record -e cpu-clock on both (what
#            perf itself costs under TCG); on armprof's under perf record -e
#            arm_spe_0// at the default interval (PMSIDR_EL1's minimum, 768),
#            and, to take that apart, with the largest interval (the
#            plugin's counting alone) and with discard=1 (sampling, no
#            data). Each perf row has the whole command and the workload's
#            own time inside it (perf's start and end are not the workload's)
#   stat     the same workload under perf stat -e cpu-clock on both, and on
#            armprof's under perf stat of the PMU's events (instructions,
#            cycles, branches, branch-misses: the model's PMU, issue 38),
#            against stock under perf stat -e cpu-clock
#   batch=0  the discard and record rows again with every call into the
#            model made at once (the deferred visits off)
#   exact    the record and stat rows again with the plugin in exact mode
#            (mode=exact: every access through the memory hierarchy while
#            a Profiling Buffer or PMU counter is enabled)
#   pcsample the same workload alone under the plugin's host-side PC
#            sampler (pcsample=1000 and 10000: a JTAG probe's PMPCSR
#            reads of every vCPU, issue 43, docs/pc-sampling.md), against
#            stock and against the plugin without it (SPE idle)
#   bench/qemu-system.sh [BUILD [RUNS [STACK]]]
# ARMPROF_BENCH_ONLY=pcsample: the pcsample rows alone (and the two they
# are compared with).
# BUILD: a build folder with the QEMU 10.0 plugin (default build-bench,
# configured and built here when missing); STACK 6.1 or 7.3 (default).
# Both emulators are built when missing (frontends/qemu-system/build.sh,
# with --stock); the guest comes from frontends/qemu-system/guest.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
runs=${2:-3}
stack=${3:-7.3}
if [ ! -f "$build/frontends/qemu/libarmprof_qemu.so" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMPROF_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j2 --target armprof_qemu >/dev/null
fi
plugin=$build/frontends/qemu/libarmprof_qemu.so
built=$(sh frontends/qemu-system/build.sh)
armprof=$(sed -n 's/^QEMU_SYSTEM_AARCH64=//p' <<<"$built")
# this clone's libarmprof.so.0, whichever clone copied its own last into the
# emulator's RUNPATH folder (frontends/qemu-system/build.sh)
export LD_LIBRARY_PATH=$(sed -n 's/^ARMPROF_LIBRARY_PATH=//p' <<<"$built")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
stock=$(sh frontends/qemu-system/build.sh --stock | sed -n 's/^QEMU_SYSTEM_AARCH64=//p')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

guest() { # SCRIPT: KERNEL and INITRD of the stack's guest with perf
  local g
  g=$(ARMPROF_GUEST_PERF=1 sh frontends/qemu-system/guest.sh "$stack" "$1" 2>/dev/null)
  kernel=$(sed -n 's/^KERNEL=//p' <<<"$g")
  initrd=$(sed -n 's/^INITRD=//p' <<<"$g")
}
boot() { # QEMU CPU [PLUGIN]: the guest once, its console to $work/console
  local q=$1 cpu=$2
  shift 2
  timeout 900 "$q" -M virt -cpu "$cpu" -m 1G -nographic -nic none -no-reboot \
    -kernel "$kernel" -initrd "$initrd" -append "console=ttyAMA0 panic=-1 quiet" \
    "$@" >"$work/console" 2>&1 || true
}
best() { # best wall seconds of RUNS boots
  local b=""
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s.%N)
    boot "$@"
    e=$(date +%s.%N)
    b=$(awk -v b="$b" -v t="$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')" \
      'BEGIN { print (b == "" || t < b) ? t : b }')
  done
  echo "$b"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
only=${ARMPROF_BENCH_ONLY:-}
if [ -z "$only" ]; then
echo "boot to power-off, guest $stack, best of $runs (seconds, slowdown against stock)"
: >"$work/none"
guest "$work/none"
t_stock=$(best "$stock" max,pauth=off)
t_bare=$(best "$armprof" max,pauth=off,armprof=on)
t_idle=$(best "$armprof" max,pauth=off,armprof=on -plugin "$plugin")
printf '  %-34s %7.2f\n' "stock QEMU 10.0" "$t_stock"
printf '  %-34s %7.2f  %sx\n' "armprof, no plugin" "$t_bare" "$(ratio "$t_bare" "$t_stock")"
printf '  %-34s %7.2f  %sx\n' "armprof with the plugin, SPE idle" "$t_idle" \
  "$(ratio "$t_idle" "$t_stock")"
fi

# the workload, timed in the guest, best of RUNS in one boot: the whole
# command, and the workload's own time inside it (perf's start and end,
# the same for every event, are not the workload's)
cat >"$work/record" <<EOF
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
seq 1 1000000 >/tmp/in
up() { cut -d' ' -f1 /proc/uptime; }
run() {
  for i in \$(seq $runs); do
    s=\$(up)
    "\$@" sh -c 'a=\$(cut -d" " -f1 /proc/uptime); gzip -c /tmp/in >/dev/null
      b=\$(cut -d" " -f1 /proc/uptime); echo "\$a \$b" >/tmp/w' >/dev/null 2>&1
    e=\$(up)
    echo "armprof-bench: \$s \$e \$(cat /tmp/w)"
  done
}
echo "armprof-bench: mode alone"; run
echo "armprof-bench: mode clock"; run perf record -e cpu-clock -o /tmp/c.data --
echo "armprof-bench: mode statclock"; run perf stat -e cpu-clock --
echo "armprof-bench: mode statpmu"; run perf stat -e instructions,cycles,branches,branch-misses --
if [ -d /sys/bus/event_source/devices/arm_spe_0 ]; then
  echo "armprof-bench: mode count"; run perf record -e arm_spe_0/period=16777215/ -o /tmp/p.data --
  echo "armprof-bench: mode discard"; run perf record -e arm_spe_0/discard=1/ -o /tmp/p.data --
  echo "armprof-bench: mode record"; run perf record -e arm_spe_0// -o /tmp/p.data --
  perf report -D -i /tmp/p.data 2>/dev/null | grep -c ' PC 0x' | sed 's/^/armprof-bench: records /'
fi
echo "armprof-bench: mode end"
EOF
fastest() { # MODE [own]: the best of the console's times for MODE, the
  # whole command's or (own) the workload's inside it
  sed -n "/armprof-bench: mode $1/,/armprof-bench: mode /p" "$work/console" | tr -d '\r' |
    awk -v own="${2:-}" '/armprof-bench: [0-9]/ {
      t = own == "" ? $3 - $2 : $5 - $4; if (b == "" || t < b) b = t } END { print b }'
}
row() { # LABEL SECONDS [CLOCK]: a row and its slowdowns
  printf '  %-50s %6.2f  %5sx' "$1" "$2" "$(ratio "$2" "$w_stock")"
  if [ -n "${3:-}" ]; then printf '  %5sx' "$(ratio "$2" "$3")"; fi
  echo
}
if [ -z "$only" ]; then
guest "$work/record"
boot "$stock" max,pauth=off
w_stock=$(fastest alone)
c_stock=$(fastest clock)
co_stock=$(fastest clock own)
s_stock=$(fastest statclock)
so_stock=$(fastest statclock own)
boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin"
w_alone=$(fastest alone)
records=$(tr -d '\r' <"$work/console" | sed -n 's/^armprof-bench: records //p' | tail -n 1)
echo "gzip of 1000000 lines in the guest, best of $runs (guest seconds; against stock alone;"
echo "against the same on stock under perf record -e cpu-clock)"
printf '  %-50s %6.2f\n' "stock QEMU 10.0" "$w_stock"
row "armprof with the plugin, SPE idle" "$w_alone"
row "stock, perf record -e cpu-clock" "$c_stock"
row "  the workload inside it" "$co_stock"
row "stock, perf stat -e cpu-clock" "$s_stock"
row "  the workload inside it" "$so_stock"
echo "  (last column: against the same on stock under perf stat -e cpu-clock)"
row "armprof, perf stat -e cpu-clock" "$(fastest statclock)" "$s_stock"
row "  the workload inside it" "$(fastest statclock own)" "$so_stock"
row "armprof, perf stat of the model's PMU (4 events)" "$(fastest statpmu)" "$s_stock"
row "  the workload inside it" "$(fastest statpmu own)" "$so_stock"
perf_rows() { # PREFIX MODE...: each perf record MODE's rows, the whole
  # command's and the workload's, against stock under perf record -e cpu-clock
  local prefix=$1 m label
  shift
  for m in "$@"; do
    case $m in
    clock) label="$prefix, perf record -e cpu-clock" ;;
    count) label="$prefix, arm_spe_0/period=16777215/ (counting)" ;;
    discard) label="$prefix, arm_spe_0/discard=1/ (sampling)" ;;
    record) label="$prefix, arm_spe_0// (${records:-no} records)" ;;
    esac
    row "$label" "$(fastest "$m")" "$c_stock"
    row "  the workload inside it" "$(fastest "$m" own)" "$co_stock"
  done
}
echo "  (last column: against the same on stock under perf record -e cpu-clock)"
perf_rows armprof clock count discard record
# the same with every call into the model made at once (batch=0), against
# the deferred visits above (docs/qemu-system.md, "Deferred visits")
boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin,batch=0"
echo "  (the plugin with batch=0, every call at once; last column as above)"
perf_rows batch=0 discard record
# the plugin's exact mode: every vCPU's access through the memory
# hierarchy while the instrumentation is on (docs/memory-model.md)
boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin,mode=exact"
records=$(tr -d '\r' <"$work/console" | sed -n 's/^armprof-bench: records //p' | tail -n 1)
echo "  (the plugin in exact mode; last column as above)"
row "exact mode, perf stat of the model's PMU (4 events)" "$(fastest statpmu)" "$s_stock"
perf_rows "exact mode" count discard record
fi

# The host-side PC sampler: the workload alone (the record script without
# its perf modes), the plugin reading every vCPU's PMPCSR HZ times a second
# of host time; the samples it wrote, from its summary on the console
sed '/mode clock/,/^fi$/d' "$work/record" >"$work/alone"
guest "$work/alone"
if [ -n "$only" ]; then
  boot "$stock" max,pauth=off
  w_stock=$(fastest alone)
  boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin"
  w_alone=$(fastest alone)
fi
echo "gzip alone under the PC sampler, best of $runs (guest seconds; against stock alone: $w_stock;"
echo "against armprof with the plugin, SPE idle: $w_alone)"
for hz in 1000 10000; do
  boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin,pcsample=$hz,out=$work/pcs"
  n=$(tr -d '\r' <"$work/console" | sed -n 's/^wrote .*pcsr[.]perf[.]data (\([0-9]*\) PC samples)$/\1/p')
  row "armprof, pcsample=$hz (${n:-no} samples in the boot)" "$(fastest alone)" "$w_alone"
done
