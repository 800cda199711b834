/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "Data Processing -- Scalar Floating-Point and Advanced SIMD" (op1
 * x111): the Advanced SIMD vector and scalar groups (Other, .simd), the
 * cryptographic extensions (.simd) and the scalar floating-point groups
 * (Other, .fp; FCSEL and FCCMP are conditional). Within a group, an opcode
 * table says which (U, opcode, size, Q) are allocated and which are
 * floating-point. */
#include "a64/a64_internal.h"

/* One opcode of a group: the sizes (bit n for size n) for which it is
 * floating-point, and those allocated with Q 0 and with Q 1 (scalar
 * groups: q1). */
typedef struct simd_op {
    uint8_t fp, q0, q1;
} simd_op;

/* clang-format off */
#define N_        {0, 0, 0}
#define I(a, b)   {0, (a), (b)}
#define F(a, b)   {0xf, (a), (b)}
#define FA0(a, b) {0x3, (a), (b)} /* floating-point when size<1> is 0 only */
/* Sizes */
#define ALL  0xf
#define NO64 0x7 /* B, H, S */
#define HS   0x6
#define SZB  0x1
#define SZH  0x2
#define SZS  0x4
#define SZD  0x8
/* FP with sz = size<0>: a = size<1> selects the instruction (both, or 0 only, or 1 only) */
#define A01 F(0x5, 0xf)
#define A0  F(0x1, 0x3)
#define A1  F(0x4, 0xc)

/* AdvSIMD three same: U:opcode (bits [15:11]) */
static const simd_op three_same[64] = {
    /* U = 0 */
    I(NO64, NO64), I(NO64, ALL),  I(NO64, NO64), I(ALL, ALL),   /* SHADD SQADD SRHADD AND/BIC/ORR/ORN */
    I(NO64, NO64), I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  /* SHSUB SQSUB CMGT CMGE */
    I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  /* SSHL SQSHL SRSHL SQRSHL */
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* SMAX SMIN SABD SABA */
    I(NO64, ALL),  I(NO64, ALL),  I(NO64, NO64), I(NO64, NO64), /* ADD CMTST MLA MUL */
    I(NO64, NO64), I(NO64, NO64), I(HS, HS),     I(NO64, ALL),  /* SMAXP SMINP SQDMULH ADDP */
    A01, A01, A01, A0,            /* FMAXNM/FMINNM FMLA/FMLS FADD/FSUB FMULX */
    A0, F(ALL, ALL), A01, A01,    /* FCMEQ FMLAL/FMLSL (size<0> should be zero) FMAX/FMIN FRECPS/FRSQRTS */
    /* U = 1 */
    I(NO64, NO64), I(NO64, ALL),  I(NO64, NO64), I(ALL, ALL),   /* UHADD UQADD URHADD EOR/BSL/BIT/BIF */
    I(NO64, NO64), I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  /* UHSUB UQSUB CMHI CMHS */
    I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  /* USHL UQSHL URSHL UQRSHL */
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* UMAX UMIN UABD UABA */
    I(NO64, ALL),  I(NO64, ALL),  I(NO64, NO64), I(SZB, SZB),   /* SUB CMEQ MLS PMUL */
    I(NO64, NO64), I(NO64, NO64), I(HS, HS),     N_,            /* UMAXP UMINP SQRDMULH - */
    A01, F(ALL, ALL), A01, A0,    /* FMAXNMP/FMINNMP FMLAL2/FMLSL2 FADDP/FABD FMUL */
    A01, A01, A01, A0,            /* FCMGE/FCMGT FACGE/FACGT FMAXP/FMINP FDIV */
};

/* AdvSIMD three same (FP16): U:a:opcode (bits [29], [23], [13:11]) */
static const simd_op three_same_fp16[32] = {
    A01, A01, A01, A01, A01, N_,  A01, A01, /* U 0 a 0: FMAXNM FMLA FADD FMULX FCMEQ - FMAX FRECPS */
    A01, A01, A01, N_,  N_,  N_,  A01, A01, /* U 0 a 1: FMINNM FMLS FSUB - - - FMIN FRSQRTS */
    A01, N_,  A01, A01, A01, A01, A01, A01, /* U 1 a 0: FMAXNMP - FADDP FMUL FCMGE FACGE FMAXP FDIV */
    A01, N_,  A01, N_,  A01, A01, A01, N_,  /* U 1 a 1: FMINNMP - FABD - FCMGT FACGT FMINP - */
};

