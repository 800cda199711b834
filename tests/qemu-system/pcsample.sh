#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host-side PC sampler (issue 43, docs/pc-sampling.md): the plugin's
# pcsample=1000 reads every vCPU's PMPCSR as a JTAG probe would, while the
# STACK guest (-smp 2) runs tests/qemu-system/pcs_work.c (static, named
# with pcsample-elf=) twice at once in each of two phases, 10 s and 5 s, and
# copies its /proc/kallsyms out (text symbols, of this boot). perf STACK
# reads PREFIX.pcsr.perf.data with --kallsyms:
#   (a) the two `pcs_work spin` processes (--pid): the top symbol is
#       pcs_spin, [.] user: they do nothing else for 10 s (a loop with no
#       call, load or store); their kernel time is the timer tick and the
#       scheduler's, a small part;
#   (b) the two `pcs_work syscall` processes, which read 1 MiB from
#       /dev/zero again and again: the top symbol is the kernel's [k], and
#       most of their samples are. Each call is a few user instructions
#       against the kernel zeroing 1 MiB (65536 16-byte stores) besides
#       its entry and exit. Not the top three: the sampler samples host
#       time, and the host time of QEMU's exception entry counts at the
#       user block that the svc ends, so the user loop is one of the first
#       few symbols (with getppid(), whose kernel path is short, it came
#       second, the kernel's 76% being spread over many functions);
#   and the plugin's counts: every vCPU read, each read a sample, no
#   sample (the first read of the unit activates it, FEAT_PCSRv8p9: at
#   least one) or refused (an error, as the external interface gives while
#   the OS Lock is locked, from reset until Linux unlocks it at boot, or
#   while the vCPU is powered down); halted vCPUs are sampled too (in the
#   kernel's idle loop), so both vCPUs have samples;
#   the whole file, too, has pcs_spin first (below, why).
#   pcsample.sh REPO STACK PLUGIN PCS_WORK ARMPROF PERF_COMMAND...
# ARMPROF_RECORD_KEEP=DIR keeps the console and the perf.data there.
set -euo pipefail
# shellcheck disable=SC2034 # repo: guest_run.sh's
repo=$1 stack=$2 plugin=$3 pcs_work=$4 armprof=$5
shift 5
. "$(dirname "$0")/../skip.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$pcs_work" ] || skip "no pcs_work program ($pcs_work): it needs aarch64-linux-gnu-gcc"
. "$(dirname "$0")/guest_run.sh"
guest_prepare "$stack" "$@"
perf=("$@")
prog=/usr/local/bin/pcs_work
mkdir -p "$work/symfs/usr/local/bin"
cp "$pcs_work" "$work/symfs$prog"
{
  echo 'export PATH=/usr/bin:/bin:/usr/sbin:/sbin'
  echo 'echo 0 >/proc/sys/kernel/kptr_restrict'
  echo "$prog spin 10 & $prog spin 10; wait"
  echo "$prog syscall 5 & $prog syscall 5; wait"
  echo "grep ' [tTwW] ' /proc/kallsyms | gzip -c >/tmp/kallsyms.gz"
  guest_send_file kallsyms /tmp/kallsyms.gz
} >"$work/script"
guest_run "$stack" "$plugin,pcsample=1000,pcsample-elf=$work/symfs$prog,out=$work/p" 2 "$work/symfs$prog"
grep -a 'armprof-guest: pcs_work\|^vcpu\|PC sampling\|pcsr.perf.data\|armprof:' "$work/out" || true
fail=0
bad() { echo "FAIL: $*"; fail=1; }
data=$work/p.pcsr.perf.data
[ -s "$data" ] || { echo "FAIL: no $data"; exit 1; }
cp "$data" "$work/pcsr.data" # kept by ARMPROF_RECORD_KEEP
guest_received kallsyms
gzip -dc "$work/kallsyms.data" >"$work/kallsyms" 2>/dev/null || true
[ -s "$work/kallsyms" ] || { echo "FAIL: the guest's kallsyms did not come"; exit 1; }
# the plugin's counts, a line per vCPU
for v in 0 1; do
  read -r reads samples none refused < <(sed -n "s/^vcpu $v: PMPCSR reads \([0-9]*\), samples \([0-9]*\), no sample \([0-9]*\), refused \([0-9]*\)\( (the first: .*)\)\{0,1\}$/\1 \2 \3 \4/p" "$work/out") ||
    { bad "no PC sampling counts for vcpu $v"; continue; }
  echo "vcpu $v: $reads reads, $samples samples, $none no sample, $refused refused"
  [ "$((samples + none + refused))" = "$reads" ] || bad "vcpu $v: the counts do not add up"
  [ "$none" -ge 1 ] || bad "vcpu $v: no read without a sample (the first activates the unit)"
  [ "$samples" -gt 100 ] || bad "vcpu $v: $samples samples, wanted more than 100 (a halted vCPU is sampled too)"
