#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The external debug blocks of the armprof qemu-system-aarch64 (issue 43)
# under Linux's coresight-cpu-debug driver and through /dev/mem, in the
# STACK guest with two CPUs of preset armv8.0-pcsr (FEAT_PCSRv8: the PC
# sample registers EDPCSR, EDCIDSR, EDVIDSR in the debug block, which is
# what the driver reads) whose blocks identify as a Cortex-A57's
# (armprof-debug-id=cortex-a57, peripheral ID 0x000bbd07, in the driver's
# AMBA table). The program is tests/qemu-system/cpu_debug.c (static).
#
# Boot 1, DBGEN and NIDEN high (PC sampling allowed):
#   - user space on CPU0 samples CPU1's block while cpu_debug spins there
#     (EL0, spin(), its pid); the OS Lock set through EDOSLAR refuses
#     EDPCSR (a bus error: SIGBUS), cleared it does not;
#   - the driver probes both blocks ("Coresight debug-CPU<n>
#     initialized"); enabled, a sysrq crash on CPU0 while cpu_debug spins
#     on CPU1 makes its panic notifier dump each CPU's sample, which must
#     be where each CPU is in the panic (derivations at the checks).
# Boot 2, armprof-dbgen=off,armprof-niden=off (PC sampling prohibited),
# and the model's option ed_oslar_edad 0: without FEAT_Debugv8p2 it is
# IMPLEMENTATION DEFINED whether an external write of OSLAR_EL1 is refused
# (an error) while AllowExternalDebugAccess() is FALSE (registers/
# OSLAR_EL1.external-debug.md), and DBGEN low makes it FALSE. The driver's
# panic notifier writes EDOSLAR before it reads EDPRSR, so on a PE that
# refuses it (the model's default, 1) the notifier takes an External
# abort inside the panic and the guest hangs: seen, and said in
# docs/qemu-system.md. Here the PE accepts the write, as such a PE may:
#   - EDPCSR reads 0xFFFFFFFF; CPU1 powered off by PSCI CPU_OFF (offline)
#     refuses EDPCSR but, without FEAT_DoPD, lets EDPRSR be read, PU 0;
#   - the driver's dump says "CPU is in Debug state or profiling is
#     prohibited!" for both.
#   cpu_debug.sh REPO STACK PLUGIN PROGRAM
# ARMPROF_RECORD_KEEP=DIR keeps the consoles there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 plugin=$3 prog_host=$4
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$prog_host" ] || skip "no cpu_debug program ($prog_host): it needs aarch64-linux-gnu-gcc"
. "$(dirname "$0")/guest_run.sh"
guest_setup
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }

# The blocks (the glue's memory map, docs/qemu-system.md): CPU n's debug
# block at 0x0b000000 + n * 0x2000. Offsets: the manual's register pages
# (registers/<NAME>.external-debug.md, 'Component Debug, Offset').
cpu0=0x0b000000 cpu1=0x0b002000
edpcsr=0x0A0 edprsr=0x314 edoslar=0x300
at() { printf '0x%08x' $(($1 + $2)); } # BASE OFFSET
# the guest's program and its spin(): one instruction, `b .` (an empty
# endless loop), so a sample of it is its address
prog=/usr/local/bin/cpu_debug
mkdir -p "$work/bin"
cp "$prog_host" "$work/bin/cpu_debug"

# shellcheck disable=SC2034 # guest_run.sh's
guest_perf=0 guest_modules=coresight-cpu-debug
# the script loads them after its /dev/mem accesses: once the driver has
# claimed the blocks, CONFIG_IO_STRICT_DEVMEM refuses /dev/mem there
# shellcheck disable=SC2034 # guest_run.sh's
guest_modules_load=script
# a boot takes about 20 s; a guest that hangs (a nested panic) ends sooner
# shellcheck disable=SC2034 # guest_run.sh's
guest_timeout=300

