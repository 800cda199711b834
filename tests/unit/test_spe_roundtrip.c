/* SPDX-License-Identifier: BSD-3-Clause */
/* Round trip of Statistical Profiling sample records: operations sampled by
 * the model, written to the Profiling Buffer, read back from memory and
 * decoded with the record decoder (include/armprof/decode.h) equal, field by
 * field, what was sampled.
 *
 * Each configuration below owns the buffer at Non-secure EL1 (MDCR_EL3.NSPB
 * 0b11, MDCR_EL2.E2PB 0b10), stage 1 off, so the buffer's VA is its PA. The
 * interval is the minimum PMSIDR_EL1.Interval recommends, and after every
 * selection PMSICR_EL1.COUNT is set to 1..4 so that the next sample comes
 * soon (every Nth operation, with a single sample in flight: no collisions).
 * A fixed-seed generator retires a mix of operations at EL0 and EL1 with
 * random PCs, addresses, latencies (some above the counter range), events
 * and data sources; armprof_dispatch() says which operations were selected.
 *
 * The expected record of each sampled operation is derived from the
 * operation and chapter D18, not from the encoder:
 * - Address packets (D18.2.1): PC with EL, NS 1 and NSE 0 (Non-secure);
 *   branch target of a taken branch; the previous taken branch target
 *   (FEAT_SPE_PBT) of a sampled branch; data VA, with TAG the top byte when
 *   TBI applies and zero otherwise (option spe_non_tbi_tag_zero); data PA
 *   with NS 1 when PMSCR_EL1.PA and PMSCR_EL2.PA are set, and with FEAT_MTE2
 *   CH = Tag Checked and PAT = the logical tag (spe_pat_unchecked_zero 0).
 * - Counter packets (D18.2.3): total and issue latency, translation latency
 *   for loads and stores, alternate clock issue latency (FEAT_SPE_ALTCLK)
 *   for an SMCU operation; each saturated at the PMSIDR_EL1.CountSize width
 *   (0b0010: 12 bits, 0b0011: 16 bits).
 * - Events packet (D18.2.6): E[1] 1 (the operation retired), E[2]/E[3] from
 *   the L1 data cache access/refill, E[6] a failed condition, E[7] a
 *   misprediction, the others from armprof_op.events masked to the bits the
 *   configuration defines, and only the bits the payload size outputs.
 * - Data Source packet (D18.2.4) for loads, masked to its payload size.
 * - Operation Type packet (D18.2.7): decoded with armprof_spe_decode_op(),
 *   kind and every field from the operation.
 * - Context packets (D18.2.2) with PMSCR_EL1.CX / PMSCR_EL2.CX, a Timestamp
 *   packet (D18.2.9) iff PMSCR_EL1.TS (the virtual count: physical count
 *   minus CNTVOFF_EL2, PMSCR_ELx.PCT 0), an End packet otherwise.
 * Besides: the bytes in memory from the first PMBPTR_EL1 to the final one
 * are the bytes the sink saw, every record decodes without error and with no
 * ignored packet, and each starts at a multiple of 2^PMBIDR_EL1.Align. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "check.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

#define BUF_PA   0x80000000ull
#define BUF_SIZE 0x400000ull /* 4MB: far more than the samples need, no buffer full event */
#define CNTVOFF  0x123456ull
#define OPS      24000u
#define ADDR56   0x00ffffffffffffffull

/* ---- registers by name ---- */

/* ---- one configuration ---- */

typedef struct variant {
    const char *name;
    const char *preset;
    const char *settings[8]; /* "name=value" */
    bool ts, cx, pa;
} variant;

/* What the configuration has, read once. */
typedef struct caps {
    bool v1p1, v1p2, v1p3, v1p4, sve, sme, spe_sme, fpf, crr, pbt, altclk, mte, mte2, mops, gcs;
    bool prev_br_eret, prev_br_exception, prev_br_not_branch, non_tbi_tag_zero, pat_unchecked_zero;
    uint64_t events_implemented; /* option spe_events_implemented */
    unsigned ds_bytes;           /* option spe_data_source_bytes */
    unsigned events_bytes;       /* option spe_events_payload_bytes (0: smallest) */
} caps;

/* A sampled operation and the PE state when it was selected. */
typedef struct sample {
    armprof_op op;
    unsigned el;
    uint32_t ctx1, ctx2;
    uint64_t count; /* physical count */
    bool pbt_valid; /* previous taken branch target before this operation */
    uint64_t pbt;
} sample;

typedef struct run {
    const variant *v;
    caps c;
    armprof_pe *pe;
    uint8_t *sink;
    size_t sink_len, sink_cap;
    sample *samples;
    size_t nsamples, cap;
    unsigned long mismatches;
    /* how often each optional part occurred, so that a run that never
     * exercises it fails rather than passes vacuously */
    unsigned long seen_pbt, seen_target, seen_pa, seen_tag, seen_alt, seen_sat, seen_ds, seen_ts;
    unsigned long seen_kind[ARMPROF_SPE_OP_RESERVED + 1];
} run;

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    run *r = ctx;
    if (r->sink_len + size > r->sink_cap) {
        r->sink_cap = (r->sink_len + size) * 2;
        r->sink = realloc(r->sink, r->sink_cap);
        if (!r->sink) abort();
    }
    memcpy(r->sink + r->sink_len, record, size);
    r->sink_len += size;
}

