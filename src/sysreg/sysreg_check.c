/* Compile-time check of the register declarations: every one of a register's
 * 64 bits belongs to exactly one range (a field, RES0, RES1 or UNK).
 *
 * For each register two array types are declared whose size is negative when
 * the check fails, so the build stops with an error naming the register:
 *   sr_bits_not_covered_<reg>  some bit is in no range
 *   sr_bits_overlap_<reg>      the ranges' widths add up to more than 64
 * (Covering all 64 bits with widths adding up to exactly 64 means no overlap.)
 * An expression is opened by a register's SYSREG line and closed by the next
 * register's, or by the end of the table. Aliases have no bits of their own. */
#include "sysreg/sysreg_table.h"

#define SR_RANGE(hi, lo) | BITS_MASK(hi, lo)
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    )) ? 1 : -1];                                                                                  \
    typedef char sr_bits_not_covered_##id[(~0ull == (0ull
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond) )) ? 1 : -1]; typedef char sr_alias_##id[((1
#define F(reg, name, hi, lo, acc, rst)              SR_RANGE(hi, lo)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_RANGE(hi, lo)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_RANGE(hi, lo)
#define RES0(reg, hi, lo)                           SR_RANGE(hi, lo)
#define RES1(reg, hi, lo)                           SR_RANGE(hi, lo)
#define UNK(reg, hi, lo)                            SR_RANGE(hi, lo)
typedef char sr_bits_prelude_[((1
#include "sysreg/regs/all.def"
                                ))
                                  ? 1
                                  : -1];

#define SR_WIDTH(hi, lo) +((hi) - (lo) + 1)
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    )) ? 1 : -1];                                                                                  \
    typedef char sr_bits_overlap_##id[(64 == (0
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond) )) ? 1 : -1]; typedef char sr_alias_width_##id[((1
#define F(reg, name, hi, lo, acc, rst)              SR_WIDTH(hi, lo)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_WIDTH(hi, lo)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_WIDTH(hi, lo)
#define RES0(reg, hi, lo)                           SR_WIDTH(hi, lo)
#define RES1(reg, hi, lo)                           SR_WIDTH(hi, lo)
#define UNK(reg, hi, lo)                            SR_WIDTH(hi, lo)
typedef char sr_width_prelude_[((1
#include "sysreg/regs/all.def"
                                 ))
                                   ? 1
                                   : -1];

/* An SYSREG_ARRAY's instance 0 must have CRm<1:0> = op2 = 0 so that instance n
 * is encoding + n. */
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags)                                            \
    typedef char sr_array_base_##p##s[((enc)&0x1f) == 0 && (n) <= 32 ? 1 : -1];
#include "sysreg/regs/all.def"