# the guest script's common parts. From CPU0 (taskset): CPU1 runs spin.
guest_lib() {
  cat <<EOF
export PATH=/usr/local/bin:/bin:/sbin:/usr/bin:/usr/sbin
say() { echo "armprof-guest: \$*"; }
do0() { tag=\$1; shift; say "\$tag \$(taskset -c 0 $prog "\$@" 2>&1)"; }
spin_start() {
  $prog spin 1 >/tmp/spin.out 2>&1 &
  spin=\$!
  while ! grep -q '^spin' /tmp/spin.out; do sleep 1; done
  say "\$(cat /tmp/spin.out)"
}
EOF
}
# the driver, enabled, and a crash on CPU0 (the shell that writes the
# sysrq trigger says its pid: Linux's CONTEXTIDR_EL1 on that CPU)
guest_crash() {
  cat <<'EOF'
sh /modules/load
dmesg | grep -i 'coresight' | sed 's/^/armprof-guest: dmesg: /'
mount -t debugfs none /sys/kernel/debug
echo 1 >/sys/kernel/debug/coresight_cpu_debug/enable
say "enable $(cat /sys/kernel/debug/coresight_cpu_debug/enable)"
grep -E ' [tT] (vectors|arm64_nmi_cpu_stop|local_cpu_stop|do_handle_IPI|ipi_handler|sdei_mask_local_cpu|invoke_sdei_fn|readl_relaxed[[:space:]]\[coresight_cpu_debug\])$' /proc/kallsyms >/tmp/kallsyms
EOF
  guest_send_file kallsyms /tmp/kallsyms
  cat <<'EOF'
kthreads=
for d in /proc/[0-9]*; do [ -z "$(tr -d '\000' <"$d/cmdline" 2>/dev/null)" ] && kthreads="$kthreads ${d#/proc/}"; done
echo "armprof-guest: kthreads$kthreads"
taskset -c 0 sh -c 'echo "armprof-guest: crash pid $$"; echo c >/proc/sysrq-trigger'
say "no panic"
EOF
}

# spin()'s address, as the program's symbol table says (static, not PIE)
nm=$(command -v aarch64-linux-gnu-nm) || skip "no aarch64-linux-gnu-nm to find spin() in $prog_host"
spin_addr=$("$nm" "$prog_host" | awk '$3 == "spin" { print "0x" $1 }')
[ -n "$spin_addr" ] || { echo "FAIL: no spin in $prog_host's symbols"; exit 1; }

# the lines "armprof-guest: TAG REST" of the console, REST
tagged() { sed -n "s/^armprof-guest: $1 //p" "$work/out"; }

# The panic dump of the driver, CPU by CPU: "CPU REGISTER TEXT" lines from
# its " EDPRSR:  ..." etc. after its "CPU[n]:" line (dev_emerg, one device
# a CPU)
dump() {
  awk '/ARM external debug module:/ { on = 1 }
       on && match($0, /CPU\[[0-9]+\]:/) { cpu = substr($0, RSTART + 4, RLENGTH - 6); next }
       on && cpu != "" && match($0, / (EDPRSR|EDPCSR|EDCIDSR|EDVIDSR): +/) {
         reg = substr($0, RSTART + 1, RLENGTH - 1); sub(/: +$/, "", reg)
         print cpu, reg, substr($0, RSTART + RLENGTH) }
       on && cpu != "" && /CPU is in Debug state or profiling is prohibited!/ { print cpu, "PROHIBITED", "-" }
       on && cpu != "" && /No permission to access debug registers!/ { print cpu, "NOPERM", "-" }' "$work/out"
}
reg() { awk -v c="$1" -v r="$2" '$1 == c && $2 == r { $1 = ""; $2 = ""; sub(/^  /, ""); print; exit }' "$work/dump"; }

# EDPRSR (registers/EDPRSR.external-debug.md): PU bit 0, SPD 1, R 2,
# HALTED 4, OSLK 5, DLK 6
bit() { echo $((($1 >> $2) & 1)); }

