#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, part 8: a guest that dies of a signal (tests/qemu/die.S: SIGSEGV,
# then SIGABRT). PREFIX.spe holds whole records only, whatever QEMU does;
# QEMU 10.0 calls the plugin's exit callback on the way out, so the
# summary and perf.data are finished; QEMU 7.2 does not (linux-user/signal.c
# dump_core_and_abort(): no preexit_cleanup()), and the plugin's watcher
# says what was lost, on stderr and in PREFIX.summary.
#
#   fatal_signal.sh QEMU QEMU_VERSION PLUGIN SPE_CHECK AUX_CHECK PROGRAM
# Prints "SKIPPED: why" when QEMU, the plugin or the program is missing.
set -u
qemu=$1 qemu_version=$2 plugin=$3 spe_check=$4 aux_check=$5 program=$6
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
make_work
fail=0
for sig in SEGV ABRT; do
  case $sig in SEGV) args=() want=139 ;; ABRT) args=(abort) want=134 ;; esac
  out=$work/$sig
  # through a pipe: it ends when every writer of stderr has, the watcher too
  (cd "$work" && ulimit -c 0 && "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$out,quiet=on" \
    "$program" "${args[@]}"; echo "status $?" >"$out.status") 2>&1 | cat >"$out.stderr"
  status=$(awk '{ print $2 }' "$out.status")
  [ "$status" = "$want" ] && echo "ok: SIG$sig: QEMU's status $status" ||
    bad "SIG$sig: QEMU's status $status, expected $want (128 + the signal)"
  if "$spe_check" "$out.spe" >"$out.check"; then
    records=$(awk '$1 == "records" { print $2 }' "$out.check")
    [ "${records:-0}" -gt 0 ] && echo "ok: SIG$sig: $out.spe: $records whole records, nothing cut" ||
      bad "SIG$sig: no records in PREFIX.spe"
  else
    bad "SIG$sig: PREFIX.spe does not decode (a record cut?): $(cat "$out.check")"
  fi
  if [ "$qemu_version" = 10.0 ]; then
    grep -q '^armprof qemu plugin:' "$out.summary" && grep -q "^wrote .* and $out.perf.data" "$out.summary" &&
      "$aux_check" "$out.perf.data" >"$out.aux" &&
      echo "ok: SIG$sig: the exit callback finished the summary and perf.data: $(cat "$out.aux")" ||
      bad "SIG$sig: QEMU 10.0: no finished summary or perf.data: $(cat "$out.summary" "$out.stderr" 2>&1)"
  else
    said="QEMU ended before the plugin finished the profile"
    grep -q "$said" "$out.stderr" && grep -q "$said" "$out.summary" && [ ! -e "$out.perf.data" ] &&
      echo "ok: SIG$sig: QEMU 7.2: what was lost is said on stderr and in the summary" ||
      bad "SIG$sig: QEMU 7.2: no message of what was lost: stderr: $(cat "$out.stderr"); summary: $(cat "$out.summary" 2>&1)"
  fi
done
exit $fail