/* The Events bits the configuration defines that armprof_op.events carries
 * (D18.2.6), for the kind of operation: E[0] any; E[4], E[5], E[8] to E[11]
 * loads and stores (E[8:10] are optional: spe_events_implemented); E[17],
 * E[18] SVE/SME with FEAT_SPEv1p1; E[19] to E[23] loads with FEAT_SPEv1p4
 * (optional; a store may not record them); E[24], E[25] FEAT_SPE_SME. */
static uint64_t generatable_events(const caps *c, bool ldst, bool load, bool sve_sme)
{
    uint64_t m = 1u << 0;
    if (ldst) {
        m |= 1u << 4 | 1u << 5 | (c->events_implemented & 0x700u);
        if (c->v1p1) m |= 1u << 11;
    }
    if (sve_sme && c->v1p1 && (c->sve || c->sme)) m |= 1u << 17 | 1u << 18;
    if (load && c->v1p4) m |= c->events_implemented & (0x1full << 19);
    if (c->spe_sme) m |= 1u << 24 | 1u << 25;
    return m;
}

static uint64_t canonical(uint64_t a, bool high)
{
    a &= 0x0000ffffffffffffull;
    return high ? a | 0xffff000000000000ull : a;
}

/* ---- the workload ---- */

static void gen_memory(run *R, rng *g, armprof_op *op, unsigned el)
{
    const caps *c = &R->c;
    op->op_class = chance(g, 2) ? ARMPROF_OP_LOAD : ARMPROF_OP_STORE;
    /* The kinds this PE has (D18.2.7 "defined only if"). */
    armprof_ldst_kind kinds[10];
    unsigned n = 0;
    kinds[n++] = ARMPROF_LDST_GENERAL;
    kinds[n++] = ARMPROF_LDST_EXTENDED;
    kinds[n++] = ARMPROF_LDST_SIMDFP;
    if (c->v1p1) kinds[n++] = ARMPROF_LDST_UNSPECIFIED;
    if (c->v1p1 && (c->sve || c->sme)) kinds[n++] = ARMPROF_LDST_SVE_SME;
    if (c->mte) kinds[n++] = ARMPROF_LDST_TAGS;
    if (c->mops) kinds[n++] = ARMPROF_LDST_MEMCOPY;
    if (c->mops) kinds[n++] = ARMPROF_LDST_MEMSET;
    if (c->gcs) kinds[n++] = ARMPROF_LDST_GCS;
    op->ldst_kind = kinds[below(g, n)];
    switch (op->ldst_kind) {
    case ARMPROF_LDST_EXTENDED:
        op->acquire_release = chance(g, 2);
        op->exclusive = chance(g, 3);
        op->atomic = !op->exclusive && chance(g, 2);
        break;
    case ARMPROF_LDST_SIMDFP:
        op->simd = chance(g, 2);
        break;
    case ARMPROF_LDST_SVE_SME: {
        op->predicated = chance(g, 2);
        op->gather_scatter = chance(g, 3);
        /* 16 to 2048 bits, or above with FEAT_SPE_SME; not always a power of two */
        const unsigned top = c->spe_sme ? 4096 : 2048;
        op->vector_length = 16 + below(g, top - 15);
        break;
    }
    case ARMPROF_LDST_MEMSET:
        op->op_class = ARMPROF_OP_STORE;
        break;
    default:
        break;
    }
    const bool load = op->op_class == ARMPROF_OP_LOAD; /* a memory set is a store */
    /* EL0 addresses may carry a tag in the top byte (TBI); EL1 ones are
     * canonical kernel addresses. */
    if (el == 0) {
        op->vaddr = rnd(g) & 0x0000fffffffffff8ull;
        op->tbi = chance(g, 2);
        if (op->tbi) op->vaddr |= (uint64_t)below(g, 256) << 56;
    } else {
        op->vaddr = canonical(rnd(g), true) & ~7ull;
    }
    op->tag_checked = c->mte2 && op->tbi && chance(g, 2);
    op->paddr = rnd(g) & 0xfffffffff8ull; /* 40 bits: within every pa_size */
    op->pas = ARMPROF_PAS_NONSECURE;
    op->l1d_access = chance(g, 4) != 0;
    op->l1d_refill = op->l1d_access && chance(g, 3);
    op->translation_latency = chance(g, 10) ? 0x10000 + below(g, 0x10000) : below(g, 300);
    if (load) {
        op->data_source_valid = !chance(g, 5);
        op->data_source = (uint16_t)rnd(g);
    }
    const bool sve_sme = op->ldst_kind == ARMPROF_LDST_SVE_SME;
    op->events = (uint32_t)(rnd(g) & generatable_events(c, true, load, sve_sme));
}

