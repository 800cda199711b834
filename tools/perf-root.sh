#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A private arm64 root holding the newest Linux perf Debian has (linux-perf
# 7.3.4 from Debian 13 backports, its newest Debian revision) and the
# libraries it needs, for the perf.data tests (tools/arm64-root.sh):
#   qemu-aarch64 -cpu max,pauth=off -L ROOT ROOT/usr/bin/perf ...
#   tools/perf-root.sh [CACHE]    prints the root's path
set -eu
exec "$(dirname "$0")/arm64-root.sh" perf linux-perf 7.3.4 "$@"
