#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# armprof record's errors (issue 45, part 2): each one line naming the
# problem and what to do, status 2, before QEMU runs, and nothing of an
# existing PREFIX's files touched. No QEMU is needed: fake ones print the
# versions.
#   errors.sh ARMPROF STATIC BADINTERP
# STATIC: tests/record/hot.c linked statically; BADINTERP: linked with the
# interpreter /nonexistent/ld-armprof.so.
set -u
armprof=$1 static=$2 badinterp=$3
# the skip rule of the QEMU tests (tests/qemu/common.sh)
. "$(dirname "$0")/../qemu/common.sh"
[ -x "$static" ] && [ -x "$badinterp" ] || skip "no test programs (aarch64-linux-gnu-gcc)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
mkdir bin empty
printf '#!/bin/sh\necho "qemu-aarch64 version 8.2.2 (Debian 1:8.2.2)"\n' >bin/qemu-aarch64
chmod +x bin/qemu-aarch64
printf '#!/bin/sh\necho "qemu-aarch64 version 7.2.22 (Debian)"\n' >qemu72
chmod +x qemu72
printf '#!/bin/sh\necho hi\n' >script.sh
chmod +x script.sh
echo "plain text" >text
mkdir p2.spe
# an armprof with no plugin beside it
mkdir -p alone/bin
cp "$armprof" alone/bin/armprof
echo "old records" >keep.spe
expect() { # WANT ENV... -- ARGS...: armprof record fails with status 2, saying WANT
  local want=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do
    envs+=("$1")
    shift
  done
  shift
  local out rc
  out=$(env "${envs[@]}" "$armprof" record "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" != 2 ]; then
    echo "FAIL: record $*: status $rc, not 2: $out"
    fail=1
  elif [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
    echo "FAIL: record $*: more than one line: $out"
    fail=1
  elif [[ $out != *"$want"* ]]; then
    echo "FAIL: record $*: '$out' does not say '$want'"
    fail=1
  else
    echo "ok: $out"
  fi
}
expect "no qemu-aarch64 on PATH or in $work/empty: install one with plugin support (Debian: apt-get install qemu-user" \
  PATH=/nonexistent ARMPROF_CACHE="$work/empty" -- -o p -- "$static"
expect "is QEMU 8.2: no armprof plugin fits its plugin API (there are plugins for QEMU 7.2" \
  PATH="$work/bin" -- -o p -- "$static"
expect "--qemu $work/none: No such file or directory" -- --qemu "$work/none" -o p -- "$static"
armprof_alone=$work/alone/bin/armprof
out=$("$armprof_alone" record --qemu ./qemu72 -o p -- "$static" 2>&1 >/dev/null)
rc=$?
case $rc:$out in
"2:armprof record: ./qemu72 is QEMU 7.2, whose plugin libarmprof_qemu7.so is not installed (not $work/alone/bin/"*"install armprof-qemu"*)
  echo "ok: $out" ;;
*) echo "FAIL: no plugin beside the command: status $rc: $out"; fail=1 ;;
esac
expect "/bin/sh: an ELF file for x86-64 (64-bit, little-endian, e_machine 62), not AArch64" -- -o p -- /bin/sh
expect "script.sh: a script (#!/bin/sh), not an AArch64 ELF program" -- -o p -- ./script.sh
expect "./text: not an ELF file, so not an AArch64 program" -- -o p -- ./text
expect "./missing: No such file or directory" -- -o p -- ./missing
expect "no-such-program-armprof: no such program on PATH" -- -o p -- no-such-program-armprof
expect "is dynamically linked (interpreter /nonexistent/ld-armprof.so), and neither /usr/aarch64-linux-gnu/nonexistent/ld-armprof.so nor /nonexistent/ld-armprof.so exists: give its libraries' root with -L ROOT" \
  -- --qemu ./qemu72 -o p -- "$badinterp"
expect "-L $work/none: No such file or directory" -- --qemu ./qemu72 -L "$work/none" -o p -- "$static"
expect "-o $work/no/such/p: its files cannot be made in the folder $work/no/such: No such file or directory" \
  -- -o "$work/no/such/p" -- "$static"
expect "-o p2: p2.spe is a folder" -- -o p2 -- "$static"
expect "-e colour=1: 'colour' is not an arm_spe_pmu attribute (ts_enable, pa_enable, pct_enable, jitter, branch_filter, load_filter, store_filter" \
  -- -o keep -e colour=1 -- "$static"
expect "-e load_filter=1,store_filter=2: store_filter=2: 0 or 1" \
  -- -o keep -e load_filter=1,store_filter=2 -- "$static"
expect "-e min_latency=5000: min_latency=5000: a number below 4096 (12 bits)" -- -o keep -e min_latency=5000 -- "$static"
expect "-c 300: the sampling interval is a multiple of 256" -- -o keep -c 300 -- "$static"
expect "--mode slow: fast or exact" -- -o keep --mode slow -- "$static"
expect "--preset armv99: not a preset" -- -o keep --preset armv99 -- "$static"
expect "--config $work/none.cfg: No such file or directory" -- -o keep --config "$work/none.cfg" -- "$static"
expect "no program given" -- -o keep --
expect "unknown option '--colour'" -- --colour -- "$static"
# nothing made, nothing of keep.* touched
ls p.* >/dev/null 2>&1 && { echo "FAIL: an error left files: $(ls p.*)"; fail=1; }
[ "$(cat keep.spe)" = "old records" ] && [ ! -e keep.summary ] && echo "ok: keep.spe untouched" ||
  { echo "FAIL: keep.spe was changed"; fail=1; }
ls -a | grep -q armprof-record && { echo "FAIL: the folder probe was left"; fail=1; }
exit $fail
