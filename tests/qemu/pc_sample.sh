#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, part 7: the plugin's PC samples name the function whose loop
# runs (tests/qemu/spin.S), in both modes. PMPCSR holds the address of an
# instruction that executed, and branch targets are what is always
# sampleable (H7.1): a taken branch's sample is its target, never the
# address after it (which, after spin's last instruction, is outside
# every function of the program).
#
#   pc_sample.sh QEMU QEMU_VERSION PLUGIN PROGRAM HOT MIN_PERCENT FUNCTION...
# HOT's share of the PC samples must be at least MIN_PERCENT, and every
# sample must be in one of the FUNCTIONs (the program's). Prints
# "SKIPPED: why" when QEMU, the plugin or the program is missing.
set -u
qemu=$1 qemu_version=$2 plugin=$3 program=$4 hot=$5 min=$6
shift 6
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
make_work
fail=0
for mode in fast exact; do
  if ! "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/$mode,mode=$mode,quiet=on" \
    "$program" >"$work/out" 2>&1; then
    echo "FAIL: $mode: the program under QEMU failed"; cat "$work/out"; exit 1
  fi
  summary=$work/$mode.summary
  sed -n '/^pc samples by symbol/,/^wrote/p' "$summary"
  # "pc samples by symbol (N):" then "  PCT  COUNT  SYMBOL" lines
  total=$(sed -n 's/^pc samples by symbol (\([0-9]*\)):$/\1/p' "$summary")
  rows=$(awk '/^pc samples by symbol/ { on = 1; next } /^wrote/ { on = 0 } on { print $2, $3 }' "$summary")
  [ "${total:-0}" -gt 0 ] || { echo "FAIL: $mode: no PC samples"; fail=1; continue; }
  n_hot=0 sum=0
  while read -r count sym; do
    [ -n "$sym" ] || continue
    sum=$((sum + count))
    [ "$sym" = "$hot" ] && n_hot=$count
    known=0
    for f in "$@"; do [ "$sym" = "$f" ] && known=1; done
    [ $known = 1 ] || { echo "FAIL: $mode: $count PC samples in '$sym', not a function of the program ($*)"; fail=1; }
  done <<<"$rows"
  [ "$sum" = "$total" ] || { echo "FAIL: $mode: the histogram lists $sum of $total samples"; fail=1; }
  if [ $((n_hot * 100)) -ge $((min * total)) ]; then
    echo "ok: $mode: $hot has $n_hot of $total PC samples (at least $min%)"
  else
    echo "FAIL: $mode: $hot has $n_hot of $total PC samples, expected at least $min%"; fail=1
  fi
done
exit $fail
