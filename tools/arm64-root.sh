#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A private arm64 root holding one Debian arm64 package of a pinned version
# and what it depends on, from Debian 13 (trixie and trixie-backports; with
# ARMPROF_ARM64_SUITE=bookworm, Debian 12 and its updates), to run its
# programs under qemu-aarch64 or to boot a guest from (qemu-system;
# ARMPROF_ARM64_RELEASE=trixie-backports takes the dependencies from there
# too, as a backports kernel needs):
#   qemu-aarch64 -cpu max,pauth=off -L ROOT ROOT/usr/bin/PROGRAM ...
# (pointer authentication off: Debian's binaries use it, and QEMU's default
# emulation of it is about 15 times slower). tools/perf-root.sh and the
# QEMU plugin's tests (gzip) use it.
#
# The packages come through an apt configuration of this script's own
# (sources, lists, cache and an empty dpkg status under the cache folder),
# never the system's sources; they are unpacked with dpkg-deb -x, never
# installed. The root is built once per pinned version and kept outside
# the source tree:
#   tools/arm64-root.sh NAME PACKAGE VERSION [CACHE]   prints the root's path
# VERSION is the upstream version (1.13, 6.1.192, 1:1.35.0): the package
# taken is the newest Debian revision of it the archive has
# (tools/debian-pin.sh), named on stderr ("took PACKAGE VERSION"); a full
# version (1.13-1+deb13u1) takes that one only. The root is
# CACHE/NAME-VERSION-arm64/root (VERSION with ~, + and : as _), and
# CACHE/NAME-VERSION-arm64/fetched.txt says what it holds. CACHE defaults
# to $ARMPROF_CACHE, else ~/.cache/armprof. Exits 1 with a message when the
# packages cannot be fetched (with the versions the archive has when none
# fits the pin).
set -eu

[ $# -ge 3 ] || { echo "usage: arm64-root.sh NAME PACKAGE VERSION [CACHE]" >&2; exit 2; }
name=$1 package=$2 version=$3
mirror=${ARMPROF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=${ARMPROF_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
cache=${4:-${ARMPROF_CACHE:-${HOME:-/tmp}/.cache/armprof}}
suite=${ARMPROF_ARM64_SUITE:-trixie}
release=${ARMPROF_ARM64_RELEASE:-} # apt's target release (-t), e.g. trixie-backports
base=$cache/$name-$(printf '%s' "$version" | tr '~+:' '___')-arm64
root=$base/root

# Two at once for the same root (tests run in parallel on an empty cache)
# would remove each other's downloads: one fetches while the other waits
# for the lock, then finds the root made.
mkdir -p "$cache"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$base.lock"
  flock 9
fi
if [ -f "$base/fetched.txt" ]; then
  echo "took $(sed -n "s/^$package=/$package /p" "$base/fetched.txt") (pin $version, fetched before)" >&2
  echo "$root"
  exit 0
fi
for tool in apt-get dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || { echo "arm64-root: $tool not found" >&2; exit 1; }
done
[ -r "$keyring" ] || { echo "arm64-root: no Debian keyring ($keyring)" >&2; exit 1; }

rm -rf "$base"
mkdir -p "$base/apt/lists/partial" "$base/apt/cache/archives/partial" "$root"
case $suite in
  trixie) cat >"$base/apt/sources.list" <<EOF
deb [arch=arm64 signed-by=$keyring] $mirror trixie main
deb [arch=arm64 signed-by=$keyring] $mirror trixie-backports main
EOF
    ;;
  bookworm) cat >"$base/apt/sources.list" <<EOF
deb [arch=arm64 signed-by=$keyring] $mirror bookworm main
deb [arch=arm64 signed-by=$keyring] $mirror bookworm-updates main
deb [arch=arm64 signed-by=$keyring] ${mirror%/debian}/debian-security bookworm-security main
EOF
    ;;
  *) echo "arm64-root: ARMPROF_ARM64_SUITE is trixie or bookworm, not '$suite'" >&2; exit 2 ;;
esac
: >"$base/apt/status"
set -- -o "Dir::Etc::SourceList=$base/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
  -o "Dir::State::Lists=$base/apt/lists" -o "Dir::Cache=$base/apt/cache" \
  -o "Dir::State::status=$base/apt/status" -o Dir::Etc::Preferences=/dev/null \
  -o Dir::Etc::PreferencesParts=/dev/null -o APT::Architecture=arm64 \
  -o APT::Architectures=arm64 -o Debug::NoLocking=1 -o APT::Install-Recommends=false
if ! apt-get "$@" -qq update >"$base/apt.log" 2>&1; then
  echo "arm64-root: cannot update the package lists for arm64:" >&2
  tail -n 5 "$base/apt.log" >&2
  exit 1
fi
. "$(dirname "$0")/debian-pin.sh"
taken=$(debian_pin Packages "$package" "$version" "$@") || exit 1
if ! apt-get "$@" ${release:+-t "$release"} -y -qq install --download-only "$package=$taken" \
  >>"$base/apt.log" 2>&1; then
  echo "arm64-root: cannot fetch $package $taken for arm64:" >&2
  tail -n 5 "$base/apt.log" >&2
  exit 1
fi
for deb in "$base"/apt/cache/archives/*.deb; do
  dpkg-deb -x "$deb" "$root"
  dpkg-deb -f "$deb" Package Version | tr '\n' ' ' | sed 's/Package: //; s/ Version: /=/; s/ $/\n/'
done >"$base/fetched.txt"
# Debian's merged /usr: the loader is looked for in /lib
for d in lib bin sbin; do
  [ -e "$root/$d" ] || ln -s "usr/$d" "$root/$d"
done
rm -rf "$base/apt/cache/archives"
echo "arm64-root: fetched $(wc -l <"$base/fetched.txt") packages for arm64 into $root:" >&2
sed 's/^/  /' "$base/fetched.txt" >&2
echo "$root"
