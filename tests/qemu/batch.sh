#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Deferred visits (issue 41, part 1; docs/qemu.md, "How it runs"): a
# thread's calls into its PE queued and replayed in batches must give what
# visits that call the model at once give. Each PROGRAM runs with batch=0
# (at once), the default batch and batch=3 (a small odd one: replays in the
# middle of the plan's work), both replayed on a thread of their own (the
# default, replay=thread: the plans come from look-aheads the replay made
# 64 batches ahead), and the default batch with replay=inline, jitter on
# (RND: the plan follows the random
# intervals), in MODE, at the default interval and at 256 (PMSIDR_EL1's
# recommended minimum set to 256 by a config file: the buffer fills and is
# serviced between samples). A replay that disagrees with the plan aborts
# QEMU.
#   single-threaded programs: the same summary (every count, the cycles,
#   the records, the PC samples) and the same records, byte for byte, in
#   PREFIX.spe and in PREFIX.perf.data's AUX data;
#   multi-threaded ones (a guest's threads interleave differently from run
#   to run, and its main thread waits for the others as long as they take):
#   the workers, whose instructions are their own (at least
#   WORKER_INSTRUCTIONS each; the main thread's fewer), have the same counts and (fast mode, whose cycles are the
#   thread's own) the same records.
# With GZIP_ROOT (tools/arm64-root.sh gzip gzip VERSION; "none" without),
# Debian's gzip compresses 100000 lines the same way, without address space
# randomization (a real program: a hundred buffer services, PC samples,
# the cycles' batches), skipped when the root is not there.
# The thread ID, which differs from run to run, is taken out of the
# summary and of the Context packets (CONTEXTIDR_EL1).
#
#   batch.sh QEMU QEMU_VERSION PLUGIN MODE ARMPROF WORKER_INSTRUCTIONS GZIP_ROOT PROGRAM...
set -u
qemu=$1 qemu_version=$2 plugin=$3 mode=$4 armprof=$5 worker=$6 gzip_root=$7
shift 7
. "$(dirname "$0")/common.sh"
need_qemu "$qemu" "$qemu_version" "$plugin"
make_work
fail=0

# The IDs of the threads in SUMMARY with at least MIN instructions, in hex.
threads_of() {
  awk -v min="$2" '/^thread / && $4 >= min { sub(":", "", $2); printf "0x%x ", $2 }' "$1"
}

# The records of FILE (.spe or .perf.data), every byte shown, with the
# Context packets of the threads with at least MIN instructions in SUMMARY
# kept (as "Context") and the other threads' records left out.
records() {
  local file=$1 summary=$2 min=$3
  local tids
  tids=$(threads_of "$summary" "$min")
  "$armprof" decode "$file" | awk -v tids="$tids" '
    BEGIN { n = split(tids, list, " "); for (i = 1; i <= n; i++) keep[list[i]] = 1 }
    /^$/ { if (r != "" && mine) print r; r = ""; mine = 0; next }
    # packets only: the bounds of AUX events depend on when each thread copied
    !/^[0-9a-f]+  / { next }
    {
      d = substr($0, 42)
      if (d ~ /^Context CONTEXTIDR/) {
        v = d; sub(/.*CONTEXT=/, "", v); sub(/ .*/, "", v)
        mine = keep[v]; r = r "|Context"; next
      }
      r = r "|" substr($0, 10)
    }
    END { if (r != "" && mine) print r }'
}

# The summary's thread lines, each with its spe and PC sampling lines, the
# thread ID out, of the threads with at least MIN instructions (FIELDS: the
# fields to keep, for cut)
counts() {
  local summary=$1 min=$2 fields=$3
  awk -v min="$min" '/^thread /{t=$0; n=$4} /^  (spe|pc sampling):/ && n >= min {print t " |" $0}' \
    "$summary" | sed 's/^thread [0-9]*:/thread:/' | cut -d' ' -f"$fields" | sort
}

echo "pmsidr_interval 0" >"$work/256.cfg"
gzip=()
if [ -x "$gzip_root/usr/bin/gzip" ]; then
  seq 1 100000 >"$work/in"
  gzip=("$gzip_root/usr/bin/gzip")
else
  echo "gzip: not run (no root at '$gzip_root')"
