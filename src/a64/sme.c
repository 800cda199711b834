/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "SME encodings" (op0 1, op1 0000): loads and stores of ZA tile
 * slices, ZA vectors and ZT0 (SME loads and stores), the SME2 multi-vector
 * contiguous loads and stores of Z registers (SVE loads and stores, with a
 * predicate-as-counter), and the SME array operations (D18.2.7 "Data
 * processing, SME array"): outer products, MOVA, ZERO, ADDHA/ADDVA. The
 * SME2 data-processing encodings (0xc0/0xc1 beyond SME, the outer
 * products SME2 added) are classified by group without an allocation
 * check: the project's cross assembler (binutils 2.40) cannot verify
 * them. */
#include "a64/a64_internal.h"

enum {
    F_NONE,
    F_ZA_SLICE, /* LD1x/ST1x (ZA tile slice): [Xn{, Xm, LSL #msz}] */
    F_ZA_VEC,   /* LDR/STR (ZA array vector): [Xn{, #imm4, MUL VL}] */
    F_ZT0,      /* LDR/STR ZT0: [Xn] */
    F_MULTI,    /* SME2 LD1x/ST1x, LDNT1x/STNT1x (multiple vectors, PNg) */
};

#define P A64F_PRED

static const a64_row sme_rows[] = {
    /* SME load and store */
    ROW(0xff200010, 0xe0000000, K_LD_SME, F_ZA_SLICE, P, SZ_FORM, "LD1B, LD1H, LD1W, LD1D (tile)"),
    ROW(0xff200010, 0xe0200000, K_ST_SME, F_ZA_SLICE, P, SZ_FORM, "ST1B, ST1H, ST1W, ST1D (tile)"),
    ROW(0xffe00010, 0xe1c00000, K_LD_SME, F_ZA_SLICE, P, 4, "LD1Q (tile)"),
    ROW(0xffe00010, 0xe1e00000, K_ST_SME, F_ZA_SLICE, P, 4, "ST1Q (tile)"),
    ROW(0xffff9c10, 0xe1000000, K_LD_SME, F_ZA_VEC, 0, 0, "LDR (array vector)"),
    ROW(0xffff9c10, 0xe1200000, K_ST_SME, F_ZA_VEC, 0, 0, "STR (array vector)"),
    ROW(0xfffffc1f, 0xe11f8000, K_LD_SME, F_ZT0, 0, 0, "LDR (table), FEAT_SME2"),
    ROW(0xfffffc1f, 0xe13f8000, K_ST_SME, F_ZT0, 0, 0, "STR (table), FEAT_SME2"),
    /* SME2 multi-vector contiguous load and store (consecutive and strided registers) */
    ROW(0xfea00000, 0xa0000000, K_LD_SVE, F_MULTI, P, SZ_FORM, "LD1x, LDNT1x (multiple vectors)"),
    ROW(0xfea00000, 0xa0200000, K_ST_SVE, F_MULTI, P, SZ_FORM, "ST1x, STNT1x (multiple vectors)"),
    /* SME outer product: FEAT_SME, FEAT_SME_F64F64, FEAT_SME_I16I64; other forms FEAT_SME2 */
    ROW(0xffe0000c, 0x80800000, K_OTHER_SME, F_NONE, P | A64F_FP, 0, "FMOPA, FMOPS (single)"),
    ROW(0xffe00008, 0x80c00000, K_OTHER_SME, F_NONE, P | A64F_FP, 0, "FMOPA, FMOPS (double)"),
    ROW(0xffe0000c, 0x81800000, K_OTHER_SME, F_NONE, P | A64F_FP, 0, "BFMOPA, BFMOPS"),
    ROW(0xffe0000c, 0x81a00000, K_OTHER_SME, F_NONE, P | A64F_FP, 0, "FMOPA, FMOPS (widening)"),
    ROW(0xfec0000c, 0xa0800000, K_OTHER_SME, F_NONE, P, 0, "SMOPA, SUMOPA, USMOPA, UMOPA (32-bit)"),
    ROW(0xfec00008, 0xa0c00000, K_OTHER_SME, F_NONE, P, 0, "SMOPA, SUMOPA, USMOPA, UMOPA (64-bit)"),
    ROW(0xde800000, 0x80800000, K_OTHER_SME, F_NONE, 0, 0,
        "BMOPA, FMOPA (half), SMOPA (2-way) ..."),
    /* SME move into/from array, zero, add vector to array */
    ROW(0xffff0000, 0xc0c10000, K_OTHER_SME, F_NONE, P, 0, "MOVA (vector to tile, 128-bit)"),
    ROW(0xff3f0000, 0xc0010000, K_UNDEF, F_NONE, 0, 0, "MOVA (vector to tile), Q without size 11"),
    ROW(0xff3f0010, 0xc0000000, K_OTHER_SME, F_NONE, P, 0, "MOVA (vector to tile)"),
    ROW(0xffff0200, 0xc0c30000, K_OTHER_SME, F_NONE, P, 0, "MOVA (tile to vector, 128-bit)"),
    ROW(0xff3f0000, 0xc0030000, K_UNDEF, F_NONE, 0, 0, "MOVA (tile to vector), Q without size 11"),
    ROW(0xff3f0200, 0xc0020000, K_OTHER_SME, F_NONE, P, 0, "MOVA (tile to vector)"),
    ROW(0xffffff00, 0xc0080000, K_OTHER_SME, F_NONE, 0, 0, "ZERO (tiles)"),
    ROW(0xfffe001c, 0xc0900000, K_OTHER_SME, F_NONE, P, 0, "ADDHA, ADDVA (32-bit)"),
    ROW(0xfffe0018, 0xc0d00000, K_OTHER_SME, F_NONE, P, 0, "ADDHA, ADDVA (64-bit)"),
    /* FEAT_SME2 (and later) data processing: multi-vector, ZA array vectors, ZT0 */
    ROW(0xfe000000, 0xc0000000, K_OTHER_SME, F_NONE, 0, 0, "SME2 data processing"),
};

bool a64_decode_sme(uint32_t insn, armprof_a64_insn *out)
{
    const a64_row *r = a64_match(A64_ROWS(sme_rows), insn);
    if (!r || r->kind == K_UNDEF) return a64_undefined(out);
    a64_apply(out, r);
    switch (r->form) {
    case F_ZA_SLICE:
        out->base_reg = (uint8_t)a64_bits(insn, 9, 5);
        out->size_log2 = (uint8_t)(r->size == SZ_FORM ? a64_bits(insn, 23, 22) : r->size);
        out->regs = 1;
        /* Xm == XZR: no offset */
        if (a64_bits(insn, 20, 16) != 31) {
            out->index_reg = (uint8_t)a64_bits(insn, 20, 16);
            out->extend = ARMPROF_A64_EXT_LSL;
            out->shift = out->size_log2;
        }
        break;
    case F_ZA_VEC:
        out->base_reg = (uint8_t)a64_bits(insn, 9, 5);
        out->size_log2 = 0;
        out->regs = 1;
        out->offset = a64_bits(insn, 3, 0);
        out->offset_vl = true;
        break;
    case F_ZT0:
        out->base_reg = (uint8_t)a64_bits(insn, 9, 5);
        out->size_log2 = 0;
        out->regs = 1;
        out->bytes = 64;
        break;
    case F_MULTI: {
        const unsigned regs = a64_bits(insn, 15, 15) ? 4 : 2;
        out->sve = true;
        out->base_reg = (uint8_t)a64_bits(insn, 9, 5);
        out->size_log2 = (uint8_t)a64_bits(insn, 14, 13);
        out->regs = (uint8_t)regs;
        if (a64_bits(insn, 24, 24)) { /* strided: Zt is T:Zt<2:0>, bit [3] N; then +8 or +4 */
            out->rt = (uint8_t)(a64_bits(insn, 4, 4) << 4 | a64_bits(insn, 2, 0));
            out->rt2 = (uint8_t)(out->rt + (regs == 2 ? 8 : 4));
        } else { /* consecutive */
            out->rt = (uint8_t)(regs == 2 ? a64_bits(insn, 4, 1) << 1 : a64_bits(insn, 4, 2) << 2);
            out->rt2 = (uint8_t)(out->rt + 1);
        }
        if (a64_bits(insn, 22, 22)) {
            out->offset = a64_sbits(insn, 19, 16) * (int64_t)regs;
            out->offset_vl = true;
        } else {
            out->index_reg = (uint8_t)a64_bits(insn, 20, 16);
            out->extend = ARMPROF_A64_EXT_LSL;
            out->shift = out->size_log2;
        }
        break;
    }
    default:
        break;
    }
    return true;
}