static void gen_other(run *R, rng *g, armprof_op *op)
{
    const caps *c = &R->c;
    op->op_class = ARMPROF_OP_OTHER;
    const unsigned k = below(g, 4);
    if (k == 1 && c->sve) {
        op->other_kind = ARMPROF_OTHER_SVE;
        op->predicated = chance(g, 2);
        op->fp = chance(g, 2);
        op->vector_length = 128u << below(g, 5); /* 128..2048 */
    } else if (k == 2 && c->sme && c->spe_sme) {
        op->other_kind = ARMPROF_OTHER_SME;
        op->fp = chance(g, 2);
        op->tile_size = 128u << below(g, 12); /* ETS 0b0000..0b1011 */
    } else {
        op->other_kind = ARMPROF_OTHER_GENERAL;
        op->fp = chance(g, 3);
        op->simd = !op->fp && chance(g, 3);
        op->conditional = chance(g, 4);
        op->cond_failed = op->conditional && chance(g, 2);
    }
    const bool sve_sme = op->other_kind != ARMPROF_OTHER_GENERAL;
    op->events = (uint32_t)(rnd(g) & generatable_events(c, false, false, sve_sme));
}

static void gen_branch(rng *g, armprof_op *op, unsigned el)
{
    op->op_class = ARMPROF_OP_BRANCH;
    /* Exception entry and return only where the target is at the same EL
     * (EL1 to EL1): armprof_op has no target Exception level, and D18.2.1
     * records the target's. */
    const unsigned nkinds = el == 1 ? 7 : 5;
    op->branch_kind = (armprof_branch_kind)below(g, nkinds);
    op->conditional = op->branch_kind == ARMPROF_BRANCH_DIRECT && chance(g, 2);
    op->taken = !op->conditional || chance(g, 2);
    op->mispredicted = chance(g, 8);
    op->target = canonical(rnd(g), el != 0) & ~3ull;
    op->events = 0;
}

/* ---- expectations ---- */

#define SAME(what, got, want)                                                                      \
    do {                                                                                           \
        const unsigned long long got_ = (got), want_ = (want);                                     \
        if (got_ != want_) {                                                                       \
            if (R->mismatches++ < 20)                                                              \
                fprintf(stderr,                                                                    \
                        "%s: sample %zu (op %u class %d kind %d/%d): %s: 0x%llx, want "            \
                        "0x%llx\n",                                                                \
                        R->v->name, i, s->op.op_class == ARMPROF_OP_BRANCH ? 0u : 1u,              \
                        (int)s->op.op_class, (int)s->op.ldst_kind, (int)s->op.branch_kind, what,   \
                        got_, want_);                                                              \
        }                                                                                          \
    } while (0)

static uint8_t evl_encoding(uint32_t bits)
{
    /* D18.2.7 EVL: 32 << EVL bits, rounded up; 0b111 above 2048 bits */
    uint8_t e = 0;
    while (e < 7 && (32u << e) < bits)
        e++;
    return e;
}

static void check_op_type(run *R, size_t i, const sample *s, const armprof_spe_record *rec)
{
    const caps *c = &R->c;
    const armprof_op *op = &s->op;
    SAME("Operation Type present", rec->op_valid, 1);
    const armprof_spe_op t = armprof_spe_decode_op(rec->op_class, rec->op_subclass);
    const bool store = op->op_class == ARMPROF_OP_STORE;
    switch (op->op_class) {
    case ARMPROF_OP_OTHER:
        if (op->other_kind == ARMPROF_OTHER_SVE) {
            SAME("op kind", t.kind, ARMPROF_SPE_OP_SVE);
            SAME("SVE EVL", t.evl, evl_encoding(op->vector_length));
            SAME("SVE PRED", t.pred, op->predicated);
            SAME("SVE FP", t.fp, op->fp);
        } else if (op->other_kind == ARMPROF_OTHER_SME) {
            SAME("op kind", t.kind, ARMPROF_SPE_OP_SME);
            unsigned ets = 0;
            while ((128u << ets) < op->tile_size)
                ets++;
            SAME("SME ETS", t.ets, ets);
            SAME("SME FP", t.fp, op->fp);
        } else {
            SAME("op kind", t.kind, ARMPROF_SPE_OP_OTHER);
            /* ASE and FP read as zero without FEAT_SPE_FPF */
            SAME("Other ASE", t.ase, c->fpf && op->simd);
            SAME("Other FP", t.fp, c->fpf && op->fp);
            SAME("Other COND", t.cond, op->conditional);
        }
        break;
    case ARMPROF_OP_BRANCH: {
        const armprof_branch_kind k = op->branch_kind;
        SAME("op kind", t.kind, ARMPROF_SPE_OP_BRANCH);
        SAME("Branch COND", t.cond, op->conditional);
        SAME("Branch IND", t.ind, k != ARMPROF_BRANCH_DIRECT && k != ARMPROF_BRANCH_DIRECT_CALL);
        unsigned cr = 0;
        if (c->crr)
            cr = k == ARMPROF_BRANCH_DIRECT_CALL || k == ARMPROF_BRANCH_INDIRECT_CALL ? 1
                 : k == ARMPROF_BRANCH_RETURN                                         ? 2
                                                                                      : 3;
        SAME("Branch CR", t.cr, cr);
        SAME("Branch GCS", t.gcs, 0); /* armprof_op cannot describe a GCS access by a branch */
        break;
    }
    default:
        switch (op->ldst_kind) {
        case ARMPROF_LDST_GENERAL:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_GP);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_EXTENDED:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_EXT);
            SAME("AR", t.ar, op->acquire_release);
            SAME("EXCL", t.excl, op->exclusive);
            SAME("AT", t.at, op->atomic);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_SIMDFP:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_SIMDFP);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_UNSPECIFIED:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_UNSPEC);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_SVE_SME:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_SVE_SME);
            SAME("SG", t.sg, op->gather_scatter);
            SAME("EVL", t.evl, evl_encoding(op->vector_length));
            SAME("PRED", t.pred, op->predicated);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_TAGS:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_TAGS);
            SAME("LDST", t.ldst, store);
            break;
        case ARMPROF_LDST_MEMCOPY:
            /* the sampled access is the copy's load or its store: either */
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_MEMCPY);
            break;
        case ARMPROF_LDST_MEMSET:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_MEMSET);
            SAME("LDST", t.ldst, 1);
            break;
        case ARMPROF_LDST_GCS:
            SAME("op kind", t.kind, ARMPROF_SPE_OP_LDST_GCS);
            SAME("COMM", t.comm, 1); /* a GCS load or store instruction, not BL or RET */
            SAME("LDST", t.ldst, store);
            break;
        default:
            SAME("unexpected ldst kind", op->ldst_kind, 0);
            break;
        }
        break;
    }
}

