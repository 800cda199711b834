# SPDX-License-Identifier: BSD-3-Clause
# What the QEMU plugin tests share (sourced): the skip rule (tests/skip.sh)
# and a work folder.
#   need_qemu QEMU VERSION PLUGIN   skips unless QEMU is there, prints
#                                   "version VERSION", and PLUGIN exists
#   need_program PROGRAM PACKAGES   skips unless the test program is
#                                   there (PACKAGES: what builds it)
#   need_perf VERSION COMMAND...    skips unless COMMAND is perf VERSION
#   make_work                       $work, removed at exit
#   expect_refusal ARGS WANT CMD... CMD (QEMU with the plugin's ARGS) fails
#                                   and its output holds WANT; else $fail=1
#   bad WHAT...                     says "FAIL: WHAT" and sets $fail to 1
. "$(dirname "${BASH_SOURCE[0]}")/../skip.sh"
need_qemu() {
  [ -x "$1" ] || skip "no QEMU at '$1' (.ci/run installs qemu-user and runs frontends/qemu/build-qemu.sh)"
  "$1" --version | grep -q "version $2" || skip "$1 is not QEMU $2: $("$1" --version | head -n 1)"
  [ -f "$3" ] || skip "no plugin at '$3'"
}
need_program() {
  [ -x "$1" ] || skip "no test program at '$1'${2:+ ($2)}"
}
need_perf() {
  local want=$1 version
  shift
  [ $# -gt 0 ] || skip "no perf $want (.ci/run installs linux-perf; tools/perf-root.sh)"
  version=$("$@" --version 2>&1) || skip "perf does not run: $version"
  case $version in *"perf version $want"*) ;; *) skip "not perf $want: $version" ;; esac
}
make_work() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
expect_refusal() {
  local args=$1 want=$2
  shift 2
  if "$@" >"$work/out" 2>&1; then
    echo "FAIL: '$args' was accepted"
    fail=1
  elif grep -qF -- "$want" "$work/out"; then
    echo "ok: '$args': $(grep -F -- "$want" "$work/out" | head -n 1)"
  else
    echo "FAIL: '$args': the message does not say '$want':"
    cat "$work/out"
    fail=1
  fi
}
bad() {
  echo "FAIL: $*"
  fail=1
}
