#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Writes report_small.spe, the record file of the `armprof report` CLI test
# (tests/data/README.md lists its bytes and what the report must say).
# Usage: tests/data/make_report_fixture.sh > tests/data/report_small.spe
set -euo pipefail
b() { printf "$(printf '\\x%s' "$@")"; }

# Record 0: a load at 0x401000 (EL0, Non-secure), with a Timestamp.
b b0 00 10 40 00 00 00 00 80  # Address INDEX 0 (PC), byte 7 NS=1 EL=0
b 49 00                       # Operation Type CLASS 1, load general-purpose
b 42 06                       # Events, 1 byte: E[1] retired, E[2] L1D access
b 98 0c 00                    # Counter 0 total latency 12
b 99 03 00                    # Counter 1 issue latency 3
b 9a 05 00                    # Counter 2 translation latency 5
b 43 00                       # Data Source, 1 byte: 0
b 64 42 00 00 00              # Context INDEX 0: CONTEXTIDR_EL1 0x42
b 71 e8 03 00 00 00 00 00 00  # Timestamp 1000 (ends the record)
b 00 00                       # Padding
# Record 1: a mispredicted conditional branch at 0xffff800010002000 (EL1).
b b0 00 20 00 10 00 80 ff a0  # PC, byte 7 NS=1 EL=1
b 4a 01                       # Operation Type CLASS 2 Branch, COND
b 42 82                       # Events: E[1] retired, E[7] mispredicted
b 98 02 00                    # total latency 2
b 01                          # End
# Record 2: a store at 0x401000 with an unknown packet, with a Timestamp.
b b0 00 10 40 00 00 00 00 80  # PC
b 49 01                       # load/store general-purpose, LDST=1 store
b 02                          # unknown 8-bit header, no payload: ignored
b 42 02                       # Events: E[1] retired
b 98 2c 01                    # total latency 300
b 43 03                       # Data Source 3
b 71 d0 07 00 00 00 00 00 00  # Timestamp 2000
