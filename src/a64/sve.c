/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "SVE encodings", the data-processing groups (op0 0xx, op1 0010):
 * first bytes 0x04/0x05 (integer), 0x24/0x25 (compares, predicates,
 * counts, immediates), 0x44/0x45 (SVE2 integer, crypto) and 0x64/0x65
 * (floating-point). Each is an SVE Other operation (D18.2.7 "Data
 * processing, SVE vector"), predicated when it writes a vector under a
 * Governing predicate with zeroing or merging predication (D17.6.6: not
 * SEL, COMPACT, CLAST*, SPLICE, reductions or instructions writing
 * predicates). Instructions that only produce a general-purpose result from
 * the vector length (ADDVL, RDVL, CNTB, INCB Xd, ...) are general Other
 * operations. */
#include "a64/a64_internal.h"

/* Field checks of a row beyond its mask: an encoded immediate that must
 * not be zero or must be a valid bitmask. */
enum {
    CK_NONE,
    CK_TSZ_PRED, /* tsz (bits [23:22], [9:8]) != 0: shift by immediate (predicated) */
    CK_TSZ,      /* tsz (bits [23:22], [20:19]) != 0: shift by immediate (unpredicated) */
    CK_BITMASK,  /* imm13 (bits [17:5]) a valid 64-bit bitmask immediate */
};

typedef struct sve_row {
    uint32_t mask, value;
    uint8_t kind;
    uint8_t op_lo, op_bits; /* a sub-opcode field [op_lo + op_bits - 1 : op_lo] ... */
    uint8_t check;          /* CK_* */
    uint16_t flags;
    uint32_t allow; /* ... and the values of it that are allocated (bit n: value n) */
    const char *name;
} sve_row;

/* clang-format off */
#define S(m, v, k, fl, n) {(m), (v), (k), 0, 0, CK_NONE, (fl), 0, (n)}
#define SC(m, v, k, ck, fl, n) {(m), (v), (k), 0, 0, (ck), (fl), 0, (n)}
#define SA(m, v, k, lo, bits, fl, a, n) {(m), (v), (k), (lo), (bits), CK_NONE, (fl), (a), (n)}
#define U(m, v, n) {(m), (v), K_UNDEF, 0, 0, CK_NONE, 0, 0, (n)}
/* clang-format on */

#define SVE   K_OTHER_SVE
#define GP    K_OTHER /* a general-purpose result */
#define P     A64F_PRED
#define FP    A64F_FP
#define B(n)  (1u << (n))
#define FRINT (0xffu & ~B(5)) /* FRINTN, FRINTP, FRINTM, FRINTZ, FRINTA, FRINTX, FRINTI */

static const sve_row sve_rows[] = {
    /* ---- 0x04, bit [21] 0: predicated integer operations ---- */
    /* SVE Integer Binary Arithmetic - Predicated: bits [20:16] */
    SA(0xff20e000, 0x04000000, SVE, 16, 5, P,
       B(0) | B(1) | B(3) | B(8) | B(9) | B(10) | B(11) | B(12) | B(13) | B(16) | B(18) | B(19) |
           B(20) | B(21) | B(22) | B(23) | B(24) | B(25) | B(26) | B(27),
       "ADD SUB SUBR SMAX UMAX SMIN UMIN SABD UABD MUL SMULH UMULH SDIV UDIV SDIVR UDIVR ORR EOR "
       "AND BIC (predicated)"),
    /* SVE Integer Reduction: MOVPRFX (predicated) writes a vector */
    S(0xff3ee000, 0x04102000, SVE, P, "MOVPRFX (predicated)"),
    U(0xffffe000, 0x04c02000, "SADDV, size 11"),
    SA(0xff20e000, 0x04002000, SVE, 16, 5, 0,
       B(0) | B(1) | B(8) | B(9) | B(10) | B(11) | B(24) | B(25) | B(26),
       "SADDV UADDV SMAXV UMAXV SMINV UMINV ORV EORV ANDV"),
    /* SVE Bitwise Shift - Predicated: by immediate, by vector, by wide elements */
    SC(0xff3ee000, 0x04008000, SVE, CK_TSZ_PRED, P, "ASR, LSR (immediate, predicated)"),
    SC(0xff3fe000, 0x04038000, SVE, CK_TSZ_PRED, P, "LSL (immediate, predicated)"),
    SC(0xff3fe000, 0x04048000, SVE, CK_TSZ_PRED, P, "ASRD"),
    SC(0xff3ee000, 0x04068000, SVE, CK_TSZ_PRED, P, "SQSHL, UQSHL (immediate)"),
    SC(0xff3ee000, 0x040c8000, SVE, CK_TSZ_PRED, P, "SRSHR, URSHR"),
    SC(0xff3fe000, 0x040f8000, SVE, CK_TSZ_PRED, P, "SQSHLU"),
    SA(0xff20e000, 0x04008000, SVE, 16, 5, P,
       B(16) | B(17) | B(19) | B(20) | B(21) | B(23) | B(24) | B(25) | B(27),
       "ASR LSR LSL ASRR LSRR LSLR (vectors), ASR LSR LSL (wide elements)"),
    /* SVE Integer Unary Arithmetic - Predicated */
    U(0xfffee000, 0x0410a000, "SXTB, UXTB, size 00"),
    U(0xffbee000, 0x0412a000, "SXTH, UXTH, size 0x"),
    U(0xff3ee000 | 0x00c00000, 0x0414a000, "SXTW, UXTW, size 00"),
    U(0xfffee000, 0x0454a000, "SXTW, UXTW, size 01"),
    U(0xfffee000, 0x0494a000, "SXTW, UXTW, size 10"),
    U(0xfffee000, 0x041ca000, "FABS, FNEG, size 00"),
    S(0xff3ee000, 0x041ca000, SVE, P | FP, "FABS, FNEG"),
    SA(0xff20e000, 0x0400a000, SVE, 16, 5, P,
       B(16) | B(17) | B(18) | B(19) | B(20) | B(21) | B(22) | B(23) | B(24) | B(25) | B(26) |
           B(27) | B(30),
       "SXTB UXTB SXTH UXTH SXTW UXTW ABS NEG CLS CLZ CNT CNOT NOT"),
    /* SVE Integer Multiply-Add - Predicated: MLA, MLS, MAD, MSB */
    S(0xff20c000, 0x04004000, SVE, P, "MLA, MLS"),
    S(0xff20c000, 0x0400c000, SVE, P, "MAD, MSB"),

    /* ---- 0x04, bit [21] 1: unpredicated integer operations ---- */
    SA(0xff20e000, 0x04200000, SVE, 10, 3, 0, B(0) | B(1) | B(4) | B(5) | B(6) | B(7),
       "ADD SUB SQADD UQADD SQSUB UQSUB (vectors, unpredicated)"),
    S(0xff20fc00, 0x04203000, SVE, 0, "AND, ORR, EOR, BIC (vectors, unpredicated)"),
    S(0xff20fc00, 0x04203400, SVE, 0, "XAR"),
    S(0xffa0fc00, 0x04203800, SVE, 0, "EOR3, BCAX"),
    S(0xff20fc00, 0x04203c00, SVE, 0, "BSL, BSL1N, BSL2N, NBSL"),
    S(0xff20f000, 0x04204000, SVE, 0, "INDEX"),
    S(0xffa0f000, 0x04205000, GP, A64F_SVE, "ADDVL, ADDPL, ADDSVL, ADDSPL"),
    S(0xfffff000, 0x04bf5000, GP, A64F_SVE, "RDVL, RDSVL"),
    S(0xffe0fc00, 0x04206400, SVE, 0, "PMUL (vectors)"),
    U(0xff20fc00, 0x04206400, "PMUL, size != 00"),
    S(0xff20f000, 0x04206000, SVE, 0, "MUL, SMULH, UMULH (vectors)"),
    SA(0xff20f000, 0x04207000, SVE, 10, 2, 0, B(0) | B(1), "SQDMULH, SQRDMULH (vectors)"),
    U(0xffe0f000, 0x04e08000, "ASR, LSR, LSL (wide elements), size 11"),
    SA(0xff20f000, 0x04208000, SVE, 10, 2, 0, B(0) | B(1) | B(3), "ASR, LSR, LSL (wide elements)"),
    U(0xff20f800, 0x04209800, "shift by immediate (unpredicated), opc 10"),
    SC(0xff20f000, 0x04209000, SVE, CK_TSZ, 0, "ASR, LSR, LSL (immediate)"),
    S(0xff20f000, 0x0420a000, SVE, 0, "ADR"),
    U(0xffe0fc00, 0x0420b000, "FTSSEL, size 00"),
    S(0xff20fc00, 0x0420b000, SVE, FP, "FTSSEL"),
    S(0xff3ffc00, 0x0420b800, SVE, FP, "FEXPA"),
    S(0xfffffc00, 0x0420bc00, SVE, 0, "MOVPRFX (unpredicated)"),
    S(0xff30fc00, 0x0420e000, GP, A64F_SVE, "CNTB, CNTH, CNTW, CNTD"),
    S(0xff30f800, 0x0430e000, GP, A64F_SVE, "INCB, DECB ... (scalar)"),
    S(0xff20f000, 0x0420f000, GP, A64F_SVE, "SQINCB, UQDECD ... (scalar)"),
    U(0xfff0f800, 0x0430c000, "INC, DEC (vector), size 00"),
    S(0xff30f800, 0x0430c000, SVE, 0, "INCH, DECD ... (vector)"),
    U(0xfff0f000, 0x0420c000, "SQINC ... (vector), size 00"),
    S(0xff30f000, 0x0420c000, SVE, 0, "SQINCH, UQDECD ... (vector)"),

    /* ---- 0x05 ---- */
    SC(0xff3c0000, 0x05000000, SVE, CK_BITMASK, 0, "ORR, EOR, AND, DUPM (immediate)"),
    U(0xfff0e000, 0x0510c000, "FCPY, size 00"),
    U(0xfff0a000, 0x05102000, "CPY (immediate), size 00 with shift"),
    S(0xff30e000, 0x0510c000, SVE, P | FP, "FCPY"),
    S(0xff308000, 0x05100000, SVE, P, "CPY (immediate)"),
    S(0xffa0e000, 0x05200000, SVE, 0, "EXT"),
    S(0xff20fc00, 0x05202000, SVE, 0, "DUP (indexed)"),
    S(0xff20fc00, 0x05202800, SVE, 0, "TBL (two registers)"),
    S(0xff20fc00, 0x05202c00, SVE, 0, "TBX"),
    S(0xff20fc00, 0x05203000, SVE, 0, "TBL"),
    SA(0xff20fc00, 0x05203800, SVE, 16, 5, 0,
       B(0) | B(4) | B(16) | B(17) | B(18) | B(19) | B(20) | B(24),
       "DUP (scalar), INSR, SUNPKLO/HI, UUNPKLO/HI, REV (vector)"),
    SA(0xff20e000, 0x05206000, SVE, 10, 3, 0, 0x3f, "ZIP1, ZIP2, UZP1, UZP2, TRN1, TRN2"),
    SA(0xffe0e000, 0x05a00000, SVE, 10, 3, 0, 0xcf, "ZIP1, ZIP2, UZP1, UZP2, TRN1, TRN2 (Q)"),
    S(0xff3fe000, 0x05208000, SVE, P, "CPY (SIMD&FP scalar)"),
    U(0xffbfe000, 0x05218000, "COMPACT, size 0x"),
    S(0xff3fe000, 0x05218000, SVE, 0, "COMPACT"),
    S(0xff3ee000, 0x05228000, SVE, 0, "LASTA, LASTB (SIMD&FP)"),
    S(0xff3ce000, 0x05248000, SVE, P, "REVB, REVH, REVW, RBIT"),
    S(0xff3ee000, 0x05288000, SVE, 0, "CLASTA, CLASTB (vectors)"),
    S(0xff3ee000, 0x052a8000, SVE, 0, "CLASTA, CLASTB (SIMD&FP)"),
    S(0xff3ee000, 0x052c8000, SVE, 0, "SPLICE"),
    S(0xffffe000, 0x052e8000, SVE, P, "REVD"),
    S(0xff3ee000, 0x0520a000, SVE, 0, "LASTA, LASTB (scalar)"),
    S(0xff3fe000, 0x0528a000, SVE, P, "CPY (scalar)"),
    S(0xff3ee000, 0x0530a000, SVE, 0, "CLASTA, CLASTB (scalar)"),
    S(0xff20c000, 0x0520c000, SVE, 0, "SEL (vectors)"),
    SA(0xff30e210, 0x05204000, SVE, 10, 3, 0, 0x3f, "ZIP1 ... TRN2 (predicates)"),
    S(0xff3ffe10, 0x05344000, SVE, 0, "REV (predicate)"),
    S(0xfffefe10, 0x05304000, SVE, 0, "PUNPKLO, PUNPKHI"),

    /* ---- 0x24: integer compares (write predicates) ---- */
    /* SVE integer compare vectors (bits [15:13] 000, 100, 101) and with wide elements (the
       others, not for 64-bit elements) */
    U(0xffe0e000, 0x24c02000, "CMP<cc> (wide elements), size 11"),
    U(0xffe0c000, 0x24c04000, "CMP<cc> (wide elements), size 11"),
    U(0xffe0c000, 0x24c0c000, "CMP<cc> (wide elements), size 11"),
    S(0xff200000, 0x24000000, SVE, 0, "CMP<cc> (vectors, wide elements)"),
    /* SVE integer compare with unsigned immediate */
    S(0xff200000, 0x24200000, SVE, 0, "CMP<cc> (unsigned immediate)"),
    /* ---- 0x25 ---- */
    /* SVE integer compare with signed immediate */
    SA(0xff204000, 0x25000000, SVE, 13, 3, 0, B(0) | B(1) | B(4), "CMP<cc> (signed immediate)"),
    /* SVE predicate logical operations */
    U(0xfff0c210, 0x25404210, "SELS"),
    S(0xff30c000, 0x25004000, SVE, 0, "AND, BIC, EOR, SEL, ORR, ORN, NOR, NAND (predicates)"),
    /* SVE propagate break, partition break */
    U(0xff7fc210, 0x25504010, "BRKAS, BRKBS (merging)"),
    S(0xff3fc200, 0x25104000, SVE, 0, "BRKA, BRKB"),
    S(0xffbfc210, 0x25184000, SVE, 0, "BRKN, BRKNS"),
    S(0xffb0c200, 0x2500c000, SVE, 0, "BRKPA, BRKPB"),
    /* SVE predicate misc */
    S(0xffffc21f, 0x2550c000, SVE, 0, "PTEST"),
    S(0xfffffe10, 0x2558c000, SVE, 0, "PFIRST"),
    S(0xff3ffe10, 0x2519c400, SVE, 0, "PNEXT"),
    S(0xff3efc10, 0x2518e000, SVE, 0, "PTRUE, PTRUES"),
    S(0xfffffff0, 0x2518e400, SVE, 0, "PFALSE"),
    S(0xffbffe10, 0x2518f000, SVE, 0, "RDFFR, RDFFRS (predicated)"),
    S(0xfffffff0, 0x2519f000, SVE, 0, "RDFFR (unpredicated)"),
    S(0xffffffff, 0x252c9000, SVE, 0, "SETFFR"),
    S(0xfffffe1f, 0x25289000, SVE, 0, "WRFFR"),
    /* SVE integer compare scalar count and limit, conditionally terminate scalars */
    S(0xff20e000, 0x25200000, SVE, 0, "WHILELT, WHILELE, WHILELO, WHILELS, WHILEGE ..."),
    S(0xff20fc00, 0x25203000, SVE, 0, "WHILERW, WHILEWR"),
    S(0xffa0fc0f, 0x25a02000, GP, A64F_SVE, "CTERMEQ, CTERMNE"),
    /* SVE predicate select (FEAT_SME) */
    S(0xff20c000, 0x25204000, SVE, 0, "PSEL"),
    /* SVE predicate count, inc/dec by predicate count */
    S(0xff3fc200, 0x25208000, SVE, 0, "CNTP"),
    S(0xff38fa00, 0x25288800, SVE, 0, "INCP, DECP, SQINCP, UQDECP ... (scalar)"),
    S(0xff38fe00, 0x25288000, SVE, 0, "INCP, DECP, SQINCP, UQDECP ... (vector)"),
    /* SVE integer wide immediate - unpredicated */
    SA(0xff38c000, 0x2520c000, SVE, 16, 3, 0, B(0) | B(1) | B(3) | B(4) | B(5) | B(6) | B(7),
       "ADD, SUB, SUBR, SQADD, UQADD, SQSUB, UQSUB (immediate)"),
    S(0xff3ce000, 0x2528c000, SVE, 0, "SMAX, UMAX, SMIN, UMIN (immediate)"),
    S(0xff3fe000, 0x2530c000, SVE, 0, "MUL (immediate)"),
    S(0xff3fc000, 0x2538c000, SVE, 0, "DUP (immediate)"),
    S(0xff3fe000, 0x2539c000, SVE, FP, "FDUP"),

    /* ---- 0x44, bit [21] 0: SVE Integer Multiply-Add - Unpredicated, SVE2 predicated ---- */
    S(0xffa0f800, 0x44800000, SVE, 0, "SDOT, UDOT (vectors)"),
    U(0xffe0f800, 0x44000800, "SQDMLALBT, SQDMLSLBT, size 00"),
    S(0xff20f800, 0x44000800, SVE, 0, "SQDMLALBT, SQDMLSLBT"),
    S(0xffa0f000, 0x44801000, SVE, 0, "CDOT (vectors)"),
    S(0xff20e000, 0x44002000, SVE, 0, "CMLA, SQRDCMLAH (vectors)"),
    U(0xffe0e000, 0x44004000, "SMLALB ... UMLSLT (vectors), size 00"),
    S(0xff20e000, 0x44004000, SVE, 0, "SMLALB, SMLALT, UMLALB, SMLSLB ... (vectors)"),
    U(0xffe0f000, 0x44006000, "SQDMLALB ... SQDMLSLT (vectors), size 00"),
    S(0xff20f000, 0x44006000, SVE, 0, "SQDMLALB, SQDMLALT, SQDMLSLB, SQDMLSLT (vectors)"),
    S(0xff20f800, 0x44007000, SVE, 0, "SQRDMLAH, SQRDMLSH (vectors)"),
    S(0xffe0fc00, 0x44807800, SVE, 0, "USDOT (vectors)"),
    /* SVE2 integer predicated: saturating/rounding shifts, halving add/subtract, saturating
       add/subtract; pairwise add and accumulate long, unary, pairwise arithmetic */
    SA(0xff20e000, 0x44008000, SVE, 16, 5, P, B(2) | B(3) | B(6) | B(7) | 0xffffff00u,
       "SRSHL, SQSHL ..., SHADD ..., SQADD ... (predicated)"),
    SA(0xff20e000, 0x4400a000, SVE, 16, 5, P,
       B(0) | B(1) | B(4) | B(5) | B(8) | B(9) | B(17) | B(20) | B(21) | B(22) | B(23),
       "URECPE, URSQRTE, SADALP, UADALP, SQABS, SQNEG, ADDP, SMAXP ... (predicated)"),
    S(0xff20f800, 0x4400c000, SVE, 0, "SCLAMP, UCLAMP"),
    /* ---- 0x44, bit [21] 1: multiply-add (indexed) ---- */
    S(0xffa0f800, 0x44a00000, SVE, 0, "SDOT, UDOT (indexed)"),
    S(0xff20f800, 0x44200800, SVE, 0, "MLA, MLS (indexed)"),
    S(0xff20f800, 0x44201000, SVE, 0, "SQRDMLAH, SQRDMLSH (indexed)"),
    S(0xffe0f800, 0x44a01800, SVE, 0, "USDOT, SUDOT (indexed)"),
    S(0xffa0e000, 0x44a02000, SVE, 0, "SQDMLALB, SQDMLALT, SQDMLSLB, SQDMLSLT (indexed)"),
    S(0xffa0f000, 0x44a04000, SVE, 0, "CDOT (indexed)"),
    S(0xffa0e000, 0x44a06000, SVE, 0, "CMLA, SQRDCMLAH (indexed)"),
    S(0xffa0c000, 0x44a08000, SVE, 0, "SMLALB ... UMLSLT (indexed)"),
    S(0xffa0e000, 0x44a0c000, SVE, 0, "SMULLB, SMULLT, UMULLB, UMULLT (indexed)"),
    S(0xffa0f000, 0x44a0e000, SVE, 0, "SQDMULLB, SQDMULLT (indexed)"),
    SA(0xff20f000, 0x4420f000, SVE, 10, 2, 0, B(0) | B(1) | B(2),
       "SQDMULH, SQRDMULH, MUL (indexed)"),
    /* ---- 0x45, bit [21] 0: SVE2 widening, long, complex, bitwise shift, accumulate ---- */
    U(0xffe0c000, 0x45000000, "SADDLB ... UABDLT, size 00"),
    U(0xff20f000, 0x45002000, "SVE2 integer add/subtract long, op 1 S 0"),
    S(0xff20c000, 0x45000000, SVE, 0, "SADDLB, SSUBLB, UADDLT, SABDLB, UABDLT ..."),
    U(0xffe0e000, 0x45004000, "SADDWB ... USUBWT, size 00"),
    S(0xff20e000, 0x45004000, SVE, 0, "SADDWB, SADDWT, SSUBWB, UADDWB ..."),
    U(0xffe0f800, 0x45806800, "PMULLB, PMULLT, size 10"),
    S(0xff20f800, 0x45006800, SVE, 0, "PMULLB, PMULLT"),
    U(0xffe0e000, 0x45006000, "SQDMULLB ... UMULLT (vectors), size 00"),
    S(0xff20e000, 0x45006000, SVE, 0, "SQDMULLB, SQDMULLT, SMULLB, SMULLT, UMULLB, UMULLT"),
    U(0xffe0f000, 0x45008000, "SADDLBT, SSUBLBT, SSUBLTB, size 00"),
    S(0xff20fc00, 0x45008000, SVE, 0, "SADDLBT"),
    S(0xff20f800, 0x45008800, SVE, 0, "SSUBLBT, SSUBLTB"),
    S(0xff20f800, 0x45009000, SVE, 0, "EORBT, EORTB"),
    U(0xffe0fc00, 0x45409800, "MMLA, uns 01"),
    S(0xff20fc00, 0x45009800, SVE, 0, "SMMLA, USMMLA, UMMLA"),
    U(0xfff8f000, 0x4500a000, "shift left long, tsz 0"),
    S(0xffa0f000, 0x4500a000, SVE, 0, "SSHLLB, SSHLLT, USHLLB, USHLLT"),
    SA(0xff20f000, 0x4500b000, SVE, 10, 2, 0, B(0) | B(1) | B(2), "BEXT, BDEP, BGRP"),
    U(0xffe0f000, 0x4500c000, "SABALB ... UABALT, size 00"),
    S(0xff20f000, 0x4500c000, SVE, 0, "SABALB, SABALT, UABALB, UABALT"),
    S(0xff20f800, 0x4500d000, SVE, 0, "ADCLB, ADCLT, SBCLB, SBCLT"),
    S(0xff3ef800, 0x4500d800, SVE, 0, "CADD, SQCADD"),
    S(0xff20f800, 0x4500f800, SVE, 0, "SABA, UABA"),
    SC(0xff20e000, 0x4500e000, SVE, CK_TSZ, 0, "SSRA, USRA, SRSRA, URSRA, SRI, SLI"),
    /* ---- 0x45, bit [21] 1: narrowing, match, histogram, crypto ---- */
    U(0xfff8c000, 0x45200000, "shift right narrow, tsz 0"),
    S(0xffa0c000, 0x45200000, SVE, 0, "SHRNB, RSHRNB, SQSHRUNB, SQRSHRNB, UQSHRNB ..."),
    U(0xffffe000, 0x45204000, "extract narrow, tsz 0"),
    S(0xffa7e000, 0x45204000, SVE, 0, "SQXTNB, SQXTNT, UQXTNB, UQXTNT, SQXTUNB, SQXTUNT"),
    U(0xffe0e000, 0x45206000, "ADDHNB ... RSUBHNT, size 00"),
    S(0xff20e000, 0x45206000, SVE, 0, "ADDHNB, ADDHNT, RADDHNB, SUBHNB, RSUBHNT ..."),
    S(0xffa0e000, 0x45208000, SVE, 0, "MATCH, NMATCH"),
    S(0xffe0fc00, 0x4520a000, SVE, 0, "HISTSEG"),
    S(0xffa0e000, 0x45a0c000, SVE, P, "HISTCNT"),
    S(0xfffff800, 0x4522e000, SVE, 0, "AESE, AESD"),
    S(0xfffffbe0, 0x4520e000, SVE, 0, "AESMC, AESIMC"),
    S(0xfffffc00, 0x4523e000, SVE, 0, "SM4E"),
    S(0xffe0fc00, 0x4520f000, SVE, 0, "SM4EKEY"),
    S(0xffe0fc00, 0x4520f400, SVE, 0, "RAX1"),

    /* ---- 0x64, bit [21] 0: complex, pairwise, converts (predicated) ---- */
    S(0xffffe000, 0x640aa000, SVE, P | FP, "FCVTXNT"),
    S(0xfffee000, 0x6488a000, SVE, P | FP, "FCVTNT, FCVTLT (half)"),
    S(0xfffee000, 0x64caa000, SVE, P | FP, "FCVTNT, FCVTLT (single)"),
    S(0xffffe000, 0x648aa000, SVE, P | FP, "BFCVTNT"),
    U(0xffe00000, 0x64000000, "FP complex and pairwise operations, size 00"),
    S(0xff208000, 0x64000000, SVE, P | FP, "FCMLA (vectors)"),
    S(0xff3ee000, 0x64008000, SVE, P | FP, "FCADD"),
    SA(0xff38e000, 0x64108000, SVE, 16, 3, P | FP, B(0) | B(4) | B(5) | B(6) | B(7),
       "FADDP, FMAXNMP, FMINNMP, FMAXP, FMINP"),
    /* ---- 0x64, bit [21] 1: multiply-add (indexed), long, dot product, matrix ---- */
    S(0xff20f800, 0x64200000, SVE, FP, "FMLA, FMLS (indexed)"),
    S(0xffa0f000, 0x64a01000, SVE, FP, "FCMLA (indexed)"),
    S(0xff20fc00, 0x64202000, SVE, FP, "FMUL (indexed)"),
    S(0xffe0fc00, 0x64604000, SVE, FP, "BFDOT (indexed)"),
    S(0xffe0f000, 0x64a04000, SVE, FP, "FMLALB, FMLALT (indexed)"),
    S(0xffe0f000, 0x64e04000, SVE, FP, "BFMLALB, BFMLALT (indexed)"),
    S(0xffe0f000, 0x64a06000, SVE, FP, "FMLSLB, FMLSLT (indexed)"),
    S(0xffe0fc00, 0x64608000, SVE, FP, "BFDOT (vectors)"),
    S(0xffe0f800, 0x64a08000, SVE, FP, "FMLALB, FMLALT (vectors)"),
    S(0xffe0f800, 0x64e08000, SVE, FP, "BFMLALB, BFMLALT (vectors)"),
    S(0xffe0f800, 0x64a0a000, SVE, FP, "FMLSLB, FMLSLT (vectors)"),
    U(0xffe0fc00, 0x6420e400, "FMMLA, size 00"),
    S(0xff20fc00, 0x6420e400, SVE, FP, "FMMLA, BFMMLA"),
    /* ---- 0x65: no 8-bit floating-point elements, except the converts below ---- */
    /* SVE floating-point convert precision / to and from integer, round to integral,
       FRECPX, FSQRT, FLOGB (predicated): bits [20:16] by size */
    SA(0xffe0e000, 0x6500a000, SVE, 16, 5, P | FP, B(10) | B(26) | B(28) | B(30), "FCVTX, FLOGB"),
    SA(0xffe0e000, 0x6540a000, SVE, 16, 5, P | FP,
       FRINT | B(12) | B(13) | B(18) | B(19) | B(20) | B(21) | B(22) | B(23) | B(26) | B(27) |
           B(28) | B(29) | B(30) | B(31),
       "FRINT*, FRECPX, FSQRT, SCVTF, UCVTF, FCVTZS, FCVTZU (half)"),
    SA(0xffe0e000, 0x6580a000, SVE, 16, 5, P | FP,
       FRINT | B(8) | B(9) | B(10) | B(12) | B(13) | B(20) | B(21) | B(28) | B(29),
       "FRINT*, FCVT, BFCVT, FRECPX, FSQRT, SCVTF, UCVTF, FCVTZS, FCVTZU (single)"),
    SA(0xffe0e000, 0x65c0a000, SVE, 16, 5, P | FP,
       FRINT | B(8) | B(9) | B(10) | B(11) | B(12) | B(13) | B(16) | B(17) | B(20) | B(21) | B(22) |
           B(23) | B(24) | B(25) | B(28) | B(29) | B(30) | B(31),
       "FRINT*, FCVT, FRECPX, FSQRT, SCVTF, UCVTF, FCVTZS, FCVTZU (double)"),
    U(0xffc00000, 0x65000000, "SVE floating-point, size 00"),
    /* SVE floating-point arithmetic (unpredicated) */
    SA(0xff20e000, 0x65000000, SVE, 10, 3, FP, B(0) | B(1) | B(2) | B(3) | B(6) | B(7),
       "FADD, FSUB, FMUL, FTSMUL, FRECPS, FRSQRTS (unpredicated)"),
    /* SVE floating-point recursive reduction, unary (unpredicated), compare with zero,
       serial reduction */
    SA(0xff38e000, 0x65002000, SVE, 16, 3, FP, B(0) | B(4) | B(5) | B(6) | B(7),
       "FADDV, FMAXNMV, FMINNMV, FMAXV, FMINV"),
    S(0xff3efc00, 0x650e3000, SVE, FP, "FRECPE, FRSQRTE"),
    U(0xff3ce010, 0x65112010, "FCMxx (zero), eq 1 ne 1"),
    S(0xff3ce000, 0x65102000, SVE, FP, "FCMGE, FCMGT, FCMLT, FCMLE, FCMEQ, FCMNE (zero)"),
    S(0xff3fe000, 0x65182000, SVE, FP, "FADDA"),
    /* SVE floating-point compare vectors */
    U(0xff20e010, 0x6500e000, "FP compare, op 1 o2 1 o3 0"),
    S(0xff204000, 0x65004000, SVE, FP, "FCMGE, FCMGT, FCMEQ, FCMNE, FCMUO, FACGE, FACGT"),
    /* SVE floating-point arithmetic (predicated), trig multiply-add, arithmetic with
       immediate */
    SA(0xff30e000, 0x65008000, SVE, 16, 4, P | FP, 0x3fffu ^ B(11),
       "FADD, FSUB, FMUL, FSUBR, FMAXNM, FMINNM, FMAX, FMIN, FABD, FSCALE, FMULX, FDIVR, FDIV"),
    S(0xff38fc00, 0x65108000, SVE, FP, "FTMAD"),
    S(0xff38e3c0, 0x65188000, SVE, P | FP, "FADD ... FMIN (immediate)"),
    /* SVE floating-point multiply-accumulate writing addend / multiplicand */
    S(0xff200000, 0x65200000, SVE, P | FP, "FMLA, FMLS, FNMLA, FNMLS, FMAD, FMSB, FNMAD, FNMSB"),
};

static bool check_ok(unsigned check, uint32_t insn)
{
    switch (check) {
    case CK_TSZ_PRED:
        return (a64_bits(insn, 23, 22) | a64_bits(insn, 9, 8)) != 0;
    case CK_TSZ:
        return (a64_bits(insn, 23, 22) | a64_bits(insn, 20, 19)) != 0;
    case CK_BITMASK:
        return a64_valid_bitmask(a64_bits(insn, 17, 17), a64_bits(insn, 10, 5), true);
    default:
        return true;
    }
}

bool a64_decode_sve(uint32_t insn, armprof_a64_insn *out)
{
    for (size_t i = 0; i < sizeof sve_rows / sizeof sve_rows[0]; i++) {
        const sve_row *r = &sve_rows[i];
        if ((insn & r->mask) != r->value) continue;
        if (r->kind == K_UNDEF) return a64_undefined(out);
        if (!check_ok(r->check, insn)) return a64_undefined(out);
        if (r->op_bits && !(r->allow >> a64_bits(insn, r->op_lo + r->op_bits - 1u, r->op_lo) & 1))
            return a64_undefined(out);
        const a64_row row = ROW(r->mask, r->value, r->kind, 0, r->flags, 0, r->name);
        a64_apply(out, &row);
        out->sve = true;
        return true;
    }
    return a64_undefined(out);
}
