#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes q1-context.spe ... q7-ets.spe, the hand-made SPE records with which
# tests/perf_quirks.cmake checks the perf quirks of docs/perf-quirks.md.
# README.md beside this script says what every byte is (Arm ARM D18).
# Usage: sh make_quirks.sh [OUTDIR]   (default: this script's folder)
# POSIX sh and printf only: bytes are written with octal escapes, as POSIX
# printf has no \x.
set -eu
out=${1:-$(dirname "$0")}
mkdir -p "$out"
. "$(dirname "$0")/../bytes.sh"
# Packets used in every file. Addresses and values are little-endian.
pc()   { b b0 "$1" "$2" 40 00 00 00 00 80; }  # Address PC 0x40XXYY, EL0, NS=1
tgt()  { b b1 00 "$1" 40 00 00 00 00 80; }    # Address branch target 0x40XX00, EL0, NS=1
va()   { b b2 "$1" 20 00 10 00 00 00 00; }    # Address data VA 0x100020XX
ctx1() { b 64 "$1" "$2" 00 00; }              # Context CONTEXTIDR_EL1
ctx2() { b 65 "$1" "$2" 00 00; }              # Context CONTEXTIDR_EL2
ts()   { b 71 "$1" "$2" 00 00 00 00 00 00; }  # Timestamp, ends the record
ev()   { b 42 02; }                           # Events, 1 byte: E[1] retired
# PIDs: 1000 = e8 03, 1001 = e9 03, ... 1006 = ee 03; 2000 = d0 07.
# Timestamps: 1000 = e8 03, 2000 = d0 07, 3000 = b8 0b, 4000 = a0 0f,
# 5000 = 88 13, 6000 = 70 17, 7000 = 58 1b.

# Q1: two loads with CONTEXTIDR_EL1 = 1000 and CONTEXTIDR_EL2 = 2000, in
# SPEConstructRecord()'s order (EL1 first), then in the other order.
{
    pc 00 10; b 49 00; va 00; ev; ctx1 e8 03; ctx2 d0 07; ts e8 03
    pc 04 10; b 49 00; va 08; ev; ctx2 d0 07; ctx1 e8 03; ts d0 07
} > "$out/q1-context.spe"

# Q2: operations that access no data memory, one task each.
{
    pc 00 10; b 48 38;           ev; ctx1 e8 03; ts e8 03  # SVE vector, EVL 256
    pc 04 10; b 48 04;           ev; ctx1 e9 03; ts d0 07  # Other, ASE
    pc 08 10; b 48 02;           ev; ctx1 ea 03; ts b8 0b  # Other, FP
    pc 0c 10; b 4a 08; tgt 30;   ev; ctx1 eb 03; ts a0 0f  # branch, CR=0b01 BL
    pc 10 10; b 4a 12; tgt 40;   ev; ctx1 ec 03; ts 88 13  # branch, CR=0b10 RET, IND
    pc 14 10; b 4a 18; tgt 50;   ev; ctx1 ed 03; ts 70 17  # branch, CR=0b11 B
    pc 18 10; b 48 88;           ev; ctx1 ee 03; ts 58 1b  # SME array, ETS 128
} > "$out/q2-sve-memory.spe"

# Q3: indirect branches (IND=1) with and without CR and GCS.
{
    pc 00 10; b 4a 02; tgt 30; ev; ctx1 e8 03; ts e8 03  # IND
    pc 04 10; b 4a 0a; tgt 30; ev; ctx1 e9 03; ts d0 07  # IND, CR=0b01 (BLR)
    pc 08 10; b 4a 12; tgt 30; ev; ctx1 ea 03; ts b8 0b  # IND, CR=0b10 (RET)
    pc 0c 10; b 4a 06; tgt 30; ev; ctx1 eb 03; ts a0 0f  # IND, GCS
    pc 10 10; b 4a 03; tgt 30; ev; ctx1 ec 03; ts 88 13  # IND, COND
} > "$out/q3-indirect.spe"

# Q4: 4-byte Events packets with E[19] and E[20], and with E[17], E[21] to E[25]
# (both loads also with E[1] retired, E[2] L1D access, E[3] L1D miss).
{
    pc 00 10; b 49 00; va 00; b 62 0e 00 18 00; ctx1 e8 03; ts e8 03
    pc 04 10; b 49 2c; va 40; b 62 0e 00 e2 03; ctx1 e9 03; ts d0 07
} > "$out/q4-events.spe"

# Q5: branches with CR=0b11 (neither branch with link nor return).
{
    pc 00 10; b 4a 1a; tgt 30; ev;       ctx1 e8 03; ts e8 03  # BR: IND
    pc 04 10; b 4a 1a; tgt 30; b 42 82;  ctx1 e9 03; ts d0 07  # BR, mispredicted
    pc 08 10; b 4a 18; tgt 30; ev;       ctx1 ea 03; ts b8 0b  # B: direct
    pc 0c 10; b 4a 12; tgt 30; ev;       ctx1 eb 03; ts a0 0f  # RET: CR=0b10
    pc 10 10; b 4a 0a; tgt 30; ev;       ctx1 ec 03; ts 88 13  # BLR: CR=0b01
} > "$out/q5-br.spe"

# Q6: EVL 0b111 (more than 2048 bits), and 0b110 (2048 bits).
{
    pc 00 10; b 48 78;          ev; ctx1 e8 03; ts e8 03  # SVE vector, EVL 0b111
    pc 04 10; b 48 68;          ev; ctx1 e9 03; ts d0 07  # SVE vector, EVL 0b110
    pc 08 10; b 49 78; va 00;   ev; ctx1 ea 03; ts b8 0b  # SVE load, EVL 0b111
} > "$out/q6-evl.spe"

# Q7: SME ETS 0b1111 (whole ZA array), and 0b1011 (262144 bits).
{
    pc 00 10; b 48 fc; ev; ctx1 e8 03; ts e8 03
    pc 04 10; b 48 dc; ev; ctx1 e9 03; ts d0 07
} > "$out/q7-ets.spe"
