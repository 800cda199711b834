#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, defect 2: a pin names an upstream version and survives the
# archive moving on to another Debian revision of it (the 6.1 guest could
# not be made once linux-perf 6.1.192-2 had become 6.1.192-3). On a
# made-up archive (tests/pin/fake-apt.sh standing for apt-get and
# apt-cache), tools/arm64-root.sh and tools/debian-pin.sh must take the
# newest Debian revision of the pinned upstream version, by Debian's
# version ordering (deb-version(7): a revision's digits compare as numbers,
# '~' sorts before anything, the epoch first), say what they took, and
# fail naming the versions seen when none fits.
#   pin.sh REPO
set -u
repo=$1
. "$(dirname "$0")/../skip.sh"
for tool in dpkg dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || skip "no $tool (a Debian system)"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$repo/tests/pin/fake-apt.sh" "$work/bin/apt-get"
ln -s "$repo/tests/pin/fake-apt.sh" "$work/bin/apt-cache"
: >"$work/keyring"
export PATH=$work/bin:$PATH FAKE_ARCHIVE=$work/archive ARMPROF_DEBIAN_KEYRING=$work/keyring
cat >"$FAKE_ARCHIVE" <<'ARCHIVE'
linux-perf 6.1.191-1 Packages
linux-perf 6.1.192-3 Packages
gzip 1.13-1 Packages
gzip 1.13-1+deb13u2 Packages
busybox-static 1:1.35.0-4+deb12u1+b1 Packages
busybox-static 1:1.35.0-4+deb12u2 Packages
linux-image-7.3.4+deb13-arm64 7.3.4-1~bpo13+1 Packages
linux-image-7.3.4+deb13-arm64 7.3.4-1~bpo13+2 Packages
qemu 1:10.0.13+ds-0+deb13u2 Sources
qemu 1:10.0.13+ds-0+deb13u9 Packages
ARCHIVE
fail=0
# root NAME PACKAGE PIN WANT: arm64-root.sh takes WANT ("none": fails)
root() {
  local out rc
  out=$(sh "$repo/tools/arm64-root.sh" "$1" "$2" "$3" "$work/cache" 2>"$work/err")
  rc=$?
  echo "$2 pin $3: status $rc: $(grep -E '^took|^no ' "$work/err" | tr '\n' ' ')"
  if [ "$4" = none ]; then
    [ "$rc" != 0 ] || { echo "FAIL: $2 pin $3 was taken"; fail=1; }
    grep -q "versions seen: $5\$" "$work/err" ||
      { echo "FAIL: $2 pin $3: the message does not list '$5':"; cat "$work/err"; fail=1; }
    return
  fi
  [ "$rc" = 0 ] || { echo "FAIL: $2 pin $3:"; cat "$work/err"; fail=1; return; }
  grep -qx "took $2 $4 (pin $3.*" "$work/err" || { echo "FAIL: $2 pin $3: no 'took $2 $4'"; fail=1; }
  [ "$(cat "$out/usr/share/$2/version" 2>/dev/null)" = "$4" ] ||
    { echo "FAIL: $2 pin $3: the root holds $(cat "$out/usr/share/$2/version" 2>/dev/null), not $4"; fail=1; }
}
# the only revision of 6.1.192 (the pin of 6.1.192-2 is gone)
root perf linux-perf 6.1.192 6.1.192-3
# a second call finds the root made, and says what it holds
root perf linux-perf 6.1.192 6.1.192-3
# +deb13u2 after nothing: 1.13-1 < 1.13-1+deb13u2
root gzip gzip 1.13 1.13-1+deb13u2
# a full version pins that one
root gzip1 gzip 1.13-1 1.13-1
# with an epoch; '4+deb12u2' > '4+deb12u1+b1' (2 > 1 where they differ)
root busybox busybox-static 1:1.35.0 1:1.35.0-4+deb12u2
# backports: ~bpo13+2 > ~bpo13+1
root kernel linux-image-7.3.4+deb13-arm64 7.3.4 7.3.4-1~bpo13+2
# none fits: the versions seen, and no root
root perf2 linux-perf 6.1.193 none "6.1.191-1 6.1.192-3"
root perf3 linux-perf 6.1.192-2 none "6.1.191-1 6.1.192-3"
# a source package: the Sources line, not the binary one of the same name
. "$repo/tools/debian-pin.sh"
got=$(debian_pin Sources qemu 1:10.0.13+ds 2>"$work/err")
echo "qemu source pin 1:10.0.13+ds: $got"
[ "$got" = 1:10.0.13+ds-0+deb13u2 ] || { echo "FAIL: qemu source: took '$got', not 1:10.0.13+ds-0+deb13u2"; fail=1; }
[ "$fail" = 0 ] && echo "ok: every pin took the newest Debian revision of its upstream version"
exit "$fail"