fi
for run in "$@" ${*/%/@256} "${gzip[@]}"; do
  # -R: the guest's address space reserved, so that its mmap()s land
  # where they would whatever the plugin allocates on the host (a CI run
  # found gzip 19 instructions longer with the queue than with batch=0,
  # its libraries elsewhere: qemu-user without -R maps the guest's regions
  # among the host's)
  program=${run%@256} interval= args=() launch=("$qemu" -R 0x100000000)
  [ "$run" = "$program" ] || interval=",interval=256,config=$work/256.cfg"
  [ -x "$program" ] || skip "no test program at '$program' (binutils-aarch64-linux-gnu)"
  name=$(basename "$run")
  if [ "$name" = gzip ]; then
    args=(-c "$work/in") launch=("${launch[@]}" -L "$gzip_root")
    # the same layout in every run (tests/qemu/gzip.sh)
    setarch "$(uname -m)" -R true 2>/dev/null && launch=(setarch "$(uname -m)" -R "${launch[@]}")
  fi
  ok=1
  for batch in 0 default 3 inline; do
    arg=",batch=$batch"
    [ "$batch" = default ] && arg=
    [ "$batch" = inline ] && arg=",replay=inline"
    if ! "${launch[@]}" -cpu max,pauth=off \
      -plugin "$plugin,out=$work/$name.$batch,mode=$mode,quiet=on$interval$arg" \
      "$program" "${args[@]}" >/dev/null 2>"$work/err"; then
      echo "FAIL: $name, batch=$batch: QEMU failed"
      cat "$work/err"
      fail=1
      ok=0
    fi
  done
  [ "$ok" = 1 ] || continue
  threads=$(grep -c '^thread ' "$work/$name.0.summary")
  if [ "$threads" = 1 ]; then
    min=0 fields=1-
  else
    # the workers; exact mode's cycles and cache refills depend on how the
    # threads' accesses interleave in the shared hierarchy
    min=$worker fields=1-
    [ "$mode" = exact ] && fields=1-11,22-
  fi
  for batch in default 3 inline; do
    for what in counts spe perf.data; do
      case $what in
      counts)
        counts "$work/$name.0.summary" "$min" "$fields" >"$work/a"
        counts "$work/$name.$batch.summary" "$min" "$fields" >"$work/b"
        ;;
      perf.data)
        [ "$threads" = 1 ] || [ "$mode" = fast ] || continue
        records "$work/$name.0.$what" "$work/$name.0.summary" "$min" >"$work/a"
        records "$work/$name.$batch.$what" "$work/$name.$batch.summary" "$min" >"$work/b"
        if [ "$threads" = 1 ]; then
          # its events too: the same AUX events (one a copy), the same size
          stat -c 'size %s' "$work/$name.0.$what" >>"$work/a"
          stat -c 'size %s' "$work/$name.$batch.$what" >>"$work/b"
          grep 'AUX data in' <("$armprof" decode "$work/$name.0.$what") >>"$work/a"
          grep 'AUX data in' <("$armprof" decode "$work/$name.$batch.$what") >>"$work/b"
        else
          sort -o "$work/a" "$work/a"
          sort -o "$work/b" "$work/b"
        fi
        ;;
      spe)
        [ "$threads" = 1 ] || [ "$mode" = fast ] || continue
        records "$work/$name.0.$what" "$work/$name.0.summary" "$min" >"$work/a"
        records "$work/$name.$batch.$what" "$work/$name.$batch.summary" "$min" >"$work/b"
        if [ "$threads" != 1 ]; then
          sort -o "$work/a" "$work/a"
          sort -o "$work/b" "$work/b"
        fi
        ;;
      esac
      if [ ! -s "$work/a" ]; then
        echo "FAIL: $name: no $what with batch=0 (threads of $min instructions or more)"
        fail=1
      elif cmp -s "$work/a" "$work/b"; then
        echo "ok: $name, batch=$batch: the same $what as batch=0 ($(wc -l <"$work/a") lines)"
      else
        echo "FAIL: $name, batch=$batch: $what differ from batch=0:"
        diff "$work/a" "$work/b" | head -n 20
        fail=1
      fi
    done
  done
done
exit "$fail"