# The probe: the driver's message for each CPU (dev_info in debug_probe(),
# drivers/hwtracing/coresight/coresight-cpu-debug.c)
check_probe() { # BOOT
  local n
  for n in 0 1; do
    grep -q "armprof-guest: dmesg: .*Coresight debug-CPU$n initialized" "$work/out" &&
      ok "$1: the driver probed CPU$n's block (Coresight debug-CPU$n initialized)" ||
      bad "$1: no 'Coresight debug-CPU$n initialized' in dmesg"
  done
}

keep_console() { # NAME
  cp "$work/out" "$work/$1.console"
  if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
    mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work/out" "$ARMPROF_RECORD_KEEP/$1.console"
  fi
}

# the guest ran (its /init spoke): else the emulator's complaint
booted() { # NAME
  grep -q '^armprof-guest: kernel ' "$work/out" && return 0
  bad "$1: the guest did not boot: $(head -n 5 "$work/out" | tr '\n' ' ')"
  return 1
}

################################################################ boot 1
{
  guest_lib
  cat <<EOF
spin_start
# samples of CPU1 while it spins at EL0
# (40 of them: on a loaded host a vCPU's thread runs in bursts, in which
# the guest's timer interrupts it missed come at once, and a run of ten
# once found CPU1 in the kernel at every read)
i=0; while [ \$i -lt 40 ]; do i=\$((i + 1)); do0 el0 sample $cpu1; done
# the OS Lock (EDOSLAR, write 1 to lock, 0 to unlock)
do0 oslock-set write $(at $cpu1 $edoslar) 1
do0 oslock-set-edprsr read $(at $cpu1 $edprsr)
do0 oslock-set-edpcsr read $(at $cpu1 $edpcsr)
do0 oslock-clear write $(at $cpu1 $edoslar) 0
do0 oslock-clear-edprsr read $(at $cpu1 $edprsr)
do0 oslock-clear-edpcsr read $(at $cpu1 $edpcsr)
say "spinning \$(cut -d' ' -f1,3,39 /proc/\$spin/stat)"
EOF
  guest_crash
} >"$work/script"
guest_run "$stack" "$plugin" 2 "$work/bin/cpu_debug" \
  armprof-preset=armv8.0-pcsr,armprof-debug-id=cortex-a57
