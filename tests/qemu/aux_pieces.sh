#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, part 6: the plugin's perf.data gives perf whole records. perf
# decodes each AUXTRACE event by itself, so every event must end where a
# record ends; a record cut in two made junk samples ("[unknown]" at time
# 0) and, in perf 6.1, "unsupported address packet index".
#
#   aux_pieces.sh QEMU PLUGIN SPE_CHECK AUX_CHECK PROGRAM PERF_VERSION PERF_COMMAND...
# PROGRAM (tests/qemu/spin.S) fills the Profiling Buffer several times.
# Checks: each AUXTRACE event decodes alone with no partial record, and
# they hold as many records as PREFIX.spe; perf script shows one
# instruction sample a record (--itrace=i1i), none at time 0 or without a
# symbol. Prints "SKIPPED: why" when QEMU, the plugin, the program or perf
# is missing.
set -u
qemu=$1 plugin=$2 spe_check=$3 aux_check=$4 program=$5 perf_version=$6
shift 6
. "$(dirname "$0")/common.sh"
need_perf "$perf_version" "$@"
need_qemu "$qemu" 10.0 "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
make_work
"$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p,perf_version=$perf_version,quiet=on" \
  "$program" || { echo "FAIL: the program under QEMU failed"; exit 1; }
grep -E '^  spe:' "$work/p.summary"
fail=0
"$spe_check" "$work/p.spe" >"$work/spe" || { echo "FAIL: PREFIX.spe does not decode"; cat "$work/spe"; exit 1; }
records=$(awk '$1 == "records" { print $2 }' "$work/spe")
"$aux_check" "$work/p.perf.data" >"$work/aux"
rc=$?
cat "$work/aux"
events=$(awk '$1 == "events" { print $2 }' "$work/aux")
in_events=$(awk '$1 == "events" { print $4 }' "$work/aux")
[ $rc = 0 ] && ok=1 || ok=0
if [ $ok = 1 ] && [ "${events:-0}" -ge 2 ] && [ "$in_events" = "$records" ]; then
  echo "ok: $events AUXTRACE events, each whole records, $in_events in all as in PREFIX.spe"
else
  echo "FAIL: AUXTRACE events: $events, $in_events records decoded each alone (exit $rc), PREFIX.spe $records (at least 2 events expected)"
  fail=1
fi
"$@" script -i "$work/p.perf.data" --itrace=i1i -F time,ip,sym >"$work/script" 2>"$work/err" ||
  { echo "FAIL: perf script failed"; cat "$work/err"; exit 1; }
samples=$(grep -c ':' "$work/script")
junk=$(awk '$1 == "0.000000:" || $NF == "[unknown]"' "$work/script" | wc -l)
grep -i 'unsupported' "$work/err" && { echo "FAIL: perf $perf_version could not decode a packet"; fail=1; }
if [ "$samples" = "$records" ] && [ "$junk" = 0 ]; then
  echo "ok: perf $perf_version: $samples samples for $records records, none at time 0 or [unknown]"
else
  echo "FAIL: perf $perf_version: $samples samples for $records records, $junk at time 0 or [unknown]"
  awk '$1 == "0.000000:" || $NF == "[unknown]"' "$work/script" | sort | uniq -c | head
  fail=1
fi
exit $fail
