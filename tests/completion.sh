#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The bash completion script offers what the command lists: every command
# for the first word, presets after --preset, register names after regs,
# feature names after features. Usage: completion.sh ARMPROF SCRIPT
armprof=$1
# shellcheck source=/dev/null
source "$2"
fail=0
complete_line() { # words... : sets COMPREPLY for the last word
    COMP_WORDS=("$armprof" "${@:2}")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _armprof
}
expect() { # what, wanted word
    local w
    for w in "${COMPREPLY[@]}"; do [[ $w == "$2" ]] && return; done
    echo "completion: $1: '$2' not offered (got: ${COMPREPLY[*]:0:8})"
    fail=1
}
complete_line x ""
for c in $("$armprof" help --commands); do expect "first word" "$c"; done
complete_line x re
[[ ${#COMPREPLY[@]} -eq 3 ]] || { echo "completion: 're' gave ${COMPREPLY[*]}"; fail=1; }
expect "re" regs
expect "re" report
expect "re" record
complete_line x regs --preset arm
expect "--preset" armv9.4-all
complete_line x regs PMSC
expect "regs" PMSCR_EL1
expect "regs" PMSCR_EL2
complete_line x features FEAT_SPE_E
expect "features" FEAT_SPE_EXC
complete_line x run --j
expect "run" --json
# every command offers --help and -h; help offers the command names
for c in $("$armprof" help --commands); do
    complete_line x "$c" -
    expect "$c -" --help
    expect "$c -" -h
done
complete_line x help re
expect "help" report
[[ $fail -eq 0 ]] && echo "completion: ok"
exit $fail
