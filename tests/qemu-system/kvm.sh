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
# kept out"). The PE is preset armv9.4-all (FEAT_FGT, FEAT_PMUv3_SS,
# SPEv1.4); in VHE mode a second boot has preset armv8.2-spe (SPEv1.0,
# neither FEAT_FGT nor FEAT_PMUv3_SS), where KVM has no fine-grained traps
# and the snapshot registers do not exist.
#   kvm.sh REPO STACK MODE PLUGIN VMM
# ARMPROF_RECORD_KEEP=DIR keeps the console there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 mode=$3 plugin=$4 vmm=$5
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$vmm" ] || skip "no kvm_vmm program ($vmm): it needs aarch64-linux-gnu-gcc"
# KVM's line at the end of its initialisation (kvm_arm_init(),
# arch/arm64/kvm/arm.c): "Protected " in protected mode, then "h" when
# the hypervisor runs at EL2 with HCR_EL2.E2H set beneath a kernel at EL1
# (hVHE, which protected mode picks on a PE with FEAT_VHE), "Hyp n" for
# nVHE, nothing for VHE. Protected mode refuses the virt machine's default
# GICv2 ("kvm [1]: GICv2 not supported in protected mode", no /dev/kvm):
# it boots with gic-version=3.
case $mode in
  vhe) append='' gic='' init="VHE mode initialized successfully" ;;
  nvhe) append=kvm-arm.mode=nvhe gic='' init="Hyp nVHE mode initialized successfully"
    # 6.1 says "Hyp mode"
    [ "$stack" != 6.1 ] || init="Hyp mode initialized successfully" ;;
  protected) append=kvm-arm.mode=protected gic=3 init="Protected [hn]\{0,1\}VHE mode initialized successfully" ;;
  nested) append=kvm-arm.mode=nested gic=3 init="VHE+NV2 mode initialized successfully" ;;
  *) echo "kvm.sh: MODE is vhe, nvhe, protected or nested, not '$mode'" >&2; exit 2 ;;
esac
. "$(dirname "$0")/guest_run.sh"
guest_setup
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }

mkdir -p "$work/bin"
cp "$vmm" "$work/bin/kvm_vmm"
# shellcheck disable=SC2034 # guest_run.sh's
guest_perf=0 guest_machine=virtualization=on${gic:+,gic-version=$gic} guest_append="$append" guest_timeout=240
cat >"$work/script" <<'EOF'
dmesg | grep -i 'kvm' | sed 's/^/armprof-guest: dmesg: /'
ls -l /dev/kvm 2>&1 | sed 's/^/armprof-guest: /'
dmesg -c >/dev/null
# KVM's exits while the VMM runs: its kvm_exit trace event
t=/sys/kernel/tracing
mount -t tracefs none $t 2>/dev/null
if [ -w $t/events/kvm/kvm_exit/enable ]; then
  echo 1 >$t/events/kvm/kvm_exit/enable && echo 1 >$t/tracing_on
else
  echo "armprof-guest: no kvm_exit trace event"
