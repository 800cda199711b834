#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# qemu-system-aarch64 whose Statistical Profiling Extension is armprof's
# (docs/qemu-system.md): QEMU 10.0's source as frontends/qemu/build-qemu.sh
# fetches it (Debian 13's source package, through that script's own apt
# configuration), a copy of it with this folder's patch and glue, and
# libarmprof.so built from this tree, which the emulator loads by its rpath.
#
#   frontends/qemu-system/build.sh [--cache DIR] [--jobs N] [--locate] [--stock]
#
#   --cache DIR  cache folder (default $ARMPROF_CACHE, else ~/.cache/armprof)
#   --jobs N     parallel compile jobs (default 2)
#   --locate     build nothing: print the emulator's path if the cache holds
#                it up to date, else exit 1
#   --stock      the same emulator from the same source without the patch,
#                the glue and libarmprof (CACHE/qemu-system-<version>-stock),
#                what bench/qemu-system.sh compares with
#
# The last two lines name the result:
#   ARMPROF_LIBRARY_PATH=.../qemu-system-<version>/armprof-<clone>
#   QEMU_SYSTEM_AARCH64=.../qemu-system-<version>/bin/qemu-system-aarch64
# Progress goes to stderr. The emulator is rebuilt when QEMU's version, the
# patch, the glue or this script change (CACHE/qemu-system-<version>/
# build.stamp); libarmprof.so.0 is brought up to date from this tree on
# every run, which relinks nothing, in a folder of this clone's
# (ARMPROF_LIBRARY_PATH) and in CACHE/qemu-system-<version>/lib, where the
# emulator's RUNPATH points. Clones that share the cache each load their
# own library with LD_LIBRARY_PATH=ARMPROF_LIBRARY_PATH (the tests do),
# which the dynamic loader searches before the RUNPATH.
# Nothing is written into the source tree.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${ARMPROF_CACHE:-${HOME:-/tmp}/.cache/armprof}
jobs=2
locate=no
stock=no
usage() { sed -n '3,/^[^#]/{/^[^#]/d;s/^# \{0,1\}//;p}' "$0"; }
while [ $# -gt 0 ]; do
  case $1 in
    --cache) [ $# -ge 2 ] || { usage >&2; exit 2; }; cache=$2; shift 2 ;;
    --cache=*) cache=${1#*=}; shift ;;
    --jobs|-j) [ $# -ge 2 ] || { usage >&2; exit 2; }; jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --locate) locate=yes; shift ;;
    --stock) stock=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "qemu-system build: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
say() { echo "qemu-system build: $*" >&2; }
die() { say "$@"; exit 1; }
case $cache in *[[:space:]]*) die "the cache path may not contain blanks: '$cache'" ;; esac
case $jobs in ''|*[!0-9]*) die "--jobs wants a number, not '$jobs'" ;; esac

