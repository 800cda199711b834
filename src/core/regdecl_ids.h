/* SPDX-License-Identifier: BSD-3-Clause */
/* Enumerator lists of one owner's registers (core/regdecl_enums.h): define
 * REGDECL_IDS, REGDECL_SLOTS or REGDECL_FIELDS, include this file, then the
 * owner's list.def, then core/regdecl_end.h. Where the names come from:
 *   SR_<id>, STO_<id>         SYSREG(<id>, ...), SYSREG_ALIAS(<id>, ...) (ids
 *                             only), SYSREG_ARRAY(<prefix>, <suffix>, ...) with
 *                             <id> = <prefix><suffix>
 *   <id>_<field>_LO, _W       F(<id>, <field>, ...), FC and FX likewise
 * (tools/regname.sh NAME finds the line). */
#if defined(REGDECL_IDS)
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            SR_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) SR_##p##s,
#define SYSREG_ALIAS(id, enc, cond, acc, target)             SR_##id,
#undef REGDECL_IDS
#elif defined(REGDECL_SLOTS)
#define SYSREG(id, enc, cond, acc, rd, wr, flags) STO_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    STO_##p##s, STO_##p##s##_last = STO_##p##s + (n)-1,
#undef REGDECL_SLOTS
#elif defined(REGDECL_FIELDS)
#define F(reg, name, hi, lo, acc, rst)              reg##_##name##_LO = (lo), reg##_##name##_W = (hi) - (lo) + 1,
#define FC(reg, name, hi, lo, acc, rst, cond)       F(reg, name, hi, lo, acc, rst)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) F(reg, name, hi, lo, acc, rst)
#define FVIEW(reg, view, name, hi, lo)                                                             \
    reg##_##view##_##name##_LO = (lo), reg##_##view##_##name##_W = (hi) - (lo) + 1,
/* The field's _W is an earlier enumerator of the same enum: a value wider
 * than the field makes the array's size negative (two shifts: a 64-bit
 * field's width is no shift count). */
#define FVAL(reg, field, name, value)                                                              \
    reg##_##field##_##name =                                                                       \
        (value) +                                                                                  \
        0 * (int)sizeof(char[(0ull + (value)) >> (reg##_##field##_W - 1) >> 1 == 0 ? 1 : -1]),
#undef REGDECL_FIELDS
#endif
#include "core/regdecl_begin.h"
