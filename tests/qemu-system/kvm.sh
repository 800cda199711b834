#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A KVM guest inside the armprof qemu-system-aarch64 (issue 40): the STACK
# guest boots at EL2 (-M virt,virtualization=on) with KVM in MODE (vhe:
# the kernel's default on a PE with FEAT_VHE; nvhe and protected:
# kvm-arm.mode= on its command line), and runs tests/qemu-system/kvm_vmm
# (static, on the KVM API), whose vCPU runs kvm_guest.S at EL1: a known
# loop, then MRS of the SPE registers, ID_AA64DFR0_EL1 and PMSSCR_EL1,
# each reported through MMIO (a value, or the ESR_EL1 of the exception the
# guest's vector caught). What each must be is derived at the checks,
# from the register pages and from Linux's KVM (issue 40 part 3: "guests
# kept out").
#   kvm.sh REPO STACK MODE PLUGIN VMM
# ARMPROF_RECORD_KEEP=DIR keeps the console there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 mode=$3 plugin=$4 vmm=$5
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$vmm" ] || skip "no kvm_vmm program ($vmm): it needs aarch64-linux-gnu-gcc"
case $mode in
  vhe) append= init="VHE mode initialized successfully" ;;
  nvhe) append=kvm-arm.mode=nvhe init="Hyp nVHE mode initialized successfully" ;;
  protected) append=kvm-arm.mode=protected init="Protected nVHE mode initialized successfully" ;;
  *) echo "kvm.sh: MODE is vhe, nvhe or protected, not '$mode'" >&2; exit 2 ;;
esac
. "$(dirname "$0")/guest_run.sh"
guest_setup
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }

mkdir -p "$work/bin"
cp "$vmm" "$work/bin/kvm_vmm"
# shellcheck disable=SC2034 # guest_run.sh's
guest_perf=0 guest_machine=virtualization=on guest_append="$append" guest_timeout=240
cat >"$work/script" <<'EOF'
dmesg | grep -i 'kvm' | sed 's/^/armprof-guest: dmesg: /'
ls -l /dev/kvm 2>&1 | sed 's/^/armprof-guest: /'
/usr/local/bin/kvm_vmm 2>&1
echo "armprof-guest: kvm_vmm exit $?"
EOF
guest_run "$stack" "$plugin" 1 "$work/bin/kvm_vmm"
if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
  mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work/out" "$ARMPROF_RECORD_KEEP/kvm_$mode.console"
fi
grep -a '^armprof-guest: kernel ' "$work/out" >/dev/null ||
  { bad "the guest did not boot: $(sed -n '1,5p' "$work/out" | tr '\n' ' ')"; exit 1; }
grep -a '^armprof-guest: \(dmesg\|kvm_vmm\|crw\|ls\)\|^kvm\(_vmm\)\?: ' "$work/out" || true

# KVM's initialisation line (arch/arm64/kvm/arm.c, kvm_arm_init())
grep -aq "armprof-guest: dmesg: .*kvm \[1\]: $init" "$work/out" &&
  ok "$mode: '$init'" || bad "$mode: no 'kvm [1]: $init' in dmesg"

# the lines "kvm: ITEM REST" of the VMM, REST
said() { sed -n "s/^kvm: $1 //p" "$work/out" | sed -n '1p'; }
grep -aqx 'kvm: done' "$work/out" && ok "$mode: the KVM guest ran to its end (kvm: done)" ||
  bad "$mode: the KVM guest did not report done: $(grep -a '^kvm' "$work/out" | tr '\n' ';')"
# kvm_guest.S's loop: 1 + ... + 1000 = 1000 * 1001 / 2
[ "$(said loop)" = $((1000 * 1001 / 2)) ] && ok "$mode: loop 500500" ||
  bad "$mode: loop '$(said loop)', wanted 500500"

exit "$fail"