done
pids() { # MODE: the pids of pcs_work MODE, comma-separated
  sed -n "s/^armprof-guest: pcs_work $1 pid \([0-9]*\)$/\1/p" "$work/out" | paste -sd, -
}
for phase in spin syscall; do
  p=$(pids "$phase")
  [ -n "$p" ] || { bad "$phase: the guest printed no pid"; continue; }
  if ! "${perf[@]}" report -i "$data" --stdio --kallsyms="$work/kallsyms" --sort sym --pid="$p" \
    >"$work/$phase.report" 2>"$work/$phase.err"; then
    bad "$phase: perf report failed: $(tail -n 1 "$work/$phase.err")"
    continue
  fi
  grep -E '^ +[0-9.]+%' "$work/$phase.report" | sed -n '1,5p' | sed "s/^/$phase (pids $p): /"
  mapfile -t top < <(grep -E '^ +[0-9.]+%' "$work/$phase.report" | sed -n '1,3p')
  [ "${#top[@]}" -ge 1 ] || { bad "$phase: perf report has no rows"; continue; }
  if [ "$phase" = spin ]; then
    read -r _ mode sym _ <<<"${top[0]}"
    [ "$mode $sym" = "[.] pcs_spin" ] || bad "spin: perf puts '$mode $sym' first, not '[.] pcs_spin'"
  else
    read -r _ mode sym _ <<<"${top[0]}"
    [ "$mode" = "[k]" ] || bad "syscall: perf puts '$mode $sym' first, not a kernel symbol"
    # perf's shares are of every sample in the file: the kernel's part of
    # these pids' own
    kshare=$(grep -E '^ +[0-9.]+%' "$work/$phase.report" |
      awk '$2 == "[k]" { k += $1 } $2 == "[.]" { u += $1 } END { print (k + u) ? int(100 * k / (k + u)) : 0 }')
    echo "syscall: the kernel has $kshare% of the pids' samples"
    [ "$kshare" -gt 50 ] || bad "syscall: the kernel has $kshare% of the samples, not most"
  fi
done
# the whole file: pcs_spin first all the same. The spinners hold both
# vCPUs for 10 s; the system call phase holds them for 5 s, at most all of
# it in one function; the idle loop (cpu_do_idle) is sampled while the
# guest boots and between the phases, a few seconds
if "${perf[@]}" report -i "$data" --stdio --kallsyms="$work/kallsyms" --sort sym >"$work/all.report" 2>/dev/null; then
  grep -E '^ +[0-9.]+%' "$work/all.report" | sed -n '1,5p' | sed 's/^/all: /'
  read -r _ mode sym _ < <(grep -E '^ +[0-9.]+%' "$work/all.report" | sed -n '1,1p') || true
  [ "${mode:-} ${sym:-}" = "[.] pcs_spin" ] || bad "all: perf puts '${mode:-} ${sym:-}' first, not '[.] pcs_spin'"
else
  bad "perf report of the whole file failed"
fi
# armprof's own report of the file: the same samples by symbol
"$armprof" report --kallsyms "$work/kallsyms" --top 5 "$data" || bad "armprof report failed"
[ "$fail" = 0 ] && echo "ok: perf $stack names pcs_spin first for the spinning processes and a kernel function for the system calls"
exit "$fail"
