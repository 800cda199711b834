# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Sourced by the qemu-system tests that run perf in a guest (record.sh,
# symbols.sh), with $repo and tests/skip.sh's skip():
#   guest_prepare STACK PERF_COMMAND...
#                               skips unless PERF_COMMAND runs as perf STACK
#                               and the emulator is built ($qemu); makes
#                               $work, whose perf.data files and console
#                               go to $ARMPROF_RECORD_KEEP at exit when set
#   guest_send_file NAME PATH   prints the guest script's lines that copy
#                               PATH out through the console (base64)
#   guest_run STACK PLUGIN SMP "FILES" [CPU_OPTIONS]
#                               boots the STACK guest with its perf, FILES
#                               in /usr/local/bin, running $work/script
#                               under the plugin (CPU_OPTIONS: more -cpu
#                               properties, armprof-preset=NAME, ...); the
#                               console, without carriage returns, in
#                               $work/out. Skips when the guest's packages
#                               cannot be had. Set before the call:
#                                 guest_perf=0    no perf in the guest
#                                 guest_modules="NAME..." kernel modules,
#                                   and guest_modules_load=init|script
#                                   (frontends/qemu-system/guest.sh's
#                                   ARMPROF_GUEST_MODULES, _MODULES_LOAD)
#                                 guest_append="ARG..." more kernel
#                                   command-line arguments
#                                 guest_qemu=1    Debian 13's
#                                   qemu-system-aarch64 in the guest
#                                   (guest.sh's ARMPROF_GUEST_QEMU)
#                                 guest_memory=SIZE (default 1G)
#                                 guest_timeout=SECONDS (default 900)
#                                 guest_machine="PROP=VALUE,..." more
#                                   -M virt properties
#                                   (virtualization=on: EL2)
#                               A kernel panic ends the run: panic=-1
#                               reboots at once, and -no-reboot makes QEMU
#                               exit instead (after the panic notifiers)
#   guest_setup                 guest_prepare without perf: the emulator
#                               ($qemu) and $work
#   guest_received NAME         what guest_send_file NAME sent, into
#                               $work/NAME.data (empty when it did not come)
. "$(dirname "${BASH_SOURCE[0]}")/emulator.sh"
guest_prepare() {
  local stack=$1 version
  shift
  [ $# -gt 0 ] || skip "no perf $stack for the host (.ci/run installs linux-perf; tools/perf-root.sh)"
  version=$("$@" --version 2>&1) || skip "perf does not run: $version"
  case $version in *"perf version $stack"*) ;; *) skip "not perf $stack: $version" ;; esac
  guest_setup
}
guest_setup() {
  emulator_locate "$repo"
  work=$(mktemp -d)
  trap guest_keep EXIT
}
guest_keep() {
  if [ -n "${ARMPROF_RECORD_KEEP:-}" ]; then
    mkdir -p "$ARMPROF_RECORD_KEEP" && cp "$work"/*.data "$work/out" "$ARMPROF_RECORD_KEEP/" 2>/dev/null
  fi
  rm -rf "$work"
}
guest_send_file() {
  echo "echo 'armprof-guest: begin $1'; base64 $2; echo 'armprof-guest: end $1'"
}
guest_run() {
  local stack=$1 plugin=$2 smp=$3 files=$4 cpu_options=${5:-} guest kernel initrd
  guest=$(ARMPROF_GUEST_PERF=${guest_perf:-1} ARMPROF_GUEST_QEMU=${guest_qemu:-0} ARMPROF_GUEST_FILES="$files" \
    ARMPROF_GUEST_MODULES=${guest_modules:-} ARMPROF_GUEST_MODULES_LOAD=${guest_modules_load:-init} \
    sh "$repo/frontends/qemu-system/guest.sh" "$stack" "$work/script" 2>"$work/guest.err") ||
    skip "the $stack guest's packages: $(tail -n 1 "$work/guest.err")"
  kernel=$(sed -n 's/^KERNEL=//p' <<<"$guest")
  initrd=$(sed -n 's/^INITRD=//p' <<<"$guest")
  timeout "${guest_timeout:-900}" "$qemu" -M "virt${guest_machine:+,$guest_machine}" -cpu "max,pauth=off,armprof=on${cpu_options:+,$cpu_options}" -smp "$smp" -m "${guest_memory:-1G}" -nographic -nic none \
    -no-reboot -kernel "$kernel" -initrd "$initrd" -append "console=ttyAMA0 panic=-1 quiet${guest_append:+ $guest_append}" \
    -plugin "$plugin" >"$work/console" 2>&1 || true
  tr -d '\r' <"$work/console" >"$work/out"
}
guest_received() {
  sed -n "/^armprof-guest: begin $1\$/,/^armprof-guest: end $1\$/p" "$work/out" |
    grep -v '^armprof-guest' | base64 -d >"$work/$1.data" 2>/dev/null || true
}
