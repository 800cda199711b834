#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# How armprof writes the files it is told to write (docs/conformance.md,
# "Output files"): a failure leaves what was there before untouched, a
# device, FIFO or symbolic link is written through and never removed, and
# an output that is one of the inputs is refused. Each CASE is one ctest;
# run as root (CI is), so permissions cannot be what protects a file.
#   output_files.sh ARMPROF CASE
set -u
armprof=$1
case_name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# An SPE record file of about 50 KB: every output written from it is larger
# than the 1 KB file size limit the failed_write case sets.
"$armprof" demo --ops 200000 --quiet -o in.spe >/dev/null || {
    echo "FAIL: armprof demo could not make the input"
    exit 1
}

# run EXPECTED_STATUS WANT_IN_STDERR COMMAND...: the command's status and a
# piece of its message.
run() {
    local want_rc=$1 want_err=$2
    shift 2
    "$@" >out.txt 2>err.txt
    local rc=$?
    [ "$rc" = "$want_rc" ] || fail "$*: status $rc, expected $want_rc (stderr: $(cat err.txt))"
    if [ -n "$want_err" ] && ! grep -qF -- "$want_err" err.txt; then
        fail "$*: stderr does not say '$want_err': $(cat err.txt)"
    fi
}

# Nothing but the files named is left in the folder (no temporary file).
only_files() {
    local have want
    have=$(ls -A | sort | tr '\n' ' ')
    want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
    [ "$have" = "$want" ] || fail "files left: '$have', expected '$want'"
}

case $case_name in
device_not_removed)
    # A private character device 1,7 (what /dev/full is on Linux: every
    # write fails with ENOSPC), so that no test can hurt the real one.
    if ! mknod full c 1 7 2>/dev/null; then
        echo "SKIPPED: cannot make a character device (mknod needs root)"
        exit 0
    fi
    for cmd in "perf-data -o full in.spe" "report -o full in.spe" "report --html -o full in.spe" \
        "demo --ops 1000 --quiet -o full" "demo --ops 1000 --quiet -o d.spe --perf-data full"; do
        # shellcheck disable=SC2086
        run 2 "No space left on device" "$armprof" $cmd
        grep -qF "full: cannot write: No space left on device" err.txt ||
            grep -qF "full: No space left on device" err.txt ||
            fail "armprof $cmd: the message does not name the file and the write"
        [ -c full ] || fail "armprof $cmd: 'full' is no longer a character device"
        [ -e full ] || mknod full c 1 7
    done
    # demo --perf-data into a device (a private /dev/null, 1,3): the ELF
    # file of the phases' symbols goes beside the record file, not into the
    # device's folder (it went to /dev/armprof-demo-workload)
    mkdir dev out
    mknod dev/null c 1 3
    run 0 "" "$armprof" demo --ops 1000 --quiet -o out/d.spe --perf-data dev/null
    [ "$(ls -A dev)" = null ] || fail "demo --perf-data dev/null: made in dev: $(ls -A dev)"
    [ -f out/armprof-demo-workload ] || fail "demo --perf-data dev/null: no ELF beside out/d.spe"
    ;;
symlink_kept)
    # -o a symbolic link: the file it points to is written, the link stays.
    echo old >target.data
    ln -s target.data link.data
    run 0 "" "$armprof" perf-data -o link.data in.spe
    [ -L link.data ] || fail "perf-data -o link.data: the link was replaced"
    [ "$(head -c 8 target.data)" = PERFILE2 ] || fail "perf-data -o link.data: target not written"
    echo old >target.txt
    ln -s target.txt link.txt
    run 0 "" "$armprof" report -o link.txt in.spe
    [ -L link.txt ] || fail "report -o link.txt: the link was replaced"
    grep -q records target.txt || fail "report -o link.txt: target not written"
    # A link to standard output, into a pipe (what /dev/stdout is; a
    # private one, so that the unfixed command, which removed the link,
    # cannot hurt the real one): written through, nothing removed. A
    # perf.data file needs a file it can seek in, to write the header last.
    ln -s /proc/self/fd/1 stdout.link
    "$armprof" report -o stdout.link in.spe 2>err.txt | cat >piped.txt
    grep -q records piped.txt || fail "report -o stdout.link: $(cat err.txt)"
    "$armprof" perf-data -o stdout.link in.spe 2>err.txt | cat >/dev/null
    [ "${PIPESTATUS[0]}" = 2 ] || fail "perf-data -o stdout.link into a pipe: status not 2"
    grep -qF "stdout.link" err.txt && grep -qF "Illegal seek" err.txt ||
        fail "perf-data -o stdout.link into a pipe: $(cat err.txt)"
    [ -L stdout.link ] || fail "stdout.link is no longer a symbolic link"
    ;;
