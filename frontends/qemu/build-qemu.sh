#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# QEMU for the future QEMU plugin front-end: builds QEMU 10.0's user-mode
# emulator qemu-aarch64 with TCG plugin support from Debian 13's qemu
# source package on a Debian 12 machine, and fetches the two QEMU plugin
# API headers: 10.0's and 7.2's (Debian 12's own qemu-user).
#
#   frontends/qemu/build-qemu.sh [--cache DIR] [--headers-only|--locate] [--jobs N]
#
#   --cache DIR     cache folder (default $ARMPROF_CACHE, else ~/.cache/armprof)
#   --headers-only  fetch the two sources only and print the header paths,
#                   no build (seconds instead of minutes)
#   --locate        fetch and build nothing: print the paths of what the
#                   cache holds up to date (the build's CMake asks this),
#                   exit 1 when it holds neither header
#   --jobs N        parallel compile jobs (default 2)
#
# Its last lines name the results, one KEY=PATH a line (no quoting: the
# cache path may not hold blanks):
#   QEMU_AARCH64=.../qemu-10.0.13+ds/bin/qemu-aarch64  (not with --headers-only)
#   QEMU_PLUGIN_H_10=.../qemu-10.0.13+ds/src/qemu-10.0.13+ds/include/qemu/qemu-plugin.h
#   QEMU_PLUGIN_H_7=.../qemu-7.2+dfsg/src/qemu-7.2+dfsg/include/qemu/qemu-plugin.h
# Progress goes to stderr.
#
# Sources come with `apt-get source` through an apt configuration of this
# script's own (CACHE/qemu-apt: deb-src lines for bookworm and trixie, its
# own lists, cache and an empty dpkg status), never the system's sources.
# Debian 13's meson and python3-pycotap (architecture: all) come the same
# way with `apt-get download` and are unpacked with dpkg-deb -x, never
# installed. The pins are upstream versions: the newest Debian revision of
# each that the archive has is taken (tools/debian-pin.sh, "took ..." on
# stderr; the archive keeps current revisions only), and the script fails
# naming the versions the archive has when none fits. Only the build
# dependencies that Debian 12 has (gcc, ninja, glib...) are installed, when
# missing, with apt-get install from the system's normal sources.
# Everything else stays under
#   CACHE/qemu-<pinned version>/   src/ (patched source), build/, bin/qemu-aarch64
# (source.stamp: the Debian version taken) and is rebuilt only when the
# pinned versions or this script change.
# Nothing is written into the source tree. See frontends/qemu/README.md.
# shellcheck disable=SC2086 # $apt_opts and $missing are split on purpose
set -eu

# Pinned upstream versions, each taken at the newest Debian revision the
# archive has (override with these variables; a full Debian version pins
# that one only).
qemu10=${ARMPROF_QEMU10_VERSION:-1:10.0.13+ds}   # trixie
qemu7=${ARMPROF_QEMU7_VERSION:-1:7.2+dfsg}       # bookworm
meson_version=${ARMPROF_MESON_VERSION:-1.7.0}    # trixie, arch all
pycotap_version=${ARMPROF_PYCOTAP_VERSION:-1.3.1} # trixie, arch all
mirror=${ARMPROF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

cache=${ARMPROF_CACHE:-${HOME:-/tmp}/.cache/armprof}
headers_only=no
locate=no
jobs=2
usage() { sed -n '3,/^[^#]/{/^[^#]/d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"; }
while [ $# -gt 0 ]; do
  case $1 in
    --cache) [ $# -ge 2 ] || { usage >&2; exit 2; }; cache=$2; shift 2 ;;
    --cache=*) cache=${1#*=}; shift ;;
    --headers-only) headers_only=yes; shift ;;
    --locate) locate=yes; shift ;;
    --jobs|-j) [ $# -ge 2 ] || { usage >&2; exit 2; }; jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "build-qemu: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done

say() { echo "build-qemu: $*" >&2; }
die() { say "$@"; exit 1; }
case $cache in *[[:space:]]*) die "the cache path may not contain blanks: '$cache'" ;; esac
case $jobs in ''|*[!0-9]*) die "--jobs wants a number, not '$jobs'" ;; esac
if [ "$locate" = yes ] && [ ! -d "$cache" ]; then
  say "nothing in $cache: run $0 to fetch and build"
  exit 1
