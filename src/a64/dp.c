/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "Data Processing -- Immediate" (op1 100x) and "Data Processing --
 * Register" (op1 x101): integer operations, Other for SPE. The conditional
 * select and conditional compare instructions are conditional (D17.6.5). */
#include "a64/a64_internal.h"

enum {
    F_NONE,
    F_ADR,      /* ADR, ADRP: PC-relative */
    F_LOGIMM,   /* logical (immediate): a valid bitmask immediate */
    F_BITFIELD, /* SBFM, BFM, UBFM: N == sf, 32-bit immr/imms < 32 */
    F_EXTR,     /* EXTR: N == sf, 32-bit imms < 32 */
    F_SHIFTED,  /* shifted register: 32-bit shift amounts < 32 */
    F_EXTENDED, /* add/sub (extended register): shift 0..4 */
    F_COND,     /* CSEL..., CCMP...: the condition in bits [15:12] */
};

static const a64_row dp_imm_rows[] = {
    /* PC-rel. addressing */
    ROW(0x9f000000, 0x10000000, K_OTHER, F_ADR, 0, 0, "ADR"),
    ROW(0x9f000000, 0x90000000, K_OTHER, F_ADR, 0, 0, "ADRP"),
    /* Add/subtract (immediate) */
    ROW(0x1f800000, 0x11000000, K_OTHER, F_NONE, 0, 0, "ADD, ADDS, SUB, SUBS (immediate)"),
    /* Add/subtract (immediate, with tags), FEAT_MTE */
    ROW(0xffc0c000, 0x91800000, K_OTHER, F_NONE, 0, 0, "ADDG"),
    ROW(0xffc0c000, 0xd1800000, K_OTHER, F_NONE, 0, 0, "SUBG"),
    /* Min/max (immediate), FEAT_CSSC */
    ROW(0x7ff00000, 0x11c00000, K_OTHER, F_NONE, 0, 0, "SMAX, UMAX, SMIN, UMIN (immediate)"),
    /* Logical (immediate): N == 1 needs sf == 1 */
    ROW(0x9fc00000, 0x12400000, K_UNDEF, F_NONE, 0, 0, "logical (immediate), sf 0 N 1"),
    ROW(0x1f800000, 0x12000000, K_OTHER, F_LOGIMM, 0, 0, "AND, ORR, EOR, ANDS (immediate)"),
    /* Move wide (immediate): opc 01 unallocated, 32-bit hw < 2 */
    ROW(0x7f800000, 0x32800000, K_UNDEF, F_NONE, 0, 0, "move wide, opc 01"),
    ROW(0x9fc00000, 0x12c00000, K_UNDEF, F_NONE, 0, 0, "move wide, sf 0 hw 1x"),
    ROW(0x1f800000, 0x12800000, K_OTHER, F_NONE, 0, 0, "MOVN, MOVZ, MOVK"),
    /* Bitfield: opc 11 unallocated */
    ROW(0x7f800000, 0x73000000, K_UNDEF, F_NONE, 0, 0, "bitfield, opc 11"),
    ROW(0x1f800000, 0x13000000, K_OTHER, F_BITFIELD, 0, 0, "SBFM, BFM, UBFM"),
    /* Extract */
    ROW(0x7fa00000, 0x13800000, K_OTHER, F_EXTR, 0, 0, "EXTR"),
};