/* AdvSIMD three-register extension: U:opcode (bits [14:11]) */
static const simd_op three_ext[32] = {
    /* U 0: - - SDOT USDOT SMMLA USMMLA */
    N_, N_, I(SZS, SZS), I(SZS, SZS), I(0, SZS), I(0, SZS), N_, N_,
    N_, N_, N_, N_, N_, N_, N_, N_,
    /* U 1: SQRDMLAH SQRDMLSH UDOT - UMMLA */
    I(HS, HS), I(HS, HS), I(SZS, SZS), N_, I(0, SZS), N_, N_, N_,
    /* FCMLA x4, FCADD, BFMMLA, FCADD, BFDOT/BFMLALB/BFMLALT */
    F(HS, HS | SZD), F(HS, HS | SZD), F(HS, HS | SZD), F(HS, HS | SZD),
    F(HS, HS | SZD), F(0, SZH), F(HS, HS | SZD), F(SZH | SZD, SZH | SZD),
};

/* AdvSIMD three different: U:opcode (bits [15:12]) */
static const simd_op three_diff[32] = {
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* SADDL SADDW SSUBL SSUBW */
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* ADDHN SABAL SUBHN SABDL */
    I(NO64, NO64), I(HS, HS),     I(NO64, NO64), I(HS, HS),     /* SMLAL SQDMLAL SMLSL SQDMLSL */
    I(NO64, NO64), I(HS, HS), I(SZB | SZD, SZB | SZD), N_,      /* SMULL SQDMULL PMULL - */
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* UADDL UADDW USUBL USUBW */
    I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), I(NO64, NO64), /* RADDHN UABAL RSUBHN UABDL */
    I(NO64, NO64), N_,            I(NO64, NO64), N_,            /* UMLAL - UMLSL - */
    I(NO64, NO64), N_,            N_,            N_,            /* UMULL - - - */
};

/* AdvSIMD two-register miscellaneous: U:opcode (bits [16:12]) */
static const simd_op two_misc[64] = {
    /* U = 0 */
    I(NO64, NO64), I(SZB, SZB),   I(NO64, NO64), I(NO64, ALL), /* REV64 REV16 SADDLP SUQADD */
    I(NO64, NO64), I(SZB, SZB),   I(NO64, NO64), I(NO64, ALL), /* CLS CNT SADALP SQABS */
    I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL),  I(NO64, ALL), /* CMGT CMEQ CMLT ABS (zero) */
    A1, A1, A1, A1,                                            /* FCMGT FCMEQ FCMLT (zero) FABS */
    N_, N_, I(NO64, NO64), N_,                                 /* - - XTN - */
    I(NO64, NO64), N_, F(NO64, NO64), F(0x3, 0x3),             /* SQXTN - FCVTN/BFCVTN FCVTL */
    A01, A01, A01, A01,            /* FRINTN/FRINTP FRINTM/FRINTZ FCVTNS/FCVTPS FCVTMS/FCVTZS */
    FA0(0x5, 0x7), A01, A0, A0,    /* FCVTAS/URECPE SCVTF/FRECPE FRINT32Z FRINT64Z */
    /* U = 1 */
    I(0x3, 0x3),   N_,            I(NO64, NO64), I(NO64, ALL), /* REV32 - UADDLP USQADD */
    I(NO64, NO64), I(0x3, 0x3),   I(NO64, NO64), I(NO64, ALL), /* CLZ NOT/RBIT UADALP SQNEG */
    I(NO64, ALL),  I(NO64, ALL),  N_,            I(NO64, ALL), /* CMGE CMLE (zero) - NEG */
    A1, A1, N_, A1,                                            /* FCMGE FCMLE (zero) - FNEG */
    N_, N_, I(NO64, NO64), I(NO64, NO64),                      /* - - SQXTUN SHLL */
    I(NO64, NO64), N_, F(SZH, SZH), N_,                        /* UQXTN - FCVTXN - */
    A0, A01, A01, A01,             /* FRINTA FRINTX/FRINTI FCVTNU/FCVTPU FCVTMU/FCVTZU */
    FA0(0x5, 0x7), A01, A0, A01,   /* FCVTAU/URSQRTE UCVTF/FRSQRTE FRINT32X FRINT64X/FSQRT */
};

/* AdvSIMD two-register miscellaneous (FP16): U:a:opcode (bits [29], [23], [16:12]) */
#define X_ A01
static const simd_op two_misc_fp16[128] = {
    /* U 0 a 0: FRINTN FRINTM FCVTNS FCVTMS FCVTAS SCVTF */
    [0x18] = X_, [0x19] = X_, [0x1a] = X_, [0x1b] = X_, [0x1c] = X_, [0x1d] = X_,
    /* U 0 a 1: FCMGT FCMEQ FCMLT FABS (zero), FRINTP FRINTZ FCVTPS FCVTZS, FRECPE */
    [0x2c] = X_, [0x2d] = X_, [0x2e] = X_, [0x2f] = X_,
    [0x38] = X_, [0x39] = X_, [0x3a] = X_, [0x3b] = X_, [0x3d] = X_,
    /* U 1 a 0: FRINTA FRINTX FCVTNU FCVTMU FCVTAU UCVTF */
    [0x58] = X_, [0x59] = X_, [0x5a] = X_, [0x5b] = X_, [0x5c] = X_, [0x5d] = X_,
    /* U 1 a 1: FCMGE FCMLE (zero), FNEG, FRINTI FCVTPU FCVTZU, FRSQRTE, FSQRT */
    [0x6c] = X_, [0x6d] = X_, [0x6f] = X_,
    [0x79] = X_, [0x7a] = X_, [0x7b] = X_, [0x7d] = X_, [0x7f] = X_,
};