missing_input_keeps_output)
    # The input is opened before the output: an existing output stays as
    # it was, byte for byte.
    printf 'keep me\n' >keep.data
    cp keep.data keep.orig
    run 2 "/nonexistent.spe" "$armprof" perf-data -o keep.data /nonexistent.spe
    cmp -s keep.data keep.orig || fail "perf-data: keep.data changed"
    run 2 "/nonexistent.spe" "$armprof" perf-data -o keep.data in.spe /nonexistent.spe
    cmp -s keep.data keep.orig || fail "perf-data (second input missing): keep.data changed"
    run 2 "/nonexistent.spe" "$armprof" report -o keep.data /nonexistent.spe
    cmp -s keep.data keep.orig || fail "report: keep.data changed"
    rm out.txt err.txt
    only_files in.spe keep.data keep.orig
    ;;
failed_write_keeps_output)
    # A write that fails (the 1 KB file size limit: EFBIG, with SIGXFSZ
    # ignored) leaves the existing output as it was, and no temporary file.
    printf 'keep me\n' >keep.out
    cp keep.out keep.orig
    for cmd in "perf-data -o keep.out in.spe" "report --html -o keep.out in.spe" \
        "demo --ops 200000 --quiet -o keep.out"; do
        # shellcheck disable=SC2086
        (
            trap '' XFSZ
            ulimit -f 1
            exec "$armprof" $cmd >out.txt 2>err.txt
        )
        rc=$?
        [ "$rc" = 2 ] || fail "armprof $cmd: status $rc, expected 2 ($(cat err.txt))"
        grep -qF "keep.out" err.txt && grep -qF "File too large" err.txt ||
            fail "armprof $cmd: stderr does not name the file and the reason: $(cat err.txt)"
        cmp -s keep.out keep.orig || fail "armprof $cmd: keep.out changed"
        rm -f out.txt err.txt
        only_files in.spe keep.out keep.orig
    done
    ;;
replaced_not_rewritten)
    # A successful write over an existing regular file puts a new file in
    # its place (renamed, or names exchanged and the old one removed): a
    # second name of the old file keeps its bytes, the mode stays, and no
    # hidden file is left.
    for cmd in "perf-data -o keep.out in.spe" "report -o keep.out in.spe"; do
        printf 'keep me\n' >keep.out
        chmod 640 keep.out
        ln keep.out other.out
        # shellcheck disable=SC2086
        run 0 "" "$armprof" $cmd
        [ "$(cat other.out)" = "keep me" ] || fail "armprof $cmd: the old file was written over"
        cmp -s keep.out other.out && fail "armprof $cmd: keep.out still holds the old bytes"
        [ "$(stat -c %a keep.out)" = 640 ] || fail "armprof $cmd: mode $(stat -c %a keep.out), not 640"
        rm -f out.txt err.txt other.out
        only_files in.spe keep.out
    done
    ;;
same_file_refused)
    # An output that is one of the inputs, by any name (the same device and
    # inode): refused before anything is written.
    cp in.spe orig.spe
    ln in.spe hard.spe
    ln -s in.spe soft.spe
    for cmd in "report -o in.spe in.spe" "report --svg -o hard.spe in.spe" \
        "perf-data -o in.spe in.spe" "perf-data -o soft.spe orig.spe in.spe"; do
        # shellcheck disable=SC2086
        run 2 "is an input" "$armprof" $cmd
        cmp -s in.spe orig.spe || fail "armprof $cmd: the input changed"
    done
    # standard output appended to the input: the command would read what it
    # writes
    for cmd in decode report; do
        "$armprof" $cmd in.spe >>in.spe 2>err.txt
        rc=$?
        [ "$rc" = 2 ] || fail "armprof $cmd in.spe >>in.spe: status $rc, expected 2"
        grep -qF "is an input" err.txt || fail "armprof $cmd in.spe >>in.spe: $(cat err.txt)"
        cmp -s in.spe orig.spe || fail "armprof $cmd in.spe >>in.spe: the input changed"
    done
    # the same folder, another file: fine
    run 0 "" "$armprof" report -o other.txt in.spe
    ;;
*)
    echo "unknown case $case_name"
    exit 1
    ;;
esac
[ "$failures" = 0 ] || exit 1
echo "ok: $case_name"