fi
/usr/local/bin/kvm_vmm 2>&1
echo "armprof-guest: kvm_vmm exit $?"
echo 0 >$t/tracing_on 2>/dev/null
sed -n 's/.*kvm_exit: /armprof-guest: kvm_exit: /p' $t/trace 2>/dev/null
dmesg | sed 's/^/armprof-guest: dmesg-after: /'
EOF
# boot_and_check TAG CPU_OPTIONS SPE FGT SS: a boot with more -cpu
# properties CPU_OPTIONS, whose preset has SPEv<SPE>, FEAT_FGT (1) or not
# (0), FEAT_PMUv3_SS (1) or not (0); TAG names it in the lines
boot_and_check() {
  local tag=$1 spe=$3 fgt=$4 ss=$5
  guest_run "$stack" "$plugin" 1 "$work/bin/kvm_vmm" "$2"
  if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
    mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work/out" "$ARMPROF_RECORD_KEEP/kvm_$mode${tag// /_}.console"
  fi
  grep -a '^armprof-guest: kernel ' "$work/out" >/dev/null ||
    { bad "$mode$tag: the guest did not boot: $(sed -n '1,5p' "$work/out" | tr '\n' ' ')"; return; }
  grep -a '^armprof-guest: \(dmesg\|kvm_vmm\|crw\|ls\)\|^kvm\(_vmm\)\?: ' "$work/out" || true

  # KVM's initialisation line (arch/arm64/kvm/arm.c, kvm_arm_init())
  grep -aq "armprof-guest: dmesg: .*kvm \[1\]: $init" "$work/out" &&
    ok "$mode$tag: '$(sed -n 's/^armprof-guest: dmesg: .*kvm \[1\]: \(.*initialized successfully\)$/\1/p' "$work/out")'" || bad "$mode$tag: no 'kvm [1]: $init' in dmesg"

  # the VMM's lines: "kvm: ITEM VALUE pc PC" or "kvm: ITEM esr ESR pc PC elr
  # ELR"; said ITEM [KEY]: VALUE (no KEY), or the word after KEY
  said() {
    awk -v item="$1" -v key="${2:-}" '$1 == "kvm:" && $2 == item {
        if (key == "") { if ($3 != "esr") print $3 }
        else for (i = 3; i < NF; i++) if ($i == key) print $(i + 1)
        exit }' "$work/out"
  }
  # KVM's exits with EC 0x18 (an MSR, MRS or system instruction trapped to
  # EL2), from its kvm_exit trace event: "TRAP: HSR_EC: 0x0018 (SYS64), PC:
  # 0x...", as the guest's addresses
  local sys64
  sys64=$(sed -n 's/^armprof-guest: kvm_exit: TRAP: HSR_EC: 0x0018 (SYS64), PC: 0x0*\([0-9a-f]*\)$/0x\1/p' "$work/out" | sort -u | tr '\n' ' ')
  trapped_to_el2() { [[ " $sys64 " == *" $(said "$1" pc) "* ]]; }
  grep -aqx 'kvm: done' "$work/out" && ok "$mode$tag: the KVM guest ran to its end (kvm: done)" ||
    bad "$mode$tag: the KVM guest did not report done: $(grep -a '^kvm' "$work/out" | tr '\n' ';')"
  # kvm_guest.S's loop: 1 + ... + 1000 = 1000 * 1001 / 2
  [ "$(said loop)" = $((1000 * 1001 / 2)) ] && ok "$mode$tag: loop 500500" ||
    bad "$mode$tag: loop '$(said loop)', wanted 500500"


  # What the guest at EL1 sees. KVM runs it with EL2 enabled and, in every
  # mode (its MDCR_EL2 for a vCPU, arch/arm64/kvm/debug.c), MDCR_EL2.TPMS 1
  # and E2PB 0b00 (the host's buffer, EL2's), MDCR_EL2.TPM 1, HCR_EL2.TID3 1
  # (ID registers trapped), and, with FEAT_FGT (the preset has it), the
  # HDFGRTR_EL2/HDFGWTR_EL2 bits of every feature the VM lacks set (its
  # "fine-grained UNDEF", arch/arm64/kvm/config.c: hdfgrtr_feat_map puts
  # PMSCR_EL1 ... PMBIDR_EL1 under FEAT_SPE). A trapped access is EC 0x18 at
  # EL2; KVM answers the SPE registers (sys_regs.c: undef_access) and those of
  # features hidden from the VM with an UNDEFINED exception injected at EL1:
  # ESR_EL1 EC 0b000000 (unknown reason), IL 1 (a 32-bit instruction), ISS 0.
  undef=0x02000000
  check_undef_el1() { # ITEM WHY
    local esr pc elr
    esr=$(said "$1" esr) pc=$(said "$1" pc) elr=$(said "$1" elr)
    if [ "$esr" != $undef ] || [ "$elr" != "$pc" ]; then
      bad "$mode$tag: $1 at ${pc:-?}: ESR_EL1 '${esr:-none}' ELR_EL1 '${elr:-none}' (value '$(said "$1")'), wanted $undef at the instruction ($2)"
    elif trapped_to_el2 "$1"; then
      bad "$mode$tag: $1 at $pc UNDEFINED in the guest, but trapped to EL2 (EC 0x18) first ($2)"
    else
      ok "$mode$tag: $1 at $pc UNDEFINED at EL1, not trapped (ESR_EL1 $undef: $2)"
    fi
  }
  check_esr() { # ITEM WHY
    local esr pc elr
    esr=$(said "$1" esr) pc=$(said "$1" pc) elr=$(said "$1" elr)
    if [ "$esr" != $undef ] || [ "$elr" != "$pc" ]; then
      bad "$mode$tag: $1 at ${pc:-?}: ESR_EL1 '${esr:-none}' ELR_EL1 '${elr:-none}' (value '$(said "$1")'), wanted $undef at the instruction ($2)"
    elif ! trapped_to_el2 "$1"; then
      bad "$mode$tag: $1 at $pc UNDEFINED in the guest, but KVM saw no trap (EC 0x18) there ($2)"
    else
      ok "$mode$tag: $1 at $pc trapped to EL2 (EC 0x18), UNDEFINED in the guest (ESR_EL1 $undef, ELR_EL1 the MRS/MSR: $2)"
    fi
  }
  check_value() { # ITEM WANT(value|any) WHY
    local got
    got=$(said "$1")
    if [ -n "$(said "$1" esr)" ]; then
      bad "$mode$tag: $1 took an exception (ESR_EL1 $(said "$1" esr)), wanted readable ($3)"
    elif ! [[ $got == 0x* ]] || { [ "$2" != any ] && [ "$((got))" != "$(($2))" ]; }; then
      bad "$mode$tag: $1 reads '${got:-nothing}', wanted $2 ($3)"
    elif trapped_to_el2 "$1"; then
      bad "$mode$tag: $1 reads $got, but KVM saw a trap (EC 0x18) at it ($3)"
    else
      ok "$mode$tag: $1 at $(said "$1" pc): $got in the guest, not trapped ($3)"
    fi
  }
  # ID_AA64DFR0_EL1 (trapped by TID3, KVM's sanitised view,
  # kvm_max_possible_guest_ftr_reg()): PMSVer [35:32] 0 ("Hide SPE from
  # guests"); PMSS [59:56] 0 (a field the kernel's ftr_id_aa64dfr0 does not
  # describe is 0 in the sanitised value); PMUVer [11:8] 0 (the vCPU was made
  # without KVM_ARM_VCPU_PMU_V3). The host's own (the model's) has the
  # preset's PMSVer (arm_spe_pmu's "probed SPEv1.N") and, with FEAT_PMUv3_SS,
  # PMSS 0b0001.
  dfr0=$(said ID_AA64DFR0_EL1)
  # (6.1's driver names no version: "probed for CPUs ...")
  if [ "$stack" = 6.1 ]; then
    grep -aq "armprof-guest: dmesg: .*arm_spe_pmu spe: probed for CPUs" "$work/out" &&
      ok "$mode$tag: the host's arm_spe_pmu probed" || bad "$mode$tag: the host's arm_spe_pmu did not probe"
  else
    grep -aq "armprof-guest: dmesg: .*arm_spe_pmu spe: probed SPEv$spe " "$work/out" &&
      ok "$mode$tag: the host's arm_spe_pmu probed SPEv$spe" ||
      bad "$mode$tag: the host's arm_spe_pmu did not say 'probed SPEv$spe' (the preset's SPE)"
  fi
  trapped_to_el2 ID_AA64DFR0_EL1 && ok "$mode$tag: ID_AA64DFR0_EL1 trapped to EL2 (HCR_EL2.TID3)" ||
    bad "$mode$tag: KVM saw no trap at ID_AA64DFR0_EL1's MRS ($(said ID_AA64DFR0_EL1 pc)): HCR_EL2.TID3?"
  if [[ $dfr0 == 0x* ]]; then
    f() { echo $(((dfr0 >> $1) & 0xf)); }
    [ "$(f 32)" = 0 ] && [ "$(f 56)" = 0 ] && [ "$(f 8)" = 0 ] &&
      ok "$mode$tag: ID_AA64DFR0_EL1 $dfr0: PMSVer 0, PMSS 0, PMUVer 0 (KVM hides SPE, snapshots and the PMU)" ||
      bad "$mode$tag: ID_AA64DFR0_EL1 $dfr0: PMSVer $(f 32), PMSS $(f 56), PMUVer $(f 8), wanted 0, 0, 0"
  else
    bad "$mode$tag: ID_AA64DFR0_EL1 not read: '$(said ID_AA64DFR0_EL1 esr)'"
  fi
  # PMSCR_EL1, PMSIDR_EL1 (their pages: HDFGxTR_EL2.<reg>, then MDCR_EL2.TPMS
  # trap EL1's accesses to EL2); PMBLIMITR_EL1, PMBPTR_EL1, PMBSR_EL1
  # (HDFGxTR_EL2.<reg>, then MDCR_EL2.E2PB 'x0'); PMBIDR_EL1 (only
  # HDFGRTR_EL2.PMBIDR_EL1: with FEAT_FGT, KVM's fine-grained UNDEF catches
  # it; without, KVM's old comment "PMBIDR_EL1 is not trapped" holds and the
  # guest reads the host PE's PMBIDR_EL1, whose P (bit 4, "Programming not
  # allowed") reads 1: the owning Exception level, EL2 (MDCR_EL2.E2PB 0b00),
  # is higher than EL1; Align [3:0] is what the host's driver printed as
  # "align" (1 << Align))
  for r in PMSCR_EL1 PMSIDR_EL1; do check_esr $r "MDCR_EL2.TPMS, KVM's undef_access"; done
  for r in PMBLIMITR_EL1 PMBPTR_EL1 PMBSR_EL1; do check_esr $r "MDCR_EL2.E2PB 0b00, KVM's undef_access"; done
  # 6.1's KVM sets no fine-grained trap for it (its "fine-grained UNDEF"
  # came later): there PMBIDR_EL1 reads the host's with FEAT_FGT too
  if [ "$fgt" = 1 ] && [ "$stack" != 6.1 ]; then
    check_esr PMBIDR_EL1 "HDFGRTR_EL2.PMBIDR_EL1, KVM's fine-grained UNDEF"
  else
    local align pmbidr
    align=$(sed -n 's/^armprof-guest: dmesg: .*arm_spe_pmu spe: probed .*, align \([0-9]*\),.*/\1/p' "$work/out" | sed -n '1p')
    pmbidr=$(said PMBIDR_EL1)
    if [[ $pmbidr == 0x* ]] && [ -n "$align" ] && [ $((1 << (pmbidr & 0xf))) = "$align" ]; then
      check_value PMBIDR_EL1 $((pmbidr | 0x10)) "no FEAT_FGT: not trapped, the host's PMBIDR_EL1 with P 1, Align as the driver's align $align"
    else
      bad "$mode$tag: PMBIDR_EL1 '${pmbidr:-none}' (esr '$(said PMBIDR_EL1 esr)'), wanted the host's, Align as the driver's align '${align:-?}'"
    fi
  fi
  check_esr write-PMSCR_EL1 "MSR: HDFGWTR_EL2.PMSCR_EL1 / MDCR_EL2.TPMS"
  # the MSRs that would stop the host's buffer if they reached it
  # (PMBLIMITR_EL1.E 0, PMBPTR_EL1 0, PMBSR_EL1.S 1): HDFGWTR_EL2.<reg>,
  # then MDCR_EL2.E2PB 'x0'; KVM's undef_access (kvm_record.sh checks that
  # the host's records go on after them)
  for r in PMBLIMITR_EL1 PMBPTR_EL1 PMBSR_EL1; do check_esr write-$r "MSR: MDCR_EL2.E2PB 0b00, KVM's undef_access"; done
  # PMCR_EL0 (MDCR_EL2.TPM): KVM's PMU registers of a vCPU without a PMU are
  # hidden (UNDEFINED)
  check_esr PMCR_EL0 "MDCR_EL2.TPM, the vCPU has no PMU"
  if [ "$ss" = 0 ]; then
    # without FEAT_PMUv3_SS (nor FEAT_EBEP) the snapshot registers and
    # PMECR_EL1 do not exist: their pages' first line, UNDEFINED at EL1,
    # before any trap (KVM sees nothing)
    for r in PMECR_EL1 PMSSCR_EL1 PMCCNTSVR_EL1 write-PMSSCR_EL1 PMSSCR_EL1-after; do
      check_undef_el1 $r "no FEAT_PMUv3_SS: UNDEFINED before any trap"
    done
    grep -a '^armprof-guest: dmesg-after: ' "$work/out" || true
    return
  fi
  # PMECR_EL1 (HDFGRTR2_EL2.nPMECR_EL1 with FEAT_FGT2, then MDCR_EL2.TPM):
  # the VM has neither FEAT_EBEP nor FEAT_PMUv3_SS, which it needs
  check_esr PMECR_EL1 "MDCR_EL2.TPM, the VM has neither FEAT_EBEP nor FEAT_PMUv3_SS"
  # PMSSCR_EL1 and PMCCNTSVR_EL1 (FEAT_PMUv3_SS): their pages trap EL1 only
  # through FEAT_FGT2 (HDFGxTR2_EL2.nPMSSCR_EL1, nPMSSDATA) and
  # MDCR_EL3.EnPMSS. This PE has neither (no EL3: secure=off; no FEAT_FGT2:
  # QEMU has no HDFGRTR2_EL2, the glue drops it), so the guest reaches the
  # host PE's registers, whatever ID_AA64DFR0_EL1.PMSS it is shown: the guest
  # is NOT kept out. PMSSCR_EL1 reads its Warm reset value, NC 1 (no capture
  # yet), SS 0. A write of SS 1 goes through and requests a Capture event,
  # which PMUCaptureEventEnabled() refuses: MDCR_EL2.PMSSE, which KVM leaves
  # 0b00, disables it whatever PMECR_EL1 says (J1.3.1.109); so NC stays 1. PMCCNTSVR_EL1's value is the host's
  # (UNKNOWN after reset; not checked).
  check_value PMSSCR_EL1 0x100000000 "no FGT2, no EL3: not trapped; NC 1 from reset"
  check_value PMCCNTSVR_EL1 any "no FGT2, no EL3: not trapped"
  check_value write-PMSSCR_EL1 1 "MSR of SS 1: not trapped"
  check_value PMSSCR_EL1-after 0x100000000 "MDCR_EL2.PMSSE 0b00: the Capture event is disabled, NC stays 1"
  # whatever KVM complained of while the guest ran
  grep -a '^armprof-guest: dmesg-after: ' "$work/out" || true

}
# Nested virtualization (issue 40, part 5): KVM's NV2 mode gives the VM a
# virtual EL2 (KVM_ARM_VCPU_HAS_EL2, the in-kernel GICv3 it needs); the
# guest hypervisor of kvm_nested_guest.S starts at EL2h with HCR_EL2.E2H 1
# (KVM's nested virtualization is VHE unless asked for E2H0), and accesses
# PMSCR_EL2, PMSCR_EL1 (PMSCR_EL2 under E2H), PMSCR_EL12 and
# PMBLIMITR_EL1. It runs at EL1 of the model's PE with HCR_EL2.{NV,NV2} 1,
# where the pages put MDCR_EL2.TPMS and E2PB (KVM: 1 and 0b00 for every
# VM) before NVMem: each access traps to KVM, which shows the VM no
# FEAT_SPE (ID_AA64DFR0_EL1.PMSVer 0) and answers UNDEFINED, injected at
# the guest hypervisor's EL2 (ESR 0x02000000, ELR the instruction). The
# model's NVMem path itself is qemu-system/nv2's (bare metal).
if [ "$mode" = nested ]; then
  # the kernel's messages kept off the console while the VMM prints (its
  # lines came interleaved), and shown after it
  printf '%s\n' 'dmesg | grep -i kvm | sed "s/^/armprof-guest: dmesg: /"' 'dmesg -c >/dev/null; dmesg -n 1' \
    '/usr/local/bin/kvm_vmm nested 2>&1' 'echo "armprof-guest: kvm_vmm exit $?"' \
    'dmesg | sed "s/^/armprof-guest: dmesg-after: /"' >"$work/script"
  guest_machine=virtualization=on,gic-version=3 guest_run "$stack" "$plugin" 1 "$work/bin/kvm_vmm"
  grep -a '^kvm\(_vmm\)\?: \|armprof-guest: dmesg: .*kvm\|armprof-guest: dmesg-after' "$work/out" || true
  grep -aq "armprof-guest: dmesg: .*kvm \[1\]: $init" "$work/out" && ok "nested: '$init'" ||
    bad "nested: no 'kvm [1]: $init' in dmesg"
  nsaid() { awk -v item="$1" -v key="${2:-}" '$1 == "kvm:" && $2 == item {
      if (key == "") { if ($3 != "esr") print $3 } else for (i = 3; i < NF; i++) if ($i == key) print $(i + 1)
      exit }' "$work/out"; }
  grep -aqx 'kvm: done' "$work/out" && ok "nested: the guest hypervisor ran to its end" ||
    bad "nested: the guest hypervisor did not say done: $(grep -a '^kvm' "$work/out" | tr '\n' ';')"
  el=$(nsaid CurrentEL) hcr=$(nsaid HCR_EL2) dfr0=$(nsaid ID_AA64DFR0_EL1)
  [ -n "$el" ] && [ $((el)) = 8 ] && ok "nested: CurrentEL $el (EL2)" || bad "nested: CurrentEL '${el:-none}', wanted 0x8 (EL2)"
  [ -n "$hcr" ] && [ $(((hcr >> 34) & 1)) = 1 ] && ok "nested: HCR_EL2 $hcr (E2H 1)" || bad "nested: HCR_EL2 '${hcr:-none}', wanted E2H (bit 34) 1"
  [ -n "$dfr0" ] && [ $(((dfr0 >> 32) & 15)) = 0 ] && ok "nested: ID_AA64DFR0_EL1 $dfr0 (PMSVer 0)" ||
    bad "nested: ID_AA64DFR0_EL1 '${dfr0:-none}', wanted PMSVer 0"
  for r in PMSCR_EL2 PMSCR_EL1 PMSCR_EL12 PMBLIMITR_EL1 write-PMSCR_EL2 write-PMSCR_EL12 PMSCR_EL2-after PMSCR_EL12-after; do
    esr=$(nsaid $r esr) pc=$(nsaid $r pc) elr=$(nsaid $r elr)
    if [ "$esr" = 0x02000000 ] && [ -n "$pc" ] && [ "$elr" = "$pc" ]; then
      ok "nested: $r at $pc UNDEFINED in the guest hypervisor (ESR_EL2 0x02000000)"
    else
      bad "nested: $r at ${pc:-?}: ESR '${esr:-none}' ELR '${elr:-none}' (value '$(nsaid $r)'), wanted 0x02000000 at the instruction"
    fi
  done
  # KVM's table of the sysregs a guest hypervisor may reach has no entry
  # for PMSCR_EL2 nor PMSCR_EL12: it says so (ratelimited) and injects
  # UNDEFINED, as for a register it does not know
  unsupported=$(grep -ac 'armprof-guest: dmesg-after: .*Unsupported guest access' "$work/out" || true)
  [ "$unsupported" = 0 ] || echo "FOUND: nested: KVM logged $unsupported 'Unsupported guest access' (PMSCR_EL2 and PMSCR_EL12 have no entry in its nested sysreg table; docs/qemu-system.md)"
  exit "$fail"
