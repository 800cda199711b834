#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A bare-metal test program (tests/qemu-system/baremetal.h: snapshot.c,
# pmu_traps.c, whose comments give the manual's rules they check) in the
# armprof qemu-system-aarch64 at EL1 (the virt machine) and at EL2
# (virtualization=on), under the armprof plugin, which gives the model's
# PMU (the guest's, armprof-pmu=on) its operations; its exit status is the
# number of failed checks. Any other end (a QEMU abort, a signal, the
# timeout) fails too.
# With CPU_OPTIONS (more -cpu properties: armprof-preset=NAME,
# armprof-pmu=off), the program is told them on its semihosting command
# line (arg=).
#   baremetal.sh REPO PROGRAM PLUGIN [CPU_OPTIONS]
set -euo pipefail
repo=$1 program=$2 plugin=$3 cpu_options=${4:-}
. "$(dirname "$0")/../skip.sh"
. "$(dirname "$0")/emulator.sh"
emulator_locate "$repo"
[ -f "$program" ] || skip "no test program: $program"
[ -f "$plugin" ] || skip "no armprof plugin for QEMU 10.0: $plugin"
cpu=max,pauth=off,armprof=on
semihosting=enable=on,target=native,arg=$(basename "$program")
if [ -n "$cpu_options" ]; then
  cpu+=,$cpu_options
  semihosting+=,arg=$cpu_options
fi
status=0
for machine in virt virt,virtualization=on; do
  echo "== -M $machine"
  rc=0
  timeout 120 "$qemu" -M "$machine" -cpu "$cpu" -m 128M -nographic -nic none \
    -semihosting-config "$semihosting" -kernel "$program" -plugin "$plugin" </dev/null ||
    rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL: -M $machine: exit $rc (the number of failed checks; 124 is the timeout)"
    status=1
  fi
done
exit $status
