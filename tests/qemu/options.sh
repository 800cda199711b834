#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU plugin's arguments (docs/qemu.md, "Running"): each bad one stops
# QEMU with a message naming it; a configuration file is read (an option
# set there shows in the summary's behaviour: spe_buffer_tlb and the
# interval), and its bad line is named by file and line.
#
#   options.sh QEMU QEMU_VERSION PLUGIN PROGRAM
set -u
qemu=$1 qemu_version=$2 plugin=$3 program=$4
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program'"
make_work
fail=0
expect_error() { # ARGS WANT: QEMU refuses the plugin with a message holding WANT
  expect_refusal "$1" "$2" "$qemu" -plugin "$plugin,out=$work/p,$1" "$program"
}
expect_error "interval=300" "interval=300: a multiple of 256"
expect_error "mode=slow" "mode=slow: fast or exact"
# midr=: a Neoverse core's MIDR_EL1 (the Data Source encoding written);
# Cortex-A78 (0x411fd410) and QEMU max's (implementer 0) are refused
expect_error "midr=411fd410" "midr=411fd410: MIDR_EL1 in hex of an Arm Neoverse core"
expect_error "midr=000f0510" "midr=000f0510: MIDR_EL1 in hex of an Arm Neoverse core"
expect_error "midr=xyz" "midr=xyz: MIDR_EL1 in hex"
expect_error "timing=fast" "timing=fast: inline, ops or access"
expect_error "batch=70000" "batch=70000: 0 (each visit calls the model at once) to 65536"
expect_error "replay=later" "replay=later: thread or inline"
expect_error "jitter=maybe" "jitter=maybe: on or off"
expect_error "preset=armv99" "preset=armv99: not a preset"
expect_error "preset=minimal" "the configuration cannot be booted: the PE has no EL2 or no EL3"
expect_error "colour=blue" "unknown argument \"colour\""
expect_error "perf_version=six" "perf_version=six"
# the host-side PC sampler (issue 43) reads the vCPUs of qemu-system only
expect_error "pcsample=1000" "pcsample=: PC sampling by an external agent"
expect_error "pcsample-elf=$program" "is for the armprof qemu-system-aarch64"
# the memory hierarchy's (docs/memory-model.md): exact mode's only
expect_error "mem_l1_size=32K" "the mem_* options configure exact mode's memory hierarchy"
expect_error "mode=exact,mem_l1_size=48K" "mem_l1_size=49152 with mem_l1_ways=4"
expect_error "mode=exact,mem_nodes=3" "mem_nodes=3: 1 or 2"
expect_error "mode=exact,mem_dram_latency=slow" "mem_dram_latency=slow: a number"
expect_error "config=$work/none" "$work/none: cannot open"
expect_error "out=$work/no/such/folder/p" "$work/no/such/folder/p.spe: cannot write"
printf '# a comment\nspe_buffer_tlb 0\n\nFEAT_NOSUCH on\n' >"$work/bad.cfg"
expect_error "config=$work/bad.cfg" "$work/bad.cfg:4:"
# A good file sets the PE: PMSIDR_EL1.Interval 0b1000 makes 4096 the
# minimum interval (0b0111 is 3072: this test had 7, and passed only while
# the kernel read each code as the next one's interval), to which the
# kernel raises the plugin's 1024 (Linux's rule): about a quarter of the
# samples.
printf 'pmsidr_interval = 8   # 4096\n' >"$work/good.cfg"
if "$qemu" -plugin "$plugin,out=$work/g,quiet=on,config=$work/good.cfg" "$program" >/dev/null 2>&1; then
  samples=$(grep -o 'samples [0-9]*' "$work/g.summary" | head -n 1 | awk '{ print $2 }')
  "$qemu" -plugin "$plugin,out=$work/d,quiet=on" "$program" >/dev/null 2>&1
  base=$(grep -o 'samples [0-9]*' "$work/d.summary" | head -n 1 | awk '{ print $2 }')
  # about a quarter of the samples at 4096 than at 1024
  if [ "${samples:-0}" -gt 0 ] && [ $((samples * 3)) -lt "${base:-0}" ]; then
    echo "ok: config file read: $samples samples at interval 4096, $base at 1024"
  else
    echo "FAIL: config file: $samples samples against $base at 1024"
    fail=1
  fi
  grep -q "config $work/good.cfg" "$work/g.summary" && echo "ok: the summary names the file" ||
    { echo "FAIL: the summary does not name the configuration file"; fail=1; }
else
  echo "FAIL: a good configuration file was refused"
  fail=1
fi
# jitter=off: PMSIRR_EL1.RND 0, no random part (D17.2). SPEToCollectSample():
# the operation that finds PMSICR_EL1.COUNT 0 reloads it with INTERVAL
# without counting, and the one that takes it from 1 to 0 is sampled: a
# sample every INTERVAL + 1 operations, the first at operation 1025 (the
# kernel leaves COUNT 0). The loop's 1000006 instructions make 975.
"$qemu" -plugin "$plugin,out=$work/j,quiet=on,jitter=off" "$program" >/dev/null 2>&1
samples=$(grep -o 'samples [0-9]*' "$work/j.summary" | head -n 1 | awk '{ print $2 }')
[ "$samples" = $((1000006 / 1025)) ] && echo "ok: jitter=off: $samples samples" ||
  { echo "FAIL: jitter=off: $samples samples, not $((1000006 / 1025))"; fail=1; }
exit $fail
