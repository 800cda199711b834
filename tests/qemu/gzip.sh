#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A real Debian arm64 program end to end (docs/qemu.md): Debian 13's gzip,
# from the private root tools/arm64-root.sh makes, compresses a file under
# QEMU with the plugin in fast and in exact mode:
# - its output is the output it gives without the plugin (the program runs
#   unchanged);
# - both modes count the same instructions, branches, loads and stores
#   (the PMU's architected events do not depend on the timing model), to
#   one in a million: a block QEMU leaves mid-way (a store into a page that
#   holds translated code, which depends on where the run's pages land)
#   counts whole (docs/qemu.md, "Exactness");
# - the records decode, every one written, none lost; in exact mode every
#   sampled load and store has its address (memory callbacks) but those of
#   such blocks, one in ten thousand at most;
# - the PC samples fall mostly in gzip itself, and perf (6.1) reads the
#   perf.data and names gzip as the hottest file.
#
#   gzip.sh QEMU QEMU_VERSION PLUGIN SPE_CHECK ROOT [PERF_COMMAND...]
# Prints "SKIPPED: why" when QEMU, the plugin or the root is missing.
set -u
qemu=$1 qemu_version=$2 plugin=$3 spe_check=$4 root=$5
shift 5
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$root/usr/bin/gzip" ] || skip "no gzip root at '$root' (tools/arm64-root.sh gzip gzip VERSION)"
make_work
seq 1 300000 >"$work/in"
# without address space randomization where setarch can: the same layout
# in every run
norandom=()
setarch "$(uname -m)" -R true 2>/dev/null && norandom=(setarch "$(uname -m)" -R)
run() { "${norandom[@]}" "$qemu" -cpu max,pauth=off -L "$root" "$@" "$root/usr/bin/gzip" -c "$work/in"; }
run >"$work/ref.gz" || { echo "FAIL: gzip does not run under QEMU"; exit 1; }
fail=0
for mode in fast exact; do
  run -plugin "$plugin,out=$work/$mode,mode=$mode,quiet=on,perf_version=6.1" >"$work/$mode.gz" ||
    { echo "FAIL: gzip under the plugin ($mode) failed"; exit 1; }
  cmp -s "$work/ref.gz" "$work/$mode.gz" && echo "ok: $mode: the output is gzip's own" ||
    bad "$mode: the output differs from gzip's without the plugin"
  cat "$work/$mode.summary"
  "$spe_check" "$work/$mode.spe" >"$work/$mode.check" || bad "$mode: the records do not decode"
  records=$(awk '$1 == "records" { print $2 }' "$work/$mode.check")
  grep -q "written $records lost 0 " "$work/$mode.summary" && [ "$records" -gt 0 ] &&
    echo "ok: $mode: $records records decode, all written, none lost" ||
    bad "$mode: $records records decode; the summary says $(grep 'spe:' "$work/$mode.summary")"
  top=$(awk '/^pc samples by symbol/ { getline; print $3; exit }' "$work/$mode.summary")
  [ "$top" = "[gzip]" ] && echo "ok: $mode: the PC samples are mostly in gzip" ||
    bad "$mode: the most PC samples are in '$top', not gzip"
  awk '/^thread/ { print $4, $6, $8, $10 }' "$work/$mode.summary" >"$work/$mode.counts"
done
read -r -a f <"$work/fast.counts"
read -r -a x <"$work/exact.counts"
close=yes
for i in 0 1 2 3; do
  d=$(( ${f[i]:-0} - ${x[i]:-0} ))
  [ $(( (d < 0 ? -d : d) * 1000000 )) -le "${f[i]:-0}" ] || close=no
done
[ "$close" = yes ] && [ "${f[0]:-0}" -gt 1000000 ] &&
  echo "ok: fast counts ${f[*]}, exact ${x[*]} (instructions, branches, loads, stores)" ||
  bad "the modes count differently: fast ${f[*]}, exact ${x[*]}"
noaddr=$(grep -o 'no_address [0-9]*' "$work/exact.summary" | awk '{ print $2 }')
samples=$(grep -o 'samples [0-9]*' "$work/exact.summary" | head -n 1 | awk '{ print $2 }')
[ $(( ${noaddr:-1} * 10000 )) -le "${samples:-0}" ] &&
  echo "ok: exact: $noaddr of $samples sampled operations without an address" ||
  bad "exact: $noaddr of $samples sampled operations without an address"
if [ $# -gt 0 ] && "$@" --version 2>/dev/null | grep -q "perf version 6.1"; then
  "$@" report -i "$work/fast.perf.data" --stdio --sort dso --itrace=i1i >"$work/report" 2>/dev/null
  dso=$(grep -E '^ +[0-9.]+%' "$work/report" | head -n 1 | awk '{ print $2 }')
  [ "$dso" = gzip ] && echo "ok: perf 6.1 names gzip the hottest file" ||
    bad "perf 6.1's hottest file is '$dso', not gzip"
else
  echo "(no perf 6.1: the perf.data is not read)"
fi
exit $fail
