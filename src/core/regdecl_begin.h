/* SPDX-License-Identifier: BSD-3-Clause */
/* Opens a pass over register declaration lists (core/regdecl.h gives the
 * format): the includer defines the macros it needs, this file defines the
 * rest as nothing, and core/regdecl_end.h undefines them all after the
 * lists. */
#ifndef SYSREG
#define SYSREG(id, enc, cond, acc, rd, wr, flags)
#endif
#ifndef SYSREG_ARRAY
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)
#endif
#ifndef SYSREG_ALIAS
#define SYSREG_ALIAS(id, enc, cond, acc, target)
#endif
#ifndef F
#define F(reg, name, hi, lo, acc, rst)
#endif
#ifndef FC
#define FC(reg, name, hi, lo, acc, rst, cond)
#endif
#ifndef FX
#define FX(reg, name, hi, lo, acc, rst, cond, res1)
#endif
#ifndef FVAL
#define FVAL(reg, field, name, value)
#endif
#ifndef FVIEW
#define FVIEW(reg, view, name, hi, lo)
#endif
#ifndef RES0
#define RES0(reg, hi, lo)
#endif
#ifndef RES1
#define RES1(reg, hi, lo)
#endif
#ifndef UNK
#define UNK(reg, hi, lo)
#endif
#ifndef FGT_R
#define FGT_R(reg, kind, fgtreg, field)
#endif
#ifndef FGT_W
#define FGT_W(reg, kind, fgtreg, field)
#endif
#ifndef FGT_RW
#define FGT_RW(reg, kind, rdreg, wrreg, field)
#endif
#ifndef NVMEM
#define NVMEM(reg, offset)
#endif
#ifndef EL2_HOST
#define EL2_HOST(reg, target)
#endif
