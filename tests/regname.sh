#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tools/regname.sh finds the declaration a pasted name comes from
# (src/core/regdecl.h gives the pasting): a register id or slot from its
# SYSREG, SYSREG_ARRAY (prefix and suffix joined) or SYSREG_ALIAS line, a
# field position from its F/FC line, a named value (FVAL) or another
# layout's field (FVIEW); a name no declaration makes exits 1.
# Usage: regname.sh SOURCE_DIR
tool=$1/tools/regname.sh
fail=0
expect() { # NAME, text the declaration line must hold
  local out
  out=$("$tool" "$1" 2>&1)
  if [[ $out != src/*.def:[0-9]*:*"$2"* ]]; then
    echo "regname: $1: wanted a .def line with '$2', got: $out"
    fail=1
  fi
}
expect SR_PMSCR_EL1 'SYSREG(PMSCR_EL1,'
expect STO_PMSCR_EL1 'SYSREG(PMSCR_EL1,'
expect SR_PMEVCNTR_EL0 'SYSREG_ARRAY(PMEVCNTR, _EL0,'
expect SR_PMXEVCNTR_EL0 'SYSREG_ALIAS(PMXEVCNTR_EL0,'
expect PMSCR_EL1_PCT_LO 'F(PMSCR_EL1, PCT,'
expect PMBLIMITR_EL1_E_W 'F(PMBLIMITR_EL1, E,'
expect PMBLIMITR_EL1_FM_DISCARD 'FVAL(PMBLIMITR_EL1, FM, DISCARD,'
expect PMBSR_EL1_EC_STAGE1 'FVAL(reg, EC, STAGE1,'
expect TCR_EL2_NOHOST_PS_LO 'FVIEW(TCR_EL2, NOHOST, PS,'
if "$tool" SR_NO_SUCH_REGISTER >/dev/null 2>&1; then
  echo "regname: SR_NO_SUCH_REGISTER: found, but nothing declares it"
  fail=1
fi
[ "$fail" = 0 ] && echo "regname: ok"
