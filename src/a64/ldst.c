/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "Loads and Stores" (op1 x1x0): general-purpose and SIMD&FP loads and
 * stores in every addressing form, pairs, Advanced SIMD structures,
 * exclusives, load-acquire/store-release, atomics (FEAT_LSE, FEAT_LSE128,
 * FEAT_THE), FEAT_LS64, FEAT_MOPS, FEAT_MTE and FEAT_GCS stores. SVE and
 * SME memory instructions are in sve_mem.c and sme.c. */
#include "a64/a64_internal.h"

enum {
    F_NONE,
    F_LIT,         /* literal: PC + imm19 << 2 */
    F_EXCL1,       /* exclusive, ordered, CAS: one register, size in bits [31:30] */
    F_EXCL2,       /* exclusive pair: Rt, Rt2, sz in bit [30] */
    F_CASP,        /* CASP: Rs, Rs+1, Rt, Rt+1 */
    F_ORD_IMM9,    /* LDAPUR/STLUR: size in bits [31:30], simm9 */
    F_ORD_SIMD,    /* LDAPUR/STLUR (SIMD&FP): size in bits [31:30] (Q: the row's) */
    F_RCPC3_PAIR,  /* LDIAPP/STILP: writeback unless bit [12] */
    F_RCPC3_ONE,   /* LDAPR post-index, STLR pre-index (FEAT_LRCPC3) */
    F_LDAP1,       /* LDAP1/STL1 (SIMD&FP single lane) */
    F_MOPS,        /* CPY*, SET*: Rd destination, Rs source or value, Rn size */
    F_GCS,         /* GCSSTR, GCSSTTR */
    F_TAG,         /* LDG, STG, STZG, ST2G, STZ2G, STGM, STZGM, LDGM */
    F_PAIR,        /* LDP/STP/LDNP/STNP/LDPSW/STGP: opc, V, imm7, addressing in bits [24:23] */
    F_IMM9,        /* LDUR, LDR post/pre-index, LDTR: bits [11:10] */
    F_UIMM12,      /* LDR (unsigned immediate) */
    F_REGOFF,      /* LDR (register) */
    F_PAC,         /* LDRAA, LDRAB */
    F_ATOMIC,      /* LD<op>, ST<op> (Rt == XZR without acquire) */
    F_SWP,         /* SWP, RCW* (Rs, Rt, Rn) */
    F_ATOMIC_PAIR, /* LDCLRP, LDSETP, SWPP, RCW*P: Rt, Rt2 in bits [20:16] */
    F_RCWCASP,     /* RCWCASP: Rs, Rs+1, Rt, Rt+1 */
    F_LDAPR,       /* LDAPR: size in bits [31:30] */
    F_LS64,        /* LD64B, ST64B, ST64BV, ST64BV0 */
    F_SIMD_MULT,   /* LD1-LD4/ST1-ST4 (multiple structures), post-index with bit [23] */
    F_SIMD_SINGLE, /* LD1-LD4/ST1-ST4 (single structure), LD1R-LD4R */
};

/* Sizes: */
enum { B = 0, H = 1, W = 2, X = 3, Q = 4 };

/* A row whose class its form works out (from single_reg[]); a K_UNDEF row
 * without a form is unallocated. */
#define K_FORM K_UNDEF

