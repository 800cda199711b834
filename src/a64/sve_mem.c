/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "SVE encodings", the memory groups (op0 1xx, op1 0010): "SVE Memory
 * - 32-bit Gather and Unsized Contiguous" (0x84/0x85), "SVE Memory -
 * Contiguous Load" (0xa4/0xa5), "SVE Memory - 64-bit Gather" (0xc4/0xc5)
 * and "SVE Memory - Store" (0xe4/0xe5). Every load and store of Z
 * registers here is predicated (zeroing loads, D17.6.6) except LDR and
 * STR; the prefetches are Other operations (D17.6.6: "SVE cache
 * prefetch"). */
#include "a64/a64_internal.h"

enum {
    F_NONE,
    F_LDR_P,    /* LDR/STR (predicate): [Xn, #imm9, MUL VL] */
    F_LDR_Z,    /* LDR/STR (vector) */
    F_LD1_SS,   /* LD1*, LDFF1* (scalar plus scalar, dtype): [Xn, Xm, LSL #msz] */
    F_LD1_SI,   /* LD1*, LDNF1* (scalar plus immediate, dtype): [Xn, #imm4, MUL VL] */
    F_ST1_SS,   /* ST1* (scalar plus scalar): element size bits [22:21] >= msz */
    F_ST1_SI,   /* ST1* (scalar plus immediate) */
    F_MULTI_SS, /* LDNT1/STNT1 (regs 1), LD2-LD4/ST2-ST4 (bits [22:21] + 1 registers) */
    F_MULTI_SI, /* ... scalar plus immediate: [Xn, #imm4 * regs, MUL VL] */
    F_RQ_SS,    /* LD1RQ/LD1RO, scalar plus scalar */
    F_RQ_SI,    /* LD1RQ/LD1RO, scalar plus immediate (x16 or x32 bytes) */
    F_LD1R,     /* LD1R*: [Xn, #imm6 << msz] */
    F_SV32,     /* scalar plus vector, 32-bit offsets: xs bit [22] (or [14] for stores) */
    F_SV64,     /* scalar plus vector, 64-bit offsets */
    F_VI,       /* vector plus immediate: [Zn, #imm5 << msz] */
    F_VS,       /* vector plus scalar (LDNT1/STNT1): [Zn, Xm] */
    F_PRF_SI,   /* PRF*: [Xn, #imm6, MUL VL] */
    F_PRF_SS,   /* PRF*: [Xn, Xm, LSL #msz] */
    F_PRF_SV32, /* PRF*: [Xn, Zm.S, xxTW #msz] */
    F_PRF_SV64, /* PRF*: [Xn, Zm.D{, LSL #msz}] or [Xn, Zm.D, xxTW #msz] */
    F_PRF_VI,   /* PRF*: [Zn, #imm5 << msz] */
};

/* Where an element size comes from. */
#define SZ_DTYPE 0xfd /* the dtype of bits [24:21] */
#define SZ_MSZ   0xfc /* msz, bits [24:23] */
#define SZ_MSZP  0xfb /* the prefetch size, bits [14:13] */
#define SZ_LD1R  0xfa /* the dtype of bits [24:23]:[14:13] */

enum { B0 = 0, H1 = 1, W2 = 2 };

#define P  A64F_PRED
#define G  (A64F_GATHER | A64F_PRED)
#define FF A64F_FF
#define NF A64F_NF

static const a64_row sve_mem_rows[] = {
    /* SVE Memory - 32-bit Gather and Unsized Contiguous */
    ROW(0xffc0e010, 0x85800000, K_LD_SVE, F_LDR_P, 0, 0, "LDR (predicate)"),
    ROW(0xffc0e000, 0x85804000, K_LD_SVE, F_LDR_Z, 0, 0, "LDR (vector)"),
    ROW(0xffc08010, 0x85c00000, K_PREFETCH, F_PRF_SI, A64F_SVE, SZ_MSZP,
        "PRFB/H/W/D (scalar plus immediate)"),
    ROW(0xfe60e010, 0x8400c000, K_PREFETCH, F_PRF_SS, A64F_SVE, SZ_MSZ,
        "PRFB/H/W/D (scalar plus scalar)"),
    ROW(0xfe60e010, 0x8400e000, K_PREFETCH, F_PRF_VI, A64F_SVE, SZ_MSZ,
        "PRFB/H/W/D (vector plus immediate, 32-bit)"),
    ROW(0xffa08010, 0x84200000, K_PREFETCH, F_PRF_SV32, A64F_SVE, SZ_MSZP,
        "PRFB/H/W/D (scalar plus 32-bit scaled offsets)"),
    ROW(0xffe0e000, 0x84008000, K_LD_SVE, F_VS, G, B0, "LDNT1SB (vector plus scalar, 32-bit)"),
    ROW(0xffe0e000, 0x8400a000, K_LD_SVE, F_VS, G, B0, "LDNT1B (vector plus scalar, 32-bit)"),
    ROW(0xffe0e000, 0x84808000, K_LD_SVE, F_VS, G, H1, "LDNT1SH (vector plus scalar, 32-bit)"),
    ROW(0xffe0e000, 0x8480a000, K_LD_SVE, F_VS, G, H1, "LDNT1H (vector plus scalar, 32-bit)"),
    ROW(0xffe0e000, 0x8500a000, K_LD_SVE, F_VS, G, W2, "LDNT1W (vector plus scalar, 32-bit)"),
    ROW(0xfe408000, 0x84408000, K_LD_SVE, F_LD1R, P, SZ_LD1R, "LD1RB ... LD1RD, LD1RS*"),
    ROW(0xffe0c000, 0x84208000, K_LD_SVE, F_VI, G, B0, "LD1SB, LDFF1SB (vector plus immediate)"),
    ROW(0xffe0c000, 0x8420c000, K_LD_SVE, F_VI, G, B0, "LD1B, LDFF1B (vector plus immediate)"),
    ROW(0xffe08000, 0x84a08000, K_LD_SVE, F_VI, G, H1, "LD1(S)H, LDFF1(S)H (vector plus imm.)"),
    ROW(0xffe0c000, 0x8520c000, K_LD_SVE, F_VI, G, W2, "LD1W, LDFF1W (vector plus immediate)"),
    ROW(0xffa08000, 0x84000000, K_LD_SVE, F_SV32, G, B0, "LD1(S)B, LDFF1(S)B (32-bit offsets)"),
    ROW(0xff808000, 0x84800000, K_LD_SVE, F_SV32, G, H1, "LD1(S)H, LDFF1(S)H (32-bit offsets)"),
    ROW(0xff80c000, 0x85004000, K_LD_SVE, F_SV32, G, W2, "LD1W, LDFF1W (32-bit offsets)"),

    /* SVE Memory - Contiguous Load */
    ROW(0xfe00e000, 0xa4004000, K_LD_SVE, F_LD1_SS, P, SZ_DTYPE, "LD1* (scalar plus scalar)"),
    ROW(0xfe00e000, 0xa4006000, K_LD_SVE, F_LD1_SS, P | FF, SZ_DTYPE,
        "LDFF1* (scalar plus scalar)"),
    ROW(0xfe10e000, 0xa400a000, K_LD_SVE, F_LD1_SI, P, SZ_DTYPE, "LD1* (scalar plus immediate)"),
    ROW(0xfe10e000, 0xa410a000, K_LD_SVE, F_LD1_SI, P | NF, SZ_DTYPE, "LDNF1*"),
    ROW(0xfe10e000, 0xa400e000, K_LD_SVE, F_MULTI_SI, P, SZ_MSZ,
        "LDNT1*, LD2*, LD3*, LD4* (scalar plus immediate)"),
    ROW(0xfe00e000, 0xa400c000, K_LD_SVE, F_MULTI_SS, P, SZ_MSZ,
        "LDNT1*, LD2*, LD3*, LD4* (scalar plus scalar)"),
    ROW(0xfe50e000, 0xa4002000, K_LD_SVE, F_RQ_SI, P, SZ_MSZ, "LD1RQ*, LD1RO* (scalar plus imm.)"),
    ROW(0xfe40e000, 0xa4000000, K_LD_SVE, F_RQ_SS, P, SZ_MSZ,
        "LD1RQ*, LD1RO* (scalar plus scalar)"),

    /* SVE Memory - 64-bit Gather */
    ROW(0xffa08010, 0xc4200000, K_PREFETCH, F_PRF_SV64, A64F_SVE, SZ_MSZP,
        "PRFB/H/W/D (scalar plus unpacked 32-bit scaled offsets)"),
    ROW(0xffe08010, 0xc4608000, K_PREFETCH, F_PRF_SV64, A64F_SVE, SZ_MSZP,
        "PRFB/H/W/D (scalar plus 64-bit scaled offsets)"),
    ROW(0xfe60e010, 0xc400e000, K_PREFETCH, F_PRF_VI, A64F_SVE, SZ_MSZ,
        "PRFB/H/W/D (vector plus immediate, 64-bit)"),
    ROW(0xfe60e000, 0xc400c000, K_LD_SVE, F_VS, G, SZ_MSZ, "LDNT1* (vector plus scalar, 64-bit)"),
    ROW(0xffe0e000, 0xc4008000, K_LD_SVE, F_VS, G, B0, "LDNT1SB (vector plus scalar, 64-bit)"),
    ROW(0xffe0e000, 0xc4808000, K_LD_SVE, F_VS, G, H1, "LDNT1SH (vector plus scalar, 64-bit)"),
    ROW(0xffe0e000, 0xc5008000, K_LD_SVE, F_VS, G, W2, "LDNT1SW (vector plus scalar, 64-bit)"),
    ROW(0xffe0c000, 0xc5a08000, K_UNDEF, F_NONE, 0, 0, "LD1SD (vector plus immediate)"),
    ROW(0xfe608000, 0xc4208000, K_LD_SVE, F_VI, G, SZ_MSZ, "LD1*, LDFF1* (vector plus immediate)"),
    ROW(0xffe0c000, 0xc5c08000, K_UNDEF, F_NONE, 0, 0, "LD1SD (64-bit offsets)"),
    ROW(0xffe0c000, 0xc5e08000, K_UNDEF, F_NONE, 0, 0, "LD1SD (64-bit scaled offsets)"),
    ROW(0xffe08000, 0xc4608000, K_UNDEF, F_NONE, 0, 0, "LD1(S)B (64-bit scaled offsets)"),
    ROW(0xfe408000, 0xc4408000, K_LD_SVE, F_SV64, G, SZ_MSZ, "LD1*, LDFF1* (64-bit offsets)"),
    ROW(0xff80c000, 0xc5800000, K_UNDEF, F_NONE, 0, 0, "LD1SD (unpacked 32-bit offsets)"),
    ROW(0xffa08000, 0xc4200000, K_UNDEF, F_NONE, 0, 0, "LD1(S)B (unpacked scaled offsets)"),
    ROW(0xfe008000, 0xc4000000, K_LD_SVE, F_SV32, G, SZ_MSZ,
        "LD1*, LDFF1* (unpacked 32-bit offsets)"),

    /* SVE Memory - Store */
    ROW(0xffc0e010, 0xe5800000, K_ST_SVE, F_LDR_P, 0, 0, "STR (predicate)"),
    ROW(0xffc0e000, 0xe5804000, K_ST_SVE, F_LDR_Z, 0, 0, "STR (vector)"),
    ROW(0xfe60e000, 0xe4402000, K_ST_SVE, F_VS, G, SZ_MSZ, "STNT1* (vector plus scalar, 32-bit)"),
    ROW(0xfe60e000, 0xe4002000, K_ST_SVE, F_VS, G, SZ_MSZ, "STNT1* (vector plus scalar, 64-bit)"),
    ROW(0xfe00e000, 0xe4004000, K_ST_SVE, F_ST1_SS, P, SZ_MSZ, "ST1* (scalar plus scalar)"),
    ROW(0xfe00e000, 0xe4006000, K_ST_SVE, F_MULTI_SS, P, SZ_MSZ,
        "STNT1*, ST2*, ST3*, ST4* (scalar plus scalar)"),
    ROW(0xfe10e000, 0xe400e000, K_ST_SVE, F_ST1_SI, P, SZ_MSZ, "ST1* (scalar plus immediate)"),
    ROW(0xfe10e000, 0xe410e000, K_ST_SVE, F_MULTI_SI, P, SZ_MSZ,
        "STNT1*, ST2*, ST3*, ST4* (scalar plus immediate)"),
    ROW(0xfe00a000, 0xe4008000, K_ST_SVE, F_SV32, G, SZ_MSZ, "ST1* (32-bit offsets)"),
    ROW(0xfe40e000, 0xe400a000, K_ST_SVE, F_SV64, G, SZ_MSZ, "ST1* (64-bit offsets)"),
    ROW(0xfe40e000, 0xe440a000, K_ST_SVE, F_VI, G, SZ_MSZ, "ST1* (vector plus immediate)"),
};

/* The contiguous loads' dtype (bits [24:21]): log2 of the memory element
 * size (LD1B .B .H .S .D, LD1SW, LD1H .H .S .D, LD1SH .D .S, LD1W .S .D,
 * LD1SB .D .S .H, LD1D). */
static const uint8_t dtype_msz[16] = {0, 0, 0, 0, 2, 1, 1, 1, 1, 1, 2, 2, 0, 0, 0, 3};

static void vl_offset(armprof_a64_insn *o, int64_t imm)
{
    o->offset = imm;
    o->offset_vl = true;
}

static bool sve_mem_form(armprof_a64_insn *o, const a64_row *r, uint32_t insn)
{
    const unsigned rn = a64_bits(insn, 9, 5), rm = a64_bits(insn, 20, 16);
    const unsigned msz = a64_bits(insn, 24, 23), dtype = a64_bits(insn, 24, 21);
    const bool store = r->kind == K_ST_SVE;
    unsigned size;
    switch (r->size) {
    case SZ_DTYPE:
        size = dtype_msz[dtype];
        break;
    case SZ_MSZ:
        size = msz;
        break;
    case SZ_MSZP:
        size = a64_bits(insn, 14, 13);
        break;
    case SZ_LD1R:
        size = dtype_msz[msz << 2 | a64_bits(insn, 14, 13)];
        break;
    default:
        size = r->size;
        break;
    }
    o->sve = true;
    o->size_log2 = (uint8_t)size;
    o->regs = 1;
    o->rt = (uint8_t)a64_bits(insn, 4, 0);
    o->base_reg = (uint8_t)rn;
    switch (r->form) {
    case F_LDR_P:
    case F_LDR_Z:
        o->size_log2 = 0;
        vl_offset(o, a64_sbits(insn, 21, 16) * 8 + (int64_t)a64_bits(insn, 12, 10));
        return true;
    case F_ST1_SS:
    case F_ST1_SI:
        if (a64_bits(insn, 22, 21) < msz) return a64_undefined(o); /* element >= access */
        /* fall through */
    case F_LD1_SS:
    case F_LD1_SI:
    case F_MULTI_SS:
    case F_MULTI_SI: {
        const bool multi = r->form == F_MULTI_SS || r->form == F_MULTI_SI;
        const unsigned nregs = multi ? a64_bits(insn, 22, 21) + 1 : 1;
        o->regs = (uint8_t)nregs;
        if (nregs > 1) o->rt2 = (uint8_t)((o->rt + 1) & 31);
        if (r->form == F_LD1_SS || r->form == F_ST1_SS || r->form == F_MULTI_SS) {
            /* [Xn, XZR] is the immediate form's, except for LDFF1 */
            if (rm == 31 && !o->first_fault) return a64_undefined(o);
            o->index_reg = (uint8_t)rm;
            o->extend = ARMPROF_A64_EXT_LSL;
            o->shift = (uint8_t)size;
        } else {
            vl_offset(o, a64_sbits(insn, 19, 16) * nregs);
        }
        return true;
    }
    case F_RQ_SS:
    case F_RQ_SI: {
        const bool ro = a64_bits(insn, 21, 21); /* LD1RO: 32 bytes, LD1RQ: 16 */
        if (r->form == F_RQ_SS) {
            if (rm == 31) return a64_undefined(o);
            o->index_reg = (uint8_t)rm;
            o->extend = ARMPROF_A64_EXT_LSL;
            o->shift = (uint8_t)size;
        } else {
            o->offset = a64_sbits(insn, 19, 16) * (ro ? 32 : 16);
        }
        o->bytes = ro ? 32 : 16;
        return true;
    }
    case F_LD1R:
        o->offset = (int64_t)a64_bits(insn, 21, 16) << size;
        o->bytes = (uint16_t)(1u << size);
        return true;
    case F_SV32:
    case F_SV64: {
        const bool scaled = a64_bits(insn, 21, 21);
        const bool xs = store ? a64_bits(insn, 14, 14) : a64_bits(insn, 22, 22);
        if (scaled && size == 0) return a64_undefined(o);
        if (store && r->form == F_SV32 && a64_bits(insn, 22, 22) && size == 3)
            return a64_undefined(o); /* no 64-bit elements in 32-bit vectors */
        if (!store && size == 3 && !a64_bits(insn, 14, 14)) return a64_undefined(o); /* LD1SD */
        o->vector_index = true;
        o->index_reg = (uint8_t)rm;
        if (r->form == F_SV32)
            o->extend = xs ? ARMPROF_A64_EXT_SXTW : ARMPROF_A64_EXT_UXTW;
        else
            o->extend = ARMPROF_A64_EXT_LSL;
        o->shift = scaled ? (uint8_t)size : 0;
        if (!store && a64_bits(insn, 13, 13)) o->first_fault = true;
        return true;
    }
    case F_VI:
        if (store && a64_bits(insn, 21, 21) && size == 3) return a64_undefined(o);
        if (!store && size == 3 && !a64_bits(insn, 14, 14)) return a64_undefined(o);
        o->vector_base = true;
        o->offset = (int64_t)a64_bits(insn, 20, 16) << size;
        if (!store && a64_bits(insn, 13, 13)) o->first_fault = true;
        return true;
    case F_VS:
        if (store && a64_bits(insn, 22, 22) && size == 3) return a64_undefined(o);
        o->vector_base = true;
        o->index_reg = (uint8_t)rm;
        o->extend = ARMPROF_A64_EXT_LSL;
        return true;
    case F_PRF_SI:
        o->rt = ARMPROF_A64_NOREG;
        vl_offset(o, a64_sbits(insn, 21, 16));
        return true;
    case F_PRF_SS:
        if (rm == 31) return a64_undefined(o);
        o->rt = ARMPROF_A64_NOREG;
        o->index_reg = (uint8_t)rm;
        o->extend = ARMPROF_A64_EXT_LSL;
        o->shift = (uint8_t)size;
        return true;
    case F_PRF_SV32:
    case F_PRF_SV64:
        o->rt = ARMPROF_A64_NOREG;
        o->vector_index = true;
        o->index_reg = (uint8_t)rm;
        if (r->form == F_PRF_SV64 && a64_bits(insn, 22, 22)) {
            o->extend = ARMPROF_A64_EXT_LSL;
        } else {
            o->extend = a64_bits(insn, 22, 22) ? ARMPROF_A64_EXT_SXTW : ARMPROF_A64_EXT_UXTW;
        }
        o->shift = (uint8_t)size;
        return true;
    case F_PRF_VI:
        o->rt = ARMPROF_A64_NOREG;
        o->vector_base = true;
        o->offset = (int64_t)a64_bits(insn, 20, 16) << size;
        return true;
    default:
        return true;
    }
}

bool a64_decode_sve_mem(uint32_t insn, armprof_a64_insn *out)
{
    const a64_row *r = a64_match(A64_ROWS(sve_mem_rows), insn);
    if (!r || r->kind == K_UNDEF) return a64_undefined(out);
    a64_apply(out, r);
    if (!sve_mem_form(out, r, insn)) return false;
    if (out->prefetch) out->other_kind = ARMPROF_OTHER_SVE;
    return true;
}
