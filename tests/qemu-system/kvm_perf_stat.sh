#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The guest's PMU through KVM, with Linux on both sides (issue 40, part 4):
# the STACK guest boots at EL2 with KVM in MODE (as kvm.sh) and Debian 13's
# qemu-system-aarch64 in its initramfs (guest.sh's ARMPROF_GUEST_QEMU), and
# runs, as the VMM, `qemu-system-aarch64 -M virt,gic-version=3 -cpu host
# -enable-kvm`: a KVM guest of the same kernel with perf (a vCPU with
# KVM's PMU: QEMU's host CPU model asks for it) whose init runs
#   perf stat -e instructions:u LOOP
# LOOP is tests/qemu/loop.S, whose count of instructions at EL0 its text
# gives (COUNTS, count=instructions=N, as for the user-mode plugin and
# pmu_stat.sh). The count goes through every layer: the inner perf's
# arm_pmuv3 driver programs the vCPU's PMU, whose every access traps to the
# host's KVM, which counts with a perf event of the host
# (kvm_pmu_create_perf_event(), exclude_host), which the host's arm_pmuv3
# driver programs on the model's PMU, which counts the operations the
# plugin gives it. perf stat must say exactly N (VHE, nVHE); in protected
# mode, where KVM's PMU counts nothing (kvm.sh), a count of 0 is printed as
# FOUND and anything else fails.
#   kvm_perf_stat.sh REPO STACK MODE PLUGIN LOOP COUNTS
# ARMPROF_RECORD_KEEP=DIR keeps the console there.
set -euo pipefail
repo=$1 stack=$2 mode=$3 plugin=$4 loop=$5 counts=$6
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$loop" ] || skip "no loop program ($loop): it needs aarch64-linux-gnu-as and -ld"
case $mode in
  vhe) append='' ;;
  nvhe) append=kvm-arm.mode=nvhe ;;
  protected) append=kvm-arm.mode=protected ;;
  *) echo "kvm_perf_stat.sh: MODE is vhe, nvhe or protected, not '$mode'" >&2; exit 2 ;;
esac
want=$(sed -n 's/.*count=instructions=\([0-9]*\).*/\1/p' <<<"$counts")
[ -n "$want" ] || { echo "FAIL: no count=instructions=N in '$counts'"; exit 1; }
. "$(dirname "$0")/guest_run.sh"
guest_setup

# the KVM guest: the stack's kernel, and an initramfs with perf and LOOP
# whose script counts LOOP (its lines start "inner:")
cat >"$work/inner.sh" <<'S'
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
echo "inner: PMUs: $(ls /sys/bus/event_source/devices/ | tr '\n' ' ')"
perf stat -x ';' -e instructions:u /usr/local/bin/loop 2>&1 | sed 's/^/inner: stat /'
S
inner=$(ARMPROF_GUEST_PERF=1 ARMPROF_GUEST_FILES="$loop" \
  sh "$repo/frontends/qemu-system/guest.sh" "$stack" "$work/inner.sh" 2>"$work/guest.err") ||
  skip "the $stack guest's packages: $(tail -n 1 "$work/guest.err")"
mkdir -p "$work/vm"
cp "$(sed -n 's/^KERNEL=//p' <<<"$inner")" "$work/vm/vmlinuz"
cp "$(sed -n 's/^INITRD=//p' <<<"$inner")" "$work/vm/inner.cpio"

# the host: QEMU with KVM, the KVM guest's console on its standard output
cat >"$work/script" <<'S'
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
dmesg | grep -i 'kvm \[1\]: .*initialized' | sed 's/^/armprof-guest: dmesg: /'
qemu-system-aarch64 -M virt,gic-version=3 -cpu host -enable-kvm -m 384 -smp 1 -nographic \
  -nodefaults -serial stdio -no-reboot -kernel /usr/local/bin/vmlinuz \
  -initrd /usr/local/bin/inner.cpio -append "console=ttyAMA0 panic=-1 quiet" 2>&1 |
  sed 's/^/armprof-guest: vm: /'
S
# shellcheck disable=SC2034 # guest_run.sh's
guest_perf=0 guest_qemu=1 guest_memory=2G guest_machine=virtualization=on,gic-version=3 \
  guest_append="$append" guest_timeout=170
guest_run "$stack" "$plugin" 1 "$work/vm/vmlinuz $work/vm/inner.cpio"
if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
  mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work/out" "$ARMPROF_RECORD_KEEP/kvm_perf_stat_$mode.console"
fi
grep -a 'armprof-guest: dmesg: \|armprof-guest: vm: inner:\|armprof-guest: vm: .*\(qemu\|kvm\|error\|rror\)' "$work/out" || true
grep -aq 'armprof-guest: dmesg: .*initialized successfully' "$work/out" ||
  { echo "FAIL: $mode: KVM did not come up: $(grep -a kvm "$work/out" | sed -n '1,3p' | tr '\n' ' ')"; exit 1; }
got=$(sed -n 's/^armprof-guest: vm: inner: stat \([^;]*\);;instructions:u;.*/\1/p' "$work/out")
if [ "$got" = "$want" ]; then
  echo "ok: $mode: perf stat -e instructions:u in the KVM guest: $got, as loop.S's text says"
elif [ "$mode" = protected ] && [ "$got" = 0 ]; then
  echo "FOUND: $mode: perf stat -e instructions:u in the KVM guest: 0 (loop.S retires $want): in protected mode KVM's PMU counts nothing (docs/qemu-system.md)"
else
  echo "FAIL: $mode: perf stat -e instructions:u in the KVM guest: '${got:-no count}', wanted $want"
  exit 1
fi
