#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf c2c on false sharing in user mode (issue 39, part 6): the plugin in
# exact mode, whose PEs share one memory hierarchy (docs/memory-model.md),
# runs tests/qemu/false_sharing.c with N = 5000000 (the two workers overlap:
# with 100000 one ends before the other has started), then perf c2c report
# (6.1 or 7.3: both decode the Data Source of the Neoverse N1 the perf.data
# names by default, the plugin's midr=) reads PREFIX.perf.data.
#   shared  the fields 8 bytes apart in one line: each worker's load of its
#           field finds the line Modified in the other's L1 (the other
#           stored since), served by that PE (PEER_CORE, or PEER_CLUSTER
#           when the two are in different clusters: mem_cluster_pes 2 puts
#           PE 1 and PE 2 apart); perf c2c's first shared cache line
#           (sorted on peer snoops) is the line of the program's `line` (its
#           address from nm, 64-byte aligned), with loads hitting a peer,
#           and stores from both offsets 0x0 and 0x8 (the two writers) in
#           its Pareto table; any other shared line has at most 6 loads
#           hitting a peer (the workers' start: `ready`, `n`, the threads'
#           descriptors, each read once after the other wrote it and
#           recorded only when sampled: a CI run found one such line);
#   padded  the fields on two lines: each stays Modified in its own PE's
#           L1: at most 6 loads hit a peer, on at most the two fields'
#           lines: each worker's two reads of the other's field and main's
#           two after the joins, one execution each, recorded only when
#           sampled (tests/qemu-system/c2c.sh saw one in a CI run).
# And in both, PREFIX.perf.data has every record PREFIX.spe has (a worker's
# end racing the main thread's exit once left its CPU's records out); its
# header's CPU topology is the hierarchy's clusters.
#   c2c_false_sharing.sh QEMU PLUGIN ARMPROF NM SHARED PADDED PERF_VERSION PERF_COMMAND...
set -u
qemu=$1 plugin=$2 armprof=$3 nm=$4 shared=$5 padded=$6 perf_version=$7
shift 7
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" 10.0 "$plugin"
[ -x "$shared" ] && [ -x "$padded" ] || skip "no false_sharing programs (gcc-aarch64-linux-gnu)"
[ -x "$nm" ] || skip "no aarch64 nm for the programs' symbols"
need_perf "$perf_version" "$@"
make_work
. "$(dirname "$0")/../c2c_table.sh"
addr=$("$nm" "$shared" | awk '$3 == "line" { print $1 }')
want=$(printf '0x%x' $((0x${addr:-0} & ~63)))
fail=0
for variant in shared padded; do
  prog=$shared
  [ "$variant" = shared ] || prog=$padded
  # The workers' accesses interleave in the hierarchy only while both run
  # on the host at once; on a loaded machine (the suite runs tests in
  # parallel) QEMU's two threads can take turns, and a run then shows no
  # shared line or a few peer loads (seen in 4 of 24 runs two at a time).
  # The shared variant is recorded up to three times, until perf c2c's
  # first shared line is the program's with loads served by a peer.
  for attempt in 1 2 3; do
    "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/$variant,mode=exact,perf_version=$perf_version,quiet=on" \
      "$prog" 5000000 >/dev/null || { echo "FAIL: $variant: the program under QEMU failed"; fail=1; continue 2; }
    "$@" c2c report -i "$work/$variant.perf.data" --stdio >"$work/$variant.c2c" 2>&1 ||
      { echo "FAIL: $variant: perf c2c report exits $?"; sed -n '1,10p' "$work/$variant.c2c"; fail=1; continue 2; }
    [ "$variant" = shared ] || break
    read -r _ first first_peer <<<"$(c2c_shared_lines "$work/shared.c2c")"
    [ "${first:-}" = "$want" ] && [ "${first_peer:-0}" -gt 0 ] && break
    echo "shared: attempt $attempt: perf c2c's first shared line '${first:-none}' with ${first_peer:-0} peer loads, not $want's"
  done
  in_spe=$("$armprof" decode "$work/$variant.spe" | tail -n 1 | awk '{print $3}')
  in_perf=$("$armprof" report "$work/$variant.perf.data" 2>/dev/null | awk '$1 == "records" { print $2; exit }')
  [ -n "$in_spe" ] && [ "$in_spe" = "$in_perf" ] && echo "ok: $variant: perf.data has the $in_spe records of the .spe" ||
    { echo "FAIL: $variant: $in_spe records in PREFIX.spe, ${in_perf:-none} in PREFIX.perf.data"; fail=1; }
  lines=$(sed -n 's/^ *Total Shared Cache Lines *: *\([0-9]*\)$/\1/p' "$work/$variant.c2c")
  peer=$(sed -n 's/^ *Load HIT Local Peer *: *\([0-9]*\)$/\1/p' "$work/$variant.c2c")
  echo "$variant: perf c2c: $lines shared cache lines, $peer loads hit a peer"
  if [ "$variant" = padded ]; then
    [ "${lines:-9}" -le 2 ] && [ "${peer:-9}" -le 6 ] &&
      echo "ok: padded: $lines shared lines, $peer peer loads (at most the 6 reads of the other's field)" ||
      { echo "FAIL: padded: $lines shared lines and $peer peer loads, wanted at most 2 and 6"; fail=1; }
    continue
  fi
  # the header's topology is the hierarchy's: with mem_cluster_pes 2 the
  # main thread's PE and the first worker's (vCPUs 0 and 1) form one
  # cluster, the second worker's (vCPU 2) another: two of perf's sockets,
  # all three CPUs on node 0
  "$@" report -i "$work/shared.perf.data" --header-only -I >"$work/header" 2>&1
  sockets=$(grep -c '^# sibling sockets : ' "$work/header")
  node0=$(sed -n 's/^# node0 cpu list : //p' "$work/header")
  [ "$sockets" = 2 ] && [ "$node0" = 0-2 ] && echo "ok: shared: the header has the hierarchy's 2 clusters, node0 CPUs 0-2" ||
    { echo "FAIL: shared: $sockets sibling-socket lines and node0 '$node0', wanted 2 and 0-2"; grep -E 'sibling|node' "$work/header"; fail=1; }
  pareto=$(sed -n '/Shared Cache Line Distribution Pareto/,$p' "$work/shared.c2c")
  table=$(c2c_shared_lines "$work/shared.c2c")
  echo "shared: the shared lines (index, address, peer loads): $(tr '\n' ';' <<<"$table")"
  read -r _ first first_peer <<<"$table"
  strays=$(awk 'NR > 1 && $3 > 6' <<<"$table" | wc -l)
  [ "${first:-}" = "$want" ] && [ "${first_peer:-0}" -gt 0 ] && [ "$strays" = 0 ] &&
    echo "ok: shared: the first shared line is $want, $first_peer loads served by a peer; $((lines - 1)) other(s) with at most 6" ||
    { echo "FAIL: shared: the first shared line '${first:-none}' (${first_peer:-0} peer loads), wanted $want with some; $strays other(s) with more than 6"; fail=1; }
  grep -q "[[:space:]]$want\$" <<<"$pareto" && echo "ok: shared: the line is $want, false_sharing's 'line'" ||
    { echo "FAIL: shared: no line $want (nm: line at 0x$addr) in the Pareto table"; sed -n '1,14p' <<<"$pareto"; fail=1; }
  for off in 0x0 0x8; do
    # a row of the line's offset OFF with store references (the N/A store
    # column: the hierarchy says no level for a store) from worker()
    grep -Eq "^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+% +[1-9][0-9.]*% +$off .*worker" <<<"$pareto" &&
      echo "ok: shared: stores of worker() at offset $off: a writer of the line" ||
      { echo "FAIL: shared: no stores of worker() at offset $off"; sed -n '8,20p' <<<"$pareto"; fail=1; }
  done
done
exit $fail
