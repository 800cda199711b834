#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Exact mode's memory hierarchy seen through the records (docs/memory-model.md).
#
#   memory.sh QEMU QEMU_VERSION PLUGIN ARMPROF NM footprint FOOTPRINT_PROGRAM [PERF_VERSION PERF...]
#   memory.sh QEMU QEMU_VERSION PLUGIN ARMPROF NM peer PRODCONS_PROGRAM [PERF_VERSION PERF...]
#   memory.sh QEMU QEMU_VERSION PLUGIN ARMPROF NM fast FOOTPRINT_PROGRAM
#
# footprint: tests/qemu/footprint.c reads 16KB, 512KB, 8MB and 256MB in a
# loop, a line at a time. With the default hierarchy (L1 64KB, L2 1MB, SLC
# 32MB, all LRU), a cyclic walk is served by the first level it fits in
# and misses every level it does not: the loads' Data Source is L1D (0x0),
# L2 (0x8), SLC (0xb) and DRAM (0xe) respectively (the Neoverse encoding),
# in at least 90% of the sampled loads; the median total latency is the
# issue cycle plus that level's latency (1 + 4, 11, 75, 200: the defaults);
# perf 6.1 and 7.3 (which decode the Neoverse N1 MIDR the perf.data names
# by default, the plugin's midr=) put most loads in "L1 hit", "L2 hit",
# "L3 hit", "RAM hit" (6.1 says "L2 or L2 hit", "Local RAM or RAM hit").
# And with mem_slc_size=4M, 8MB is served by DRAM.
# peer: tests/qemu/prodcons.c: every load of the consumer (function
# consumer) from buf is of a line the producer wrote since: at least 90%
# have Data Source PEER_CORE (0x9: the two threads are PEs 0 and 1, one
# cluster of the default 2); perf 7.3 shows them as "L2 hit" with snoop
# "Peer" in consumer. With mem_cluster_pes=1 the producer is in another
# cluster (PEER_CLUSTER, 0xc); with mem_nodes=2,mem_node_pes=1 on another
# node (REMOTE, 0xd).
# fast: issue 39's defect: fast mode models no memory (it looks up no
# access), so no record may carry a Data Source packet or an event of the
# caches or TLB, and the summary counts no cache event ("-"): 512KB read in
# fast mode.
# Prints "SKIPPED: why" when a tool is missing.
set -u
qemu=$1 qemu_version=$2 plugin=$3 armprof=$4 nm=$5 what=$6 program=$7
shift 7
perf_version=${1:-}
[ $# -gt 0 ] && shift
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
[ -x "$program" ] || skip "no test program at '$program' (gcc-aarch64-linux-gnu)"
[ -n "$perf_version" ] && need_perf "$perf_version" "$@"
make_work
fail=0
ok() { echo "ok: $*"; }

run() { # OUT ARGS...: the program in exact mode, loads only sampled ($opts: more options)
  local out=$1
  shift
  local extra=${opts:-}
  [ -n "$perf_version" ] && extra="$extra,perf_version=$perf_version"
  "$qemu" -cpu max,pauth=off \
    -plugin "$plugin,out=$work/$out,mode=exact,quiet=on,load_filter=1$extra" \
    "$program" "$@" >/dev/null 2>"$work/err" || { bad "QEMU failed: $(cat "$work/err")"; return 1; }
}

# one line a record: PC, data VA, Data Source
records() {
  "$armprof" decode "$1" | awk '
    /^record / { if (n) print pc, va, src; pc = "-"; va = "-"; src = "-"; n = 1 }
    /Address PC/ { for (i = 1; i <= NF; i++) if ($i == "PC") pc = $(i + 1) }
    /Address data VA/ { for (i = 1; i <= NF; i++) if ($i == "VA") va = $(i + 1) }
    /Data Source SOURCE=/ { sub(/.*SOURCE=/, ""); src = $1 }
    END { if (n) print pc, va, src }'
}

# the share (percent, whole) of lines of stdin whose third field is $1
share_of() {
  awk -v want="$1" '$3 != "-" { n++; if ($3 == want) k++ } END { print n ? int(100 * k / n) : 0, n + 0 }'
}

perf_top() { # PERF.DATA SORT: the first entry of perf mem report
  "$@" 2>/dev/null | grep -E '^ +[0-9.]+%' | head -n 1
}

if [ "$what" = footprint ]; then
  prev=0
  for spec in "16384 2000 0x0 5 L1_hit" "524288 64 0x8 12 L2_hit" \
    "8388608 4 0xb 76 L3_hit" "268435456 2 0xe 201 RAM_hit"; do
    read -r bytes passes src median want <<<"$spec"
    run "f$bytes" "$bytes" "$passes" || continue
    read -r pct n < <(records "$work/f$bytes.spe" | share_of "$src")
    if [ "$n" -ge 100 ] && [ "$pct" -ge 90 ]; then
      ok "$bytes bytes: $pct% of $n sampled loads from source $src"
    else
      bad "$bytes bytes: $pct% of $n sampled loads from source $src (want >= 90% of >= 100)"
    fi
    m=$("$armprof" report "$work/f$bytes.spe" | awk '/^total latency/ { for (i = 1; i <= NF; i++) if ($i == "median") { v = $(i + 1); sub(/,/, "", v); print v } }')
    if [ "$m" = "$median" ] && [ "$m" -gt "$prev" ]; then
      ok "$bytes bytes: median total latency $m cycles"
    else
      bad "$bytes bytes: median total latency '$m', want $median (above $prev)"
    fi
    prev=${m:-0}
    if [ -n "$perf_version" ]; then
      want=${want/_/ }
      top=$(perf_top "$@" mem report -i "$work/f$bytes.perf.data" --sort mem --stdio)
      case $top in
        *"$want"*) ok "perf $perf_version: $bytes bytes: $top" ;;
        *) bad "perf $perf_version: $bytes bytes: first entry '$top', want '$want'" ;;
      esac
    fi
  done
  # the options reach the hierarchy: with a 4MB SLC, 8MB is served by DRAM
  opts=",mem_slc_size=4M" run f8m4 8388608 4 &&
    read -r pct n < <(records "$work/f8m4.spe" | share_of 0xe)
  if [ "${n:-0}" -ge 100 ] && [ "${pct:-0}" -ge 90 ]; then
    ok "mem_slc_size=4M: 8MB: $pct% of $n sampled loads from DRAM"
  else
    bad "mem_slc_size=4M: 8MB: ${pct:-0}% of ${n:-0} sampled loads from DRAM (want >= 90%)"
  fi
