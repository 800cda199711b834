/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: a classifier of A64 instruction encodings for Statistical
 * Profiling and the PMU.
 *
 * It turns one raw 32-bit A64 instruction (as a simulator or a binary
 * instrumentation front-end sees it) into what an armprof_op needs to say
 * about it: load, store, branch or other, and the kinds and attributes the
 * Operation Type packet distinguishes (D18.2.7, the SPEOpAttr fields of the
 * pseudocode), with the operands an embedder needs to find the data address
 * or the branch target. It needs nothing else from the model and holds no
 * state: every function may be called from any thread.
 *
 *   armprof_a64_insn d;
 *   armprof_op op = ARMPROF_OP_INIT;
 *   if (armprof_a64_decode(word, &d)) {
 *       armprof_a64_fill_op(&d, &op);
 *       op.pc = pc;  op.vaddr = ...;  op.taken = ...;  op.vector_length = ...;
 *       armprof_retire(pe, &op);
 *   }
 *
 * What an encoding cannot tell (the vector length, whether a BL or RET
 * pushes to or pops from the Guarded Control Stack, whether a conditional
 * instruction passed) is left to the caller. docs/a64-classify.md lists the
 * class names, what is covered and what is not. */
#ifndef ARMPROF_A64_H
#define ARMPROF_A64_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

/* A register number field that does not apply. */
#define ARMPROF_A64_NOREG 0xffu
/* size_log2 when an access has no fixed element size (DC ZVA's block,
 * FEAT_MOPS, tag multiple, prefetches). */
#define ARMPROF_A64_SIZE_UNKNOWN 0xffu

/* How a register offset (index_reg) is extended before it is shifted
 * (the option field of a register-offset load or store, or SVE's
 * UXTW/SXTW vector offsets). */
typedef enum armprof_a64_extend {
    ARMPROF_A64_EXT_NONE, /* no register offset */
    ARMPROF_A64_EXT_UXTW,
    ARMPROF_A64_EXT_LSL, /* UXTX: the 64-bit register as it is, then LSL shift */
    ARMPROF_A64_EXT_SXTW,
    ARMPROF_A64_EXT_SXTX,
} armprof_a64_extend;

/* One decoded instruction. Register numbers are 0..31 (31 is SP for a
 * base register, XZR/WZR elsewhere), or ARMPROF_A64_NOREG. */
