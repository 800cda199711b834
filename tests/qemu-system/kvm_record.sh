#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host profiling across KVM's world switches (issue 40, part 2), per KVM
# mode: the STACK guest boots at EL2 as in kvm.sh and, inside it, the host
# runs `perf record -a -e arm_spe_0//` over
#   kvm_vmm spin N & kvm_vmm repeat R; wait; kvm_vmm spin-after N
# a loop of the host's own (host_spin) beside a KVM guest that runs its
# known loop R times with an exit to the host after each (R - 1 world
# switches each way, kvm_guest.S) and then tries the MSRs that would stop
# the host's buffer (PMBLIMITR_EL1.E 0, PMBPTR_EL1 0, PMBSR_EL1.S 1), then
# a second host loop (host_spin_after). The perf.data comes out through
# the console and is read on the host with armprof's reader and decoder
# (CHECKER, tests/qemu-system/spe_filter.c) and with the stack's perf:
#   - every record decodes: none torn at a drain (a decode error stops
#     the checker) and no bad packet in perf's dump; the AUX events perf
#     says were truncated ([T]) are printed, the driver's own report;
#   - no record has a PC of the guest's (its memory, [0x40000000,
#     0x40010000), as the guest sees it at EL1 with its MMU off), in any
#     mode (what the manual and KVM make of each mode: docs/qemu-system.md);
#     each one found is printed with its EL and CONTEXTIDR, and the mode;
#   - the host's loops have records, host_spin_after's too: the host's
#     buffer went on after the guest's MSRs (each UNDEFINED in the guest,
#     KVM's undef_access, as kvm.sh checks);
#   - perf's modifiers :G (guest only, exclude_host) and :H (host only,
#     exclude_guest) over the same guest: what the driver does with each
#     is printed and checked as docs/qemu-system.md derives.
#   kvm_record.sh REPO STACK MODE PLUGIN VMM CHECKER PERF_COMMAND...
# ARMPROF_RECORD_KEEP=DIR keeps the perf.data files and the console there.
set -euo pipefail
repo=$1 stack=$2 mode=$3 plugin=$4 vmm=$5 checker=$6
shift 6
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$vmm" ] || skip "no kvm_vmm program ($vmm): it needs aarch64-linux-gnu-gcc"
[ -x "$checker" ] || skip "no spe_filter ($checker)"
case $mode in
  vhe) append='' gic='' ;;
  nvhe) append=kvm-arm.mode=nvhe gic='' ;;
  protected) append=kvm-arm.mode=protected gic=3 ;;
  *) echo "kvm_record.sh: MODE is vhe, nvhe or protected, not '$mode'" >&2; exit 2 ;;
esac
. "$(dirname "$0")/guest_run.sh"
guest_prepare "$stack" "$@"
fail=0
bad() { echo "FAIL: $mode: $*"; fail=1; }
ok() { echo "ok: $mode: $*"; }

mkdir -p "$work/bin"
cp "$vmm" "$work/bin/kvm_vmm"
# where the host's loops are: [start, start + size) from the VMM's symbols
sym() {
  local a
  a=$(nm -S "$vmm" 2>/dev/null | awk -v n="$1" '$4 == n { print $1, $2 }')
  [ -n "$a" ] && printf '0x%x 0x%x\n' "$((0x${a% *}))" "$((0x${a% *} + 0x${a#* }))"
}
read -r spin_lo spin_hi <<<"$(sym host_spin)" || true
read -r after_lo after_hi <<<"$(sym host_spin_after)" || true
[[ ${spin_lo:-} == 0x* && ${after_lo:-} == 0x* ]] || skip "nm cannot read kvm_vmm's symbols (binutils)"
spins=3000000 repeats=400
# the guest's memory as it sees it (kvm_vmm.c's GUEST_RAM, 64 KB, MMU off)
guest_lo=0x40000000 guest_hi=0x40010000
# shellcheck disable=SC2034 # guest_run.sh's
guest_machine=virtualization=on${gic:+,gic-version=$gic} guest_append="$append" guest_timeout=170