/* AdvSIMD across lanes: U:opcode (bits [16:12]) */
static const simd_op across[64] = {
    [0x03] = I(0x3, 0x7), /* SADDLV */
    [0x0a] = I(0x3, 0x7), /* SMAXV */
    [0x0c] = F(0x5, 0x5), /* FMAXNMV/FMINNMV (half) */
    [0x0f] = F(0x5, 0x5), /* FMAXV/FMINV (half) */
    [0x1a] = I(0x3, 0x7), /* SMINV */
    [0x1b] = I(0x3, 0x7), /* ADDV */
    [0x23] = I(0x3, 0x7), /* UADDLV */
    [0x2a] = I(0x3, 0x7), /* UMAXV */
    [0x2c] = F(0, 0x5),   /* FMAXNMV/FMINNMV (single) */
    [0x2f] = F(0, 0x5),   /* FMAXV/FMINV (single) */
    [0x3a] = I(0x3, 0x7), /* UMINV */
};

/* AdvSIMD vector x indexed element: U:opcode (bits [15:12]) */
#define FPIDX F(0x5, 0xd) /* half, single; double with Q 1 */
static const simd_op indexed[32] = {
    F(SZS, SZS), FPIDX,     I(HS, HS),   I(HS, HS),      /* FMLAL FMLA SMLAL SQDMLAL */
    F(SZS, SZS), FPIDX,     I(HS, HS),   I(HS, HS),      /* FMLSL FMLS SMLSL SQDMLSL */
    I(HS, HS),   FPIDX,     I(HS, HS),   I(HS, HS),      /* MUL FMUL SMULL SQDMULL */
    I(HS, HS),   I(HS, HS), I(SZS, SZS), {0xa, ALL, ALL}, /* SQDMULH SQRDMULH SDOT SUDOT/BFDOT/USDOT/BFMLAL */
    I(HS, HS),   F(SZH, HS), I(HS, HS),  F(SZH, HS),     /* MLA FCMLA UMLAL FCMLA */
    I(HS, HS),   F(SZH, HS), I(HS, HS),  F(SZH, HS),     /* MLS FCMLA UMLSL FCMLA */
    F(SZS, SZS), FPIDX,     I(HS, HS),   N_,             /* FMLAL2 FMULX UMULL - */
    F(SZS, SZS), I(HS, HS), I(SZS, SZS), I(HS, HS),      /* FMLSL2 SQRDMLAH UDOT SQRDMLSH */
};

/* AdvSIMD scalar three same: U:opcode (bits [15:11]) */
#define SC_A01 F(0, 0x3 | 0xc) /* FP scalar: S, D for each a */
#define SC_A0  F(0, 0x3)
#define SC_A1  F(0, 0xc)
static const simd_op sc_three_same[64] = {
    [0x01] = I(0, ALL), [0x05] = I(0, ALL), [0x06] = I(0, SZD), [0x07] = I(0, SZD),
    [0x08] = I(0, SZD), [0x09] = I(0, ALL), [0x0a] = I(0, SZD), [0x0b] = I(0, ALL),
    [0x10] = I(0, SZD), [0x11] = I(0, SZD), [0x16] = I(0, HS),  [0x1b] = SC_A0, /* FMULX */
    [0x1c] = SC_A0,                                                             /* FCMEQ */
    [0x1f] = SC_A01,                                                            /* FRECPS/FRSQRTS */
    [0x21] = I(0, ALL), [0x25] = I(0, ALL), [0x26] = I(0, SZD), [0x27] = I(0, SZD),
    [0x28] = I(0, SZD), [0x29] = I(0, ALL), [0x2a] = I(0, SZD), [0x2b] = I(0, ALL),
    [0x30] = I(0, SZD), [0x31] = I(0, SZD), [0x36] = I(0, HS),  [0x3a] = SC_A1, /* FABD */
    [0x3c] = SC_A01,                                                            /* FCMGE/FCMGT */
    [0x3d] = SC_A01,                                                            /* FACGE/FACGT */
};

/* AdvSIMD scalar three same (FP16): U:a:opcode */
static const simd_op sc_three_same_fp16[32] = {
    [0x03] = X_, [0x04] = X_, [0x07] = X_, /* FMULX FCMEQ FRECPS */
    [0x0f] = X_,                           /* FRSQRTS */
    [0x14] = X_, [0x15] = X_,              /* FCMGE FACGE */
    [0x1a] = X_, [0x1c] = X_, [0x1d] = X_, /* FABD FCMGT FACGT */
};

