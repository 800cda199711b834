#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The plugin's system-mode options (issues 43 and 39, docs/qemu.md): each bad one
# stops QEMU with a message naming it, before the plugin looks for the
# emulator's functions, so the stock qemu-system-aarch64 (build.sh --stock)
# shows them; with good options that emulator is refused for lacking the
# armprof glue (no armprof_system_pe).
#   pcsample_options.sh REPO PLUGIN STATIC_ELF
set -u
repo=$1 plugin=$2 elf=$3
. "$(dirname "$0")/../qemu/common.sh"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ -x "$elf" ] || skip "no static program ($elf): it needs aarch64-linux-gnu-gcc"
qemu=$(sh "$repo/frontends/qemu-system/build.sh" --stock --locate 2>/dev/null | sed -n 's/^QEMU_SYSTEM_AARCH64=//p')
[ -x "$qemu" ] || skip "no stock qemu-system-aarch64 (frontends/qemu-system/build.sh --stock)"
make_work
# a position-independent ELF file: the static one's header with e_type
# ET_DYN (3), which is all the plugin looks at for this
cp "$elf" "$work/pie"
printf '\003' | dd of="$work/pie" bs=1 seek=16 conv=notrunc status=none
fail=0
expect_error() { # ARGS WANT: QEMU refuses the plugin with a message holding WANT
  expect_refusal "$1" "$2" timeout 60 "$qemu" -M virt -cpu max -nographic -nic none \
    -kernel /dev/null -plugin "$plugin,$1"
}
expect_error "pcsample=0" "pcsample=0: reads a second, 1 to 100000"
expect_error "pcsample=100001" "pcsample=100001: reads a second, 1 to 100000"
expect_error "pcsample=1k" "pcsample=1k: reads a second"
expect_error "pcsample=1000,pcsample-elf=$work/none" "pcsample-elf=$work/none: $work/none:"
expect_error "pcsample=1000,pcsample-elf=$work/pie" "pcsample-elf=$work/pie: a position-independent file (ET_DYN)"
expect_error "pcsample-elf=:" "pcsample-elf=:: no file"
expect_error "colour=blue" "unknown argument \"colour\": system mode takes out, mode, batch, mem_*"
expect_error "batch=x" "batch=x: 0 (each visit calls the model at once) to 65536"
expect_error "mode=slow" "mode=slow: fast or exact"
expect_error "mem_l1_size=64K" "the mem_* options configure exact mode's memory hierarchy: fast mode models no memory"
expect_error "mode=exact,mem_l1_ways=0" "mem_l1_ways"
expect_error "pcsample=1000,pcsample-elf=$elf:$elf,out=$work/p" "has no armprof_system_pe"
[ "$fail" = 0 ] && echo "ok: every bad system-mode option named"
exit "$fail"
