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
#            perf itself costs under TCG: its start, its end, its writes);
#            under perf record -e arm_spe_0// at the default interval
#            (PMSIDR_EL1's minimum, 768) on armprof's
#   bench/qemu-system.sh [BUILD [RUNS [STACK]]]
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
armprof=$(sh frontends/qemu-system/build.sh | sed -n 's/^QEMU_SYSTEM_AARCH64=//p')
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

# the workload, timed in the guest, best of three in one boot
cat >"$work/record" <<'EOF'
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
seq 1 1000000 >/tmp/in
up() { cut -d' ' -f1 /proc/uptime; }
run() {
  for i in 1 2 3; do
    s=$(up); "$@" >/dev/null 2>&1; e=$(up)
    echo "armprof-bench: $s $e"
  done
}
echo "armprof-bench: mode alone"; run gzip -c /tmp/in
echo "armprof-bench: mode clock"; run perf record -e cpu-clock -o /tmp/c.data -- gzip -c /tmp/in
if [ -d /sys/bus/event_source/devices/arm_spe_0 ]; then
  echo "armprof-bench: mode record"; run perf record -e arm_spe_0// -o /tmp/p.data -- gzip -c /tmp/in
  perf report -D -i /tmp/p.data 2>/dev/null | grep -c ' PC 0x' | sed 's/^/armprof-bench: records /'
fi
echo "armprof-bench: mode end"
EOF
guest "$work/record"
fastest() { # MODE: the best of the console's times for MODE
  sed -n "/armprof-bench: mode $1/,/armprof-bench: mode /p" "$work/console" | tr -d '\r' |
    awk '/armprof-bench: [0-9]/ { t = $3 - $2; if (b == "" || t < b) b = t } END { print b }'
}
boot "$stock" max,pauth=off
w_stock=$(fastest alone)
c_stock=$(fastest clock)
boot "$armprof" max,pauth=off,armprof=on -plugin "$plugin"
w_alone=$(fastest alone)
c_armprof=$(fastest clock)
w_record=$(fastest record)
records=$(tr -d '\r' <"$work/console" | sed -n 's/^armprof-bench: records //p' | tail -n 1)
echo "gzip of 1000000 lines in the guest, best of 3 (guest seconds; against stock alone, against stock under perf record -e cpu-clock)"
printf '  %-44s %7.2f\n' "stock QEMU 10.0" "$w_stock"
printf '  %-44s %7.2f  %sx\n' "armprof with the plugin, SPE idle" "$w_alone" \
  "$(ratio "$w_alone" "$w_stock")"
printf '  %-44s %7.2f  %sx\n' "stock, perf record -e cpu-clock" "$c_stock" "$(ratio "$c_stock" "$w_stock")"
printf '  %-44s %7.2f  %sx  %sx\n' "armprof, perf record -e cpu-clock" "$c_armprof" \
  "$(ratio "$c_armprof" "$w_stock")" "$(ratio "$c_armprof" "$c_stock")"
printf '  %-44s %7.2f  %sx  %sx  (%s records)\n' "armprof, perf record -e arm_spe_0//" "$w_record" \
  "$(ratio "$w_record" "$w_stock")" "$(ratio "$w_record" "$c_stock")" "${records:-no}"
