#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A guest that fork()s (tests/qemu/fork.c) under the plugin, in MODE, with
# the replays on their own thread (the default) and inline: QEMU ends (no
# wait for a replayer the child does not have) with the program's status
# 0; the child is not profiled (docs/qemu.md, "How it runs"), so the
# outputs are the parent's alone: one summary on stderr (the child wrote
# its own over PREFIX's before), one thread in it, and PREFIX.spe holds
# whole records only, as many as the summary says were written (the
# child's copies went into the file the two share: 54105 records in a
# PREFIX.spe whose summary said 35149, before).
#   fork.sh QEMU QEMU_VERSION PLUGIN MODE SPE_CHECK PROGRAM
set -u
qemu=$1 qemu_version=$2 plugin=$3 mode=$4 spe_check=$5 program=$6
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (gcc-aarch64-linux-gnu)"
make_work
fail=0
n=500000
for replay in thread inline; do
  out=$work/$replay
  timeout 120 "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$out,mode=$mode,replay=$replay" \
    "$program" "$n" >"$out.stdout" 2>"$out.stderr"
  status=$?
  [ "$status" = 0 ] && echo "ok: $replay: QEMU's status 0" ||
    { bad "$replay: QEMU's status $status (124: it hung)"; cat "$out.stderr"; continue; }
  wrote=$(grep -c '^wrote ' "$out.stderr")
  [ "$wrote" = 1 ] && echo "ok: $replay: one summary (the parent's)" ||
    bad "$replay: $wrote summaries on stderr, wanted the parent's alone"
  threads=$(grep -c '^thread ' "$out.summary")
  [ "$threads" = 1 ] && echo "ok: $replay: one thread in the summary, the parent's" ||
    bad "$replay: $threads threads in the summary, wanted the parent's alone"
  records=$(sed -n 's/^  spe: .* written \([0-9]*\).*/\1/p' "$out.summary")
  if "$spe_check" "$out.spe" >"$out.check"; then
    got=$(awk '$1 == "records" { print $2 }' "$out.check")
    [ -n "$got" ] && [ "$got" -gt 0 ] && [ "$got" = "$records" ] &&
      echo "ok: $replay: PREFIX.spe: $got whole records, as the summary's written" ||
      bad "$replay: PREFIX.spe has ${got:-no} records, the summary ${records:-?}"
  else
    bad "$replay: PREFIX.spe does not decode: $(cat "$out.check")"
  fi
done
exit "$fail"