# QEMU 10.0's version and source come from build-qemu.sh (one pin for both
# front-ends); its --locate says where they are without fetching.
qemu_script=$repo/frontends/qemu/build-qemu.sh
version=$(sed -n 's/^qemu10=\${ARMPROF_QEMU10_VERSION:-\([^}]*\)}.*/\1/p' "$qemu_script")
version=${ARMPROF_QEMU10_VERSION:-$version}
[ -n "$version" ] || die "cannot read QEMU 10.0's version from $qemu_script"
dir=$cache/qemu-system-${version#*:}
[ "$stock" = no ] || dir=$dir-stock
bin=$dir/bin/qemu-system-aarch64
# libarmprof.so.0 where the emulator's RUNPATH points, whatever clone of
# this project built it last; each clone builds in a folder of its own
libdir=$dir/lib
lib=$libdir/libarmprof.so
libbuild=$dir/armprof-$(printf '%s' "$repo" | sha256sum | cut -c1-12)
# the pin is an upstream version; the Debian revision build-qemu.sh took
# for it (its source.stamp, read anew: a build fetches it first) is in the
# key too
sources_hash=$(cat "$0" "$here/qemu-10.0-armprof.patch" "$here"/glue/* | sha256sum | cut -c1-16)
# the stock build's key is its configure line's: bump stock_build when it changes
stock_build=1
key() {
  taken=$(cat "$cache/qemu-${version#*:}/source.stamp" 2>/dev/null || echo "$version")
  if [ "$stock" = no ]; then
    echo "qemu=$taken $sources_hash"
  else
    echo "qemu=$taken stock build $stock_build"
  fi
}
built() {
  [ -x "$bin" ] && [ -f "$dir/build.stamp" ] && [ "$(cat "$dir/build.stamp")" = "$(key)" ] &&
    { [ "$stock" = yes ] || [ -f "$libbuild/libarmprof.so.0" ]; }
}
result() {
  [ "$stock" = yes ] || echo "ARMPROF_LIBRARY_PATH=$libbuild"
  echo "QEMU_SYSTEM_AARCH64=$bin"
}

if [ "$locate" = yes ]; then
  built || { say "not built in $dir for this clone: run $0"; exit 1; }
  result
  exit 0
fi

# --- QEMU 10.0's source, and meson from trixie, from build-qemu.sh ---------
located=$(sh "$qemu_script" --cache "$cache" --jobs "$jobs" | sed -n 's/^QEMU_PLUGIN_H_10=//p')
[ -n "$located" ] || die "$qemu_script gave no QEMU 10.0 source"
pristine=$(cd "$(dirname "$located")/../.." && pwd)
tools=$(cd "$pristine/../.." && pwd)/tools/root
[ -d "$tools/usr/bin" ] || die "no meson from trixie in $tools (run $qemu_script)"
PATH=$tools/usr/bin:$PATH
PYTHONPATH=$tools/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
export PATH PYTHONPATH

# --- libarmprof.so from this tree --------------------------------------------
mkdir -p "$dir"
if [ "$stock" = no ]; then
say "libarmprof from $repo"
cmake -S "$repo" -B "$libbuild" -DCMAKE_BUILD_TYPE=Release -DARMPROF_BUILD_TESTS=OFF \
  >"$libbuild.log" 2>&1 || { tail -n 20 "$libbuild.log" >&2; die "cmake failed (log: $libbuild.log)"; }
cmake --build "$libbuild" -j"$jobs" --target armprof_shared >>"$libbuild.log" 2>&1 ||
  { tail -n 20 "$libbuild.log" >&2; die "libarmprof failed to build (log: $libbuild.log)"; }
built_lib=$(readlink -f "$libbuild/libarmprof.so")
[ -f "$built_lib" ] || die "no libarmprof.so in $libbuild after the build"
mkdir -p "$libdir"
cp "$built_lib" "$libdir/.libarmprof.so.0.$$"
mv -f "$libdir/.libarmprof.so.0.$$" "$libdir/libarmprof.so.0"
ln -sf libarmprof.so.0 "$lib"
ARMPROF_INCLUDE=$repo/include
ARMPROF_LIB=$lib
export ARMPROF_INCLUDE ARMPROF_LIB
fi

if built; then
  say "up to date: $bin"
  result
  exit 0
fi

# --- what the system emulator needs from Debian 12 ---------------------------
missing=
for p in libfdt-dev zlib1g-dev libglib2.0-dev ninja-build pkg-config python3-venv; do
  dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || die "missing Debian packages, install them first: apt-get install$missing"
  say "installing$missing"
  # shellcheck disable=SC2086 # one word a package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
    >"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log" >&2; die "apt-get install$missing failed"; }
fi

# --- the patched copy ----------------------------------------------------------
src=$dir/src
rm -rf "$src" "$dir/build" "$dir/bin" "$dir/build.stamp"
if [ "$stock" = no ]; then
  say "copying $pristine and applying qemu-10.0-armprof.patch"
  cp -a "$pristine" "$src"
  patch -d "$src" -p1 --no-backup-if-mismatch <"$here/qemu-10.0-armprof.patch" >"$dir/patch.log" 2>&1 ||
    { cat "$dir/patch.log" >&2; die "the patch does not apply to QEMU $version"; }
  cp "$here"/glue/* "$src/target/arm/"
else
  say "copying $pristine, unpatched"
  cp -a "$pristine" "$src"
fi

# --- configure and build ----------------------------------------------------------
mkdir -p "$dir/build" "$dir/bin"
log=$dir/build.log
say "configuring (log: $log)"
t0=$(date +%s)
(cd "$dir/build" && "$src/configure" --python=/usr/bin/python3 \
  --with-pkgversion="armprof build of Debian $version$([ "$stock" = no ] || echo ", stock")" --prefix="$dir/install" \
  --target-list=aarch64-softmmu --disable-user --disable-tools --disable-guest-agent \
  --enable-plugins --enable-fdt=system --disable-install-blobs --disable-docs \
  --disable-download --disable-werror --disable-gtk --disable-sdl --disable-vnc \
  --disable-opengl --disable-slirp) >"$log" 2>&1 ||
  { tail -n 20 "$log" >&2; die "configure failed (log: $log)"; }
t1=$(date +%s)
say "configured in $((t1 - t0)) s; building qemu-system-aarch64 with -j$jobs"
ninja -C "$dir/build" -j"$jobs" qemu-system-aarch64 >>"$log" 2>&1 ||
  { grep -E 'error|FAILED' "$log" | tail -n 20 >&2; die "build failed (log: $log)"; }
t2=$(date +%s)
cp "$dir/build/qemu-system-aarch64" "$bin"
"$bin" -cpu help -M virt >/dev/null 2>&1 || die "$bin does not run"
echo "configure $((t1 - t0)) s, build $((t2 - t1)) s on $(nproc) cores" >"$dir/times.txt"
key >"$dir/build.stamp"
say "built in $((t2 - t0)) s: $("$bin" --version | head -n 1)"
result
