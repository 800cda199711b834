#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perf record -e arm_spe_0// in the guest, on the model (issue 25, part 5):
# the STACK guest with its own perf runs a shell loop twice under perf
# record, once with /u and once with /k, with a 4-page AUX buffer so that
# the driver's buffer-full handling (PMBIRQ) runs many times; the plugin
# gives the model the operations (system mode). The two perf.data files
# come out through the console (base64) and are checked on the host with
# the stack's own perf (Debian 12's; 7.3 under qemu-aarch64): records
# decode with no bad packet, several AUX events
# (the buffer filled and was serviced), and every PC packet at EL0 for /u,
# at EL1 for /k (PMSCR_EL1.E0SPE/E1SPE, the driver's exclude_kernel and
# exclude_user). Skipped with the reason when a part cannot be had.
#   record.sh REPO STACK PLUGIN PERF_COMMAND...
set -euo pipefail
repo=$1 stack=$2 plugin=$3
shift 3
skip() { echo "SKIPPED: $*"; exit 0; }
[ -f "$plugin" ] || skip "no QEMU 10.0 plugin ($plugin)"
[ $# -gt 0 ] || skip "no perf $stack for the host (.ci/run installs linux-perf; tools/perf-root.sh)"
version=$("$@" --version 2>&1) || skip "perf does not run: $version"
case $version in *"perf version $stack"*) ;; *) skip "not perf $stack: $version" ;; esac
qemu=$(sh "$repo/frontends/qemu-system/build.sh" --locate 2>/dev/null | sed -n 's/^QEMU_SYSTEM_AARCH64=//p') ||
  true
[ -n "$qemu" ] || skip "no armprof qemu-system-aarch64 (.ci/run runs frontends/qemu-system/build.sh)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/script" <<'GUEST'
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
for mode in u k; do
  perf record -e arm_spe_0/ts_enable=1,pa_enable=1,jitter=1/$mode -c 1024 -m,4 -o /tmp/$mode.data \
    -- busybox sh -c 'i=0; while [ $i -lt 1500 ]; do i=$((i+1)); done' 2>&1 |
    sed "s/^/armprof-guest: perf $mode: /"
  echo "armprof-guest: begin $mode"
  base64 /tmp/$mode.data
  echo "armprof-guest: end $mode"
done
GUEST
guest=$(ARMPROF_GUEST_PERF=1 sh "$repo/frontends/qemu-system/guest.sh" "$stack" "$work/script" 2>"$work/guest.err") ||
  skip "the $stack guest's packages: $(tail -n 1 "$work/guest.err")"
kernel=$(sed -n 's/^KERNEL=//p' <<<"$guest")
initrd=$(sed -n 's/^INITRD=//p' <<<"$guest")
timeout 900 "$qemu" -M virt -cpu max,pauth=off,armprof=on -m 1G -nographic -nic none -no-reboot \
  -kernel "$kernel" -initrd "$initrd" -append "console=ttyAMA0 panic=-1 quiet" \
  -plugin "$plugin" >"$work/console" 2>&1 || true
tr -d '\r' <"$work/console" >"$work/out"
grep -a 'perf [uk]:\|^vcpu' "$work/out" || true
fail=0
for mode in u k; do
  sed -n "/^armprof-guest: begin $mode\$/,/^armprof-guest: end $mode\$/p" "$work/out" |
    grep -v '^armprof-guest' | base64 -d >"$work/$mode.data" 2>/dev/null || true
  [ -s "$work/$mode.data" ] || { echo "FAIL: no perf.data for /$mode"; fail=1; continue; }
  "$@" report -D -i "$work/$mode.data" >"$work/$mode.dump" 2>/dev/null || true
  pcs=$(grep -Ec ' PC 0x[0-9a-f]+ el[0-3] ' "$work/$mode.dump" || true)
  bad=$(grep -Eic 'bad packet|ARM SPE: .*error' "$work/$mode.dump" || true)
  aux=$(grep -c 'PERF_RECORD_AUX ' "$work/$mode.dump" || true)
  want=$([ "$mode" = u ] && echo el0 || echo el1)
  other=$(grep -E ' PC 0x[0-9a-f]+ el[0-3] ' "$work/$mode.dump" | grep -vc " $want " || true)
  echo "/$mode: $pcs records (PC packets), $bad bad, $aux AUX events, $other not at $want"
  [ "$pcs" -gt 50 ] || { echo "FAIL: /$mode: too few records ($pcs)"; fail=1; }
  [ "$bad" = 0 ] || { echo "FAIL: /$mode: bad packets"; fail=1; }
  [ "$aux" -gt 3 ] || { echo "FAIL: /$mode: the 4-page buffer filled only $aux times"; fail=1; }
  [ "$other" = 0 ] || { echo "FAIL: /$mode: records outside $want"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: perf record /u and /k on the model, decoded by perf $stack"
exit "$fail"