static const a64_row ldst_rows[] = {
    /* Advanced SIMD load/store multiple structures (and post-indexed) */
    ROW(0xbfff0000, 0x0c000000, K_ST_SIMDFP, F_SIMD_MULT, A64F_SIMD, SZ_FORM, "ST1-ST4 (multiple)"),
    ROW(0xbfff0000, 0x0c400000, K_LD_SIMDFP, F_SIMD_MULT, A64F_SIMD, SZ_FORM, "LD1-LD4 (multiple)"),
    ROW(0xbfe00000, 0x0c800000, K_ST_SIMDFP, F_SIMD_MULT, A64F_SIMD, SZ_FORM,
        "ST1-ST4 (multiple, post-index)"),
    ROW(0xbfe00000, 0x0cc00000, K_LD_SIMDFP, F_SIMD_MULT, A64F_SIMD, SZ_FORM,
        "LD1-LD4 (multiple, post-index)"),
    /* Advanced SIMD load/store single structure (FEAT_LRCPC3 LDAP1/STL1 among them) */
    ROW(0xbffffc00, 0x0d018400, K_ST_REL, F_LDAP1, A64F_SIMD, X, "STL1 (SIMD&FP)"),
    ROW(0xbffffc00, 0x0d418400, K_LD_ACQ, F_LDAP1, A64F_SIMD, X, "LDAP1 (SIMD&FP)"),
    ROW(0xbfdf0000, 0x0d000000, K_ST_SIMDFP, F_SIMD_SINGLE, A64F_SIMD, SZ_FORM, "ST1-ST4 (single)"),
    ROW(0xbfdf0000, 0x0d400000, K_LD_SIMDFP, F_SIMD_SINGLE, A64F_SIMD, SZ_FORM,
        "LD1-LD4, LD1R-LD4R (single)"),
    ROW(0xbfc00000, 0x0d800000, K_ST_SIMDFP, F_SIMD_SINGLE, A64F_SIMD, SZ_FORM,
        "ST1-ST4 (single, post-index)"),
    ROW(0xbfc00000, 0x0dc00000, K_LD_SIMDFP, F_SIMD_SINGLE, A64F_SIMD, SZ_FORM,
        "LD1-LD4, LD1R-LD4R (single, post-index)"),

    /* Load/store exclusive register */
    ROW(0x3fe08000, 0x08000000, K_ST_EXCL, F_EXCL1, 0, SZ_FORM, "STXR"),
    ROW(0x3fe08000, 0x08008000, K_ST_EXCL, F_EXCL1, A64F_AR, SZ_FORM, "STLXR"),
    ROW(0x3fe08000, 0x08400000, K_LD_EXCL, F_EXCL1, 0, SZ_FORM, "LDXR"),
    ROW(0x3fe08000, 0x08408000, K_LD_EXCL, F_EXCL1, A64F_AR, SZ_FORM, "LDAXR"),
    /* Load/store exclusive pair */
    ROW(0xbfe08000, 0x88200000, K_ST_EXCL, F_EXCL2, 0, SZ_FORM, "STXP"),
    ROW(0xbfe08000, 0x88208000, K_ST_EXCL, F_EXCL2, A64F_AR, SZ_FORM, "STLXP"),
    ROW(0xbfe08000, 0x88600000, K_LD_EXCL, F_EXCL2, 0, SZ_FORM, "LDXP"),
    ROW(0xbfe08000, 0x88608000, K_LD_EXCL, F_EXCL2, A64F_AR, SZ_FORM, "LDAXP"),
    /* Compare and swap pair */
    ROW(0xbfe08000, 0x08200000, K_ATOMIC, F_CASP, 0, SZ_FORM, "CASP"),
    ROW(0xbfe08000, 0x08208000, K_ATOMIC, F_CASP, A64F_AR, SZ_FORM, "CASPL"),
    ROW(0xbfe08000, 0x08600000, K_ATOMIC, F_CASP, A64F_AR, SZ_FORM, "CASPA"),
    ROW(0xbfe08000, 0x08608000, K_ATOMIC, F_CASP, A64F_AR, SZ_FORM, "CASPAL"),
    /* Load/store ordered (FEAT_LOR: STLLR, LDLAR) */
    ROW(0x3fe08000, 0x08800000, K_ST_REL, F_EXCL1, 0, SZ_FORM, "STLLR"),
    ROW(0x3fe08000, 0x08808000, K_ST_REL, F_EXCL1, 0, SZ_FORM, "STLR"),
    ROW(0x3fe08000, 0x08c00000, K_LD_ACQ, F_EXCL1, 0, SZ_FORM, "LDLAR"),
    ROW(0x3fe08000, 0x08c08000, K_LD_ACQ, F_EXCL1, 0, SZ_FORM, "LDAR"),
    /* Compare and swap */
    ROW(0x3fe08000, 0x08a00000, K_ATOMIC, F_EXCL1, 0, SZ_FORM, "CAS"),
    ROW(0x3fe08000, 0x08a08000, K_ATOMIC, F_EXCL1, A64F_AR, SZ_FORM, "CASL"),
    ROW(0x3fe08000, 0x08e00000, K_ATOMIC, F_EXCL1, A64F_AR, SZ_FORM, "CASA"),
    ROW(0x3fe08000, 0x08e08000, K_ATOMIC, F_EXCL1, A64F_AR, SZ_FORM, "CASAL"),

    /* 128-bit atomic memory operations (FEAT_LSE128) and read-check-write pairs (FEAT_THE,
       FEAT_D128): A and R in bits [23:22] */
    ROW(0xff20fc00, 0x19201000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "LDCLRP"),
    ROW(0xff20fc00, 0x19203000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "LDSETP"),
    ROW(0xff20fc00, 0x19208000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "SWPP"),
    ROW(0xbf20fc00, 0x19209000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "RCWCLRP, RCWSCLRP"),
    ROW(0xbf20fc00, 0x1920a000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "RCWSWPP, RCWSSWPP"),
    ROW(0xbf20fc00, 0x1920b000, K_ATOMIC, F_ATOMIC_PAIR, 0, X, "RCWSETP, RCWSSETP"),
    ROW(0xbf20fc00, 0x19200800, K_ATOMIC, F_SWP, 0, X, "RCWCAS, RCWSCAS"),
    ROW(0xbf20fc00, 0x19200c00, K_ATOMIC, F_RCWCASP, 0, X, "RCWCASP, RCWSCASP"),
    /* LRCPC3 (general registers): LDIAPP, STILP, LDAPR post-index, STLR pre-index */
    ROW(0xbfe0ec00, 0x99000800, K_ST_REL, F_RCPC3_PAIR, 0, SZ_FORM, "STILP"),
    ROW(0xbfe0ec00, 0x99400800, K_LD_ACQ, F_RCPC3_PAIR, 0, SZ_FORM, "LDIAPP"),
    ROW(0xbffffc00, 0x99800800, K_ST_REL, F_RCPC3_ONE, 0, SZ_FORM, "STLR (pre-index)"),
    ROW(0xbffffc00, 0x99c00800, K_LD_ACQ, F_RCPC3_ONE, 0, SZ_FORM, "LDAPR (post-index)"),
    /* LDAPR/STLR (unscaled immediate), FEAT_LRCPC2 */
    ROW(0x3fe00c00, 0x19000000, K_ST_REL, F_ORD_IMM9, 0, SZ_FORM, "STLURB/H, STLUR"),
    ROW(0x3fe00c00, 0x19400000, K_LD_ACQ, F_ORD_IMM9, 0, SZ_FORM, "LDAPURB/H, LDAPUR"),
    ROW(0xffe00c00, 0x19800000, K_LD_ACQ, F_ORD_IMM9, 0, B, "LDAPURSB (64-bit)"),
    ROW(0xffe00c00, 0x59800000, K_LD_ACQ, F_ORD_IMM9, 0, H, "LDAPURSH (64-bit)"),
    ROW(0xffe00c00, 0x99800000, K_LD_ACQ, F_ORD_IMM9, 0, W, "LDAPURSW"),
    ROW(0xffe00c00, 0x19c00000, K_LD_ACQ, F_ORD_IMM9, 0, B, "LDAPURSB (32-bit)"),
    ROW(0xffe00c00, 0x59c00000, K_LD_ACQ, F_ORD_IMM9, 0, H, "LDAPURSH (32-bit)"),
    /* Memory Copy and Memory Set (FEAT_MOPS): prologue, main, epilogue */
    ROW(0xffe00c00, 0x19000400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYFP*"),
    ROW(0xffe00c00, 0x19400400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYFM*"),
    ROW(0xffe00c00, 0x19800400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYFE*"),
    ROW(0xffe00c00, 0x1d000400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYP*"),
    ROW(0xffe00c00, 0x1d400400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYM*"),
    ROW(0xffe00c00, 0x1d800400, K_MEMCOPY, F_MOPS, 0, SZ_FORM, "CPYE*"),
    ROW(0xffe0cc00, 0x19c00400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETP*"),
    ROW(0xffe0cc00, 0x19c04400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETM*"),
    ROW(0xffe0cc00, 0x19c08400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETE*"),
    ROW(0xffe0cc00, 0x1dc00400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETGP*"),
    ROW(0xffe0cc00, 0x1dc04400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETGM*"),
    ROW(0xffe0cc00, 0x1dc08400, K_MEMSET, F_MOPS, 0, SZ_FORM, "SETGE*"),
    /* Guarded Control Stack store (FEAT_GCS) */
    ROW(0xfffffc00, 0xd91f0c00, K_ST_GCS, F_GCS, 0, X, "GCSSTR"),
    ROW(0xfffffc00, 0xd91f1c00, K_ST_GCS, F_GCS, 0, X, "GCSSTTR"),
    /* Load/store memory tags (FEAT_MTE): bits [23:22] opc, [11:10] op2 */
    ROW(0xfffffc00, 0xd9200000, K_ST_UNSPEC, F_TAG, 0, SZ_FORM, "STZGM"),
    ROW(0xffe00c00, 0xd9200000, K_UNDEF, F_NONE, 0, SZ_FORM, "STZGM, imm9 != 0"),
    ROW(0xffe00000, 0xd9200000, K_ST_TAGS, F_TAG, 0, Q, "STG"),
    ROW(0xffe00c00, 0xd9600000, K_LD_TAGS, F_TAG, 0, Q, "LDG"),
    ROW(0xffe00000, 0xd9600000, K_ST_UNSPEC, F_TAG, 0, Q, "STZG"),
    ROW(0xfffffc00, 0xd9a00000, K_ST_TAGS, F_TAG, 0, SZ_FORM, "STGM"),
    ROW(0xffe00c00, 0xd9a00000, K_UNDEF, F_NONE, 0, SZ_FORM, "STGM, imm9 != 0"),
    ROW(0xffe00000, 0xd9a00000, K_ST_TAGS, F_TAG, 0, Q, "ST2G"),
    ROW(0xfffffc00, 0xd9e00000, K_LD_TAGS, F_TAG, 0, SZ_FORM, "LDGM"),
    ROW(0xffe00c00, 0xd9e00000, K_UNDEF, F_NONE, 0, SZ_FORM, "LDGM, imm9 != 0"),
    ROW(0xffe00000, 0xd9e00000, K_ST_UNSPEC, F_TAG, 0, Q, "STZ2G"),
    /* LDAPUR/STLUR (SIMD&FP), FEAT_LRCPC3 */
    ROW(0x3fe00c00, 0x1d000800, K_ST_REL, F_ORD_SIMD, A64F_FP, SZ_FORM, "STLUR (SIMD&FP)"),
    ROW(0x3fe00c00, 0x1d400800, K_LD_ACQ, F_ORD_SIMD, A64F_FP, SZ_FORM, "LDAPUR (SIMD&FP)"),
    ROW(0xffe00c00, 0x1d800800, K_ST_REL, F_ORD_SIMD, A64F_FP, Q, "STLUR (Q)"),
    ROW(0xffe00c00, 0x1dc00800, K_LD_ACQ, F_ORD_SIMD, A64F_FP, Q, "LDAPUR (Q)"),

    /* Load register (literal) */
    ROW(0xff000000, 0x18000000, K_LD_GEN, F_LIT, 0, W, "LDR (literal, W)"),
    ROW(0xff000000, 0x58000000, K_LD_GEN, F_LIT, 0, X, "LDR (literal, X)"),
    ROW(0xff000000, 0x98000000, K_LD_GEN, F_LIT, 0, W, "LDRSW (literal)"),
    ROW(0xff000000, 0xd8000000, K_PREFETCH, F_LIT, 0, SZ_FORM, "PRFM (literal)"),
    ROW(0xff000000, 0x1c000000, K_LD_SIMDFP, F_LIT, A64F_FP, W, "LDR (literal, S)"),
    ROW(0xff000000, 0x5c000000, K_LD_SIMDFP, F_LIT, A64F_FP, X, "LDR (literal, D)"),
    ROW(0xff000000, 0x9c000000, K_LD_SIMDFP, F_LIT, A64F_FP, Q, "LDR (literal, Q)"),

    /* Load/store no-allocate pair, register pair (post-index, offset, pre-index) */
    ROW(0xfe400000, 0x28000000, K_ST_GEN, F_PAIR, 0, W, "STP/STNP (W)"),
    ROW(0xfe400000, 0x28400000, K_LD_GEN, F_PAIR, 0, W, "LDP/LDNP (W)"),
    ROW(0xfe400000, 0x68000000, K_ST_GEN, F_PAIR, 0, X, "STGP"),
    ROW(0xfe400000, 0x68400000, K_LD_GEN, F_PAIR, 0, W, "LDPSW"),
    ROW(0xfe400000, 0xa8000000, K_ST_GEN, F_PAIR, 0, X, "STP/STNP (X)"),
    ROW(0xfe400000, 0xa8400000, K_LD_GEN, F_PAIR, 0, X, "LDP/LDNP (X)"),
    ROW(0xfe400000, 0x2c000000, K_ST_SIMDFP, F_PAIR, A64F_FP, W, "STP/STNP (S)"),
    ROW(0xfe400000, 0x2c400000, K_LD_SIMDFP, F_PAIR, A64F_FP, W, "LDP/LDNP (S)"),
    ROW(0xfe400000, 0x6c000000, K_ST_SIMDFP, F_PAIR, A64F_FP, X, "STP/STNP (D)"),
    ROW(0xfe400000, 0x6c400000, K_LD_SIMDFP, F_PAIR, A64F_FP, X, "LDP/LDNP (D)"),
    ROW(0xfe400000, 0xac000000, K_ST_SIMDFP, F_PAIR, A64F_FP, Q, "STP/STNP (Q)"),
    ROW(0xfe400000, 0xac400000, K_LD_SIMDFP, F_PAIR, A64F_FP, Q, "LDP/LDNP (Q)"),

    /* Load/store register (unsigned immediate) */
    ROW(0x3b000000, 0x39000000, K_FORM, F_UIMM12, 0, SZ_FORM, "LDR/STR (unsigned immediate)"),
    /* Load/store register (register offset) */
    ROW(0x3b200c00, 0x38200800, K_FORM, F_REGOFF, 0, SZ_FORM, "LDR/STR (register)"),
    /* Atomic memory operations */
    ROW(0xffe0fc00, 0xf820d000, K_LD_GEN, F_LS64, 0, X, "LD64B"),
    ROW(0xffe0fc00, 0xf8209000, K_ST_GEN, F_LS64, 0, X, "ST64B"),
    ROW(0xffe0fc00, 0xf820b000, K_ST_GEN, F_LS64, 0, X, "ST64BV"),
    ROW(0xffe0fc00, 0xf820a000, K_ST_GEN, F_LS64, 0, X, "ST64BV0"),
    ROW(0xbf20fc00, 0x38209000, K_ATOMIC, F_SWP, 0, X, "RCWCLR, RCWSCLR"),
    ROW(0xbf20fc00, 0x3820a000, K_ATOMIC, F_SWP, 0, X, "RCWSWP, RCWSSWP"),
    ROW(0xbf20fc00, 0x3820b000, K_ATOMIC, F_SWP, 0, X, "RCWSET, RCWSSET"),
    ROW(0x3f208c00, 0x38200000, K_ATOMIC, F_ATOMIC, 0, SZ_FORM,
        "LDADD, LDCLR, LDEOR, LDSET, LDSMAX, LDSMIN, LDUMAX, LDUMIN"),
    ROW(0x3f20fc00, 0x38208000, K_ATOMIC, F_SWP, 0, SZ_FORM, "SWP"),
    ROW(0x3fe0fc00, 0x38a0c000, K_LD_ACQ, F_LDAPR, 0, SZ_FORM, "LDAPR"),
    /* Load/store register (pac) */
    ROW(0xff200400, 0xf8200400, K_LD_GEN, F_PAC, A64F_PAUTH, X, "LDRAA, LDRAB"),
    /* Load/store register (unscaled immediate, immediate post-indexed, unprivileged,
       immediate pre-indexed) */
    ROW(0x3b200000, 0x38000000, K_FORM, F_IMM9, 0, SZ_FORM, "LDUR/STUR, LDR/STR (imm), LDTR/STTR"),
};

/* The single-register loads and stores by V (bit [26]), size (bits [31:30])
 * and opc (bits [23:22]): their class and element size. */
typedef struct sizeopc {
    uint8_t kind, size;
} sizeopc;

static const sizeopc single_reg[32] = {
    /* V = 0: STRB, LDRB, LDRSB (64), LDRSB (32); H; W, LDRSW; X, PRFM */
    {K_ST_GEN, B},
    {K_LD_GEN, B},
    {K_LD_GEN, B},
    {K_LD_GEN, B},
    {K_ST_GEN, H},
    {K_LD_GEN, H},
    {K_LD_GEN, H},
    {K_LD_GEN, H},
    {K_ST_GEN, W},
    {K_LD_GEN, W},
    {K_LD_GEN, W},
    {K_UNDEF, 0},
    {K_ST_GEN, X},
    {K_LD_GEN, X},
    {K_PREFETCH, X},
    {K_UNDEF, 0},
    /* V = 1: STR/LDR B (and Q with opc 1x), H, S, D */
    {K_ST_SIMDFP, B},
    {K_LD_SIMDFP, B},
    {K_ST_SIMDFP, Q},
    {K_LD_SIMDFP, Q},
    {K_ST_SIMDFP, H},
    {K_LD_SIMDFP, H},
    {K_UNDEF, 0},
    {K_UNDEF, 0},
    {K_ST_SIMDFP, W},
    {K_LD_SIMDFP, W},
    {K_UNDEF, 0},
    {K_UNDEF, 0},
    {K_ST_SIMDFP, X},
    {K_LD_SIMDFP, X},
    {K_UNDEF, 0},
    {K_UNDEF, 0},
};

static void base_rt(armprof_a64_insn *o, uint32_t insn)
{
    o->base_reg = (uint8_t)a64_bits(insn, 9, 5);
    o->rt = (uint8_t)a64_bits(insn, 4, 0);
}

static void set_size(armprof_a64_insn *o, unsigned log2, unsigned regs)
{
    o->size_log2 = (uint8_t)log2;
    o->regs = (uint8_t)regs;
    o->bytes = (uint16_t)(regs << log2);
}

/* The single-register forms: class and size from single_reg[]. */
static bool single(armprof_a64_insn *o, uint32_t insn, bool allow_prefetch)
{
    const unsigned idx =
        a64_bits(insn, 26, 26) << 4 | a64_bits(insn, 31, 30) << 2 | a64_bits(insn, 23, 22);
    const sizeopc *s = &single_reg[idx];
    if (s->kind == K_UNDEF || (s->kind == K_PREFETCH && !allow_prefetch)) return a64_undefined(o);
    const a64_row r = ROW(0, 0, s->kind, F_NONE, a64_bits(insn, 26, 26) ? A64F_FP : 0, s->size, "");
    a64_apply(o, &r);
    base_rt(o, insn);
    if (s->kind == K_PREFETCH) {
        o->rt = ARMPROF_A64_NOREG; /* Rt is the prefetch operation */
        o->size_log2 = ARMPROF_A64_SIZE_UNKNOWN;
    } else {
        set_size(o, s->size, 1);
    }
    return true;
}

/* Advanced SIMD multiple structures: opcode (bits [15:12]) -> registers and
 * structure elements; 0 for unallocated. */
static const uint8_t mult_regs[16] = {4, 0, 4, 0, 3, 0, 3, 1, 2, 0, 2, 0, 0, 0, 0, 0};
static const uint8_t mult_selem[16] = {4, 0, 1, 0, 3, 0, 1, 1, 2, 0, 1, 0, 0, 0, 0, 0};

static bool simd_mult(armprof_a64_insn *o, uint32_t insn)
{
    const unsigned opcode = a64_bits(insn, 15, 12), size = a64_bits(insn, 11, 10);
    const bool q = a64_bits(insn, 30, 30);
    const unsigned regs = mult_regs[opcode];
    if (regs == 0 || (mult_selem[opcode] > 1 && size == 3 && !q)) return a64_undefined(o);
    base_rt(o, insn);
    o->rt2 = regs > 1 ? (uint8_t)((o->rt + 1) & 31) : ARMPROF_A64_NOREG;
    o->size_log2 = (uint8_t)size;
    o->regs = (uint8_t)regs;
    o->bytes = (uint16_t)(regs * (q ? 16 : 8));
    return true;
}

static bool simd_single(armprof_a64_insn *o, uint32_t insn)
{
    const unsigned opcode = a64_bits(insn, 15, 13), s = a64_bits(insn, 12, 12);
    const unsigned size = a64_bits(insn, 11, 10);
    const bool load = a64_bits(insn, 22, 22);
    const unsigned selem = ((opcode & 1) << 1 | a64_bits(insn, 21, 21)) + 1;
    unsigned log2;
    switch (opcode >> 1) {
    case 0: /* 8-bit lanes */
        log2 = B;
        break;
    case 1: /* 16-bit lanes */
        if (size & 1) return a64_undefined(o);
        log2 = H;
        break;
    case 2: /* 32-bit or 64-bit lanes */
        if (size & 2 || (size & 1 && s)) return a64_undefined(o);
        log2 = size & 1 ? X : W;
        break;
    default: /* LD1R-LD4R: load and replicate */
        if (!load || s) return a64_undefined(o);
        log2 = size;
        break;
    }
    base_rt(o, insn);
    o->rt2 = selem > 1 ? (uint8_t)((o->rt + 1) & 31) : ARMPROF_A64_NOREG;
    set_size(o, log2, selem);
    return true;
}

/* Post-index of the Advanced SIMD structures: Rm, or the bytes moved for
 * Rm == 31. */
static void simd_post(armprof_a64_insn *o, uint32_t insn)
{
    if (!a64_bits(insn, 23, 23)) return;
    o->writeback = o->post_index = true;
    const unsigned rm = a64_bits(insn, 20, 16);
    if (rm == 31)
        o->offset = o->bytes;
    else
        o->index_reg = (uint8_t)rm;
}

static const uint8_t extend_of_option[8] = {
    0, 0, ARMPROF_A64_EXT_UXTW, ARMPROF_A64_EXT_LSL,
    0, 0, ARMPROF_A64_EXT_SXTW, ARMPROF_A64_EXT_SXTX,
};

static bool form(armprof_a64_insn *o, const a64_row *r, uint32_t insn)
{
    const unsigned fixed = r->size;
    switch (r->form) {
    case F_LIT:
        o->rt = (uint8_t)a64_bits(insn, 4, 0);
        o->pc_relative = true;
        o->offset = a64_sbits(insn, 23, 5) * 4;
        if (r->kind == K_PREFETCH)
            o->rt = ARMPROF_A64_NOREG;
        else
            set_size(o, fixed, 1);
        return true;
    case F_EXCL1:
        base_rt(o, insn);
        set_size(o, a64_bits(insn, 31, 30), 1);
        if (r->kind == K_ST_EXCL || r->kind == K_ATOMIC) o->rs = (uint8_t)a64_bits(insn, 20, 16);
        return true;
    case F_EXCL2:
        base_rt(o, insn);
        o->rt2 = (uint8_t)a64_bits(insn, 14, 10);
        set_size(o, 2 + a64_bits(insn, 30, 30), 2);
        if (r->kind == K_ST_EXCL) o->rs = (uint8_t)a64_bits(insn, 20, 16);
        return true;
    case F_CASP: /* Rs and Rt name even registers, or the instruction is UNDEFINED */
        if (insn & (1u << 16 | 1u)) return a64_undefined(o);
        base_rt(o, insn);
        o->rt2 = (uint8_t)((o->rt + 1) & 31);
        o->rs = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, 2 + a64_bits(insn, 30, 30), 2);
        return true;
    case F_ORD_IMM9:
        base_rt(o, insn);
        set_size(o, fixed == SZ_FORM ? a64_bits(insn, 31, 30) : fixed, 1);
        o->offset = a64_sbits(insn, 20, 12);
        return true;
    case F_ORD_SIMD:
        if (fixed == Q && a64_bits(insn, 31, 30) != 0) return a64_undefined(o);
        base_rt(o, insn);
        set_size(o, fixed == SZ_FORM ? a64_bits(insn, 31, 30) : fixed, 1);
        o->offset = a64_sbits(insn, 20, 12);
        return true;
    case F_RCPC3_PAIR: {
        base_rt(o, insn);
        o->rt2 = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, 2 + a64_bits(insn, 30, 30), 2);
        if (!a64_bits(insn, 12, 12)) { /* writeback: STILP pre-index, LDIAPP post-index */
            o->writeback = true;
            o->post_index = r->kind == K_LD_ACQ;
            o->offset = o->post_index ? o->bytes : -(int64_t)o->bytes;
        }
        return true;
    }
    case F_RCPC3_ONE:
        base_rt(o, insn);
        set_size(o, 2 + a64_bits(insn, 30, 30), 1);
        o->writeback = true;
        o->post_index = r->kind == K_LD_ACQ;
        o->offset = o->post_index ? o->bytes : -(int64_t)o->bytes;
        return true;
    case F_LDAP1:
        base_rt(o, insn);
        set_size(o, X, 1);
        return true;
    case F_MOPS: {
        const unsigned op1 = a64_bits(insn, 23, 22), op2 = a64_bits(insn, 15, 12);
        /* Xd and Xn may not be XZR, nor Xs for a copy (a set stores XZR) */
        if (a64_bits(insn, 4, 0) == 31 || a64_bits(insn, 9, 5) == 31 ||
            (r->kind == K_MEMCOPY && a64_bits(insn, 20, 16) == 31))
            return a64_undefined(o);
        o->base_reg = (uint8_t)a64_bits(insn, 4, 0); /* Xd: the destination */
        o->rs = (uint8_t)a64_bits(insn, 20, 16);     /* Xs: source address, or the value */
        o->rt = (uint8_t)a64_bits(insn, 9, 5);       /* Xn: the size */
        o->mops_stage = (uint8_t)((op1 == 3 ? op2 >> 2 : op1) + 1);
        o->writeback = true;
        return true;
    }
    case F_GCS:
        base_rt(o, insn);
        set_size(o, X, 1);
        return true;
    case F_TAG: {
        const unsigned op2 = a64_bits(insn, 11, 10);
        base_rt(o, insn);
        if (fixed == SZ_FORM) { /* STGM, STZGM, LDGM: a block of GMID_EL1.BS tags */
            o->regs = 1;
            return true;
        }
        const bool pair = a64_bits(insn, 23, 23); /* ST2G, STZ2G */
        o->size_log2 = Q;
        o->regs = 1;
        o->bytes = pair ? 32 : 16;
        o->offset = a64_sbits(insn, 20, 12) * 16;
        if (op2 == 1 || op2 == 3) {
            o->writeback = true;
            o->post_index = op2 == 1;
        }
        return true;
    }
    case F_PAIR: {
        const unsigned mode = a64_bits(insn, 24, 23);
        const bool stgp =
            r->kind == K_ST_GEN && a64_bits(insn, 31, 30) == 1 && !a64_bits(insn, 26, 26);
        const bool ldpsw = r->kind == K_LD_GEN && a64_bits(insn, 31, 30) == 1;
        if (mode == 0 && (stgp || ldpsw)) return a64_undefined(o);
        base_rt(o, insn);
        o->rt2 = (uint8_t)a64_bits(insn, 14, 10);
        set_size(o, fixed, 2);
        o->offset = a64_sbits(insn, 21, 15) * (stgp ? 16 : (1 << fixed));
        if (mode == 1 || mode == 3) {
            o->writeback = true;
            o->post_index = mode == 1;
        }
        return true;
    }
    case F_IMM9: {
        const unsigned mode = a64_bits(insn, 11, 10);
        if (mode == 2 && a64_bits(insn, 26, 26)) return a64_undefined(o); /* no SIMD&FP LDTR */
        if (!single(o, insn, mode == 0)) return false;                    /* PRFUM */
        o->offset = a64_sbits(insn, 20, 12);
        if (mode == 1 || mode == 3) {
            o->writeback = true;
            o->post_index = mode == 1;
        }
        return true;
    }
    case F_UIMM12:
        if (!single(o, insn, true)) return false;
        o->offset = (int64_t)a64_bits(insn, 21, 10) << (o->prefetch ? X : o->size_log2);
        return true;
    case F_REGOFF: {
        const unsigned option = a64_bits(insn, 15, 13);
        if (!(option & 2)) return a64_undefined(o);
        if (!single(o, insn, true)) return false;
        o->index_reg = (uint8_t)a64_bits(insn, 20, 16);
        o->extend = extend_of_option[option];
        if (a64_bits(insn, 12, 12)) o->shift = o->prefetch ? X : o->size_log2;
        return true;
    }
    case F_PAC:
        base_rt(o, insn);
        set_size(o, X, 1);
        o->offset = (a64_sbits(insn, 22, 22) * 512 + (int64_t)a64_bits(insn, 20, 12)) * 8;
        o->writeback = a64_bits(insn, 11, 11);
        return true;
    case F_ATOMIC:
        base_rt(o, insn);
        o->rs = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, a64_bits(insn, 31, 30), 1);
        if (a64_bits(insn, 23, 22)) o->acquire_release = true;
        /* ST<op>: the alias for Rt == XZR without acquire returns no value */
        if (o->rt == 31 && !a64_bits(insn, 23, 23)) o->op_class = ARMPROF_OP_STORE;
        return true;
    case F_SWP:
        base_rt(o, insn);
        o->rs = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, fixed == SZ_FORM ? a64_bits(insn, 31, 30) : fixed, 1);
        if (a64_bits(insn, 23, 22)) o->acquire_release = true;
        return true;
    case F_ATOMIC_PAIR:
        base_rt(o, insn);
        o->rt2 = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, X, 2);
        if (a64_bits(insn, 23, 22)) o->acquire_release = true;
        return true;
    case F_RCWCASP:
        if (insn & (1u << 16 | 1u)) return a64_undefined(o);
        base_rt(o, insn);
        o->rt2 = (uint8_t)((o->rt + 1) & 31);
        o->rs = (uint8_t)a64_bits(insn, 20, 16);
        set_size(o, X, 2);
        if (a64_bits(insn, 23, 22)) o->acquire_release = true;
        return true;
    case F_LDAPR:
        base_rt(o, insn);
        set_size(o, a64_bits(insn, 31, 30), 1);
        return true;
    case F_LS64:
        base_rt(o, insn);
        set_size(o, X, 8);
        o->rt2 = (uint8_t)((o->rt + 1) & 31);
        if (a64_bits(insn, 13, 13)) o->rs = (uint8_t)a64_bits(insn, 20, 16); /* ST64BV(0) */
        return true;
    case F_SIMD_MULT:
        if (!simd_mult(o, insn)) return false;
        simd_post(o, insn);
        return true;
    case F_SIMD_SINGLE:
        if (!simd_single(o, insn)) return false;
        simd_post(o, insn);
        return true;
    default:
        return true;
    }
}

bool a64_decode_ldst(uint32_t insn, armprof_a64_insn *out)
{
    const a64_row *r = a64_match(A64_ROWS(ldst_rows), insn);
    if (!r || (r->kind == K_UNDEF && r->form == F_NONE)) return a64_undefined(out);
    if (r->kind != K_FORM) a64_apply(out, r);
    return form(out, r, insn);
}
