# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Sourced by the perf c2c tests (tests/qemu/c2c_false_sharing.sh,
# tests/qemu-system/c2c.sh).
# c2c_shared_lines REPORT: the rows of the Shared Data Cache Line Table of
# `perf c2c report --stdio`'s output REPORT, one a line: index, address,
# loads served by a peer (sorted on peer snoops, as perf prints them).
c2c_shared_lines() {
  sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution Pareto/p' "$1" |
    awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $1, $2, $6 }'
}
