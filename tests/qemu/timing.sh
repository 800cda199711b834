#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The timing model's interface (docs/qemu.md, "The timing model"): exact
# mode calls the default model inline; called only through qp_timing_ops,
# as a replaced model is, with touch() and resolve() (timing=ops) or
# without them (timing=access: access() and branch() on a scratch
# operation), the same model must give the same counts. Each PROGRAM runs
# in exact mode three ways, without jitter (the records then fall on the
# same operations); the summaries' thread lines (every count and the
# cycles, which sum every latency the model gave) and records lines must
# be the same, the thread ID aside.
#
#   timing.sh QEMU QEMU_VERSION PLUGIN PROGRAM...
set -u
qemu=$1 qemu_version=$2 plugin=$3
shift 3
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
make_work
fail=0
for program in "$@"; do
  [ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
  name=$(basename "$program")
  for how in inline ops access; do
    if ! "$qemu" -cpu max,pauth=off \
      -plugin "$plugin,out=$work/$name.$how,mode=exact,jitter=off,timing=$how,quiet=on" \
      "$program" >/dev/null 2>"$work/err"; then
      echo "FAIL: $name, timing=$how: QEMU failed"
      cat "$work/err"
      fail=1
      continue
    fi
    # the thread's counts and its records, without its ID
    grep -E '^thread |^  spe:' "$work/$name.$how.summary" | sed 's/^thread [0-9]*:/thread:/' \
      >"$work/$name.$how.counts"
  done
  if [ ! -s "$work/$name.inline.counts" ] || ! grep -q ' cycles [1-9]' "$work/$name.inline.counts"; then
    echo "FAIL: $name: no counts with cycles in the summary"
    fail=1
    continue
  fi
  for how in ops access; do
    if cmp -s "$work/$name.inline.counts" "$work/$name.$how.counts"; then
      echo "ok: $name, timing=$how: $(head -n 1 "$work/$name.$how.counts")"
    else
      echo "FAIL: $name, timing=$how differs from inline:"
      diff "$work/$name.inline.counts" "$work/$name.$how.counts"
      fail=1
    fi
  done
done
exit "$fail"
