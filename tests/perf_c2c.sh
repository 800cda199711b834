#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf c2c on records made by hand (tests/data/c2c, every byte in its
# README.md): two CPUs storing to and loading their own fields of one cache
# line, each load served by the peer core, and the same with the fields on
# separate lines, each load an L1D hit. What perf must say follows from the
# records:
#   shared: one shared line, 0x10002000 (both fields' addresses, 0x10002000
#     and 0x10002008, with the low 6 bits of a 64-byte line cleared); 8
#     records, 4 loads (2 a CPU), all 4 served by a peer (the "Peer Snoop"
#     perf sorts lines by on arm64), 4 stores (2 a CPU); its writers are task
#     1000 on CPU 0 at offset 0x0 and task 1001 on CPU 1 at offset 0x8, both
#     storing from 0x401000 (-NN shows node{CPU}: 0{0} and 0{1});
#   padded: no shared line, 4 loads, all L1D hits.
# The records name an Arm Neoverse N1 (MIDR 0x410fd0c0), whose Data Source
# encoding perf 6.1 and 7.3 both decode (0x9: peer core).
#
#   perf_c2c.sh ARMPROF DATA WORK PERF_VERSION PERF_COMMAND...
# Prints "SKIPPED: why" when the perf command cannot run.
set -u
armprof=$1 data=$2 work=$3 perf_version=$4
shift 4
perf=("$@")
. "$(dirname "$0")/skip.sh"
rm -rf "$work"
mkdir -p "$work"
# the committed records are make_c2c.sh's
sh "$data/make_c2c.sh" "$work/regenerated" || { echo "FAIL: make_c2c.sh failed"; exit 1; }
for f in shared-cpu0 shared-cpu1 padded-cpu0 padded-cpu1; do
  cmp -s "$data/$f.spe" "$work/regenerated/$f.spe" ||
    { echo "FAIL: $data/$f.spe is not what make_c2c.sh writes"; exit 1; }
done
[ ${#perf[@]} -gt 0 ] || skip "no perf $perf_version (.ci/run installs linux-perf; tools/perf-root.sh)"
version=$("${perf[@]}" --version 2>&1) || skip "perf does not run: $version"
case $version in *"perf version $perf_version"*) ;; *) skip "not perf $perf_version: $version" ;; esac

fail=0
bad() { echo "FAIL: $*"; fail=1; }
# NAME AS [OPTION...]: NAME-cpu0.spe and NAME-cpu1.spe as AS.data, written
# with armprof perf-data's OPTIONs (default --midr 410fd0c0, Neoverse N1),
# and perf c2c's report of it, AS.c2c
report() {
  local name=$1 as=$2 rc=0
  shift 2
  [ $# -gt 0 ] || set -- --midr 410fd0c0
  "$armprof" perf-data --perf-version "$perf_version" "$@" --comm 1000=writer \
    --comm 1001=writer -o "$work/$as.data" "$data/$name-cpu0.spe" "$data/$name-cpu1.spe" \
    >"$work/$as.log" 2>&1 || { cat "$work/$as.log"; bad "armprof perf-data $as"; return; }
  "${perf[@]}" c2c report -i "$work/$as.data" --stdio -c tid,iaddr -NN >"$work/$as.c2c" 2>&1 ||
    rc=$?
  [ $rc = 0 ] || { head -n 20 "$work/$as.c2c"; bad "perf $perf_version c2c report of $as exits $rc"; }
}
# NAME LABEL VALUE: the report's "LABEL : VALUE" line
says() {
  if grep -qE "^ +$2 +: +$3\$" "$work/$1.c2c"; then
    echo "ok: $1: $2: $3"
  else
    bad "$1: '$2' is not $3: $(grep -E "^ +$2 " "$work/$1.c2c")"
  fi
}
# NAME WHAT AWK-CONDITION: a line of the report meets the condition
has_row() {
  if awk "$3 { found = 1 } END { exit !found }" "$work/$1.c2c"; then
    echo "ok: $1: $2"
  else
    bad "$1: no $2"
  fi
}

report shared shared
says shared "Total Shared Cache Lines" 1
says shared "Load hits on peer cache or nodes" 4
says shared "Store HITs on shared lines" 4
# the Shared Data Cache Line Table: index, address, node, PA cnt, peer %,
# peer total, local, remote, records, loads, stores
has_row shared "shared line 0x10002000 with 4 peer loads, 8 records, 4 loads, 4 stores" \
  '$1 == "0" && $2 == "0x10002000" && $6 == 4 && $7 == 4 && $9 == 8 && $10 == 4 && $11 == 4'
# the Pareto's store rows (Store Refs N/A 50%): offset, tid:comm, code address, node{CPU}
has_row shared "writer 1000 on CPU 0 at offset 0x0" \
  '$5 == "50.00%" && $6 == "0x0" && $9 == "1000:writer" && $10 == "0x401000" && $NF == "0{0}"'
has_row shared "writer 1001 on CPU 1 at offset 0x8" \
  '$5 == "50.00%" && $6 == "0x8" && $9 == "1001:writer" && $10 == "0x401000" && $NF == "0{1}"'

report padded padded
says padded "Total Shared Cache Lines" 0
says padded "Load hits on peer cache or nodes" 0
says padded "Load L1D hit" 4
if grep -q "0x100020[04]0" "$work/padded.c2c"; then
  bad "padded: perf c2c lists a line as shared"
else
  echo "ok: padded: no line listed"
fi
# The same shared records from a Neoverse V2 (MIDR 0x410fd4f0, the plugin's
# default): perf 6.1 applies the Neoverse Data Source encoding only to
# N1, N2 and V1, so it sees no peer load and no shared line; perf 7.3 sees
# the line (docs/perf-quirks.md, C1)
report shared shared-v2 --midr 410fd4f0
case $perf_version in
  6.1) says shared-v2 "Total Shared Cache Lines" 0 ;;
  *) says shared-v2 "Total Shared Cache Lines" 1 ;;
esac
# The shared records with each CPU in a cluster and a NUMA node of its own,
# 1 GiB on node 0, 2 GiB on node 1 (--topology 0:0,1:1): the header says so
# (memory in kB: 1048576 and 2097152, 3145728 in all; CPU 1 is core 0 of
# socket 1, the first CPU of its cluster), and perf c2c puts the writers
# on node 0 (CPU 0) and node 1 (CPU 1)
report shared two-nodes --midr 410fd0c0 --topology 0:0,1:1 --node-memory 1073741824,2147483648
"${perf[@]}" report -i "$work/two-nodes.data" --header-only -I >"$work/two-nodes.header" 2>&1 ||
  bad "perf report --header-only of two-nodes"
for want in "total memory : 3145728 kB" "sibling sockets : 0" "sibling sockets : 1" \
  "CPU 0: Core ID 0, Socket ID 0" "CPU 1: Core ID 0, Socket ID 1" \
  "node0 meminfo  : total = 1048576 kB, free = 0 kB" "node0 cpu list : 0" \
  "node1 meminfo  : total = 2097152 kB, free = 0 kB" "node1 cpu list : 1"; do
  if grep -qxF "# $want" "$work/two-nodes.header"; then
    echo "ok: two-nodes: the header says '$want'"
  else
    bad "two-nodes: the header does not say '$want'"
  fi
done
has_row two-nodes "writer 1000 on node 0, CPU 0" '$5 == "50.00%" && $9 == "1000:writer" && $NF == "0{0}"'
has_row two-nodes "writer 1001 on node 1, CPU 1" '$5 == "50.00%" && $9 == "1001:writer" && $NF == "1{1}"'
exit $fail
