#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A Debian arm64 guest for the armprof qemu-system-aarch64
# (docs/qemu-system.md): the kernel and busybox-static of one Debian
# release, fetched as .debs through tools/arm64-root.sh (its own apt
# configuration, unpacked, never installed), and an initramfs whose /init
# loads arm_spe_pmu, shows what the driver found, loads the modules asked
# for and runs the commands of a guest script, then powers off.
#
#   frontends/qemu-system/guest.sh STACK [SCRIPT] [CACHE]
#
#   STACK   6.1: Debian 12's kernel 6.1 (linux-image-6.1.0-56-arm64-unsigned)
#           7.3: Debian 13 backports' kernel 7.3 (linux-image-7.3.4+deb13-arm64)
#   SCRIPT  a shell script the guest runs after the probe (default: none)
#   CACHE   default $ARMPROF_CACHE, else ~/.cache/armprof
#   ARMPROF_GUEST_PERF=1  also the stack's perf (linux-perf 6.1.192 or
#           7.3.4) and its libraries
#   ARMPROF_GUEST_QEMU=1  (7.3) also Debian 13's qemu-system-aarch64
#           (qemu-system-arm 1:10.0.13+ds-0+deb13u1) and its libraries: a
#           VMM to run a KVM guest of Linux in the guest
#   ARMPROF_GUEST_FILES="FILE..."  also these files (static programs the
#           script runs), in /usr/local/bin under their own names
#   ARMPROF_GUEST_MODULES="NAME..."  also these modules of the stack's
#           kernel (coresight-cpu-debug or coresight_cpu_debug) and the
#           ones they depend on (their modinfo depends=), uncompressed,
#           in /modules; /modules/load insmods them, dependencies first
#   ARMPROF_GUEST_MODULES_LOAD=init|script  init (default): /init runs
#           /modules/load before SCRIPT; script: SCRIPT does (sh
#           /modules/load) when it wants them, e.g. after using /dev/mem
#           on regions their drivers would claim
#
# Prints two lines, KERNEL=PATH and INITRD=PATH; the initramfs is made anew
# on every call (it holds SCRIPT), the packages once.
set -eu

[ $# -ge 1 ] || { sed -n '3,/^[^#]/{/^[^#]/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
stack=$1
script=${2:-}
cache=${3:-${ARMPROF_CACHE:-${HOME:-/tmp}/.cache/armprof}}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
say() { echo "guest: $*" >&2; }
die() { say "$@"; exit 1; }

# Pinned upstream versions: tools/arm64-root.sh takes the newest Debian
# revision of each that the archive has (it keeps current ones only), and
# names the versions it has when none fits.
case $stack in
  6.1)
    suite=bookworm
    kernel_pkg=linux-image-6.1.0-56-arm64-unsigned kernel_version=6.1.192
    busybox_version=1:1.35.0
    perf_version=6.1.192
    ;;
  7.3)
    suite=trixie release=trixie-backports
    kernel_pkg=linux-image-7.3.4+deb13-arm64 kernel_version=7.3.4
    busybox_version=1:1.37.0
    perf_version=7.3.4
    # a VMM for a KVM guest of Linux inside the guest (ARMPROF_GUEST_QEMU)
    qemu_version=1:10.0.13+ds-0+deb13u1
    ;;
  *) die "STACK is 6.1 or 7.3, not '$stack'" ;;
esac
command -v cpio >/dev/null 2>&1 || die "cpio is missing: apt-get install cpio"

export ARMPROF_ARM64_SUITE=$suite
kroot=$(ARMPROF_ARM64_RELEASE=${release:-} sh "$repo/tools/arm64-root.sh" "kernel" "$kernel_pkg" "$kernel_version" "$cache") ||
  die "cannot fetch $kernel_pkg $kernel_version"
broot=$(sh "$repo/tools/arm64-root.sh" busybox busybox-static "$busybox_version" "$cache") ||
  die "cannot fetch busybox-static $busybox_version"
# the image in /boot (Debian 12) or beside the modules (Debian 13's layout)
kernel=$(ls "$kroot"/boot/vmlinuz-* "$kroot"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
[ -n "$kernel" ] || die "no vmlinuz in $kroot/boot or $kroot/usr/lib/modules"
spe=$(find "$kroot/lib/modules" "$kroot/usr/lib/modules" -name 'arm_spe_pmu.ko*' 2>/dev/null | head -n 1)
[ -n "$spe" ] || die "no arm_spe_pmu module under $kroot"
kernel_release=${spe%/kernel/*}
kernel_release=${kernel_release##*/}

# staged in a folder of its own and renamed into place: two guests made at
# once (tests in parallel) do not meet
out=$cache/guest-$stack
mkdir -p "$out"
stage=$(mktemp -d "$out/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" \
  "$stage/tmp"
cp "$broot/bin/busybox" "$stage/bin/busybox"
case $spe in
  *.xz) xz -dc "$spe" >"$stage/arm_spe_pmu.ko" ;;
  *.zst) zstd -dc "$spe" >"$stage/arm_spe_pmu.ko" ;;
  *) cp "$spe" "$stage/arm_spe_pmu.ko" ;;
