#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Writes decode_sample.bin, the `armprof decode` CLI fixture, and its two
# truncated variants (tests/data/decode_sample.md lists every byte and what
# the decoder must say about it).
# Usage: tests/data/make_decode_fixture.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")"
b() { printf "$(printf '\\x%s' "$@")"; }
{
    b 00 00                          # Padding x2
    # Record 0, ended by End.
    b b0 00 10 00 40 00 00 00 a0     # Address PC 0x40001000, EL1 Non-secure
    b 49 00                          # Operation Type CLASS 1, general-purpose load
    b 98 07 00                       # Counter total latency 7
    b 99 03 00                       # Counter issue latency 3
    b b2 00 20 00 00 00 00 00 5a     # Address data VA, TAG 0x5a
    b b3 00 20 65 87 00 00 00 ca     # Address data PA, NS CH PAT 0xa
    b 43 05                          # Data Source 0x05
    b 52 06 00                       # Events E[1] E[2]
    b 64 78 56 34 12                 # Context CONTEXTIDR_EL1
    b c5 77                          # unknown, 1-byte payload
    b 01                             # End
    b 00                             # Padding
    # Record 1, ended by a Timestamp.
    b 22 b1 ef cd ab 00 00 00 00 00  # Address Extended format INDEX 17 (IMPDEF)
    b 4a 0b                          # Operation Type Branch CR=1 IND COND
    b b1 00 20 00 40 00 00 00 a0     # Address branch target 0x40002000
    b 71 e8 03 00 00 00 00 00 00     # Timestamp 1000
} > decode_sample.bin
head -c 68 decode_sample.bin > decode_truncated.bin
head -c 72 decode_sample.bin > decode_unterminated.bin