typedef struct armprof_a64_insn {
    uint32_t insn; /* the encoding */

    /* ---- what SPE and the PMU see (armprof_a64_fill_op copies these) ---- */
    armprof_op_class op_class;
    armprof_ldst_kind ldst_kind;     /* loads and stores */
    armprof_other_kind other_kind;   /* Other */
    armprof_branch_kind branch_kind; /* branches */
    bool undefined;                  /* unallocated, or always UNDEFINED (UDF): only insn is set */
    bool conditional; /* B.cond, BC.cond, CBZ, TBZ...; CSEL, CCMP, FCSEL, FCCMP... (D17.6.5) */
    bool fp;          /* floating-point operation; scalar SIMD&FP loads and stores but of Q */
    bool simd;        /* Advanced SIMD operation; vector and Q-register SIMD&FP loads and stores */
    bool sve;         /* an SVE instruction (Z or P registers, or FFR) */
    bool sme;         /* an SME instruction on the ZA array or ZT0 */
    bool acquire_release; /* load-acquire, store-release, or an atomic with either */
    bool exclusive;       /* load or store exclusive */
    bool atomic;          /* atomic, swap or compare-and-swap (a load and a store); GCSSS1 */
    bool predicated;      /* SVE/SME: writes or stores vectors under a Governing predicate
                             (D17.6.6 "Sampled predicated operation") */
    bool gather_scatter;  /* SVE gather load or scatter store */
    bool gcs;             /* a Guarded Control Stack instruction (GCSSTR, GCSPUSHM, ...);
                             not set for BL, BLR and RET: whether they access the GCS
                             depends on GCSCR_ELx, which the caller knows (armprof_op.gcs) */
    bool pauth;           /* pointer authentication: BRAA, RETAA, LDRAA, PACIASP, ... */
    bool prefetch;        /* PRFM, PRFUM, RPRFM, SVE PRF*: Other, neither load nor store */
    bool first_fault;     /* SVE LDFF1* */
    bool non_fault;       /* SVE LDNF1* */
    bool system;          /* MRS, MSR, SYS, SYSL, hints, barriers, ... */
    bool exception_gen;   /* SVC, HVC, SMC, BRK, HLT, DCPS*, TCANCEL: generates an exception */
    bool sys_va;          /* DC, IC or AT by virtual address (in base_reg); DC ZVA, DC GVA and
                             DC GZVA are stores instead */

    /* ---- the access ---- */
    uint8_t size_log2;  /* log2 of the bytes of one element accessed (a register, a lane,
                           an SVE element); ARMPROF_A64_SIZE_UNKNOWN when none is fixed */
    uint8_t regs;       /* registers transferred (LDP 2, LD4 4, LD64B 8, CASP 2) */
    uint16_t bytes;     /* bytes accessed when the encoding fixes them, else 0 (SVE, SME,
                           MOPS, DC ZVA, tag multiple) */
    uint8_t base_reg;   /* Xn|SP; Zn with vector_base; NOREG for a literal (pc_relative) and
                           for GCS pushes and pops (the address is GCSPR_ELx); FEAT_MOPS: Xd */
    uint8_t index_reg;  /* register offset: Xm/Wm, Zm with vector_index; NOREG none */
    uint8_t rt, rt2;    /* registers transferred (first and second; for a list, the first two);
                           for CBZ/TBZ the register tested; for FEAT_MOPS the size Xn */
    uint8_t rs;         /* store exclusive status, CAS/atomic/swap operand, CPY* source
                           address, SET* value, BRAA/BLRAA modifier */
    uint8_t target_reg; /* BR, BLR, RET (30 for RETAA): the register holding the target */
    uint8_t extend;     /* armprof_a64_extend of index_reg */
    uint8_t shift;      /* left shift applied to index_reg */
    int64_t offset;     /* immediate byte offset from base_reg, or from the PC (pc_relative:
                           literal loads, ADR; ADRP: from the PC's 4KB page); for branches
                           the target's offset from the PC; with offset_vl in units of the
                           vector transfer (MUL VL) */
    bool writeback;     /* the base register is updated (pre- or post-index, FEAT_MOPS) */
    bool post_index;    /* ... after the access, by offset or (Advanced SIMD) by index_reg */
    bool pc_relative;   /* the address or target is PC + offset */
    bool offset_vl;     /* offset counts vector-length units (SVE/SME "MUL VL") */
    bool vector_base;   /* base_reg is a Z register (SVE vector plus immediate) */
    bool vector_index;  /* index_reg is a Z register (SVE scalar plus vector) */
    uint8_t cond;       /* the condition code (0..15) of B.cond, CSEL, CCMP...; 0xff none */
    uint8_t test_bit;   /* TBZ/TBNZ: the bit tested; 0xff none */
    uint8_t mops_stage; /* FEAT_MOPS: 1 prologue (CPYP, SETP), 2 main, 3 epilogue, else 0 */
} armprof_a64_insn;

/* Decodes one A64 instruction into *out (always fully written; insn need
 * not be aligned or come from anywhere in particular). Returns false, with
 * out->undefined set and the class ARMPROF_OP_OTHER, for an encoding that is
 * unallocated or always UNDEFINED (UDF). out must not be NULL. */
bool armprof_a64_decode(uint32_t insn, armprof_a64_insn *out);

/* Sets in *op what the encoding decides: op_class, ldst_kind, other_kind,
 * branch_kind, conditional, fp, simd, acquire_release, exclusive, atomic,
 * predicated and gather_scatter. Leaves the rest (pc, addresses,
 * latencies, events, taken, target, mispredicted, cond_failed,
 * vector_length, tile_size, gcs, target_el) to the caller, and writes only
 * fields op->size covers. An undefined instruction becomes a plain Other
 * operation. Neither pointer may be NULL. */
void armprof_a64_fill_op(const armprof_a64_insn *i, armprof_op *op);

/* A short stable name of the instruction's class, one of the table in
 * docs/a64-classify.md: "load.general", "store.simdfp", "load.sve.gather",
 * "atomic", "branch.cond", "branch.indirect.call", "return", "other.sve",
 * "other.fp", "undefined", ... i must not be NULL. */
const char *armprof_a64_class_name(const armprof_a64_insn *i);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#endif