/* AdvSIMD scalar two-register miscellaneous: U:opcode (bits [16:12]) */
static const simd_op sc_two_misc[64] = {
    [0x03] = I(0, ALL),  [0x07] = I(0, ALL),  [0x08] = I(0, SZD), [0x09] = I(0, SZD),
    [0x0a] = I(0, SZD),  [0x0b] = I(0, SZD),  [0x0c] = SC_A1,     [0x0d] = SC_A1,
    [0x0e] = SC_A1,      [0x14] = I(0, NO64), [0x1a] = SC_A01,    [0x1b] = SC_A01,
    [0x1c] = SC_A0,      [0x1d] = SC_A01,     [0x1f] = SC_A1, /* FRECPX */
    [0x23] = I(0, ALL),  [0x27] = I(0, ALL),  [0x28] = I(0, SZD), [0x29] = I(0, SZD),
    [0x2b] = I(0, SZD),  [0x2c] = SC_A1,      [0x2d] = SC_A1,     [0x32] = I(0, NO64),
    [0x34] = I(0, NO64), [0x36] = F(0, SZH), /* FCVTXN */
    [0x3a] = SC_A01,     [0x3b] = SC_A01,     [0x3c] = SC_A0,     [0x3d] = SC_A01,
};

/* AdvSIMD scalar two-register miscellaneous (FP16): U:a:opcode */
static const simd_op sc_two_misc_fp16[128] = {
    [0x1a] = X_, [0x1b] = X_, [0x1c] = X_, [0x1d] = X_, /* FCVTNS FCVTMS FCVTAS SCVTF */
    [0x2c] = X_, [0x2d] = X_, [0x2e] = X_,              /* FCMGT FCMEQ FCMLT (zero) */
    [0x3a] = X_, [0x3b] = X_, [0x3d] = X_, [0x3f] = X_, /* FCVTPS FCVTZS FRECPE FRECPX */
    [0x5a] = X_, [0x5b] = X_, [0x5c] = X_, [0x5d] = X_, /* FCVTNU FCVTMU FCVTAU UCVTF */
    [0x6c] = X_, [0x6d] = X_,                           /* FCMGE FCMLE (zero) */
    [0x7a] = X_, [0x7b] = X_, [0x7d] = X_,              /* FCVTPU FCVTZU FRSQRTE */
};

/* AdvSIMD scalar pairwise: U:opcode (bits [16:12]) */
static const simd_op sc_pairwise[64] = {
    [0x1b] = I(0, SZD), /* ADDP */
    [0x0c] = F(0, 0x5), /* FMAXNMP/FMINNMP (half) */
    [0x0d] = F(0, SZB), /* FADDP (half) */
    [0x0f] = F(0, 0x5), /* FMAXP/FMINP (half) */
    [0x2c] = F(0, ALL), /* FMAXNMP/FMINNMP */
    [0x2d] = F(0, 0x3), /* FADDP */
    [0x2f] = F(0, ALL), /* FMAXP/FMINP */
};

/* AdvSIMD scalar three different: U:opcode (bits [15:12]) */
static const simd_op sc_three_diff[32] = {
    [0x09] = I(0, HS), [0x0b] = I(0, HS), [0x0d] = I(0, HS), /* SQDMLAL SQDMLSL SQDMULL */
};

/* AdvSIMD scalar three same extra: U:opcode (bits [14:11]) */
static const simd_op sc_three_extra[32] = {
    [0x10] = I(0, HS), [0x11] = I(0, HS), /* SQRDMLAH SQRDMLSH */
};

/* AdvSIMD scalar x indexed element: U:opcode (bits [15:12]) */
#define SC_FPIDX F(0, 0xd)
static const simd_op sc_indexed[32] = {
    [0x01] = SC_FPIDX, [0x03] = I(0, HS), [0x05] = SC_FPIDX, [0x07] = I(0, HS),
    [0x09] = SC_FPIDX, [0x0b] = I(0, HS), [0x0c] = I(0, HS), [0x0d] = I(0, HS),
    [0x19] = SC_FPIDX, [0x1d] = I(0, HS), [0x1f] = I(0, HS),
};

