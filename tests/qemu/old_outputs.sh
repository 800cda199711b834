#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A run over an earlier run's outputs (docs/qemu.md, "What it writes";
# docs/conformance.md, "Output files"): an old PREFIX.spe and
# PREFIX.perf.data that are regular files are replaced, not written over
# in place, so a hard link to either still holds the old bytes, and the new
# ones are this run's (PREFIX.spe's whole records as many as the summary's
# written; PREFIX.perf.data a perf.data file), with the old files' modes; no
# hidden file is left beside them. A PREFIX.spe that is a symbolic link is
# written through, the link kept.
#   old_outputs.sh QEMU QEMU_VERSION PLUGIN SPE_CHECK PROGRAM
set -u
qemu=$1 qemu_version=$2 plugin=$3 spe_check=$4 program=$5
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
need_program "$program" "binutils-aarch64-linux-gnu"
make_work
fail=0
cd "$work" || exit 1

# run OUT: the plugin over PROGRAM with PREFIX OUT; its summary's written records
run() {
  "$qemu" -cpu max,pauth=off -plugin "$plugin,out=$1,quiet=on" "$program" >/dev/null 2>"$1.stderr" ||
    bad "QEMU with out=$1 failed: $(cat "$1.stderr")"
  sed -n 's/^  spe: .* written \([0-9]*\).*/\1/p' "$1.summary"
}
# whole_records FILE WANT WHAT: FILE decodes to WANT records
whole_records() {
  local got
  if "$spe_check" "$1" >check.txt; then
    got=$(awk '$1 == "records" { print $2 }' check.txt)
    [ -n "$got" ] && [ "$got" -gt 0 ] && [ "$got" = "$2" ] &&
      echo "ok: $3: $got whole records, as the summary's written" ||
      bad "$3: ${got:-no} records, the summary says ${2:-?}"
  else
    bad "$3 does not decode: $(cat check.txt)"
  fi
}

# The old outputs: 64 KB that are no SPE records (0xff bytes: padding
# would decode), mode 0640, each with a second name.
head -c 65536 /dev/zero | tr '\0' '\377' >junk
cp junk p.spe
cp junk p.perf.data
chmod 640 p.spe p.perf.data
ln p.spe old.spe
ln p.perf.data old.perf.data
written=$(run p)
whole_records p.spe "$written" "p.spe over an old one"
cmp -s old.spe junk && echo "ok: the old p.spe, unlinked, not truncated: its other name holds its bytes" ||
  bad "the old p.spe's other name no longer holds its bytes: written over in place"
[ "$(stat -c %a p.spe)" = 640 ] && echo "ok: p.spe keeps the old file's mode 640" ||
  bad "p.spe's mode $(stat -c %a p.spe), the old file's was 640"
[ "$(head -c 8 p.perf.data)" = PERFILE2 ] && echo "ok: p.perf.data over an old one: a perf.data file" ||
  bad "p.perf.data does not start with PERFILE2"
[ "$(stat -c %a p.perf.data)" = 640 ] && echo "ok: p.perf.data keeps the old file's mode 640" ||
  bad "p.perf.data's mode $(stat -c %a p.perf.data), the old file's was 640"
cmp -s old.perf.data junk && echo "ok: the old p.perf.data replaced: its other name holds its bytes" ||
  bad "the old p.perf.data's other name no longer holds its bytes"
hidden=$(find . -maxdepth 1 -name '.*' ! -name . | tr '\n' ' ')
[ -z "$hidden" ] && echo "ok: no hidden file left beside the outputs" || bad "left: $hidden"

# PREFIX.spe a symbolic link: written through, the link kept
cp junk target.spe
ln -s target.spe q.spe
written=$(run q)
[ -L q.spe ] && echo "ok: q.spe, a symbolic link, is still one" || bad "q.spe is no longer a symbolic link"
whole_records target.spe "$written" "q.spe's target"
exit "$fail"