keep_console allowed
if booted allowed; then
  grep -a '^armprof-guest: \(spin\|el0\|oslock\|dmesg\|insmod\|crash\|enable\|no panic\)' "$work/out" || true
  grep -a -A14 'ARM external debug module:' "$work/out" || true

  read -r spin_pid < <(tagged spin | awk '$1 == "pid" { print $2; exit }') || true
  read -r crash_pid < <(tagged crash | awk '$1 == "pid" { print $2; exit }') || true
  [ -n "${spin_pid:-}" ] || bad "allowed: cpu_debug spin did not start"
  guest_received kallsyms

  # Samples of CPU1 (H7.1: a read of EDPCSR[31:0] returns the sampled
  # address and captures EDCIDSR, EDVIDSR, EDPCSR[63:32]; the model samples
  # where the PE is at the read). CPU1 runs spin(): EDPCSR is spin's
  # address; EDPCSR[63:32] 0 (EDPCSR page: RAZ when EDVIDSR.HV is 0, else
  # bits [63:32] of the address, 0); EDCIDSR is CONTEXTIDR_EL1 (EDCIDSR page:
  # 'sampled from CONTEXTIDR_EL1'), where Linux (CONFIG_PID_IN_CONTEXTIDR=y
  # in Debian's kernel) keeps the running task's pid: spin's; EDVIDSR
  # (EDVIDSR page) NS 1 (the virt board's PE is in Non-secure state), E2 0,
  # E3 0 (not EL2, not EL3), VMID 0 (no stage 2: VTTBR_EL2 0), HV either
  # (a hint: bits [63:32] are 0). Now and then CPU1 is in the kernel: a
  # timer tick (250 Hz) on top of spin (spin's pid: an interrupt switches no
  # task), e.g. at VBAR_EL1 + 0x480, the vector of an IRQ from a lower EL
  # using AArch64 (H7.1: 'The branch target for an exception is the
  # exception vector address'), or a kernel thread the tick woke (its own
  # pid; seen: pid 15). Such a sample is a kernel address (bits [63:32]
  # all ones, EDVIDSR.HV 1), NS, E2 0, E3 0, VMID 0. At least one of the
  # 40 must be spin's, and none anything else. (The guest's accounting
  # says spin's time is all but a few ticks user time, yet runs have had
  # 3 and 8 of 10 samples at the IRQ vector, others none of 20: a finding
  # for the emulator, printed, not failed.)
  want_lo=$(printf '0x%08x' $((spin_addr & 0xffffffff)))
  want_cid=$(printf '0x%08x' "${spin_pid:-0}")
  vectors=$(awk '$3 == "vectors" && NF == 3 { print "0x" $1; exit }' "$work/kallsyms.data" 2>/dev/null || true)
  n=0 kernel=0 other=0 where=
  while read -r _ _ lo hi cid vid; do
    if [[ ! $vid == 0x* ]] || [[ ! $cid == 0x* ]] || [ "$((vid & ~(1 << 28)))" != $((0x80000000)) ]; then
      other=$((other + 1))
    elif [ "$lo" = "$want_lo" ] && [ "$hi" = 0x00000000 ] && [ "$cid" = "$want_cid" ]; then
      n=$((n + 1))
    elif [[ $hi == 0xffff* ]] && [ "$((vid >> 28 & 1))" = 1 ]; then
      kernel=$((kernel + 1))
      where="$where ${hi}${lo#0x}${vectors:+ (vectors+$(printf '0x%x' $(((hi << 32 | lo) - vectors))))} pid $((cid)),"
    else
      other=$((other + 1))
    fi
  done < <(tagged el0 | awk '$1 == "sample"')
  echo "allowed: samples of CPU1: $n in spin, $kernel in the kernel:${where:- none}, $other else"
  [ "$n" -ge 1 ] && [ "$other" = 0 ] &&
    ok "allowed: $n of 40 samples of CPU1 are spin() at EL0 (EDPCSR $want_lo, EDCIDSR pid $spin_pid, EDVIDSR NS), $kernel in the kernel" ||
    bad "allowed: $n of 40 samples of CPU1 in spin() at $want_lo, $kernel in the kernel, $other neither (pid ${spin_pid:-?}, EDVIDSR NS=1 E2=0 E3=0 VMID=0): $(tagged el0 | tr '\n' ';')"

  # The OS Lock (EDPCSR page, 'Accessible as follows': 'When ...
  # OSLockStatus(), accesses to this register return an ERROR'; the block
  # makes that a bus error: SIGBUS). EDPRSR is accessible (its page: an ERROR
  # only with FEAT_DoPD and the core off), OSLK (bit 5) 'returns the value of
  # OSLSR_EL1.OSLK', PU (bit 0) 1.
  check_read() { # TAG WANT(SIGBUS|value|any) WHY
    local got
    got=$(tagged "$1" | awk '$1 == "read" { print $3; exit }')
    case $2 in
      any) [ -n "$got" ] && [ "$got" != SIGBUS ] ;;
      *) [ "$got" = "$2" ] ;;
    esac && ok "$1: ${got:-nothing} ($3)" || bad "$1: ${got:-nothing}, wanted $2 ($3)"
  }
  check_edprsr() { # TAG PU OSLK (- for either)
    local got
    got=$(tagged "$1" | awk '$1 == "read" { print $3; exit }')
    if [[ ! $got == 0x* ]]; then
      bad "$1: EDPRSR ${got:-not read}, wanted readable"
    elif [ "$(bit "$got" 0)" = "$2" ] && { [ "$3" = - ] || [ "$(bit "$got" 5)" = "$3" ]; }; then
      ok "$1: EDPRSR $got (PU $2, OSLK $3)"
    else
      bad "$1: EDPRSR $got: PU $(bit "$got" 0) OSLK $(bit "$got" 5), wanted PU $2 OSLK $3"
    fi
  }
  tagged oslock-set | grep -q '^write .* ok$' || bad "oslock-set: the write of EDOSLAR: $(tagged oslock-set)"
  check_edprsr oslock-set-edprsr 1 1
  check_read oslock-set-edpcsr SIGBUS "OS Lock set: EDPCSR is an ERROR"
  check_edprsr oslock-clear-edprsr 1 0
  check_read oslock-clear-edpcsr any "OS Lock clear: EDPCSR readable"

  check_probe allowed
  dump >"$work/dump"
  sed 's/^/allowed: dump: /' "$work/dump"
  sed 's/^/allowed: kallsyms: /' "$work/kallsyms.data" 2>/dev/null || true

  # What each CPU does when the notifier reads. panic() (kernel/panic.c,
  # vpanic()) stops the other CPUs (panic_other_cpus_shutdown():
  # smp_send_stop(), no crash kernel being loaded) before it calls the panic
  # notifiers, and smp_send_stop() waits until they are offline, so:
  #   - CPU1 took IPI_CPU_STOP on top of spin (an interrupt at EL0, no
  #     context switch: CONTEXTIDR_EL1 still spin's pid; or, now and then,
  #     on top of a kernel thread the tick woke there, whose pid it is:
  #     the guest lists the kernel threads' pids before the crash) and parks in the
  #     stop function (arch/arm64/kernel/smp.c; 7.3: arm64_nmi_cpu_stop(),
  #     which every stop path funnels through; 6.x: local_cpu_stop()): it
  #     masks DAIF, set_cpu_online(false), sdei_mask_local_cpu(), then
  #     cpu_park_loop(), wfe/wfi forever, inlined. The sample is in that
  #     function, or in do_handle_IPI or ipi_handler if the compiler inlined
  #     it there: the innermost of them that /proc/kallsyms names. (A vCPU
  #     halted in WFI is sampled at the instruction after the WFI,
  #     docs/qemu-system.md: the park loop still.) CPU0 goes on once CPU1 is
  #     offline, before CPU1's sdei_mask_local_cpu()
  #     (CONFIG_ARM_SDE_INTERFACE=y; no SDEI firmware: it returns at once),
  #     so CPU1 may still be there if its host thread waited through all the
  #     console output CPU0 prints before its notifiers: allowed too;
  #   - CPU0 reads its own EDPCSR in the notifier: debug_notifier_call()
  #     (debug_read_regs() is inlined; the 7.3 module's disassembly) calls
  #     the module's out-of-line readl_relaxed() for EDPCSR, whose ldr is the
  #     access. The manual promises nothing for a PE sampling itself (H7.1:
  #     'no guaranteed relationship between the address of the load
  #     instruction and the value read'); the model samples where the PE is:
  #     readl_relaxed [coresight_cpu_debug]. CONTEXTIDR_EL1 is the crashing
  #     shell's pid (sysrq_handle_crash() runs in its write()).
  # Both at EL1 in Non-secure state: EDVIDSR 0x90000000 (NS 1, E2 0, E3 0,
  # HV 1 - EDVIDSR page: HV 0 would say bits [63:32] are zero, which a
  # kernel address's are not - VMID 0), which the driver prints as
  # "90000000 (State:Non-secure Mode:EL1/0 Width:64bits VMID:0)".
  stop_fn=
  for f in arm64_nmi_cpu_stop local_cpu_stop do_handle_IPI ipi_handler; do
    if awk -v f="$f" '$3 == f && NF == 3' "$work/kallsyms.data" 2>/dev/null | grep -q .; then
      stop_fn=$f
      break
    fi
  done
  [ -n "$stop_fn" ] || bad "allowed: /proc/kallsyms (received) names none of arm64_nmi_cpu_stop, local_cpu_stop, do_handle_IPI, ipi_handler"
  # sdei_mask_local_cpu() and, unless inlined, the SMCCC wrapper it calls
  stop_also="sdei_mask_local_cpu invoke_sdei_fn"
  want_vid="90000000 (State:Non-secure Mode:EL1/0 Width:64bits VMID:0)"
  check_cpu() { # CPU "FUNCTION..." MODULE "PID..." (EDCIDSR one of them)
    local pc fn off size prsr
    prsr=$(reg "$1" EDPRSR)
    # EDPRSR read after the driver's OS unlock: PU 1, R 0, HALTED 0, OSLK 0, DLK 0
    case $prsr in
      [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]" (Power:On DLK:Unlock)")
        [ $((0x${prsr%% *} & 0x75)) = 1 ] && ok "allowed: CPU$1 EDPRSR $prsr" ||
          bad "allowed: CPU$1 EDPRSR $prsr: R, HALTED, OSLK or DLK set" ;;
      *) bad "allowed: CPU$1 EDPRSR '${prsr:-none}', wanted Power:On DLK:Unlock" ;;
    esac
    pc=$(reg "$1" EDPCSR)
    # %pS: FUNCTION+0xOFF/0xSIZE [MODULE]
    fn=${pc%%+*} off=${pc#*+} off=${off%%/*} size=${pc#*/} size=${size%% *}
    if [[ " $2 " == *" $fn "* ]] && [[ "$pc" == *"$3" ]] && [[ $off =~ ^0x[0-9a-f]+$ && $size =~ ^0x[0-9a-f]+$ ]] &&
      [ $((off)) -lt $((size)) ]; then
      ok "allowed: CPU$1 EDPCSR $pc"
    else
      bad "allowed: CPU$1 EDPCSR '${pc:-none}', wanted in $2${3:+ $3}"
    fi
    local cid pid named=
    cid=$(reg "$1" EDCIDSR)
    for pid in ${4:-}; do
      [ "$cid" = "$(printf '%08x' "$pid")" ] && named=$pid
    done
    [ -n "$named" ] && ok "allowed: CPU$1 EDCIDSR $cid (pid $named)" ||
      bad "allowed: CPU$1 EDCIDSR '$cid', wanted the pid of one of: ${4:-?}"
    [ "$(reg "$1" EDVIDSR)" = "$want_vid" ] && ok "allowed: CPU$1 EDVIDSR $want_vid" ||
      bad "allowed: CPU$1 EDVIDSR '$(reg "$1" EDVIDSR)', wanted '$want_vid'"
  }
  if grep -q 'ARM external debug module:' "$work/out"; then
    check_cpu 0 readl_relaxed "[coresight_cpu_debug]" "${crash_pid:-}"
    # CPU1 took the stop on top of spin, or of a kernel thread the tick
    # woke there (its own pid in CONTEXTIDR_EL1: seen once in CI, pid 15)
    read -r kthreads < <(tagged kthreads) || true
    check_cpu 1 "$stop_fn $stop_also" "" "${spin_pid:-} ${kthreads:-}"
  else
    bad "allowed: no panic dump ('ARM external debug module:') on the console"
  fi