static void check_record(run *R, size_t i, const sample *s, const armprof_spe_record *rec,
                         unsigned count_bits)
{
    const caps *c = &R->c;
    const armprof_op *op = &s->op;
    const bool ldst = op->op_class == ARMPROF_OP_LOAD || op->op_class == ARMPROF_OP_STORE;
    const bool branch = op->op_class == ARMPROF_OP_BRANCH;
    SAME("ignored packets", rec->ignored, 0);
    R->seen_pbt += rec->address_valid >> ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET & 1;
    R->seen_target += rec->address_valid >> ARMPROF_SPE_ADDR_BRANCH_TARGET & 1;
    R->seen_pa += rec->address_valid >> ARMPROF_SPE_ADDR_DATA_PHYSICAL & 1;
    R->seen_tag += (rec->address_valid >> ARMPROF_SPE_ADDR_DATA_VIRTUAL & 1) &&
                   rec->address[ARMPROF_SPE_ADDR_DATA_VIRTUAL] >> 56;
    R->seen_alt += rec->counter_valid >> ARMPROF_SPE_COUNTER_ALT_ISSUE & 1;
    R->seen_sat += rec->counter[ARMPROF_SPE_COUNTER_TOTAL] == (count_bits == 16 ? 0xffff : 0xfff);
    R->seen_ds += rec->data_source_valid;
    R->seen_ts += rec->timestamp_valid;
    R->seen_kind[armprof_spe_decode_op(rec->op_class, rec->op_subclass).kind]++;

    /* Addresses (D18.2.1). */
    uint32_t want_addr = 1u << ARMPROF_SPE_ADDR_PC;
    if (branch && op->taken) want_addr |= 1u << ARMPROF_SPE_ADDR_BRANCH_TARGET;
    if (c->pbt && s->pbt_valid && (branch || c->prev_br_not_branch))
        want_addr |= 1u << ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET;
    if (ldst) want_addr |= 1u << ARMPROF_SPE_ADDR_DATA_VIRTUAL;
    if (ldst && R->v->pa) want_addr |= 1u << ARMPROF_SPE_ADDR_DATA_PHYSICAL;
    SAME("address packets", rec->address_valid, want_addr);
    const armprof_spe_inst_address pc = armprof_spe_decode_inst_address(rec->address[0]);
    SAME("PC", pc.va, op->pc);
    SAME("PC EL", pc.el, s->el);
    SAME("PC NS", pc.ns, 1);
    SAME("PC NSE", pc.nse, 0);
    if (want_addr & rec->address_valid & (1u << ARMPROF_SPE_ADDR_BRANCH_TARGET)) {
        const armprof_spe_inst_address t = armprof_spe_decode_inst_address(rec->address[1]);
        SAME("branch target", t.va, op->target);
        SAME("branch target EL", t.el, s->el);
        SAME("branch target NS", t.ns, 1);
    }
    if (want_addr & rec->address_valid & (1u << ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET))
        SAME("previous branch target", rec->address[4], s->pbt);
    if (want_addr & rec->address_valid & (1u << ARMPROF_SPE_ADDR_DATA_VIRTUAL)) {
        const armprof_spe_data_va va = armprof_spe_decode_data_va(rec->address[2]);
        const bool tag_kept = op->tbi || !c->non_tbi_tag_zero;
        SAME("data VA TAG", va.tag, tag_kept ? (unsigned)(op->vaddr >> 56) : 0u);
        SAME("data VA ADDR", rec->address[2] & ADDR56, op->vaddr & ADDR56);
        if (!op->tbi) SAME("data VA", va.va, op->vaddr); /* canonical: sign-extended back */
    }
    if (want_addr & rec->address_valid & (1u << ARMPROF_SPE_ADDR_DATA_PHYSICAL)) {
        const armprof_spe_data_pa pa = armprof_spe_decode_data_pa(rec->address[3]);
        SAME("data PA", pa.pa, op->paddr);
        SAME("data PA NS", pa.ns, 1);
        SAME("data PA NSE", pa.nse, 0);
        SAME("data PA CH", pa.ch, c->mte2 && op->tag_checked);
        const unsigned ltag = (unsigned)(op->vaddr >> 56) & 15u;
        const unsigned pat = !c->mte2 ? 0u : op->tag_checked || !c->pat_unchecked_zero ? ltag : 0u;
        SAME("data PA PAT", pa.pat, pat);
    }

    /* Counters (D18.2.3). */
    const uint32_t sat = count_bits == 16 ? 0xffffu : 0xfffu;
    uint32_t want_ctr = 1u << ARMPROF_SPE_COUNTER_TOTAL | 1u << ARMPROF_SPE_COUNTER_ISSUE;
    if (ldst) want_ctr |= 1u << ARMPROF_SPE_COUNTER_TRANSLATION;
    if (c->altclk && (op->events & ARMPROF_SPE_EV_SHARED_RESOURCE))
        want_ctr |= 1u << ARMPROF_SPE_COUNTER_ALT_ISSUE;
    SAME("counter packets", rec->counter_valid, want_ctr);
    const uint32_t lat[5] = {op->total_latency, op->issue_latency, op->translation_latency, 0,
                             op->alt_issue_latency};
    for (unsigned k = 0; k < 5; k++)
        if (want_ctr & rec->counter_valid & (1u << k))
            SAME("counter", rec->counter[k], lat[k] > sat ? sat : lat[k]);

    /* Events (D18.2.6). */
    SAME("Events present", rec->events_valid, 1);
    if (c->events_bytes) SAME("Events payload size", rec->events_size, c->events_bytes);
    const bool load_op = op->op_class == ARMPROF_OP_LOAD;
    const bool sve_sme = op->ldst_kind == ARMPROF_LDST_SVE_SME && ldst;
    const bool other_vec =
        op->op_class == ARMPROF_OP_OTHER && op->other_kind != ARMPROF_OTHER_GENERAL;
    uint64_t want_ev = op->events & generatable_events(c, ldst, load_op, sve_sme || other_vec);
    want_ev |= 1u << 1;
    if (op->l1d_access) want_ev |= 1u << 2;
    if (op->l1d_refill) want_ev |= 1u << 3;
    const bool failed =
        (branch && op->conditional && !op->taken) ||
        (op->op_class == ARMPROF_OP_OTHER && op->other_kind == ARMPROF_OTHER_GENERAL &&
         op->conditional && op->cond_failed);
    if (failed) want_ev |= 1u << 6;
    if (op->mispredicted) want_ev |= 1u << 7;
    want_ev |= (uint64_t)op->impdef_events << 48;
    uint64_t ignore = 0;
    /* With FEAT_SPEv1p4, E[3] is a miss and a store may not record it. */
    if (c->v1p4 && op->op_class == ARMPROF_OP_STORE) ignore |= 1u << 3;
    const unsigned ev_bits = 8u * rec->events_size;
    const uint64_t out_mask = ev_bits >= 64 ? ~0ull : (1ull << ev_bits) - 1;
    SAME("Events", rec->events & ~ignore, want_ev & out_mask & ~ignore);

    /* Data Source (D18.2.4), for a load. */
    const armprof_spe_op t = armprof_spe_decode_op(rec->op_class, rec->op_subclass);
    const bool read = ldst && !t.ldst;
    const bool want_ds = read && op->data_source_valid && c->ds_bytes;
    SAME("Data Source present", rec->data_source_valid, want_ds);
    if (want_ds && rec->data_source_valid) {
        SAME("Data Source size", rec->data_source_size, c->ds_bytes);
        SAME("Data Source", rec->data_source,
             op->data_source & (c->ds_bytes == 1 ? 0xffu : 0xffffu));
    }

    check_op_type(R, i, s, rec);

    /* Context (D18.2.2) and Timestamp (D18.2.9). */
    SAME("Context packets", rec->context_valid, R->v->cx ? 3u : 0u);
    if (R->v->cx) {
        SAME("CONTEXTIDR_EL1", rec->context[0], s->ctx1);
        SAME("CONTEXTIDR_EL2", rec->context[1], s->ctx2);
    }
    SAME("Timestamp present", rec->timestamp_valid, R->v->ts);
    if (R->v->ts) SAME("Timestamp", rec->timestamp, s->count - CNTVOFF);
}