/* Shift by immediate: the immh rule of U:opcode (bits [15:11]). */
enum { SH_NONE, SH_D, SH_ANY, SH_NARROW, SH_FP };
static const uint8_t shift_rule[64] = {
    [0x00] = SH_D,      [0x02] = SH_D,      [0x04] = SH_D,
    [0x06] = SH_D,                                              /* SSHR SSRA SRSHR SRSRA */
    [0x0a] = SH_D,      [0x0e] = SH_ANY,                        /* SHL SQSHL */
    [0x10] = SH_NARROW, [0x11] = SH_NARROW,                     /* SHRN RSHRN */
    [0x12] = SH_NARROW, [0x13] = SH_NARROW, [0x14] = SH_NARROW, /* SQSHRN SQRSHRN SSHLL */
    [0x1c] = SH_FP,     [0x1f] = SH_FP,                         /* SCVTF FCVTZS */
    [0x20] = SH_D,      [0x22] = SH_D,      [0x24] = SH_D,
    [0x26] = SH_D, /* USHR USRA URSHR URSRA */
    [0x28] = SH_D,      [0x2a] = SH_D,      [0x2c] = SH_ANY,
    [0x2e] = SH_ANY,                                            /* SRI SLI SQSHLU UQSHL */
    [0x30] = SH_NARROW, [0x31] = SH_NARROW, [0x32] = SH_NARROW, /* SQSHRUN SQRSHRUN UQSHRN */
    [0x33] = SH_NARROW, [0x34] = SH_NARROW,                     /* UQRSHRN USHLL */
    [0x3c] = SH_FP,     [0x3f] = SH_FP,                         /* UCVTF FCVTZU */
};

/* clang-format on */

enum {
    G_NONE,
    G_TABLE,        /* U:opcode; sizes by Q */
    G_TABLE_A,      /* U:a:opcode; allocated or not */
    G_SC_TABLE,     /* scalar: U:opcode; sizes */
    G_SC_TABLE_A,   /* scalar: U:a:opcode */
    G_SHIFT,        /* vector shift by immediate */
    G_SC_SHIFT,     /* scalar shift by immediate */
    G_COPY,         /* DUP, INS, SMOV, UMOV */
    G_SC_COPY,      /* DUP (scalar) */
    G_MODIMM,       /* MOVI, MVNI, ORR, BIC, FMOV (vector, immediate) */
    G_PERMUTE,      /* UZP, TRN, ZIP */
    G_EXTRACT,      /* EXT */
    G_TABLE_LOOKUP, /* TBL, TBX */
    G_AES,
    G_SHA3,     /* SHA1C ... SHA256SU1 */
    G_SHA2,     /* SHA1H, SHA1SU1, SHA256SU0 */
    G_CRYPTO4,  /* EOR3, BCAX, SM3SS1 */
    G_SHA512_3, /* SHA512H ... SM4EKEY */
    G_SHA512_2, /* SHA512SU0, SM4E */
    G_FP,       /* scalar FP: M, S 0 and ptype != 10 */
    G_FP_FIXED, /* conversion between FP and fixed-point */
    G_FP_INT,   /* conversion between FP and integer */
    G_FP_1SRC,  /* FP data-processing (1 source) */
    G_FP_2SRC,  /* FP data-processing (2 source) */
    G_FP_CMP,   /* FP compare */
};

typedef struct simd_row {
    uint32_t mask, value;
    uint8_t kind;         /* K_OTHER_SIMD or K_OTHER_FP */
    uint8_t group;        /* G_* */
    uint8_t op_hi, op_lo; /* the opcode field of G_TABLE* */
    uint16_t flags;
    const simd_op *ops;
    const char *name;
} simd_row;

/* clang-format off */
#define SROW(m, v, k, g, hi, lo, fl, t, n) {(m), (v), (k), (g), (hi), (lo), (fl), (t), (n)}
/* clang-format on */

