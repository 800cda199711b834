/* SPDX-License-Identifier: BSD-3-Clause */
/* The A64 classifier's entry points: the top-level encoding (C4.1, "A64
 * instruction set encoding": bits [31] and [28:25] choose the group), what
 * a class means for an armprof_op, and the class names. */
#include <stddef.h>
#include <string.h>

#include "armprof/a64.h"
#include "a64/a64_internal.h"

const a64_row *a64_match(const a64_row *rows, size_t n, uint32_t insn)
{
    for (size_t i = 0; i < n; i++)
        if ((insn & rows[i].mask) == rows[i].value) return &rows[i];
    return NULL;
}

/* DecodeBitMasks(): whether N:immr:imms is a valid bitmask immediate for a
 * 64-bit (sf) or 32-bit operation. */
bool a64_valid_bitmask(unsigned n, unsigned imms, bool sf)
{
    const unsigned combined = n << 6 | (~imms & 0x3f);
    if (combined == 0) return false; /* len < 1 */
    unsigned len = 6;
    while (!(combined >> len & 1))
        len--;
    if (len < 1 || (!sf && len > 5)) return false;
    const unsigned levels = (1u << len) - 1;
    return (imms & levels) != levels;
}

/* What each class is for armprof_op: the class, its kind, and its name. */
typedef struct kind_desc {
    armprof_op_class op_class;
    uint8_t kind; /* armprof_ldst_kind, armprof_other_kind or armprof_branch_kind */
    const char *name;
} kind_desc;

static const kind_desc kinds[K_COUNT] = {
    [K_UNDEF] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "undefined"},
    [K_OTHER] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "other"},
    [K_OTHER_FP] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "other.fp"},
    [K_OTHER_SIMD] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "other.simd"},
    [K_OTHER_SVE] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_SVE, "other.sve"},
    [K_OTHER_SME] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_SME, "other.sme"},
    [K_SYSTEM] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "other.system"},
    [K_EXCEPTION] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "other.exception"},
    [K_PREFETCH] = {ARMPROF_OP_OTHER, ARMPROF_OTHER_GENERAL, "prefetch"},
    [K_LD_GEN] = {ARMPROF_OP_LOAD, ARMPROF_LDST_GENERAL, "load.general"},
    [K_ST_GEN] = {ARMPROF_OP_STORE, ARMPROF_LDST_GENERAL, "store.general"},
    [K_LD_ACQ] = {ARMPROF_OP_LOAD, ARMPROF_LDST_EXTENDED, "load.acquire"},
    [K_ST_REL] = {ARMPROF_OP_STORE, ARMPROF_LDST_EXTENDED, "store.release"},
    [K_LD_EXCL] = {ARMPROF_OP_LOAD, ARMPROF_LDST_EXTENDED, "load.exclusive"},
    [K_ST_EXCL] = {ARMPROF_OP_STORE, ARMPROF_LDST_EXTENDED, "store.exclusive"},
    [K_ATOMIC] = {ARMPROF_OP_LOAD, ARMPROF_LDST_EXTENDED, "atomic"},
    [K_ST_ATOMIC] = {ARMPROF_OP_STORE, ARMPROF_LDST_EXTENDED, "store.atomic"},
    [K_LD_SIMDFP] = {ARMPROF_OP_LOAD, ARMPROF_LDST_SIMDFP, "load.simdfp"},
    [K_ST_SIMDFP] = {ARMPROF_OP_STORE, ARMPROF_LDST_SIMDFP, "store.simdfp"},
    [K_LD_SVE] = {ARMPROF_OP_LOAD, ARMPROF_LDST_SVE_SME, "load.sve"},
    [K_ST_SVE] = {ARMPROF_OP_STORE, ARMPROF_LDST_SVE_SME, "store.sve"},
    [K_LD_SME] = {ARMPROF_OP_LOAD, ARMPROF_LDST_SVE_SME, "load.sme"},
    [K_ST_SME] = {ARMPROF_OP_STORE, ARMPROF_LDST_SVE_SME, "store.sme"},
    [K_LD_TAGS] = {ARMPROF_OP_LOAD, ARMPROF_LDST_TAGS, "load.tags"},
    [K_ST_TAGS] = {ARMPROF_OP_STORE, ARMPROF_LDST_TAGS, "store.tags"},
    [K_ST_UNSPEC] = {ARMPROF_OP_STORE, ARMPROF_LDST_UNSPECIFIED, "store.unspecified"},
    [K_MEMCOPY] = {ARMPROF_OP_LOAD, ARMPROF_LDST_MEMCOPY, "memcopy"},
    [K_MEMSET] = {ARMPROF_OP_STORE, ARMPROF_LDST_MEMSET, "memset"},
    [K_LD_GCS] = {ARMPROF_OP_LOAD, ARMPROF_LDST_GCS, "load.gcs"},
    [K_ST_GCS] = {ARMPROF_OP_STORE, ARMPROF_LDST_GCS, "store.gcs"},
    [K_B] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_DIRECT, "branch"},
    [K_BL] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_DIRECT_CALL, "branch.call"},
    [K_BCOND] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_DIRECT, "branch.cond"},
    [K_BR] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_INDIRECT, "branch.indirect"},
    [K_BLR] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_INDIRECT_CALL, "branch.indirect.call"},
    [K_RET] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_RETURN, "return"},
    [K_ERET] = {ARMPROF_OP_BRANCH, ARMPROF_BRANCH_ERET, "eret"},
};

