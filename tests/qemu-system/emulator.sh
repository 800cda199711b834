# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the qemu-system tests: the armprof qemu-system-aarch64 that
# frontends/qemu-system/build.sh built (.ci/run builds it), in $qemu, with
# this clone's libarmprof.so.0 first in LD_LIBRARY_PATH: clones sharing the
# emulator's cache each copy their library into its RUNPATH folder, and
# the one a test loads must be its own (the plugin's build-id check says
# so otherwise). Skips (the caller's skip()) when it is not built.
#   emulator_locate REPO
emulator_locate() {
  local out
  out=$(sh "$1/frontends/qemu-system/build.sh" --locate 2>/dev/null) ||
    skip "no armprof qemu-system-aarch64 for this clone (.ci/run runs frontends/qemu-system/build.sh)"
  qemu=$(sed -n 's/^QEMU_SYSTEM_AARCH64=//p' <<<"$out")
  local libpath
  libpath=$(sed -n 's/^ARMPROF_LIBRARY_PATH=//p' <<<"$out")
  [ -n "$qemu" ] && [ -n "$libpath" ] || skip "frontends/qemu-system/build.sh --locate printed no emulator"
  export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}
