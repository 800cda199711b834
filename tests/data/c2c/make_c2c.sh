#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes the hand-made SPE records with which tests/perf_c2c.cmake checks
# what perf c2c makes of two CPUs sharing, or not sharing, a cache line:
#   shared-cpu0.spe, shared-cpu1.spe: CPUs 0 and 1 each store to and load
#     its own 8-byte field of the line at 0x10002000 (offsets 0 and 8), and
#     each load is served by the peer core (Data Source 0x9), which holds
#     the line the other CPU's store made modified: false sharing;
#   padded-cpu0.spe, padded-cpu1.spe: the same with CPU 1's field at
#     0x10002040, on the next line, so that each load hits the core's own
#     L1D (Data Source 0x0).
# README.md beside this script says what every byte is (Arm ARM D18; the
# Data Source values are Neoverse N1's, as perf decodes them).
# Usage: sh make_c2c.sh [OUTDIR]   (default: this script's folder)
# POSIX sh and printf only.
set -eu
out=${1:-$(dirname "$0")}
mkdir -p "$out"
. "$(dirname "$0")/../bytes.sh"
pc()    { b b0 "$1" 10 40 00 00 00 00 80; }    # Address PC 0x4010XX, EL0, NS=1
va()    { b b2 "$1" "$2" 00 10 00 00 00 00; }  # Address data VA 0x1000YYXX
ctx()   { b 64 "$1" 03 00 00; }                # CONTEXTIDR_EL1 0x3XX (1000 = e8 03)
ts()    { b 71 "$1" "$2" 00 00 00 00 00 00; }  # Timestamp, ends the record
store() { b 49 01; }                           # Operation Type: GP store
load()  { b 49 00; }                           # Operation Type: GP load
lat()   { b 98 "$1" 00; }                      # Counter: total latency (cycles)
# store FIELD_LO FIELD_HI TID TS_LO TS_HI: the store at 0x401000 to the
# field, retired and an L1D access (E[1], E[2])
st() { pc 00; store; va "$1" "$2"; b 42 06; lat 01; ctx "$3"; ts "$4" "$5"; }
# load FIELD_LO FIELD_HI SOURCE EVENTS TID TS_LO TS_HI: the load at
# 0x401004 of the field, served by SOURCE, with EVENTS
ld() { pc 04; load; va "$1" "$2"; b 42 "$4"; b 43 "$3"; lat "$5"; ctx "$6"; ts "$7" "$8"; }

# Timestamps 1000 (e8 03) to 8000 (40 1f), CPU 0's odd thousands, CPU 1's
# even: the CPUs take turns. Peer-core loads: L1D refill (E[3]) too, and a
# latency of 80 cycles; L1D hits 4.
{
    st 00 20 e8 e8 03; ld 00 20 09 0e 50 e8 b8 0b
    st 00 20 e8 88 13; ld 00 20 09 0e 50 e8 58 1b
} > "$out/shared-cpu0.spe"
{
    st 08 20 e9 d0 07; ld 08 20 09 0e 50 e9 a0 0f
    st 08 20 e9 70 17; ld 08 20 09 0e 50 e9 40 1f
} > "$out/shared-cpu1.spe"
{
    st 00 20 e8 e8 03; ld 00 20 00 06 04 e8 b8 0b
    st 00 20 e8 88 13; ld 00 20 00 06 04 e8 58 1b
} > "$out/padded-cpu0.spe"
{
    st 40 20 e9 d0 07; ld 40 20 00 06 04 e9 a0 0f
    st 40 20 e9 70 17; ld 40 20 00 06 04 e9 40 1f
} > "$out/padded-cpu1.spe"