/* The kind's own attributes, before the row's flags. */
static void apply_kind(armprof_a64_insn *out, a64_kind k)
{
    const kind_desc *d = &kinds[k];
    out->op_class = d->op_class;
    switch (d->op_class) {
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        out->ldst_kind = (armprof_ldst_kind)d->kind;
        break;
    case ARMPROF_OP_BRANCH:
        out->branch_kind = (armprof_branch_kind)d->kind;
        break;
    default:
        out->other_kind = (armprof_other_kind)d->kind;
        break;
    }
    switch (k) {
    case K_OTHER_FP:
        out->fp = true;
        break;
    case K_OTHER_SIMD:
        out->simd = true;
        break;
    case K_OTHER_SVE:
    case K_LD_SVE:
    case K_ST_SVE:
        out->sve = true;
        break;
    case K_OTHER_SME:
    case K_LD_SME:
    case K_ST_SME:
        out->sme = true;
        break;
    case K_SYSTEM:
        out->system = true;
        break;
    case K_EXCEPTION:
        out->exception_gen = true;
        break;
    case K_PREFETCH:
        out->prefetch = true;
        break;
    case K_LD_ACQ:
    case K_ST_REL:
        out->acquire_release = true;
        break;
    case K_LD_EXCL:
    case K_ST_EXCL:
        out->exclusive = true;
        break;
    case K_ATOMIC:
    case K_ST_ATOMIC:
        out->atomic = true;
        break;
    case K_BCOND:
        out->conditional = true;
        break;
    case K_LD_GCS:
    case K_ST_GCS:
        out->gcs = true;
        break;
    default:
        break;
    }
}

void a64_apply(armprof_a64_insn *out, const a64_row *row)
{
    apply_kind(out, (a64_kind)row->kind);
    const unsigned f = row->flags;
    /* D17.8.3, the operation types: a scalar load or store of a Q register
     * or pair of Q registers is SIMD, of another SIMD&FP register FP */
    const bool q_access =
        row->size == 4 && (out->op_class == ARMPROF_OP_LOAD || out->op_class == ARMPROF_OP_STORE);
    if (f & A64F_FP) {
        if (q_access)
            out->simd = true;
        else
            out->fp = true;
    }
    if (f & A64F_SIMD) out->simd = true;
    if (f & A64F_COND) out->conditional = true;
    if (f & A64F_AR) out->acquire_release = true;
    if (f & A64F_EXCL) out->exclusive = true;
    if (f & A64F_PRED) out->predicated = true;
    if (f & A64F_GATHER) out->gather_scatter = true;
    if (f & A64F_PAUTH) out->pauth = true;
    if (f & A64F_FF) out->first_fault = true;
    if (f & A64F_NF) out->non_fault = true;
    if (f & A64F_GCS) out->gcs = true;
    if (f & A64F_SYSVA) out->sys_va = true;
    if (f & A64F_ATOMIC) out->atomic = true;
    if (f & A64F_SVE) out->sve = true;
    if (f & A64F_SME) out->sme = true;
}

static void clear(armprof_a64_insn *out, uint32_t insn)
{
    memset(out, 0, sizeof *out);
    out->insn = insn;
    out->op_class = ARMPROF_OP_OTHER;
    out->ldst_kind = ARMPROF_LDST_GENERAL;
    out->other_kind = ARMPROF_OTHER_GENERAL;
    out->branch_kind = ARMPROF_BRANCH_DIRECT;
    out->size_log2 = ARMPROF_A64_SIZE_UNKNOWN;
    out->base_reg = out->index_reg = out->rt = out->rt2 = out->rs = out->target_reg =
        ARMPROF_A64_NOREG;
    out->cond = out->test_bit = 0xff;
}

bool a64_undefined(armprof_a64_insn *out)
{
    clear(out, out->insn);
    out->undefined = true;
    return false;
}