static const a64_row dp_reg_rows[] = {
    /* Logical (shifted register) */
    ROW(0x1f000000, 0x0a000000, K_OTHER, F_SHIFTED, 0, 0,
        "AND, BIC, ORR, ORN, EOR, EON, ANDS, BICS"),
    /* Add/subtract (shifted register): shift 11 is reserved */
    ROW(0x1fe00000, 0x0bc00000, K_UNDEF, F_NONE, 0, 0, "add/sub shifted, shift 11"),
    ROW(0x1f200000, 0x0b000000, K_OTHER, F_SHIFTED, 0, 0,
        "ADD, ADDS, SUB, SUBS (shifted register)"),
    /* Add/subtract (extended register): opt 00 only */
    ROW(0x1fe00000, 0x0b200000, K_OTHER, F_EXTENDED, 0, 0,
        "ADD, ADDS, SUB, SUBS (extended register)"),
    /* Add/subtract (with carry) */
    ROW(0x1fe0fc00, 0x1a000000, K_OTHER, F_NONE, 0, 0, "ADC, ADCS, SBC, SBCS"),
    /* Rotate right into flags, evaluate into flags (FEAT_FlagM) */
    ROW(0xffe07c10, 0xba000400, K_OTHER, F_NONE, 0, 0, "RMIF"),
    ROW(0xffffbc1f, 0x3a00080d, K_OTHER, F_NONE, 0, 0, "SETF8, SETF16"),
    /* Conditional compare (register) and (immediate): S 1, o2 0, o3 0 */
    ROW(0x3fe00410, 0x3a400000, K_OTHER, F_COND, A64F_COND, 0, "CCMN, CCMP"),
    /* Conditional select: S 0, op2 0x */
    ROW(0x3fe00800, 0x1a800000, K_OTHER, F_COND, A64F_COND, 0, "CSEL, CSINC, CSINV, CSNEG"),
    /* Data-processing (2 source) */
    ROW(0x7fe0f800, 0x1ac00800, K_OTHER, F_NONE, 0, 0, "UDIV, SDIV"),
    ROW(0x7fe0f000, 0x1ac02000, K_OTHER, F_NONE, 0, 0, "LSLV, LSRV, ASRV, RORV"),
    ROW(0xffe0ec00, 0x1ac04c00, K_UNDEF, F_NONE, 0, 0, "CRC32X, CRC32CX with sf 0"),
    ROW(0xffe0e000, 0x1ac04000, K_OTHER, F_NONE, 0, 0, "CRC32B/H/W, CRC32CB/H/W"),
    ROW(0xffe0ec00, 0x9ac04c00, K_OTHER, F_NONE, 0, 0, "CRC32X, CRC32CX"),
    ROW(0x7fe0f000, 0x1ac06000, K_OTHER, F_NONE, 0, 0, "SMAX, UMAX, SMIN, UMIN (register)"),
    ROW(0xdfe0fc00, 0x9ac00000, K_OTHER, F_NONE, 0, 0, "SUBP, SUBPS"),
    ROW(0xffe0fc00, 0x9ac01000, K_OTHER, F_NONE, 0, 0, "IRG"),
    ROW(0xffe0fc00, 0x9ac01400, K_OTHER, F_NONE, 0, 0, "GMI"),
    ROW(0xffe0fc00, 0x9ac03000, K_OTHER, F_NONE, A64F_PAUTH, 0, "PACGA"),
    /* Data-processing (1 source) */
    ROW(0x7ffff800, 0x5ac00000, K_OTHER, F_NONE, 0, 0, "RBIT, REV16"),
    ROW(0xfffffc00, 0x5ac00800, K_OTHER, F_NONE, 0, 0, "REV (32-bit)"),
    ROW(0xfffff800, 0xdac00800, K_OTHER, F_NONE, 0, 0, "REV32, REV (64-bit)"),
    ROW(0x7ffff000, 0x5ac01000, K_OTHER, F_NONE, 0, 0, "CLZ, CLS, CTZ, CNT"),
    ROW(0x7ffffc00, 0x5ac02000, K_OTHER, F_NONE, 0, 0, "ABS"),
    ROW(0xffffe000, 0xdac10000, K_OTHER, F_NONE, A64F_PAUTH, 0,
        "PACIA, PACIB, PACDA, PACDB, AUTIA, AUTIB, AUTDA, AUTDB"),
    ROW(0xffffe3e0, 0xdac123e0, K_OTHER, F_NONE, A64F_PAUTH, 0,
        "PACIZA, PACIZB, PACDZA, PACDZB, AUTIZA, AUTIZB, AUTDZA, AUTDZB"),
    ROW(0xfffffbe0, 0xdac143e0, K_OTHER, F_NONE, A64F_PAUTH, 0, "XPACI, XPACD"),
    /* Data-processing (3 source) */
    ROW(0x7fe00000, 0x1b000000, K_OTHER, F_NONE, 0, 0, "MADD, MSUB"),
    ROW(0xff600000, 0x9b200000, K_OTHER, F_NONE, 0, 0, "SMADDL, SMSUBL, UMADDL, UMSUBL"),
    ROW(0xff608000, 0x9b400000, K_OTHER, F_NONE, 0, 0, "SMULH, UMULH"),
};

static bool dp_form(armprof_a64_insn *o, const a64_row *r, uint32_t insn)
{
    const bool sf = a64_bits(insn, 31, 31);
    switch (r->form) {
    case F_ADR:
        o->pc_relative = true;
        o->offset = a64_sbits(insn, 23, 5) * 4 + a64_bits(insn, 30, 29);
        if (insn >> 31) o->offset *= 4096;
        return true;
    case F_LOGIMM:
        if (!a64_valid_bitmask(a64_bits(insn, 22, 22), a64_bits(insn, 15, 10), sf))
            return a64_undefined(o);
        return true;
    case F_BITFIELD:
        if (a64_bits(insn, 22, 22) != (unsigned)sf) return a64_undefined(o);
        if (!sf && (a64_bits(insn, 21, 21) || a64_bits(insn, 15, 15))) return a64_undefined(o);
        return true;
    case F_EXTR:
        if (a64_bits(insn, 22, 22) != (unsigned)sf) return a64_undefined(o);
        if (!sf && a64_bits(insn, 15, 15)) return a64_undefined(o);
        return true;
    case F_SHIFTED:
        if (!sf && a64_bits(insn, 15, 15)) return a64_undefined(o);
        return true;
    case F_EXTENDED:
        if (a64_bits(insn, 12, 10) > 4) return a64_undefined(o);
        return true;
    case F_COND:
        o->cond = (uint8_t)a64_bits(insn, 15, 12);
        return true;
    default:
        return true;
    }
}

static bool decode(const a64_row *rows, size_t n, uint32_t insn, armprof_a64_insn *out)
{
    const a64_row *r = a64_match(rows, n, insn);
    if (!r || r->kind == K_UNDEF) return a64_undefined(out);
    a64_apply(out, r);
    return dp_form(out, r, insn);
}

bool a64_decode_dp_imm(uint32_t insn, armprof_a64_insn *out)
{
    return decode(A64_ROWS(dp_imm_rows), insn, out);
}

bool a64_decode_dp_reg(uint32_t insn, armprof_a64_insn *out)
{
    return decode(A64_ROWS(dp_reg_rows), insn, out);
}
