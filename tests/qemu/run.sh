#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One QEMU plugin test (tests/CMakeLists.txt, docs/qemu.md): runs PROGRAM
# under QEMU with the plugin and checks what it wrote against what the
# program does.
#
#   run.sh QEMU QEMU_VERSION PLUGIN MODE SPE_CHECK NM PROGRAM [CHECK]...
#
# QEMU_VERSION (7.2 or 10.0) is the version QEMU must print: a plugin
# loads only into the QEMU whose API it was built for.
#
# CHECKs:
#   count=EVENT=N       the summary's EVENT (instructions, branches, loads,
#                       stores) of the program's one thread is exactly N
#   share=SYM=LO-HI     LO% <= the share of records whose PC is in function
#                       SYM (nm's range: SYM up to the next symbol) <= HI%
#   data=START=END      every sampled data address is in [START, END)
#                       (two symbols)
#   threads=N           the summary lists at least N threads, each with
#                       records whose CONTEXTIDR_EL1 is its TID
#   workers=EVENT=N=K   at least K threads counted EVENT >= N
#   nodata=START=END    no record has a data address (QEMU 7.2 gives none
#                       for SVE LD1/ST1), and the summary counts them
#   evl=BITS            every sampled SVE operation records BITS as its
#                       vector length, and there is at least one
# Prints "SKIPPED: why" and exits 0 when QEMU or the plugin is missing;
# exits 1 on the first failed check, after printing every check.
set -u
qemu=$1 qemu_version=$2 plugin=$3 mode=$4 spe_check=$5 nm=$6 program=$7
shift 7
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu, gcc-aarch64-linux-gnu)"

make_work
out=$work/p
if ! "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$out,mode=$mode,quiet=on" "$program" \
  >"$work/stdout" 2>"$work/stderr"; then
  echo "FAIL: the program under QEMU exited with an error"
  cat "$work/stderr"
  exit 1
fi
summary=$out.summary
[ -s "$summary" ] || { echo "FAIL: no summary"; cat "$work/stderr"; exit 1; }
cat "$summary"
fail=0
ok() { echo "ok: $*"; }

# symbol -> [start, end) from nm -n
range() {
  "$nm" -n "$program" | awk -v s="$1" '
    found { printf "0x%s\n", $1; exit }
    $3 == s { printf "0x%s ", $1; found = 1 }'
}

spe_args=()
declare -A share_lo share_hi
for c in "$@"; do
  case $c in
    share=*)
      IFS='=' read -r _ sym lohi <<<"$c"
      r=$(range "$sym")
      [ -n "$r" ] || { bad "no symbol $sym in $program"; continue; }
      read -r lo hi <<<"$r"
      spe_args+=(--range "$sym" "$lo" "$hi")
      share_lo[$sym]=${lohi%-*}
      share_hi[$sym]=${lohi#*-} ;;
    data=* | nodata=*)
      IFS='=' read -r _ s1 s2 <<<"$c"
      lo=$(range "$s1"); hi=$(range "$s2")
      spe_args+=(--data "${lo%% *}" "${hi%% *}") ;;
  esac
done
if ! "$spe_check" "$out.spe" "${spe_args[@]}" >"$work/check"; then
  bad "the records do not decode: $(cat "$work/check")"
fi
cat "$work/check"
records=$(awk '$1 == "records" { print $2 }' "$work/check")
written=$(awk '/^  spe:/ { for (i = 1; i <= NF; i++) if ($i == "written") s += $(i + 1) } END { print s + 0 }' "$summary")
lost=$(awk '/^  spe:/ { for (i = 1; i <= NF; i++) if ($i == "lost") s += $(i + 1) } END { print s + 0 }' "$summary")
[ "${records:-0}" -gt 0 ] && [ "$records" = "$written" ] && ok "$records records decode, as many as written" ||
  bad "$records records decode, $written written"
[ "$lost" = 0 ] && ok "no record lost" || bad "$lost records lost"
grep -q "runs_refused 0" "$summary" || bad "runs refused (a bookkeeping bug)"

for c in "$@"; do
  case $c in
    count=*)
      IFS='=' read -r _ ev want <<<"$c"
      got=$(awk -v e="$ev" '/^thread / { for (i = 1; i <= NF; i++) if ($i == e) { print $(i + 1); exit } }' "$summary")
      [ "$got" = "$want" ] && ok "$ev $got" || bad "$ev $got, the program does $want" ;;
    share=*)
      IFS='=' read -r _ sym _ <<<"$c"
      n=$(awk -v s="$sym" '$1 == "range" && $2 == s { print $3 }' "$work/check")
      pct=$(( ${n:-0} * 1000 / (records > 0 ? records : 1) ))
      lo=${share_lo[$sym]} hi=${share_hi[$sym]}
      if [ "$pct" -ge $((lo * 10)) ] && [ "$pct" -le $((hi * 10)) ]; then
        ok "$sym: $((pct / 10)).$((pct % 10))% of the records (expected $lo-$hi%)"
      else
        bad "$sym: $((pct / 10)).$((pct % 10))% of the records, expected $lo-$hi%"
      fi ;;
    data=*)
      out_n=$(awk '$1 == "data_out" { print $2 }' "$work/check")
      in_n=$(awk '$1 == "data_in" { print $2 }' "$work/check")
      [ "${out_n:-1}" = 0 ] && [ "${in_n:-0}" -gt 0 ] && ok "$in_n data addresses, all in range" ||
        bad "data addresses: $in_n in range, $out_n outside" ;;
    threads=*)
      want=${c#threads=}
      n=$(grep -c '^thread ' "$summary")
      ctx=$(awk '$1 == "contexts" { print $2 }' "$work/check")
      [ "$n" -ge "$want" ] && [ "$ctx" -ge "$want" ] && ok "$n threads, records of $ctx" ||
        bad "$n threads and records of $ctx, expected $want" ;;
    nodata=*)
      in_n=$(awk '$1 == "data_in" { print $2 }' "$work/check")
      out_n=$(awk '$1 == "data_out" { print $2 }' "$work/check")
      na=$(grep -o 'no_address [0-9]*' "$summary" | awk '{ s += $2 } END { print s + 0 }')
      [ "${in_n:-1}" = 0 ] && [ "${out_n:-1}" = 0 ] && [ "$na" -gt 0 ] &&
        ok "no data address made up: $na sampled accesses without one" ||
        bad "data addresses: $in_n in range, $out_n outside, no_address $na" ;;
    evl=*)
      want=${c#evl=}
      lines=$(awk '$1 == "evl"' "$work/check")
      if [ -n "$lines" ] && [ "$(echo "$lines" | wc -l)" = 1 ] && [ "$(echo "$lines" | awk '{ print $2 }')" = "$want" ]; then
        ok "SVE records: $(echo "$lines" | awk '{ print $3 }') with EVL $want bits"
      else
        bad "SVE records by EVL: ${lines:-none}, expected all $want bits"
      fi ;;
    workers=*)
      IFS='=' read -r _ ev want k <<<"$c"
      n=$(awk -v e="$ev" -v w="$want" '/^thread / { for (i = 1; i <= NF; i++) if ($i == e && $(i + 1) >= w) n++ } END { print n + 0 }' "$summary")
      [ "$n" -ge "$k" ] && ok "$n threads counted $ev >= $want" || bad "$n threads counted $ev >= $want, expected $k" ;;
  esac
done
exit $fail