/* With ARMPROF_SPE_CORPUS=DIR, the first bytes of each buffer go to
 * DIR/NAME.spe: model-made records to seed the decoder's fuzzer (.ci/run). */
static void dump_corpus(const char *name, const uint8_t *data, size_t len)
{
    const char *dir = getenv("ARMPROF_SPE_CORPUS");
    if (!dir || !*dir) return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.spe", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fwrite(data, 1, len < 512 ? len : 512, f);
    fclose(f);
}

static bool opt_bool(const armprof_config *cfg, armprof_option o)
{
    return cfg->options[o] != 0;
}

static void run_variant(const variant *v, uint64_t seed)
{
    armprof_config cfg;
    char err[256];
    CHECK(armprof_config_preset(&cfg, v->preset), "preset %s", v->preset);
    CHECK(armprof_config_set(&cfg, "pmsidr_interval", "0", err, sizeof err), "%s", err);
    for (unsigned k = 0; k < 8 && v->settings[k]; k++) {
        char name[64];
        const char *eq = strchr(v->settings[k], '=');
        const size_t n = eq ? (size_t)(eq - v->settings[k]) : 0;
        if (!eq || n >= sizeof name) continue;
        memcpy(name, v->settings[k], n);
        name[n] = 0;
        CHECK(armprof_config_set(&cfg, name, eq + 1, err, sizeof err), "%s: %s", v->name, err);
    }
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", v->name, err);
    if (!pe) return;

    run R;
    memset(&R, 0, sizeof R);
    R.v = v;
    R.pe = pe;
#define HAS(f) armprof_config_has(&cfg, ARMPROF_FEAT_##f)
    caps *c = &R.c;
    c->v1p1 = HAS(SPEv1p1);
    c->v1p2 = HAS(SPEv1p2);
    c->v1p3 = HAS(SPEv1p3);
    c->v1p4 = HAS(SPEv1p4);
    c->sve = HAS(SVE);
    c->sme = HAS(SME);
    c->spe_sme = HAS(SPE_SME);
    c->fpf = HAS(SPE_FPF);
    c->crr = HAS(SPE_CRR);
    c->pbt = HAS(SPE_PBT);
    c->altclk = HAS(SPE_ALTCLK);
    c->mte = HAS(MTE) && HAS(MTE2); /* D18.2.7: Allocation Tag loads and stores */
    c->mte2 = HAS(MTE2);
    c->mops = HAS(MOPS) && c->v1p3;
    c->gcs = HAS(GCS) && c->v1p4;
#undef HAS
    c->prev_br_eret = opt_bool(&cfg, ARMPROF_OPT_SPE_PREV_BR_ERET);
    c->prev_br_exception = opt_bool(&cfg, ARMPROF_OPT_SPE_PREV_BR_EXCEPTION);
    c->prev_br_not_branch = opt_bool(&cfg, ARMPROF_OPT_SPE_PREV_BR_NOT_BRANCH);
    c->non_tbi_tag_zero = opt_bool(&cfg, ARMPROF_OPT_SPE_NON_TBI_TAG_ZERO);
    c->pat_unchecked_zero = opt_bool(&cfg, ARMPROF_OPT_SPE_PAT_UNCHECKED_ZERO);
    c->events_implemented = cfg.options[ARMPROF_OPT_SPE_EVENTS];
    c->ds_bytes = (unsigned)cfg.options[ARMPROF_OPT_SPE_DS_PAYLOAD];
    c->events_bytes = (unsigned)cfg.options[ARMPROF_OPT_SPE_EVENTS_PAYLOAD];

    /* What software reads from the ID registers. */
    const unsigned count_size = (unsigned)drv_get_field(pe, "PMSIDR_EL1", "CountSize");
    CHECK(count_size == 2 || count_size == 3, "%s: PMSIDR_EL1.CountSize %u", v->name, count_size);
    const unsigned count_bits = count_size == 3 ? 16 : 12;
    const unsigned align = 1u << drv_get_field(pe, "PMBIDR_EL1", "Align");
    static const unsigned intervals[] = {256, 512, 768, 1024, 1536, 2048, 3072, 4096};
    const unsigned icode = (unsigned)drv_get_field(pe, "PMSIDR_EL1", "Interval");

    /* Firmware and hypervisor: Non-secure EL1 owns the buffer. */
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    drv_set_field(pe, "MDCR_EL3", "NSPB", 3);
    drv_set_field(pe, "MDCR_EL2", "E2PB", 2);
    drv_set(pe, "HCR_EL2", 1ull << 31); /* RW; TGE, E2H 0 */
    drv_set(pe, "CNTVOFF_EL2", CNTVOFF);
    drv_set_field(pe, "SCTLR_EL1", "M", 0);
    drv_set(pe, "PMSCR_EL2", 0);
    drv_set_field(pe, "PMSCR_EL2", "PA", v->pa);
    drv_set_field(pe, "PMSCR_EL2", "CX", v->cx);
    /* The kernel: the buffer, the interval, then PMSCR_EL1. */
    drv_set(pe, "PMBSR_EL1", 0);
    drv_set(pe, "PMBPTR_EL1", BUF_PA);
    drv_set(pe, "PMBLIMITR_EL1", BUF_PA + BUF_SIZE);
    drv_set_field(pe, "PMBLIMITR_EL1", "E", 1);
    drv_set(pe, "PMSFCR_EL1", 0);
    drv_set(pe, "PMSIRR_EL1", 0);
    drv_set_field(pe, "PMSIRR_EL1", "INTERVAL", icode < 8 ? intervals[icode] >> 8 : 1);
    drv_set(pe, "PMSICR_EL1", 0);
    drv_set(pe, "PMSCR_EL1", 0);
    drv_set_field(pe, "PMSCR_EL1", "E0SPE", 1);
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    drv_set_field(pe, "PMSCR_EL1", "TS", v->ts);
    drv_set_field(pe, "PMSCR_EL1", "PA", v->pa);
    drv_set_field(pe, "PMSCR_EL1", "CX", v->cx);
    armprof_spe_set_sink(pe, sink, &R);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    CHECK(armprof_spe_profiling_enabled(pe, 0) && armprof_spe_profiling_enabled(pe, 1),
          "%s: profiling enabled at EL0 and EL1", v->name);

    rng g = {seed};
    unsigned el = 1;
    uint32_t ctx1 = 0x100, ctx2 = 0x200;
    drv_set(pe, "CONTEXTIDR_EL1", ctx1);
    drv_set(pe, "CONTEXTIDR_EL2", ctx2);
    uint64_t pc = 0xffff800008000000ull, count = 1000000;
    bool pbt_valid = false;
    uint64_t pbt = 0;
    const int id_pmsicr = drv_reg("PMSICR_EL1", &(unsigned){0});
    armprof_reg_set(pe, id_pmsicr, 0, 1 + below(&g, 4));
    for (unsigned n = 0; n < OPS; n++) {
        if (chance(&g, 300)) {
            el ^= 1;
            CHECK(armprof_set_el(pe, el, err, sizeof err), "%s", err);
            pc = el ? 0xffff800008000000ull + (rnd(&g) & 0xfffffc) : 0x400000 + (rnd(&g) & 0xffffc);
        }
        if (chance(&g, 500)) {
            ctx1 = (uint32_t)rnd(&g);
            ctx2 = (uint32_t)rnd(&g);
            drv_set(pe, "CONTEXTIDR_EL1", ctx1);
            drv_set(pe, "CONTEXTIDR_EL2", ctx2);
        }
        count += 1 + below(&g, 50);
        armprof_set_physical_count(pe, count);
        /* the count set is the count read back (the QEMU plugin's system
         * mode queues it with each sampled operation) */
        CHECK(armprof_get_physical_count(pe) == count, "physical count read back");

        armprof_op op;
        memset(&op, 0, sizeof op);
        op.pc = pc;
        const unsigned what = below(&g, 10);
        if (what < 5)
            gen_memory(&R, &g, &op, el);
        else if (what < 8)
            gen_branch(&g, &op, el);
        else
            gen_other(&R, &g, &op);
        op.total_latency = chance(&g, 8) ? 0xff0 + below(&g, 0x20000) : below(&g, 500);
        op.issue_latency = chance(&g, 10) ? 0xff0 + below(&g, 0x20000) : below(&g, 100);
        if (op.events & ARMPROF_SPE_EV_SHARED_RESOURCE)
            op.alt_issue_latency = chance(&g, 6) ? 0x10000 + below(&g, 100) : below(&g, 0x2000);
        op.impdef_events = (uint16_t)rnd(&g);

        if (armprof_dispatch(pe, &op)) {
            if (R.nsamples == R.cap) {
                R.cap = R.cap ? 2 * R.cap : 1024;
                R.samples = realloc(R.samples, R.cap * sizeof *R.samples);
                if (!R.samples) abort();
            }
            R.samples[R.nsamples++] = (sample){op, el, ctx1, ctx2, count, pbt_valid, pbt};
            /* the next sample after 1 to 4 more operations */
            armprof_reg_set(pe, id_pmsicr, 0, 1 + below(&g, 4));
        }
        armprof_retire(pe, &op);

        /* The most recent taken branch (D18.2.1); exception entry and
         * return count as the options say. */
        if (op.op_class == ARMPROF_OP_BRANCH && op.taken &&
            (op.branch_kind != ARMPROF_BRANCH_EXCEPTION || c->prev_br_exception) &&
            (op.branch_kind != ARMPROF_BRANCH_ERET || c->prev_br_eret)) {
            pbt_valid = true;
            pbt = (op.target & ADDR56) | 1ull << 63 | (uint64_t)el << 61;
        }
        pc = op.op_class == ARMPROF_OP_BRANCH && op.taken ? op.target : pc + 4;
    }

    const armprof_spe_stats st = armprof_spe_get_stats(pe);
    CHECK(st.collisions == 0, "%s: %llu collisions", v->name, (unsigned long long)st.collisions);
    CHECK(st.records == R.nsamples, "%s: %llu records for %zu samples", v->name,
          (unsigned long long)st.records, R.nsamples);
    CHECK(R.nsamples >= 5000, "%s: %zu samples", v->name, R.nsamples);
    CHECK(drv_get_field(pe, "PMBSR_EL1", "S") == 0, "%s: no buffer management event", v->name);

    /* The buffer from the first PMBPTR_EL1 to the final one. */
    const uint64_t end = drv_get(pe, "PMBPTR_EL1");
    CHECK(end >= BUF_PA && end <= BUF_PA + BUF_SIZE, "%s: PMBPTR_EL1 0x%llx", v->name,
          (unsigned long long)end);
    const size_t len = end >= BUF_PA && end <= BUF_PA + BUF_SIZE ? (size_t)(end - BUF_PA) : 0;
    uint8_t *mem = malloc(len ? len : 1);
    if (!mem) abort();
    armprof_mem_read(armprof_pe_memory(pe), ARMPROF_PAS_NONSECURE, BUF_PA, mem, len);
    CHECK(len == R.sink_len && memcmp(mem, R.sink, len) == 0,
          "%s: memory (%zu bytes) holds what the sink saw (%zu bytes)", v->name, len, R.sink_len);

    dump_corpus(v->name, mem, len);

    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, mem, len);
    armprof_spe_record rec;
    size_t i = 0;
    unsigned long misaligned = 0;
    armprof_spe_decode_status ds;
    while ((ds = armprof_spe_next_record(&d, &rec)) == ARMPROF_SPE_DECODE_OK) {
        if (rec.offset % align) misaligned++;
        if (i < R.nsamples) check_record(&R, i, &R.samples[i], &rec, count_bits);
        i++;
    }
    CHECK(ds == ARMPROF_SPE_DECODE_EOF, "%s: decoding ended with an error at %zu: %s", v->name,
          d.error_offset, d.error ? d.error : "");
    CHECK(i == R.nsamples, "%s: %zu records decoded, %zu samples", v->name, i, R.nsamples);
    CHECK(misaligned == 0, "%s: %lu records not aligned to %u", v->name, misaligned, align);
    CHECK(R.mismatches == 0, "%s: %lu field mismatches", v->name, R.mismatches);
    CHECK(R.seen_target && R.seen_sat && R.seen_tag, "%s: branch targets, saturated counters, tags",
          v->name);
    CHECK(!c->pbt == !R.seen_pbt, "%s: previous branch targets (%lu)", v->name, R.seen_pbt);
    CHECK(!v->pa == !R.seen_pa, "%s: physical addresses (%lu)", v->name, R.seen_pa);
    CHECK(!c->altclk == !R.seen_alt, "%s: alternate clock counters (%lu)", v->name, R.seen_alt);
    CHECK(!c->ds_bytes == !R.seen_ds, "%s: data sources (%lu)", v->name, R.seen_ds);
    CHECK(!v->ts == !R.seen_ts, "%s: timestamps (%lu)", v->name, R.seen_ts);
    CHECK(R.seen_kind[ARMPROF_SPE_OP_RESERVED] == 0, "%s: reserved Operation Types", v->name);
    /* every payload type this PE defines occurred */
    const bool kind_expected[ARMPROF_SPE_OP_RESERVED] = {
        [ARMPROF_SPE_OP_OTHER] = true,
        [ARMPROF_SPE_OP_SVE] = c->sve,
        [ARMPROF_SPE_OP_SME] = c->spe_sme && c->sme,
        [ARMPROF_SPE_OP_LDST_GP] = true,
        [ARMPROF_SPE_OP_LDST_SIMDFP] = true,
        [ARMPROF_SPE_OP_LDST_UNSPEC] = c->v1p1,
        [ARMPROF_SPE_OP_LDST_TAGS] = c->mte,
        [ARMPROF_SPE_OP_LDST_NV2] = false,
        [ARMPROF_SPE_OP_LDST_EXT] = true,
        [ARMPROF_SPE_OP_LDST_SVE_SME] = c->v1p1 && (c->sve || c->sme),
        [ARMPROF_SPE_OP_LDST_MEMCPY] = c->mops,
        [ARMPROF_SPE_OP_LDST_MEMSET] = c->mops,
        [ARMPROF_SPE_OP_LDST_GCS] = c->gcs,
        [ARMPROF_SPE_OP_BRANCH] = true,
    };
    for (unsigned k = 0; k < ARMPROF_SPE_OP_RESERVED; k++)
        CHECK(kind_expected[k] == (R.seen_kind[k] != 0),
              "%s: Operation Type kind %u seen %lu times", v->name, k, R.seen_kind[k]);
    printf("%s: %zu samples of %u operations, %zu bytes, %lu mismatches\n", v->name, R.nsamples,
           OPS, len, R.mismatches);
    free(mem);
    free(R.sink);
    free(R.samples);
    armprof_pe_destroy(pe);
}

