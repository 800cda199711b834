# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# Sourced (POSIX sh) by the scripts that fetch pinned Debian packages
# (tools/arm64-root.sh, frontends/qemu/build-qemu.sh): a pin names what
# matters, the upstream version (with its epoch when it has one, as in
# busybox's 1:1.35.0), and the package taken is the newest Debian revision
# of it that the archive has now. The archive keeps current revisions only
# (a 6.1.192-2 becomes 6.1.192-3, a +deb13u1 a +deb13u2): a pinned revision
# would stop being fetchable with no change on our side.
#
#   debian_pin_matches VERSION PIN
#     true when VERSION is PIN (a full version pins exactly), or when its
#     upstream part is PIN: VERSION less its Debian revision (after the last
#     '-'), and less its epoch when PIN has none
#   debian_pin KIND NAME PIN APT_OPTION...
#     asks apt-cache madison, with the caller's private apt options, for the
#     versions of NAME (KIND: Packages for binary packages, Sources for
#     source packages); prints the newest that matches PIN on stdout and
#     "took NAME VERSION (pin PIN)" on stderr; without one, says so with
#     the versions seen, on stderr, and returns 1
# The functions' variables start with debian_pin_ (sh has no local ones).

debian_pin_matches() {
  [ "$1" = "$2" ] && return 0
  debian_pin_upstream=${1%-*}
  case $2 in *:*) ;; *) debian_pin_upstream=${debian_pin_upstream#*:} ;; esac
  [ "$debian_pin_upstream" = "$2" ]
}

debian_pin() {
  debian_pin_kind=$1 debian_pin_name=$2 debian_pin_pin=$3
  shift 3
  debian_pin_seen=$(apt-cache "$@" madison "$debian_pin_name" 2>/dev/null |
    awk -F'|' -v kind="$debian_pin_kind" '$3 ~ (" " kind " *$") { gsub(/ /, "", $2); print $2 }' |
    sort -u)
  debian_pin_best=
  for debian_pin_v in $debian_pin_seen; do
    debian_pin_matches "$debian_pin_v" "$debian_pin_pin" || continue
    if [ -z "$debian_pin_best" ] || dpkg --compare-versions "$debian_pin_v" gt "$debian_pin_best"; then
      debian_pin_best=$debian_pin_v
    fi
  done
  if [ -z "$debian_pin_best" ]; then
    echo "no $debian_pin_name of version $debian_pin_pin in the archive; versions seen:" \
      "$(printf '%s\n' "${debian_pin_seen:-none}" | paste -sd' ' -)" >&2
    return 1
  fi
  echo "took $debian_pin_name $debian_pin_best (pin $debian_pin_pin)" >&2
  echo "$debian_pin_best"
}