static const simd_row simd_rows[] = {
    /* Cryptographic AES, three-register SHA, two-register SHA */
    SROW(0xff3e0c00, 0x4e280800, K_OTHER_SIMD, G_AES, 16, 12, 0, NULL, "AESE, AESD, AESMC, AESIMC"),
    SROW(0xff208c00, 0x5e000000, K_OTHER_SIMD, G_SHA3, 14, 12, 0, NULL, "SHA1C ... SHA256SU1"),
    SROW(0xff3e0c00, 0x5e280800, K_OTHER_SIMD, G_SHA2, 16, 12, 0, NULL,
         "SHA1H, SHA1SU1, SHA256SU0"),
    /* Cryptographic four-register, three-register imm2, SHA512 three-register, XAR, SHA512
       two-register */
    SROW(0xffe0c000, 0xce408000, K_OTHER_SIMD, G_NONE, 0, 0, 0, NULL, "SM3TT1A/1B/2A/2B"),
    SROW(0xffe0b000, 0xce608000, K_OTHER_SIMD, G_SHA512_3, 0, 0, 0, NULL, "SHA512H ... SM4EKEY"),
    SROW(0xff808000, 0xce000000, K_OTHER_SIMD, G_CRYPTO4, 0, 0, 0, NULL, "EOR3, BCAX, SM3SS1"),
    SROW(0xffe00000, 0xce800000, K_OTHER_SIMD, G_NONE, 0, 0, 0, NULL, "XAR"),
    SROW(0xfffff000, 0xcec08000, K_OTHER_SIMD, G_SHA512_2, 0, 0, 0, NULL, "SHA512SU0, SM4E"),

    /* AdvSIMD scalar groups (bits [31:30] 01, [28] 1) */
    SROW(0xdfe08400, 0x5e000400, K_OTHER_SIMD, G_SC_COPY, 0, 0, 0, NULL, "DUP (element, scalar)"),
    SROW(0xdf60c400, 0x5e400400, K_OTHER_SIMD, G_SC_TABLE_A, 13, 11, 0, sc_three_same_fp16,
         "AdvSIMD scalar three same FP16"),
    SROW(0xdf7e0c00, 0x5e780800, K_OTHER_SIMD, G_SC_TABLE_A, 16, 12, 0, sc_two_misc_fp16,
         "AdvSIMD scalar two-register miscellaneous FP16"),
    SROW(0xdf208400, 0x5e008400, K_OTHER_SIMD, G_SC_TABLE, 14, 11, 0, sc_three_extra,
         "AdvSIMD scalar three same extra"),
    SROW(0xdf3e0c00, 0x5e200800, K_OTHER_SIMD, G_SC_TABLE, 16, 12, 0, sc_two_misc,
         "AdvSIMD scalar two-register miscellaneous"),
    SROW(0xdf3e0c00, 0x5e300800, K_OTHER_SIMD, G_SC_TABLE, 16, 12, 0, sc_pairwise,
         "AdvSIMD scalar pairwise"),
    SROW(0xdf200c00, 0x5e200000, K_OTHER_SIMD, G_SC_TABLE, 15, 12, 0, sc_three_diff,
         "AdvSIMD scalar three different"),
    SROW(0xdf200400, 0x5e200400, K_OTHER_SIMD, G_SC_TABLE, 15, 11, 0, sc_three_same,
         "AdvSIMD scalar three same"),
    SROW(0xdf800400, 0x5f000400, K_OTHER_SIMD, G_SC_SHIFT, 15, 11, 0, NULL,
         "AdvSIMD scalar shift by immediate"),
    SROW(0xdf000400, 0x5f000000, K_OTHER_SIMD, G_SC_TABLE, 15, 12, 0, sc_indexed,
         "AdvSIMD scalar x indexed element"),

    /* AdvSIMD vector groups (bit [31] 0, [28] 0) */
    SROW(0xbfe08c00, 0x0e000000, K_OTHER_SIMD, G_TABLE_LOOKUP, 0, 0, 0, NULL, "TBL, TBX"),
    SROW(0xbf208c00, 0x0e000800, K_OTHER_SIMD, G_PERMUTE, 14, 12, 0, NULL,
         "UZP1/2, TRN1/2, ZIP1/2"),
    SROW(0xbfe08400, 0x2e000000, K_OTHER_SIMD, G_EXTRACT, 0, 0, 0, NULL, "EXT"),
    SROW(0x9fe08400, 0x0e000400, K_OTHER_SIMD, G_COPY, 0, 0, 0, NULL, "DUP, INS, SMOV, UMOV"),
    SROW(0x9f60c400, 0x0e400400, K_OTHER_SIMD, G_TABLE_A, 13, 11, 0, three_same_fp16,
         "AdvSIMD three same (FP16)"),
    SROW(0x9f7e0c00, 0x0e780800, K_OTHER_SIMD, G_TABLE_A, 16, 12, 0, two_misc_fp16,
         "AdvSIMD two-register miscellaneous (FP16)"),
    SROW(0x9f208400, 0x0e008400, K_OTHER_SIMD, G_TABLE, 14, 11, 0, three_ext,
         "AdvSIMD three-register extension"),
    SROW(0x9f3e0c00, 0x0e200800, K_OTHER_SIMD, G_TABLE, 16, 12, 0, two_misc,
         "AdvSIMD two-register miscellaneous"),
    SROW(0x9f3e0c00, 0x0e300800, K_OTHER_SIMD, G_TABLE, 16, 12, 0, across, "AdvSIMD across lanes"),
    SROW(0x9f200c00, 0x0e200000, K_OTHER_SIMD, G_TABLE, 15, 12, 0, three_diff,
         "AdvSIMD three different"),
    SROW(0x9f200400, 0x0e200400, K_OTHER_SIMD, G_TABLE, 15, 11, 0, three_same,
         "AdvSIMD three same"),
    SROW(0x9ff80400, 0x0f000400, K_OTHER_SIMD, G_MODIMM, 0, 0, 0, NULL,
         "AdvSIMD modified immediate"),
    SROW(0x9f800400, 0x0f000400, K_OTHER_SIMD, G_SHIFT, 15, 11, 0, NULL,
         "AdvSIMD shift by immediate"),
    SROW(0x9f000400, 0x0f000000, K_OTHER_SIMD, G_TABLE, 15, 12, 0, indexed,
         "AdvSIMD vector x indexed element"),

    /* Scalar floating-point (bits [30] 0, [28:24] 11110 or 11111) */
    SROW(0x7f200000, 0x1e000000, K_OTHER_FP, G_FP_FIXED, 0, 0, 0, NULL,
         "Conversion between floating-point and fixed-point"),
    SROW(0x7f20fc00, 0x1e200000, K_OTHER_FP, G_FP_INT, 0, 0, 0, NULL,
         "Conversion between floating-point and integer"),
    SROW(0xff207c00, 0x1e204000, K_OTHER_FP, G_FP_1SRC, 0, 0, 0, NULL,
         "Floating-point data-processing (1 source)"),
    SROW(0xff203c00, 0x1e202000, K_OTHER_FP, G_FP_CMP, 0, 0, 0, NULL, "FCMP, FCMPE"),
    SROW(0xff201fe0, 0x1e201000, K_OTHER_FP, G_FP, 0, 0, 0, NULL, "FMOV (scalar, immediate)"),
    SROW(0xff200c00, 0x1e200400, K_OTHER_FP, G_FP, 0, 0, A64F_COND, NULL, "FCCMP, FCCMPE"),
    SROW(0xff200c00, 0x1e200800, K_OTHER_FP, G_FP_2SRC, 0, 0, 0, NULL,
         "Floating-point data-processing (2 source)"),
    SROW(0xff200c00, 0x1e200c00, K_OTHER_FP, G_FP, 0, 0, A64F_COND, NULL, "FCSEL"),
    SROW(0xff000000, 0x1f000000, K_OTHER_FP, G_FP, 0, 0, 0, NULL, "FMADD, FMSUB, FNMADD, FNMSUB"),
};

