#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, part 10: `armprof CMD --help` and `-h` give the command's usage
# with its options described, and exit 0, for every command, as git and
# perf do; `armprof help CMD` gives the same text. Every option the usage
# line names has a line of its own under "options:".
#   command_help.sh ARMPROF
set -u
armprof=$1
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
commands=$("$armprof" help --commands) || fail "help --commands"
n=0
for c in $commands; do
    n=$((n + 1))
    long=$("$armprof" "$c" --help 2>&1)
    rc=$?
    [ "$rc" = 0 ] || fail "armprof $c --help: status $rc: $long"
    [ "$(printf '%s\n' "$long" | head -n 1 | cut -d' ' -f1-3)" = "usage: armprof $c" ] ||
        fail "armprof $c --help does not start with 'usage: armprof $c': $long"
    printf '%s\n' "$long" | grep -q '^options:$' || fail "armprof $c --help has no options section"
    printf '%s\n' "$long" | grep -q '^  -h, --help  ' || fail "armprof $c --help does not name -h, --help"
    short=$("$armprof" "$c" -h 2>&1) || fail "armprof $c -h: status $?"
    [ "$short" = "$long" ] || fail "armprof $c -h differs from --help"
    word=$("$armprof" help "$c" 2>&1) || fail "armprof help $c: status $?"
    [ "$word" = "$long" ] || fail "armprof help $c differs from armprof $c --help"
    # the options the usage names (up to the blank line), each described
    usage=$(printf '%s\n' "$long" | sed '/^$/q')
    for opt in $(printf '%s\n' "$usage" | grep -o -- '[[|]--*[a-z][a-z-]*' | tr -d '[|'); do
        printf '%s\n' "$long" | sed -n '/^options:$/,$p' | grep -q -- "^  $opt\\( \\|,\\|$\\)" ||
            fail "armprof $c --help: $opt is in the usage but not described"
    done
done
[ "$n" -ge 10 ] || fail "only $n commands"
# --help after other arguments too, as git's
"$armprof" report -o x.txt --help >/dev/null || fail "armprof report -o x.txt --help: status $?"
[ -e x.txt ] && fail "armprof report -o x.txt --help wrote x.txt"
"$armprof" help no-such-command >/dev/null 2>&1
[ $? = 2 ] || fail "armprof help no-such-command: status not 2"
[ "$failures" = 0 ] || exit 1
echo "command help: $n commands"
