#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Debian's own arm_spe_pmu probes the model's SPE (issue 25, part 5): the
# guest of frontends/qemu-system/guest.sh STACK boots on the armprof
# qemu-system-aarch64 with CPUS vCPUs; the probe line names every CPU, and
# what the driver read (caps/, the record size and alignment) is what the
# manual's field tables give for the model's PMSIDR_EL1 and PMBIDR_EL1
# (spe_caps). Skipped with the reason when the emulator is not built or
# the guest's packages cannot be fetched.
#   probe.sh REPO STACK CPUS SPE_CAPS
set -euo pipefail
repo=$1 stack=$2 cpus=$3 spe_caps=$4
. "$(dirname "$0")/../skip.sh"
. "$(dirname "$0")/emulator.sh"
emulator_locate "$repo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
guest=$(ARMPROF_CACHE=${ARMPROF_CACHE:-$HOME/.cache/armprof} sh "$repo/frontends/qemu-system/guest.sh" "$stack" 2>"$work/guest.err") ||
  skip "the $stack guest's packages: $(tail -n 1 "$work/guest.err")"
kernel=$(sed -n 's/^KERNEL=//p' <<<"$guest")
initrd=$(sed -n 's/^INITRD=//p' <<<"$guest")
timeout 600 "$qemu" -M virt -cpu max,pauth=off,armprof=on -smp "$cpus" -m 1G -nographic \
  -nic none -no-reboot -kernel "$kernel" -initrd "$initrd" \
  -append "console=ttyAMA0 panic=-1 quiet" >"$work/console" 2>&1 || true
tr -d '\r' <"$work/console" | sed -n 's/^armprof-guest: //p' >"$work/guest"
cat "$work/guest"
fail=0
grep -q '^done$' "$work/guest" || { echo "FAIL: the guest did not finish"; tail -n 20 "$work/console"; exit 1; }
want_cpus=0
[ "$cpus" -gt 1 ] && want_cpus="0-$((cpus - 1))"
"$spe_caps" >"$work/expected"
probe=$(grep -Eo 'arm_spe_pmu spe: probed (SPEv[0-9.]+ )?for CPUs [0-9-]* \[max_record_sz [0-9]*, align [0-9]*' "$work/guest" || true)
[ -n "$probe" ] || { echo "FAIL: no probe line"; exit 1; }
[[ $probe == *" for CPUs $want_cpus ["* ]] || { echo "FAIL: probed for other CPUs than $want_cpus: $probe"; fail=1; }
# Linux 7.3 names the version (6.1 does not)
if [[ $probe == *"probed SPEv"* ]]; then
  version=$(sed -n 's/^version //p' "$work/expected")
  [[ $probe == *"probed $version for"* ]] || { echo "FAIL: not $version (PMSVer): $probe"; fail=1; }
fi
want=$(sed -n 's/^probe //p' "$work/expected")
[[ $probe == *"[$want" ]] || { echo "FAIL: probe says '${probe#*[}', the model's registers '$want'"; fail=1; }
while read -r kind name value; do
  [ "$kind" = caps ] || continue
  got=$(sed -n "s/^caps $name //p" "$work/guest")
  [ "$got" = "$value" ] || { echo "FAIL: caps/$name is '$got', the model's registers give $value"; fail=1; }
done <"$work/expected"
[ "$fail" = 0 ] && echo "ok: $probe; caps as PMSIDR_EL1 and PMBIDR_EL1 give"
exit "$fail"