esac
if [ -n "$script" ]; then
  cp "$script" "$stage/guest-script"
fi
# The modules asked for, each after the ones it depends on (depends= in
# its .modinfo: the package has no modules.dep, and busybox's insmod
# resolves nothing). Names are spelt with _ in /modules (a file's name may
# have - where the module's has _).
module_add() { # NAME
  set -- "$(printf '%s' "$1" | tr - _)"
  grep -q "^insmod /modules/$1\.ko " "$stage/modules/load" 2>/dev/null && return 0
  mkdir -p "$stage/modules"
  f=$(find "$kroot/lib/modules" "$kroot/usr/lib/modules" -name "$(printf '%s' "$1" | tr _ '?').ko*" 2>/dev/null | head -n 1)
  [ -n "$f" ] || die "ARMPROF_GUEST_MODULES: no module $1 under $kroot"
  case $f in
    *.xz) xz -dc "$f" >"$stage/modules/$1.ko" ;;
    *.zst) zstd -dc "$f" >"$stage/modules/$1.ko" ;;
    *) cp "$f" "$stage/modules/$1.ko" ;;
  esac
  # a comma-separated list, empty for none; taken whole before recursing
  for d in $(tr '\0' '\n' <"$stage/modules/$1.ko" | sed -n 's/^depends=//p' | head -n 1 | tr , ' '); do
    module_add "$d"
  done
  echo "insmod /modules/$1.ko && echo 'armprof-guest: insmod $1: ok' || echo 'armprof-guest: insmod $1: failed'" >>"$stage/modules/load"
}
for m in ${ARMPROF_GUEST_MODULES:-}; do
  module_add "$m"
done
case ${ARMPROF_GUEST_MODULES_LOAD:-init} in
  init) if [ -f "$stage/modules/load" ]; then : >"$stage/modules/at-boot"; fi ;;
  script) ;;
  *) die "ARMPROF_GUEST_MODULES_LOAD is init or script, not '$ARMPROF_GUEST_MODULES_LOAD'" ;;
esac
for f in ${ARMPROF_GUEST_FILES:-}; do
  [ -f "$f" ] || die "ARMPROF_GUEST_FILES: no file $f"
  mkdir -p "$stage/usr/local/bin"
  cp "$f" "$stage/usr/local/bin/"
done
# A program of an arm64 root and the shared libraries it loads
# (ARMPROF_GUEST_PERF=1: perf; ARMPROF_GUEST_QEMU=1: qemu-system-aarch64):
# an uncompressed cpio archive made once per root and put in front of the
# initramfs (the kernel unpacks concatenated archives in turn). Only what
# the dynamic loader needs: the program's interpreter and the closure of
# its DT_NEEDED entries, about 45 MB for perf 7.3 against 185 MB for the
# whole library folders (Perl's and Python's modules, gconv), which the
# guest kernel took 4 s of every boot to inflate under TCG
# (docs/qemu-system.md, "Guests").
program_archive() { # ROOT PROGRAM (its path in ROOT): prints the archive's path
  proot=$1 prog=$2
  # named by the root and what it holds (its fetched.txt: the packages'
  # versions), so that a root made again of another revision makes another
  archive=$out/$(basename "$(dirname "$proot")")-$(cksum <"$(dirname "$proot")/fetched.txt" | cut -d' ' -f1)-needed.cpio
  if [ -f "$archive" ]; then
    touch "$archive" # in use: not a day old for the clean-up below
    echo "$archive"
    return 0
  fi
  command -v readelf >/dev/null 2>&1 || die "readelf is missing: apt-get install binutils"
  pstage=$(mktemp -d "$out/perf.XXXXXX")
  mkdir -p "$pstage$(dirname "$prog")"
  cp "$proot$prog" "$pstage$prog"
  # the interpreter where the ELF asks for it, a link to its real file
  interp=$(readelf -l "$proot$prog" | sed -n 's/.*program interpreter: \(.*\)\]/\1/p')
  [ -n "$interp" ] || die "$prog in $proot has no program interpreter"
  real=$(cd "$proot" && readlink -f "./$interp" | sed "s|^$(readlink -f "$proot")||")
  mkdir -p "$pstage$(dirname "$real")" "$pstage$(dirname "$interp")"
  cp -L "$proot$interp" "$pstage$real"
  [ "$real" = "$interp" ] || ln -sf "$real" "$pstage$interp"
  # breadth first over DT_NEEDED: each library by its soname, in the
  # first multiarch folder that has it (the loader's own default path)
  todo=$pstage$prog
  while [ -n "$todo" ]; do
    set -- $todo
    elf=$1
    shift
    todo=$*
    for soname in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      found=
      for dir in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
        if [ -e "$pstage$dir/$soname" ]; then found=seen; break; fi
        if [ -e "$proot$dir/$soname" ]; then
          mkdir -p "$pstage$dir"
          cp -L "$proot$dir/$soname" "$pstage$dir/$soname"
          todo="$todo $pstage$dir/$soname"
          found=copied
          break
        fi
      done
      [ -n "$found" ] || die "$prog in $proot needs $soname, which it does not have"
    done
  done
  (cd "$pstage" && find . | cpio -o -H newc --quiet) >"$pstage.cpio"
  rm -rf "$pstage"
  mv -f "$pstage.cpio" "$archive"
  echo "$archive"
}
perf_cpio=
if [ "${ARMPROF_GUEST_PERF:-0}" = 1 ]; then
  p=$(ARMPROF_ARM64_RELEASE=${release:-} sh "$repo/tools/arm64-root.sh" perf linux-perf "$perf_version" "$cache") ||
    die "cannot fetch linux-perf $perf_version"
  perf_cpio=$(program_archive "$p" /usr/bin/perf)
