/* SPDX-License-Identifier: BSD-3-Clause */
/* The classifier's decode tables: rows of (mask, value) matched in order,
 * first match wins, each naming the instruction's class (a64_kind), its
 * attributes (A64F_*) and the form its operands take (per group). The
 * encodings are those of the Arm ARM's A64 encoding index (chapter C4);
 * each table says which encoding class its rows come from. */
#ifndef ARMPROF_A64_INTERNAL_H
#define ARMPROF_A64_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/a64.h"

/* The class of an instruction; armprof_a64_class_name() gives its name. */
typedef enum a64_kind {
    K_UNDEF,
    K_OTHER,
    K_OTHER_FP,
    K_OTHER_SIMD,
    K_OTHER_SVE,
    K_OTHER_SME,
    K_SYSTEM,
    K_EXCEPTION,
    K_PREFETCH,
    K_LD_GEN,
    K_ST_GEN,
    K_LD_ACQ,
    K_ST_REL,
    K_LD_EXCL,
    K_ST_EXCL,
    K_ATOMIC,
    K_ST_ATOMIC,
    K_LD_SIMDFP,
    K_ST_SIMDFP,
    K_LD_SVE,
    K_ST_SVE,
    K_LD_SME,
    K_ST_SME,
    K_LD_TAGS,
    K_ST_TAGS,
    K_ST_UNSPEC,
    K_MEMCOPY,
    K_MEMSET,
    K_LD_GCS,
    K_ST_GCS,
    K_B,
    K_BL,
    K_BCOND,
    K_BR,
    K_BLR,
    K_RET,
    K_ERET,
    K_COUNT
} a64_kind;

/* Attributes a row gives (the rest come from its kind and form). */
enum {
    A64F_FP = 1u << 0,
    A64F_SIMD = 1u << 1,
    A64F_COND = 1u << 2,
    A64F_AR = 1u << 3,     /* acquire or release */
    A64F_EXCL = 1u << 4,   /* exclusive */
    A64F_PRED = 1u << 5,   /* governing predicate (D17.6.6) */
    A64F_GATHER = 1u << 6, /* gather or scatter */
    A64F_PAUTH = 1u << 7,
    A64F_FF = 1u << 8, /* first-fault */
    A64F_NF = 1u << 9, /* non-fault */
    A64F_GCS = 1u << 10,
    A64F_SYSVA = 1u << 11,
    A64F_ATOMIC = 1u << 12, /* an atomic access outside K_ATOMIC/K_ST_ATOMIC (GCSSS1) */
    A64F_SVE = 1u << 13,
    A64F_SME = 1u << 14,
};

typedef struct a64_row {
    uint32_t mask, value;
    uint8_t kind;     /* a64_kind */
    uint8_t form;     /* the group's operand form */
    uint16_t flags;   /* A64F_* */
    uint8_t size;     /* log2 of the element size when the row fixes it, else SZ_FORM */
    const char *name; /* the instruction (family), for reading and debugging */
} a64_row;

/* a64_row.size: the form works the element size out. */
#define SZ_FORM 0xfe
/* A row: ROW(mask, value, kind, form, flags, size, name). */
/* clang-format off */
#define ROW(m, v, k, f, fl, sz, n) {(m), (v), (k), (f), (fl), (sz), (n)}
/* clang-format on */

#define A64_ROWS(table) (table), sizeof(table) / sizeof((table)[0])

/* The first row matching insn, or NULL. */
const a64_row *a64_match(const a64_row *rows, size_t n, uint32_t insn);

/* Bits [hi:lo] of x. */
static inline uint32_t a64_bits(uint32_t x, unsigned hi, unsigned lo)
{
    return (x >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1));
}
/* The signed value of the bits-wide field at lo. */
static inline int64_t a64_sbits(uint32_t x, unsigned hi, unsigned lo)
{
    const unsigned width = hi - lo + 1;
    const int64_t v = (int64_t)a64_bits(x, hi, lo);
    return (v ^ ((int64_t)1 << (width - 1))) - ((int64_t)1 << (width - 1));
}

/* Applies a row: kind, flags. out was cleared by the caller. */
void a64_apply(armprof_a64_insn *out, const a64_row *row);
/* The instruction is unallocated: clears what a group set. */
bool a64_undefined(armprof_a64_insn *out);

/* DecodeBitMasks(): whether N:immr:imms is a valid bitmask immediate for a
 * 64-bit (sf) or 32-bit operation (only N and imms decide). */
bool a64_valid_bitmask(unsigned n, unsigned imms, bool sf);

/* The groups of the top-level encoding (bits [31], [28:25]). Each fills
 * out (already cleared, registers NOREG) and returns false for an
 * unallocated encoding. */
bool a64_decode_ldst(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_branch_sys(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_dp_imm(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_dp_reg(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_simdfp(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_sve(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_sve_mem(uint32_t insn, armprof_a64_insn *out);
bool a64_decode_sme(uint32_t insn, armprof_a64_insn *out);

#endif