/* The element size encoded by imm5 (DUP, INS, SMOV, UMOV): 0..3, or -1. */
static int imm5_size(unsigned imm5)
{
    for (int s = 0; s < 4; s++)
        if (imm5 >> s & 1) return s;
    return -1;
}

/* The indexed forms' index constraints: a double-precision element has
 * one index bit (H, L 0); FCMLA's complex pairs of halves one or two (H
 * for Q 1), of singles one (H, L 0, Q 1). */
static bool indexed_ok(uint32_t insn, bool u, unsigned opcode, unsigned size, bool q, bool fp)
{
    const bool l = a64_bits(insn, 21, 21), h = a64_bits(insn, 11, 11);
    if (u && (opcode & 9) == 1) { /* FCMLA */
        if (size == 1) return q || !h;
        return !l && q;
    }
    return !(fp && size == 3 && l && opcode != 15); /* BFMLAL: H:L:M */
}

static bool group(armprof_a64_insn *o, const simd_row *r, uint32_t insn)
{
    const bool q = a64_bits(insn, 30, 30), u = a64_bits(insn, 29, 29);
    const unsigned size = a64_bits(insn, 23, 22);
    const unsigned width = (unsigned)(r->op_hi - r->op_lo + 1);
    const unsigned opcode = r->op_hi ? a64_bits(insn, r->op_hi, r->op_lo) : 0;
    const unsigned ptype = size;
    switch (r->group) {
    case G_TABLE:
    case G_SC_TABLE: {
        const simd_op *e = &r->ops[u << width | opcode];
        const unsigned ok = (r->group == G_SC_TABLE || q) ? e->q1 : e->q0;
        if (!(ok >> size & 1)) return false;
        o->fp = e->fp >> size & 1;
        if (r->group == G_TABLE && r->ops == indexed)
            return indexed_ok(insn, u, opcode, size, q, o->fp);
        if (r->ops == sc_indexed) return indexed_ok(insn, u, opcode, size, true, o->fp);
        return true;
    }
    case G_TABLE_A:
    case G_SC_TABLE_A: {
        const unsigned a = a64_bits(insn, 23, 23);
        const simd_op *e = &r->ops[(u << 1 | a) << width | opcode];
        if (!e->q1) return false;
        o->fp = true;
        return true;
    }
    case G_SHIFT:
    case G_SC_SHIFT: {
        const unsigned immh = a64_bits(insn, 22, 19), rule = shift_rule[u << 5 | opcode];
        const bool scalar = r->group == G_SC_SHIFT;
        if (rule == SH_NONE || immh == 0) return false;
        /* no scalar SHRN, RSHRN, SSHLL, USHLL (but SQSHRUN and SQRSHRUN) */
        if (scalar && (opcode == 0x14 || (!u && (opcode == 0x10 || opcode == 0x11)))) return false;
        switch (rule) {
        case SH_D:
            if (scalar ? !(immh & 8) : (immh & 8 && !q)) return false;
            break;
        case SH_ANY:
            if (!scalar && immh & 8 && !q) return false;
            break;
        case SH_NARROW:
            if (immh & 8) return false;
            break;
        default: /* SH_FP */
            if (immh == 1 || (!scalar && immh & 8 && !q)) return false;
            o->fp = true;
            break;
        }
        return true;
    }
    case G_COPY: {
        const unsigned imm5 = a64_bits(insn, 20, 16), imm4 = a64_bits(insn, 14, 11);
        const int s = imm5_size(imm5);
        if (s < 0) return false;
        if (u) return q; /* INS (element) */
        switch (imm4) {
        case 0: /* DUP (element) */
        case 1: /* DUP (general) */
            return !(s == 3 && !q);
        case 3: /* INS (general) */
            return q;
        case 5: /* SMOV */
            return s < (q ? 3 : 2);
        case 7: /* UMOV */
            return q ? s == 3 : s < 3;
        default:
            return false;
        }
    }
    case G_SC_COPY:
        return !u && a64_bits(insn, 14, 11) == 0 && imm5_size(a64_bits(insn, 20, 16)) >= 0;
    case G_MODIMM: {
        const unsigned cmode = a64_bits(insn, 15, 12), o2 = a64_bits(insn, 11, 11);
        if (o2) {
            if (u || cmode != 15) return false;
            o->fp = true; /* FMOV (half) */
            return true;
        }
        if (cmode == 15) {
            if (u && !q) return false; /* FMOV (double) needs Q */
            o->fp = true;
        }
        return true;
    }
    case G_PERMUTE:
        return (opcode & 3) != 0 && !(size == 3 && !q);
    case G_EXTRACT:
        return q || !a64_bits(insn, 14, 14);
    case G_TABLE_LOOKUP:
        return true;
    case G_AES:
        return size == 0 && (opcode == 4 || opcode == 5 || opcode == 6 || opcode == 7);
    case G_SHA3:
        return size == 0 && opcode != 7;
    case G_SHA2:
        return size == 0 && opcode < 3;
    case G_CRYPTO4:
        return a64_bits(insn, 22, 21) != 3;
    case G_SHA512_3:
        return !(a64_bits(insn, 14, 14) && a64_bits(insn, 11, 10) == 3);
    case G_SHA512_2:
        return a64_bits(insn, 11, 10) < 2;
    case G_FP:
    case G_FP_2SRC:
    case G_FP_CMP:
        if (ptype == 2) return false;
        if (r->group == G_FP_2SRC && a64_bits(insn, 15, 12) > 8) return false;
        if (r->group == G_FP_CMP && (a64_bits(insn, 15, 14) || a64_bits(insn, 2, 0))) return false;
        if (r->flags & A64F_COND) o->cond = (uint8_t)a64_bits(insn, 15, 12);
        return true;
    case G_FP_1SRC: {
        const unsigned op = a64_bits(insn, 20, 15);
        if (op <= 3) return ptype != 2; /* FMOV FABS FNEG FSQRT */
        if (op >= 4 && op <= 7) {       /* FCVT between precisions; BFCVT */
            if (ptype == 1 && op == 6) return true;
            const unsigned to = op & 3;
            return ptype != 2 && to != 2 && to != ptype;
        }
        if (op >= 8 && op <= 15) return op != 13 && ptype != 2; /* FRINT* */
        if (op >= 16 && op <= 19) return ptype <= 1;            /* FRINT32*, FRINT64* */
        return false;
    }
    case G_FP_FIXED: {
        const unsigned rmode_op = a64_bits(insn, 20, 16);
        if (a64_bits(insn, 29, 29) || ptype == 2) return false;
        if (!(rmode_op == 2 || rmode_op == 3 || rmode_op == 24 || rmode_op == 25)) return false;
        return a64_bits(insn, 31, 31) || a64_bits(insn, 15, 15); /* 32-bit: scale >= 32 */
    }
    case G_FP_INT: {
        const bool sf = a64_bits(insn, 31, 31);
        const unsigned rmode = a64_bits(insn, 20, 19), op = a64_bits(insn, 18, 16);
        if (a64_bits(insn, 29, 29)) return false;
        if (op <= 1) return ptype != 2;               /* FCVT[NPMZ]S/U */
        if (op <= 5) return rmode == 0 && ptype != 2; /* SCVTF UCVTF FCVTAS FCVTAU */
        if (rmode == 0)                               /* FMOV (general) */
            return ptype == 3 || (ptype == 0 && !sf) || (ptype == 1 && sf);
        if (rmode == 1) return sf && ptype == 2;             /* FMOV (top half of 128 bits) */
        if (rmode == 3) return !sf && ptype == 1 && op == 6; /* FJCVTZS */
        return false;
    }
    default:
        return true;
    }
}

bool a64_decode_simdfp(uint32_t insn, armprof_a64_insn *out)
{
    const simd_row *r = NULL;
    for (size_t i = 0; i < sizeof simd_rows / sizeof simd_rows[0]; i++) {
        if ((insn & simd_rows[i].mask) == simd_rows[i].value) {
            r = &simd_rows[i];
            break;
        }
    }
    if (!r) return a64_undefined(out);
    const a64_row row = ROW(r->mask, r->value, r->kind, 0, r->flags, 0, r->name);
    a64_apply(out, &row);
    if (!group(out, r, insn)) return a64_undefined(out);
    return true;
}