fi
qemu_cpio=
if [ "${ARMPROF_GUEST_QEMU:-0}" = 1 ]; then
  [ "$stack" = 7.3 ] || die "ARMPROF_GUEST_QEMU: Debian 13's QEMU, with the 7.3 stack only"
  q=$(sh "$repo/tools/arm64-root.sh" qemu-arm64 qemu-system-arm "$qemu_version" "$cache") ||
    die "cannot fetch qemu-system-arm $qemu_version"
  qemu_cpio=$(program_archive "$q" /usr/bin/qemu-system-aarch64)
fi
cat >"$stage/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo "armprof-guest: kernel $(uname -r)"
insmod /arm_spe_pmu.ko && echo "armprof-guest: insmod arm_spe_pmu: ok"
dmesg | grep -i 'arm_spe_pmu\|spe' | sed 's/^/armprof-guest: dmesg: /'
d=/sys/bus/event_source/devices/arm_spe_0
if [ -d $d ]; then
  for f in $d/caps/*; do echo "armprof-guest: caps ${f##*/} $(cat $f)"; done
  for f in $d/format/*; do echo "armprof-guest: format ${f##*/} $(cat $f)"; done
else
  echo "armprof-guest: no $d"
fi
[ -f /modules/at-boot ] && sh /modules/load
[ -f /guest-script ] && sh /guest-script
echo "armprof-guest: done"
poweroff -f
EOF
chmod +x "$stage/init"
# named by what is in it: /init, the script, the files, perf or not
sum=$({
  cat "$stage/init"
  if [ -f "$stage/guest-script" ]; then cat "$stage/guest-script"; fi
  for f in ${ARMPROF_GUEST_FILES:-}; do sha256sum <"$f"; done
  if [ -d "$stage/modules" ]; then
    cat "$stage/modules/load"
    if [ -f "$stage/modules/at-boot" ]; then echo at-boot; fi
    for f in "$stage"/modules/*.ko; do sha256sum <"$f"; done
  fi
  echo "perf=${ARMPROF_GUEST_PERF:-0} qemu=${ARMPROF_GUEST_QEMU:-0}"
} | sha256sum | cut -c1-12)
initrd=$out/initrd-$sum.cpio
# perf's archive first, then this call's (small: gzip costs nothing here)
{
  if [ -n "$perf_cpio" ]; then cat "$perf_cpio"; fi
  if [ -n "$qemu_cpio" ]; then cat "$qemu_cpio"; fi
  (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1)
} >"$stage.gz"
mv -f "$stage.gz" "$initrd"
# one file per SCRIPT: those not made or used for a day go
find "$out" -maxdepth 1 \( -name 'initrd-*' -o -name 'stage.*' -o -name 'perf.*' -o -name '*-needed.cpio' \) -mtime +0 \
  -exec rm -rf {} + 2>/dev/null || true
say "kernel $kernel_release, busybox-static $(sed -n 's/^busybox-static=//p' "${broot%/root}/fetched.txt"), initramfs $(du -k "$initrd" | cut -f1) KB"
echo "KERNEL=$kernel"
echo "INITRD=$initrd"
