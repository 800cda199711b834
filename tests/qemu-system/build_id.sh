#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The plugin refuses an emulator whose libarmprof.so.0 was built from other
# sources (armprof_build_id(), docs/embedding.md): its own copy of the
# library would work on PEs whose layout it does not know. A preloaded
# library that answers armprof_build_id() with another id stands for such
# an emulator; QEMU must stop at the plugin's installation with a message
# that names both ids. (The matching case is every record test.)
#   build_id.sh REPO PLUGIN CC
set -euo pipefail
repo=$1 plugin=$2 cc=$3
. "$(dirname "$0")/../skip.sh"
. "$(dirname "$0")/emulator.sh"
emulator_locate "$repo"
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin: $plugin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'const char *armprof_build_id(void) { return "another-build"; }\n' >"$work/other.c"
"$cc" -shared -fPIC -o "$work/libother.so" "$work/other.c"
rc=0
LD_PRELOAD=$work/libother.so timeout 120 "$qemu" -M virt -cpu max,pauth=off,armprof=on -m 256M \
  -nographic -nic none -S -plugin "$plugin" >"$work/out" 2>&1 || rc=$?
cat "$work/out"
if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
  echo "FAIL: QEMU went on (exit $rc) with a library of another build"
  exit 1
fi
grep -q "come from different sources" "$work/out" || { echo "FAIL: no message"; exit 1; }
grep -q "(build another-build)" "$work/out" || { echo "FAIL: the emulator's id is not named"; exit 1; }
grep -Eq "plugin's library \(build [0-9a-f]{32}\)" "$work/out" ||
  { echo "FAIL: the plugin's own id is not named"; exit 1; }
echo "build_id: refused, exit $rc"