elif [ "$what" = fast ]; then
  "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$work/fast,quiet=on" "$program" 524288 16 \
    >/dev/null 2>"$work/err" || { echo "FAIL: QEMU failed: $(cat "$work/err")"; exit 1; }
  "$armprof" decode "$work/fast.spe" >"$work/decoded"
  n=$(grep -c '^record ' "$work/decoded")
  ds=$(grep -c 'Data Source' "$work/decoded")
  ev=$(grep -cE 'Events .*(l1d-|tlb-|llc-|l2d-|remote|snooped|cache-modified)' "$work/decoded")
  if [ "$n" -gt 100 ] && [ "$ds" = 0 ] && [ "$ev" = 0 ]; then
    ok "fast mode: $n records, none with a Data Source packet or a cache or TLB event"
  else
    bad "fast mode: of $n records, $ds with a Data Source packet, $ev with a cache or TLB event"
  fi
  line=$(grep '^thread ' "$work/fast.summary")
  if [[ $line == *"l1d_refill - l2d_refill - ll_miss_rd - remote_access -"* ]]; then
    ok "fast mode counts no cache event: $line"
  else
    bad "fast mode's summary counts cache events: $line"
  fi
elif [ "$what" = peer ]; then
  read -r b0 b1 < <("$nm" -S "$program" | awk '$4 == "buf" { print $1, $2 }')
  read -r c0 c1 < <("$nm" -S "$program" | awk '$4 == "consumer" { print $1, $2 }')
  [ -n "${b0:-}" ] && [ -n "${c0:-}" ] || { echo "FAIL: no buf or consumer in $program"; exit 1; }
  buf_lo=$((16#$b0)) buf_hi=$((16#$b0 + 16#$b1)) c_lo=$((16#$c0)) c_hi=$((16#$c0 + 16#$c1))
  consumer() { # PREFIX SOURCE WHAT: at least 90% of the consumer's loads of buf from SOURCE
    records "$work/$1.spe" | while read -r pc va src; do
      [ "$va" = - ] && continue
      if ((pc >= c_lo && pc < c_hi && va >= buf_lo && va < buf_hi)); then echo "$pc $va $src"; fi
    done >"$work/$1.consumer"
    read -r pct n < <(share_of "$2" <"$work/$1.consumer")
    if [ "$n" -ge 20 ] && [ "$pct" -ge 90 ]; then
      ok "$3: $pct% of the consumer's $n sampled loads of buf from $2"
    else
      bad "$3: $pct% of the consumer's $n sampled loads of buf from $2: $(awk '{ print $3 }' "$work/$1.consumer" | sort | uniq -c | tr '\n' ' ')"
    fi
  }
  run pc || exit 1
  consumer pc 0x9 "the peer core"
  # the topology options: a cluster a PE, the producer in another
  # cluster (PEER_CLUSTER); a node a PE, on another node (REMOTE)
  if [ -z "$perf_version" ]; then
    opts=",mem_cluster_pes=1" run pcc && consumer pcc 0xc "mem_cluster_pes=1: the peer cluster"
    opts=",mem_nodes=2,mem_node_pes=1" run pcn && consumer pcn 0xd "mem_nodes=2: the other node"
  fi
  if [ "$perf_version" = 7.3 ]; then
    "$@" mem report -i "$work/pc.perf.data" --sort mem,snoop,sym --stdio >"$work/report" 2>/dev/null
    if grep -qE '^ +[0-9.]+% +[0-9]+ +L2 hit +(N/A or )?Peer +\[\.\] consumer' "$work/report"; then
      ok "perf 7.3: $(grep -E 'Peer +\[\.\] consumer' "$work/report" | head -n 1)"
    else
      bad "perf 7.3 shows no peer hit in consumer:"
      cat "$work/report"
    fi
  fi
fi
exit "$fail"