fi

################################################################ boot 2
{
  guest_lib
  cat <<EOF
spin_start
do0 prohibited1 sample $cpu1
do0 prohibited0 sample $cpu0
kill \$spin
echo 0 >/sys/devices/system/cpu/cpu1/online
say "cpu1 online \$(cat /sys/devices/system/cpu/cpu1/online)"
do0 off-edprsr read $(at $cpu1 $edprsr)
do0 off-edpcsr read $(at $cpu1 $edpcsr)
echo 1 >/sys/devices/system/cpu/cpu1/online
say "cpu1 online \$(cat /sys/devices/system/cpu/cpu1/online)"
do0 on-edprsr read $(at $cpu1 $edprsr)
do0 on-edpcsr read $(at $cpu1 $edpcsr)
EOF
  guest_crash
} >"$work/script"
guest_run "$stack" "$plugin" 2 "$work/bin/cpu_debug" \
  armprof-preset=armv8.0-pcsr,armprof-debug-id=cortex-a57,armprof-dbgen=off,armprof-niden=off,armprof-options=ed_oslar_edad=0
keep_console prohibited
if booted prohibited; then
  grep -a '^armprof-guest: \(spin\|prohibited\|cpu1\|off-\|on-\|dmesg\|insmod\|crash\|enable\|no panic\)' "$work/out" || true
  grep -a -A8 'ARM external debug module:' "$work/out" || true

  # DBGEN and NIDEN low: ExternalNoninvasiveDebugEnabled() is DBGEN OR NIDEN
  # without FEAT_Debugv8p4 (J1.3.1.18), so PC sampling is not allowed (H7.1.1:
  # it needs ExternalNoninvasiveDebugEnabled()), and 'EDPCSRlo reads as
  # 0xFFFFFFFF when ... PC Sample-based profiling is prohibited' (EDPCSR
  # page), from any PE and for its own
  for t in prohibited1 prohibited0; do
    got=$(tagged "$t" | awk '$1 == "sample" { print $3; exit }')
    [ "$got" = 0xffffffff ] && ok "$t: EDPCSR 0xffffffff (sampling prohibited)" ||
      bad "$t: EDPCSR '${got:-none}', wanted 0xffffffff (sampling prohibited): $(tagged "$t")"
  done
  # CPU1 offline: PSCI CPU_OFF powers it down (IsCorePowered() FALSE).
  # EDPCSR: 'When ... !IsCorePowered() ... accesses to this register return
  # an ERROR'. EDPRSR: an ERROR only 'When FEAT_DoPD is implemented and
  # !IsCorePowered()' (armv8.0-pcsr has no FEAT_DoPD), PU 0: 'Core power
  # domain is in a low-power or powerdown state'. Back online, PU 1 and
  # EDPCSR readable again (0xFFFFFFFF: still prohibited).
  tagged cpu1 | sed -n '1,1p' | grep -qx 'online 0' || bad "prohibited: cpu1 did not go offline: $(tagged cpu1 | tr '\n' ';')"
  # (OSLK: 'UNKNOWN/WI' when !IsCorePowered())
  check_edprsr off-edprsr 0 -
  check_read off-edpcsr SIGBUS "CPU1 powered down: EDPCSR is an ERROR"
  check_edprsr on-edprsr 1 -
  check_read on-edpcsr 0xffffffff "CPU1 back on, sampling prohibited"

  # the panic dump: the driver reads EDPCSR 0xFFFFFFFF ('EDPCSR_PROHIBITED')
  # and says so for each CPU
  check_probe prohibited
  dump >"$work/dump"
  sed 's/^/prohibited: dump: /' "$work/dump"
  # a bus error in the notifier (an access the block refused) says where
  sed -n '/ARM external debug module:/,$p' "$work/out" | grep -a -m 1 -A 12 'Internal error:' |
    grep -a 'Internal error:\|pc :\|Code:' | sed 's/^/prohibited: the notifier faulted: /' || true
  for n in 0 1; do
    [ "$(reg $n PROHIBITED)" = - ] && ok "prohibited: CPU$n 'CPU is in Debug state or profiling is prohibited!'" ||
      bad "prohibited: CPU$n: no 'CPU is in Debug state or profiling is prohibited!' in the dump"
  done
fi

[ "$fail" = 0 ] && echo "ok: the external debug blocks sample, refuse and identify as the manual and the driver expect"
exit "$fail"