fi

boot_and_check "" "" 1.4 1 1
if [ "$mode" = vhe ]; then
  boot_and_check " armv8.2-spe" armprof-preset=armv8.2-spe 1.0 0 0
fi

# The guest's PMU through KVM (issue 40, part 4): kvm_vmm pmu gives the
# vCPU KVM's PMU (KVM_ARM_VCPU_PMU_V3, with the in-kernel GICv3 it needs:
# the machine gets gic-version=3) and runs kvm_pmu_guest.S, which counts
# INST_RETIRED at EL1 with event counter 0 around its known loop. Every
# access to a PMU register traps to KVM, which emulates the counter over a
# perf event of the host's (attr.exclude_host; kvm_pmu_create_perf_event()),
# counted by the model's PMU. From the guest's instructions
# (kvm_pmu_guest.S): the ISB after the trapped MSR of PMCNTENSET_EL0 retires
# while the counter counts, so the first read gives 1; between the two
# trapped MRS of PMEVCNTR0_EL0 (neither architecturally executed) the guest
# retires 2 + 3 * 1000 instructions: the second gives 3003
boot_pmu() { # [CPU_OPTIONS]
  local before after n
  printf '%s\n' '/usr/local/bin/kvm_vmm pmu 2>&1' 'echo "armprof-guest: kvm_vmm exit $?"' >"$work/script"
  guest_machine=virtualization=on,gic-version=3 guest_run "$stack" "$plugin" 1 "$work/bin/kvm_vmm" "${1:-}"
  grep -a '^kvm\(_vmm\)\?: ' "$work/out" || true
  before=$(awk '$1 == "kvm:" && $2 == "PMEVCNTR0_EL0-before" { print $3 }' "$work/out")
  after=$(awk '$1 == "kvm:" && $2 == "PMEVCNTR0_EL0-after" { print $3 }' "$work/out")
  n=$(awk '$1 == "kvm:" && $2 == "PMCR_EL0" { print $3 }' "$work/out")
  if ! grep -aqx 'kvm: done' "$work/out"; then
    bad "$mode pmu: the KVM guest with a vPMU did not run to its end: $(grep -a '^kvm' "$work/out" | tr '\n' ';')"
  elif [ -n "$before" ] && [ $((before)) = 1 ] && [ $((after)) = 3003 ]; then
    ok "$mode pmu: the guest's PMEVCNTR0_EL0 (INST_RETIRED at EL1): 1 before its loop, 3003 after (KVM's PMU over the model's; PMCR_EL0.N $(((n >> 11) & 31)))"
  elif [ "$mode" = protected ] && [ "$stack" != 6.1 ] && [ -n "$before" ] && [ $((before)) = 0 ] && [ $((after)) = 0 ]; then
    # pKVM's hypervisor would have to turn the host's exclude_host counter
    # on at each entry to the guest, from what the host's PMU driver notes
    # (kvm_set_pmu_events()); it stays off
    echo "FOUND: $mode pmu: the guest's PMEVCNTR0_EL0 reads 0 before and after its loop (3003 in VHE and nVHE): in protected mode KVM's PMU counts nothing (docs/qemu-system.md)"
  else
    bad "$mode pmu: the guest's PMEVCNTR0_EL0 '${before:-none}' before its loop and '${after:-none}' after, wanted 1 and 3003"
  fi
}
if [ "$stack" = 6.1 ]; then
  # 6.1's KVM knows PMU versions up to PMUv3p7: with the default preset's
  # PMUv3p9 its kvm_pmu_event_mask() warns "Unknown PMU version" and masks
  # every event number to 0, so the vCPU's counters count nothing
  # (docs/qemu-system.md, "The 6.1 kernel as the host"). With
  # armv8.2-spe's PMU it counts as 7.3's does, in every mode (6.1's
  # protected mode is nVHE, whose hypervisor switches the counters)
  boot_pmu armprof-preset=armv8.2-spe
else
  boot_pmu
fi

exit "$fail"