/* C4.1, the top-level encoding: op0 bit [31], op1 bits [28:25]. */
bool armprof_a64_decode(uint32_t insn, armprof_a64_insn *out)
{
    clear(out, insn);
    const uint32_t op1 = a64_bits(insn, 28, 25);
    switch (op1) {
    case 0x0: /* op0 0: Reserved (UDF when bits [24:16] are zero); op0 1: SME */
        if (insn >> 31) return a64_decode_sme(insn, out);
        return a64_undefined(out);
    case 0x1: /* Unallocated */
    case 0x3:
        return a64_undefined(out);
    case 0x2: /* SVE encodings: op0 bits [31:29] 1xx are the memory groups */
        if (insn >> 31) return a64_decode_sve_mem(insn, out);
        return a64_decode_sve(insn, out);
    case 0x8: /* 100x: Data Processing -- Immediate */
    case 0x9:
        return a64_decode_dp_imm(insn, out);
    case 0xa: /* 101x: Branches, Exception Generating and System instructions */
    case 0xb:
        return a64_decode_branch_sys(insn, out);
    case 0x5: /* x101: Data Processing -- Register */
    case 0xd:
        return a64_decode_dp_reg(insn, out);
    case 0x7: /* x111: Data Processing -- Scalar Floating-Point and Advanced SIMD */
    case 0xf:
        return a64_decode_simdfp(insn, out);
    default: /* x1x0: Loads and Stores */
        return a64_decode_ldst(insn, out);
    }
}

/* Every field written here is of armprof_op's first version, which every
 * .size covers. */
void armprof_a64_fill_op(const armprof_a64_insn *i, armprof_op *op)
{
    if (i->undefined) {
        op->op_class = ARMPROF_OP_OTHER;
        op->other_kind = ARMPROF_OTHER_GENERAL;
        op->conditional = op->fp = op->simd = false;
        op->acquire_release = op->exclusive = op->atomic = false;
        op->predicated = op->gather_scatter = false;
        return;
    }
    op->op_class = i->op_class;
    op->ldst_kind = i->ldst_kind;
    op->other_kind = i->other_kind;
    op->branch_kind = i->branch_kind;
    op->conditional = i->conditional;
    op->fp = i->fp;
    op->simd = i->simd;
    op->acquire_release = i->acquire_release;
    op->exclusive = i->exclusive;
    op->atomic = i->atomic;
    op->predicated = i->predicated;
    op->gather_scatter = i->gather_scatter;
}

const char *armprof_a64_class_name(const armprof_a64_insn *i)
{
    if (i->undefined) return "undefined";
    switch (i->op_class) {
    case ARMPROF_OP_LOAD:
        if (i->atomic && i->ldst_kind == ARMPROF_LDST_EXTENDED) return "atomic";
        if (i->exclusive) return "load.exclusive";
        if (i->ldst_kind == ARMPROF_LDST_EXTENDED) return "load.acquire";
        if (i->ldst_kind == ARMPROF_LDST_SVE_SME) {
            if (i->sme) return "load.sme";
            return i->gather_scatter ? "load.sve.gather" : "load.sve";
        }
        break;
    case ARMPROF_OP_STORE:
        if (i->atomic && i->ldst_kind == ARMPROF_LDST_EXTENDED) return "store.atomic";
        if (i->exclusive) return "store.exclusive";
        if (i->ldst_kind == ARMPROF_LDST_EXTENDED) return "store.release";
        if (i->ldst_kind == ARMPROF_LDST_SVE_SME) {
            if (i->sme) return "store.sme";
            return i->gather_scatter ? "store.sve.scatter" : "store.sve";
        }
        break;
    case ARMPROF_OP_BRANCH:
        if (i->conditional) return "branch.cond";
        break;
    default:
        if (i->prefetch) return "prefetch";
        if (i->system) return "other.system";
        if (i->exception_gen) return "other.exception";
        if (i->other_kind == ARMPROF_OTHER_SVE) return "other.sve";
        if (i->other_kind == ARMPROF_OTHER_SME) return "other.sme";
        if (i->simd) return "other.simd";
        if (i->fp) return i->conditional ? "other.fp.cond" : "other.fp";
        return i->conditional ? "other.cond" : "other";
    }
    for (size_t k = 0; k < K_COUNT; k++) {
        const kind_desc *d = &kinds[k];
        if (d->op_class == i->op_class &&
            d->kind == (i->op_class == ARMPROF_OP_BRANCH ? (uint8_t)i->branch_kind
                                                         : (uint8_t)i->ldst_kind))
            return d->name;
    }
    return "?";
}