int main(void)
{
    static const variant variants[] = {
        /* Everything: 16-bit counters, PBT, ALTCLK, GCS, 8-byte Events
         * (IMPLEMENTATION DEFINED E[63:48]), timestamps and context. */
        {"armv9.4-all+pbt+gcs+altclk",
         "armv9.4-all",
         {"FEAT_SPE_PBT=on", "FEAT_GCS=on", "FEAT_SPE_ALTCLK=on", "pmsidr_countsize=3",
          "spe_events_payload_bytes=8", "pmsidr_maxsize=8"},
         true,
         true,
         true},
        /* The preset as it is, 12-bit counters, 8-byte alignment, no
         * context, no timestamps, the smallest Events payload. */
        {"armv9.4-all", "armv9.4-all", {"pmbidr_align=3"}, false, false, true},
        /* SPE v1: 12-bit counters, 64-byte records, 1-byte Data Source,
         * timestamps, no physical addresses. */
        {"armv8.2-spe",
         "armv8.2-spe",
         {"pmbidr_align=6", "spe_data_source_bytes=1"},
         true,
         false,
         false},
        /* SPE v1.1 without SVE: context, no timestamps. */
        {"armv8.4-nv", "armv8.4-nv", {"pmsidr_countsize=3"}, false, true, true},
    };
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
        run_variant(&variants[k], 0x9E3779B97F4A7C15ull + 7919 * k);
    return check_summary();
}
