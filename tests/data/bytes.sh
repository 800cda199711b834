# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the scripts that write hand-made records (perf-quirks/
# make_quirks.sh, c2c/make_c2c.sh). POSIX sh and printf only: bytes are
# written with octal escapes, as POSIX printf has no \x.
#   b HEX...   writes the bytes, in the order given
b() {
    for h in "$@"; do
        printf "\\$(printf '%03o' "0x$h")"
    done
}