# vmm_said RUN PATTERN: what the VMM said inside perf's output
# ("armprof-guest: perf RUN: LINE")
vmm_said() {
  sed -n "s/^armprof-guest: perf $1: //p" "$work/out" | grep -a "$2" || true
}
# stage2_fault TAG RUN: s2fault is the PMBSR_EL1 of the buffer fault the
# driver reported during RUN when it is pKVM's stage 2 fault (below),
# printed as FOUND, else empty; any other buffer fault, which no mode
# should give, fails
stage2_fault() {
  local fault ec
  s2fault=""
  fault=$(sed -n "s/^armprof-guest: spe $2: .*Unexpected buffer fault.*\(PMBSR=0x[0-9a-f]*\).*/\1/p" "$work/out" | sed -n '1p')
  [ -n "$fault" ] || return 0
  # PMBSR_EL1.EC [31:26] 0b100101: a stage 2 Data Abort on a buffer
  # write (D17.7.2), reported to the owning Exception level, EL1 here,
  # whose driver calls it unexpected and stops the event. pKVM (protected
  # mode) maps the host's stage 2 on the host's own aborts, and unmaps
  # host pages when it gives a VM memory: a Profiling Buffer write is not
  # a CPU abort, so it finds no mapping. Not in VHE or nVHE, where the
  # host has no stage 2
  ec=$(((${fault#PMBSR=} >> 26) & 0x3f))
  if [ "$mode" = protected ] && [ "$ec" = 37 ]; then
    echo "FOUND: $mode$1: $2: the host's Profiling Buffer took a stage 2 fault ($fault: EC 0x25, FSC $(printf '0x%x' $((${fault#PMBSR=} & 0x3f)))); arm_spe_pmu stopped recording (docs/qemu-system.md)"
    s2fault=$fault
  else
    bad "$1: $2: the host's Profiling Buffer faulted ($fault, EC $(printf '0x%x' "$ec")): $(sed -n "s/^armprof-guest: spe $2: //p" "$work/out" | sed -n '1p')"
  fi
}
# check TAG RUN CHECKS...: armprof's reader and decoder over RUN's
# perf.data, and the stack's perf over it. After pKVM's stage 2 fault
# (stage2_fault) the data may end inside the record whose write faulted:
# the fault stops the buffer there (PMBPTR_EL1 at the faulting address),
# and the driver hands out what was written, truncated
check() {
  local tag=$1 run=$2 faulted
  shift 2
  stage2_fault "$tag" "$run"
  faulted=$s2fault
  guest_received "$run"
  if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
    mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work/$run.data" "$ARMPROF_RECORD_KEEP/kvm_${mode}${tag}_$run.data" 2>/dev/null || true
  fi
  [ -s "$work/$run.data" ] || { bad "$tag$run: no perf.data came out"; return; }
  "${perf[@]}" report -D -i "$work/$run.data" >"$work/$run.dump" 2>/dev/null || true
  local aux truncated badp rc=0
  aux=$(grep -c 'PERF_RECORD_AUX ' "$work/$run.dump" || true)
  truncated=$(grep 'PERF_RECORD_AUX ' "$work/$run.dump" | grep -c '\[T' || true)
  badp=$(grep -Eic 'bad packet|ARM SPE: .*error' "$work/$run.dump" || true)
  echo "$mode$tag: $run: perf: $aux AUX events, $truncated truncated ([T]: the driver's report), $badp bad packets"
  [ "$badp" = 0 ] || [ -n "$faulted" ] || bad "$tag$run: perf finds bad packets in the records"
  "$checker" "$work/$run.data" "$@" >"$work/$run.check" 2>&1 || rc=$?
  sed "s/^/$mode$tag: $run: armprof: /" "$work/$run.check"
  # the record the fault cut: the data ends inside it
  if [ -n "$faulted" ] && grep -q 'the data ends inside a record' "$work/$run.check"; then
    echo "$mode$tag: $run: the last record is the one the stage 2 fault cut"
    [ "$rc" != 2 ] || rc=0
  fi
  case $rc in
    0) ;;
    2) bad "$tag$run: the records do not decode (torn at a drain?): $(tail -n 1 "$work/$run.check")" ;;
    *) bad "$tag$run: $(grep -c '^FAIL' "$work/$run.check") checks failed (above)" ;;
  esac
}
perf=("$@")

# record_boot TAG CPU_OPTIONS GUEST RUNS: a boot whose host records RUNS
# (host, G, H) over the KVM guest; GUEST is "none" when no record may
# have a PC of the guest's, or the least number the boot must have
record_boot() {
  local tag=$1 cpu_options=$2 guest=$3 runs=$4 run event load
  {
    echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
    echo 'dmesg | grep -i "kvm \[1\]: .*initialized" | sed "s/^/armprof-guest: dmesg: /"'
    echo 'export v=/usr/local/bin/kvm_vmm'
    # -c 8192: a sample every 8192 operations; 32 pages: the buffer
    # fills and the driver's PMBIRQ handling runs among the world switches
    # (with 16, a loaded host once left perf too slow to drain it: the AUX
    # area was truncated before host_spin_after's records)
    for run in $runs; do
      case $run in
        host) event=arm_spe_0// load="\$v spin $spins & \$v repeat $repeats; wait; \$v spin-after $spins" ;;
        *) event=arm_spe_0//$run load="\$v repeat $repeats" ;;
      esac
      echo "dmesg -c >/dev/null"
      echo "perf record -a -e $event -c 8192 -m,32 -o /tmp/$run.data -- sh -c '$load' 2>&1 | sed 's/^/armprof-guest: perf $run: /'"
      echo "[ -f /tmp/$run.data ] && echo 'armprof-guest: perf $run: recorded'"
      # what the driver said meanwhile (a buffer fault: PMBSR_EL1 and
      # the pointers, arm_spe_pmu_buf_get_fault_act())
      echo "dmesg | grep 'arm_spe_pmu' | sed 's/^/armprof-guest: spe $run: /'"
      guest_send_file "$run" "/tmp/$run.data"
    done
  } >"$work/script"
  guest_run "$stack" "$plugin" 1 "$work/bin/kvm_vmm" "$cpu_options"
  grep -a '^armprof-guest: \(perf\|dmesg\)' "$work/out" | grep -av ': kvm: [A-Zw]' || true
  grep -aq '^armprof-guest: dmesg: .*initialized successfully' "$work/out" ||
    { bad "${tag}KVM did not come up: $(grep -a 'kvm' "$work/out" | sed -n '1,5p' | tr '\n' ' ')"; return; }

  # --- the host-only profile across the world switches ---
  local ticks guest_check
  ticks=$(vmm_said host 'kvm: ticks ' | awk '{print $3}')
  [ "$ticks" = $((repeats - 1)) ] && ok "$tag: the guest exited to the host $ticks times between its loops" ||
    bad "$tag: the guest's exits between loops: '${ticks:-none}', wanted $((repeats - 1))"
  vmm_said host '^kvm: done' | grep -q . && ok "$tag: the KVM guest ran to its end under perf record" ||
    bad "$tag: the KVM guest did not say done: $(vmm_said host '^kvm' | tr '\n' ';')"
  for r in PMBLIMITR_EL1 PMBPTR_EL1 PMBSR_EL1; do
    vmm_said host "^kvm: write-$r esr 0x02000000 " | grep -q . &&
      ok "$tag: the guest's MSR $r: UNDEFINED (KVM's undef_access)" ||
      bad "$tag: the guest's MSR $r: '$(vmm_said host "^kvm: write-$r ")', wanted esr 0x02000000"
  done
  if [ "$guest" = none ]; then
    guest_check="--pc-none $guest_lo $guest_hi"
  else
    guest_check="--pc-want $guest_lo $guest_hi $guest"
  fi
  # a sample every 8192 of each loop's 3 million iterations' operations
  # (3 or 4 each: about 1000 records); host_spin_after's say that the
  # host's buffer went on after the guest ran and tried its MSRs. In
  # protected mode the buffer may instead have stopped at a stage 2 fault
  # (below), after which the driver records nothing more
  # after pKVM's stage 2 fault (check() says FOUND) the driver records
  # nothing more
  local after_want=100
  ! grep -aq "^armprof-guest: spe host: .*Unexpected buffer fault" "$work/out" || after_want=0
  # shellcheck disable=SC2086 # the checks are words
  check "$tag" host $guest_check --pc-want "$spin_lo" "$spin_hi" 100 --pc-want "$after_lo" "$after_hi" "$after_want"

  # --- :G and :H: arm_spe_pmu reads exclude_user and exclude_kernel only
  # (arm_spe_event_to_pmscr()), so each records the host as the plain
  # event does, and never the guest ---
  for run in $runs; do
    [ "$run" != host ] || continue
    if grep -aq "^armprof-guest: perf $run: recorded" "$work/out"; then
      check "$tag" "$run" --pc-none "$guest_lo" "$guest_hi" --records 100 100000000
    else
      bad "$tag: perf record -e arm_spe_0//$run: $(sed -n "s/^armprof-guest: perf $run: //p" "$work/out" | grep -v '^kvm' | tr '\n' ' ')"
    fi
  done
}
record_boot "" "" none "host G H"
if [ "$mode" = vhe ]; then
  # PMSCR_EL1.E1SPE and E0SPE reset to UNKNOWN values (PMSCR_EL1.md). In VHE
  # the host's driver writes PMSCR_EL2 (its PMSCR_EL1 accesses are
  # redirected), so were E1SPE 1 when a guest runs at EL1, the guest would
  # be sampled into the host's buffer (StatisticalProfilingEnabled(EL1): the
  # owning Exception level, EL2 by MDCR_EL2.E2PB 0b00, is not below EL1, and
  # PMSCR_EL1.E1SPE decides). Linux's KVM clears them through PMSCR_EL12 at
  # its initialisation (arch/arm64/kvm/debug.c, kvm_debug_init_vhe(): "Clear
  # PMSCR_EL1.E{0,1}SPE which reset to UNKNOWN values"; 7.3's image has the
  # one `msr pmscr_el12, xzr` outside its hypervisor's save/restore). The
  # model's unknown_fill of all ones makes both 1 at reset: still no record
  # of the guest's may appear
  # Debian 12's 6.1 has no such clearing: there the guest's loop (400
  # times 3000 operations, a sample every 8192: about 146) is sampled into
  # the host's profile, found and checked as such
  if [ "$stack" = 6.1 ]; then
    echo "FOUND: $mode 6.1: with PMSCR_EL1.E1SPE reset to 1, 6.1's KVM (no kvm_debug_init_vhe()) lets the host's SPE sample the guest: records of the guest's loop expected below"
    record_boot " unknown_fill=ones" armprof-options=unknown_fill=0xffffffffffffffff 50 host
  else
    record_boot " unknown_fill=ones" armprof-options=unknown_fill=0xffffffffffffffff none host
  fi
fi
exit "$fail"
