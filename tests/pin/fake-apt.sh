#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# apt-get and apt-cache (by the name it is called with) over a made-up
# archive, for tests/pin/pin.sh: $FAKE_ARCHIVE has one "NAME VERSION KIND"
# a line (KIND Packages or Sources).
#   apt-get ... update                                nothing to do
#   apt-get ... install --download-only NAME=VERSION  a .deb of it in
#                                                     Dir::Cache/archives, or
#                                                     apt's error when the
#                                                     archive has no such one
#   apt-cache ... madison NAME                        apt-cache's table
set -eu
cache=
words=()
while [ $# -gt 0 ]; do
  case $1 in
    -o) case $2 in Dir::Cache=*) cache=${2#Dir::Cache=} ;; esac; shift 2 ;;
    -*) shift ;;
    *) words+=("$1"); shift ;;
  esac
done
case "$(basename "$0") ${words[0]}" in
  "apt-get update") ;;
  "apt-get install")
    name=${words[1]%%=*} version=${words[1]#*=}
    grep -qx "$name $version Packages" "$FAKE_ARCHIVE" ||
      { echo "E: Version '$version' for '$name' was not found" >&2; exit 100; }
    d=$(mktemp -d)
    mkdir -p "$d/DEBIAN" "$d/usr/share/$name"
    printf 'Package: %s\nVersion: %s\nArchitecture: arm64\nMaintainer: test <t@t>\nDescription: test\n' \
      "$name" "$version" >"$d/DEBIAN/control"
    echo "$version" >"$d/usr/share/$name/version"
    dpkg-deb --build "$d" "$cache/archives/${name}_${version#*:}_arm64.deb" >/dev/null
    rm -rf "$d"
    ;;
  "apt-cache madison")
    awk -v n="${words[1]}" '$1 == n { printf "%10s | %s | http://deb.example/debian fake/main %s\n", $1, $2, ($3 == "Sources" ? "Sources" : "arm64 Packages") }' "$FAKE_ARCHIVE"
    ;;
  *) echo "fake-apt: not faked: $(basename "$0") ${words[*]}" >&2; exit 100 ;;
esac