fi
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
self_hash=$(sha256sum "$self" | cut -c1-16)
. "$(dirname "$self")/../../tools/debian-pin.sh"

# CACHE/qemu-<pinned version without epoch>, and the source folder
# dpkg-source makes in it (qemu-<upstream version>).
vdir() { echo "$cache/qemu-${1#*:}"; }
srcdir() { v=${1#*:}; echo "$(vdir "$1")/src/qemu-${v%-*}"; }
dir10=$(vdir "$qemu10")
dir7=$(vdir "$qemu7")
h10=$(srcdir "$qemu10")/include/qemu/qemu-plugin.h
h7=$(srcdir "$qemu7")/include/qemu/qemu-plugin.h
bin=$dir10/bin/qemu-aarch64
# the Debian version taken for a pin, once fetched
taken() { cat "$(vdir "$1")/source.stamp" 2>/dev/null; }
build_key() { echo "qemu=$(taken "$qemu10") meson=$meson_version pycotap=$pycotap_version script=$self_hash"; }

# The private lists (60 MB) serve only a fetch: a later one updates anew.
drop_apt_lists() { [ "$apt_updated" = no ] || rm -rf "$apt_dir/lists" "$apt_dir/cache"; }
apt_updated=no
print_paths() {
  drop_apt_lists
  [ "$headers_only" = yes ] || echo "QEMU_AARCH64=$bin"
  echo "QEMU_PLUGIN_H_10=$h10"
  echo "QEMU_PLUGIN_H_7=$h7"
}
source_ok() { [ -f "$(vdir "$1")/source.stamp" ] && debian_pin_matches "$(taken "$1")" "$1"; }
build_ok() { [ -x "$bin" ] && [ -f "$dir10/build.stamp" ] && [ "$(cat "$dir10/build.stamp")" = "$(build_key)" ]; }

if [ "$locate" = yes ]; then
  found=no
  if build_ok; then echo "QEMU_AARCH64=$bin"; fi
  if source_ok "$qemu10" && [ -f "$h10" ]; then echo "QEMU_PLUGIN_H_10=$h10"; found=yes; fi
  if source_ok "$qemu7" && [ -f "$h7" ]; then echo "QEMU_PLUGIN_H_7=$h7"; found=yes; fi
  [ "$found" = yes ] || { say "nothing in $cache: run $0 to fetch and build"; exit 1; }
  exit 0
fi

# One run at a time per cache folder.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$cache/.build-qemu.lock"
  flock 9 || die "cannot lock $cache/.build-qemu.lock"
fi

if source_ok "$qemu10" && source_ok "$qemu7" && { [ "$headers_only" = yes ] || build_ok; }; then
  say "up to date in $cache: qemu=$(taken "$qemu10")$([ "$headers_only" = yes ] || echo ' (built)'), qemu=$(taken "$qemu7") (source)"
  print_paths
  exit 0
fi

# --- host packages ---------------------------------------------------------
# Installs the Debian 12 packages named that are missing (from the system's
# own sources), or says what to install when not root.
need_packages() {
  missing=
  for p in "$@"; do
    dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing="$missing $p"
  done
  [ -n "$missing" ] || return 0
  [ "$(id -u)" = 0 ] || die "missing Debian packages, install them first: apt-get install$missing"
  say "installing missing Debian 12 packages:$missing"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >"$cache/apt-install.log" 2>&1; then
    apt-get update -q >>"$cache/apt-install.log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >>"$cache/apt-install.log" 2>&1 ||
      { tail -n 5 "$cache/apt-install.log" >&2; die "apt-get install$missing failed (log: $cache/apt-install.log)"; }
  fi
}
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  die "this script wants a Debian system (apt-get, dpkg)"
fi
[ -r "$keyring" ] || need_packages debian-archive-keyring
# apt-get source unpacks with dpkg-source (dpkg-dev)
need_packages dpkg-dev xz-utils

# --- private apt configuration ---------------------------------------------
apt_dir=$cache/qemu-apt
# (one string split on blanks, unquoted below: the cache path has none)
apt_opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null
  -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache
  -o Dir::State::status=$apt_dir/status -o Dir::Etc::Preferences=/dev/null
  -o Dir::Etc::PreferencesParts=/dev/null -o Debug::NoLocking=1
  -o APT::Sandbox::User=$(id -un)"
private_apt_update() {
  [ "$apt_updated" = no ] || return 0
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  arch=$(dpkg --print-architecture)
  cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] $mirror bookworm main
deb-src [signed-by=$keyring] $mirror trixie main
deb [arch=$arch signed-by=$keyring] $mirror trixie main
EOF
  : >"$apt_dir/status"
  say "updating the private package lists ($apt_dir)"
  # a second try for a mirror caught in a sync ("File has unexpected size")
  for try in 1 2; do
    if apt-get $apt_opts -q update >"$apt_dir/update.log" 2>&1 &&
      ! grep -Eq '^(E: |W: Failed)' "$apt_dir/update.log"; then
      apt_updated=yes
      return 0
    fi
    [ "$try" = 2 ] || sleep 10
  done
  tail -n 8 "$apt_dir/update.log" >&2
  die "apt-get update with the private sources failed (log: $apt_dir/update.log)"
}

# fetch_source PIN: apt-get source of the newest qemu of PIN into
# CACHE/qemu-PIN/src
fetch_source() {
  source_ok "$1" && return 0
  private_apt_update
  d=$(vdir "$1")
  rm -rf "$d"
  mkdir -p "$d/src"
  v=$(debian_pin Sources qemu "$1" $apt_opts) ||
    die "no qemu source of version $1 (pin another with ARMPROF_QEMU10_VERSION / ARMPROF_QEMU7_VERSION)"
  say "fetching the qemu source package $v"
  if ! (cd "$d/src" && apt-get $apt_opts -q source "qemu=$v") >"$d/fetch.log" 2>&1; then
    tail -n 5 "$d/fetch.log" >&2
    die "cannot fetch qemu=$v (pin another with ARMPROF_QEMU10_VERSION / ARMPROF_QEMU7_VERSION)"
  fi
  dsc=$(ls "$d"/src/*.dsc)
  got=$(sed -n 's/^Version: //p' "$dsc")
  [ "$got" = "$v" ] || die "asked for qemu $v, got $got"
  [ -d "$(srcdir "$1")" ] || die "no $(srcdir "$1") after apt-get source"
  # what was fetched, with sizes and checksums from the .dsc
  { echo "qemu=$v (source, $(sed -n 's/^Format: //p' "$dsc"))"
    echo "  $(basename "$dsc")"
    sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ \([0-9a-f]\{64\}\) \([0-9]*\) \(.*\)/  \3 \2 bytes sha256 \1/p' "$dsc"
  } >"$d/fetched.txt"
  sed 's/^/  /' "$d/fetched.txt" >&2
  # the unpacked tree is what is kept
  rm -f "$d"/src/*.tar.*
  echo "$v" >"$d/source.stamp"
}

fetch_source "$qemu10"
fetch_source "$qemu7"
[ -f "$h10" ] || die "no plugin header at $h10"
[ -f "$h7" ] || die "no plugin header at $h7"

if [ "$headers_only" = yes ]; then
  print_paths
  exit 0
fi
if build_ok; then
  say "qemu-aarch64 is up to date"
  print_paths
  exit 0
fi

# --- build dependencies ------------------------------------------------------
# What configure and the build of aarch64-linux-user with plugins need from
# Debian 12 (meson >= 1.5 is not in it: that comes from trixie below).
need_packages gcc make ninja-build pkg-config libglib2.0-dev python3 python3-venv python3-setuptools

# --- meson and pycotap from trixie, unpacked, not installed -----------------
tools=$dir10/tools
rm -rf "$tools"
mkdir -p "$tools/debs" "$tools/root"
private_apt_update
pin_hint="(pin others with ARMPROF_MESON_VERSION / ARMPROF_PYCOTAP_VERSION)"
meson_taken=$(debian_pin Packages meson "$meson_version" $apt_opts) || die "no meson $meson_version $pin_hint"
pycotap_taken=$(debian_pin Packages python3-pycotap "$pycotap_version" $apt_opts) ||
  die "no python3-pycotap $pycotap_version $pin_hint"
say "fetching meson=$meson_taken python3-pycotap=$pycotap_taken (trixie, arch all)"
if ! (cd "$tools/debs" && apt-get $apt_opts -q download "meson=$meson_taken" "python3-pycotap=$pycotap_taken") >"$tools/fetch.log" 2>&1; then
  tail -n 5 "$tools/fetch.log" >&2
  die "cannot fetch meson=$meson_taken python3-pycotap=$pycotap_taken $pin_hint"
fi
for deb in "$tools"/debs/*.deb; do
  dpkg-deb -x "$deb" "$tools/root"
  dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ' |
    sed 's/Package: //; s/ Version: /=/; s/ Architecture: \(.*\) $/ (\1)\n/'
done >"$tools/fetched.txt"
sed 's/^/  /' "$tools/fetched.txt" >&2
PATH=$tools/root/usr/bin:$PATH
PYTHONPATH=$tools/root/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
export PATH PYTHONPATH
got=$(/usr/bin/python3 -c 'import mesonbuild.coredata as c; print(c.version)')
say "using meson $got from $tools/root"

# --- patch: no EDK2 firmware ---------------------------------------------------
# The +ds source has no pc-bios/edk2-*.fd.bz2 blobs, and meson.build would
# unpack them as soon as an arm/aarch64/x86/riscv/loongarch softmmu target is
# built. Debian's own patch (skip-unpack-edk2-blobs.patch) disables the rule
# in pc-bios/meson.build; we also make the flag itself false, so the build
# needs no blob whatever the target list.
src=$(srcdir "$qemu10")
if grep -q 'unpack_edk2_blobs = bzip2.found()' "$src/meson.build"; then
  sed -i 's/unpack_edk2_blobs = bzip2.found()/unpack_edk2_blobs = false  # armprof: the +ds source has no EDK2 blobs/' "$src/meson.build"
  say "patched $src/meson.build: unpack_edk2_blobs = false"
fi
grep -q 'unpack_edk2_blobs = false  # armprof' "$src/meson.build" ||
  die "cannot find the EDK2 unpacking in $src/meson.build: look at 'unpack_edk2_blobs' there"

# --- configure and build --------------------------------------------------------
build=$dir10/build
rm -rf "$build" "${dir10:?}/bin" "$dir10/build.stamp"
mkdir -p "$build" "$dir10/bin"
log=$dir10/build.log
say "configuring (log: $log)"
t0=$(date +%s)
# Debian's python3 (with python3-venv): configure makes build/pyvenv from it,
# which sees the unpacked meson through PYTHONPATH. --disable-werror is
# already the default outside a git checkout; it is said so that a newer
# warning never stops the build.
if ! (cd "$build" && "$src/configure" --python=/usr/bin/python3 \
    --with-pkgversion="armprof build of Debian $(taken "$qemu10")" \
    --prefix="$dir10/install" --target-list=aarch64-linux-user \
    --disable-system --enable-linux-user --disable-tools --disable-guest-agent \
    --enable-plugins --disable-install-blobs --disable-docs --disable-download \
    --disable-werror) >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  die "configure failed (log: $log)"
fi
t1=$(date +%s)
say "configured in $((t1 - t0)) s; building qemu-aarch64 with -j$jobs"
if ! ninja -C "$build" -j"$jobs" qemu-aarch64 >>"$log" 2>&1; then
  grep -E 'error|FAILED' "$log" | tail -n 20 >&2
  die "build failed (log: $log)"
fi
t2=$(date +%s)
cp "$build/qemu-aarch64" "$bin"
upstream=${qemu10#*:}
upstream=${upstream%%[+~-]*}
"$bin" --version | head -n 1 | grep -q "version $upstream " ||
  die "$bin --version does not say $upstream: $("$bin" --version | head -n 1)"
{ echo "configure: $((t1 - t0)) s"
  echo "build (ninja -j$jobs qemu-aarch64): $((t2 - t1)) s"
  echo "on $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$dir10/times.txt"
build_key >"$dir10/build.stamp"
say "built $("$bin" --version | head -n 1) in $((t2 - t0)) s (configure $((t1 - t0)) s, build $((t2 - t1)) s)"
say "disk used: $(du -sh "$dir10" | cut -f1) in $dir10, $(du -sh "$dir7" | cut -f1) in $dir7"
print_paths
