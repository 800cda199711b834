#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Where a name the register declarations generate (src/core/regdecl.h) is
# declared: the names are pasted together by the preprocessor, so grep finds
# only their uses; this finds the declaration line they come from.
#   tools/regname.sh NAME
# NAME: SR_<id> or STO_<id> (SYSREG, SYSREG_ARRAY, SYSREG_ALIAS), SRF_<id>
# (the catalog's field index), <id>_<field>_LO or _W, SRF_<id>_<field>
# (F, FC, FX), <id>_<view>_<field>_LO or _W (FVIEW), <id>_<field>_<name>
# (FVAL). Prints file:line: declaration; exits 1 when none declares it.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: tools/regname.sh NAME}
rest=$name
case $rest in SR_* | STO_* | SRF_*) rest=${rest#*_} ;; esac
case $rest in *_LO) rest=${rest%_LO} ;; *_W) rest=${rest%_W} ;; esac
mapfile -t defs < <(find src -name '*.def' -path '*/regs/*' | sort)
# a register: SYSREG(id, and SYSREG_ALIAS(id, or SYSREG_ARRAY(prefix, suffix, with prefix suffix = id
reg_line() {
  grep -nE "^[[:space:]]*SYSREG(_ALIAS)?\($1," "${defs[@]}" ||
    grep -nE "^[[:space:]]*SYSREG_ARRAY\(" "${defs[@]}" |
    awk -v id="$1" '{ s = $0; sub(/^[^(]*\(/, "", s); split(s, a, /,[[:space:]]*/); if (a[1] a[2] == id) print }'
}
found=$(reg_line "$rest" || true)
if [ -z "$found" ]; then
  # a field: <id>_<field>, the id being the longest declared prefix
  IFS=_ read -ra parts <<<"$rest"
  for ((i = ${#parts[@]} - 1; i > 0; i--)); do
    reg=$(IFS=_ && echo "${parts[*]:0:i}")
    field=$(IFS=_ && echo "${parts[*]:i}")
    found=$(grep -nE "^[[:space:]]*F[CX]?\($reg,[[:space:]]*$field," "${defs[@]}" || true)
    [ -n "$found" ] && break
    # a field of another layout (FVIEW: <id>_<view>_<field>) or a field's
    # named value (FVAL: <id>_<field>_<name>): the rest split in two
    IFS=_ read -ra tail <<<"$field"
    for ((j = 1; j < ${#tail[@]}; j++)); do
      first=$(IFS=_ && echo "${tail[*]:0:j}")
      second=$(IFS=_ && echo "${tail[*]:j}")
      # (in a layout several registers share, the register is the macro's
      # lower-case parameter)
      found=$(grep -nE "^[[:space:]]*(FVIEW|FVAL)\(($reg|[a-z_]+),[[:space:]]*$first,[[:space:]]*$second," \
        "${defs[@]}" || true)
      [ -n "$found" ] && break 2
    done
  done
fi
[ -n "$found" ] || { echo "regname: $name: no register declaration makes it" >&2; exit 1; }
echo "$found"
