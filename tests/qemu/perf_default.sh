#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, part 9: without --perf-version (perf_version= in the plugin),
# `armprof perf-data` and the QEMU plugin write the arm_spe metadata layout
# the perf on PATH reads (docs/perf.md: version 1 before perf 6.13, version
# 2 from it; no perf on PATH: version 1, which every perf reads) and say
# on stderr which they wrote. A fake perf on PATH prints each version.
#
#   perf_default.sh ARMPROF AUX_CHECK QEMU PLUGIN PROGRAM [PERF]
# QEMU, PLUGIN and PROGRAM (tests/qemu/spin.S) may be missing: the plugin
# part is then skipped, said so. With PERF (Debian 12's perf 6.1), perf
# finds samples in both defaults' files when it is the perf on PATH.
set -u
armprof=$1 aux_check=$2 qemu=$3 plugin=$4 program=$5 perf=${6:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
plugin_ok=1
[ -x "$qemu" ] && [ -f "$plugin" ] && [ -x "$program" ] ||
  { plugin_ok=0; echo "note: the plugin part is skipped (QEMU '$qemu', plugin '$plugin', program '$program')"; }

"$armprof" demo -o "$work/in.spe" --ops 20000 >/dev/null || { echo "FAIL: armprof demo"; exit 1; }
mkdir "$work/none"
for v in 6.1.192 6.12.17 6.13.0 7.3.4 none; do
  case $v in
    none) dir=$work/none want=1 ;;
    *)
      dir=$work/perf-$v
      mkdir "$dir"
      printf '#!/bin/sh\necho "perf version %s"\n' "$v" >"$dir/perf"
      chmod +x "$dir/perf"
      case $v in 6.1.* | 6.12.*) want=1 ;; *) want=2 ;; esac ;;
  esac
  PATH=$dir "$armprof" perf-data "$work/in.spe" -o "$work/cli.data" >"$work/out" 2>"$work/err" ||
    { bad "perf $v: armprof perf-data failed: $(cat "$work/err")"; continue; }
  got=$("$aux_check" "$work/cli.data" | awk '$1 == "events" { print $6 }')
  said=$(grep -c "metadata version $want" "$work/err")
  [ "$got" = "$want" ] && [ "$said" = 1 ] &&
    echo "ok: perf $v on PATH: perf-data wrote version $got and said: $(cat "$work/err")" ||
    bad "perf $v on PATH: perf-data wrote version $got (expected $want), stderr: $(cat "$work/err")"
  [ $plugin_ok = 1 ] || continue
  PATH=$dir "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/p" "$program" >/dev/null 2>"$work/err" ||
    { bad "perf $v: the program under QEMU failed: $(cat "$work/err")"; continue; }
  got=$("$aux_check" "$work/p.perf.data" | awk '$1 == "events" { print $6 }')
  line=$(grep "^wrote" "$work/err")
  case $line in *"metadata version $want"*) said=1 ;; *) said=0 ;; esac
  [ "$got" = "$want" ] && [ $said = 1 ] && echo "ok: perf $v on PATH: the plugin wrote version $got: $line" ||
    bad "perf $v on PATH: the plugin wrote version $got (expected $want): $line"
done

# The real perf 6.1 on PATH: its default files have samples for it.
if [ -n "$perf" ] && "$perf" --version 2>/dev/null | grep -q "perf version 6.1"; then
  dir=$work/real
  mkdir "$dir"
  ln -s "$perf" "$dir/perf"
  PATH=$dir:/usr/bin:/bin "$armprof" perf-data "$work/in.spe" -o "$work/real.data" >/dev/null 2>"$work/err"
  files=$work/real.data
  if [ $plugin_ok = 1 ]; then
    PATH=$dir:/usr/bin:/bin "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/q,quiet=on" "$program" ||
      bad "the program under QEMU failed"
    files="$files $work/q.perf.data"
  fi
  for f in $files; do
    n=$("$perf" script -i "$f" --itrace=i1i 2>/dev/null | grep -c 'instructions:')
    [ "$n" -gt 0 ] && echo "ok: perf 6.1 finds $n samples in $(basename "$f")" ||
      bad "perf 6.1 finds no samples in $(basename "$f")"
  done
else
  echo "note: no perf 6.1 at '$perf': the real perf's check is skipped"
fi
exit $fail
