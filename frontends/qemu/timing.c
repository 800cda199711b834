/* SPDX-License-Identifier: BSD-3-Clause */
/* The default timing model (timing.h). */
#include "timing.h"

#include <string.h>

void qp_timing_init(qp_timing *t)
{
    memset(t, 0, sizeof *t);
    t->ops = &qp_timing_default;
    t->ctx = t;
    memset(t->bp, 1, sizeof t->bp); /* weakly not taken */
}

/* A set-associative lookup with LRU order kept by position (way 0 most
 * recent): true on a hit; the entry is most recent either way. */
static bool lookup(uint64_t *set, unsigned ways, uint64_t tag)
{
    if (set[0] == tag) return true; /* the most recent: nothing moves */
    unsigned i = 1;
    while (i < ways && set[i] != tag)
        i++;
    const bool hit = i < ways;
    if (!hit) i = ways - 1;
    /* entries 0..i-1 move down one, tag goes first: a chain of swaps, which
     * the compiler keeps inline (a backward copy becomes a memmove() call) */
    uint64_t carry = tag;
    for (unsigned j = 0; j <= i; j++) {
        const uint64_t was = set[j];
        set[j] = carry;
        carry = was;
    }
    return hit;
}

static bool tlb_lookup(qp_timing *t, uint64_t page)
{
    return lookup(t->tlb[page % QP_TLB_SETS], QP_TLB_WAYS, page);
}

/* Where an access's line was found */
typedef enum { FOUND_L1, FOUND_L2, FOUND_DRAM } found_at;

/* The lookups of an access to line (vaddr's, + 1) other than the last
 * access's: the TLB (*walk when it missed), then the caches. */
static inline found_at look_up(qp_timing *t, uint64_t vaddr, uint64_t line, bool *walk)
{
    t->last_line = line;
    /* the L1 set is often out of the host's own L1 (the guest's data and
     * QEMU's share it): its line on the way while the TLB is looked at */
    __builtin_prefetch(t->l1[(line - 1) % QP_L1_SETS], 1);
    *walk = !tlb_lookup(t, (vaddr >> 12) + 1);
    if (lookup(t->l1[(line - 1) % QP_L1_SETS], QP_L1_WAYS, line)) return FOUND_L1;
    return lookup(t->l2[(line - 1) % QP_L2_SETS], QP_L2_WAYS, line) ? FOUND_L2 : FOUND_DRAM;
}

static const struct {
    uint32_t latency;
    uint16_t source;
} found_table[] = {
    [FOUND_L1] = {QP_LAT_L1, QP_DS_L1D},
    [FOUND_L2] = {QP_LAT_L2, QP_DS_L2},
    [FOUND_DRAM] = {QP_LAT_DRAM, QP_DS_DRAM},
};

static uint32_t access(void *ctx, armprof_op *op, uint64_t vaddr, bool store)
{
    qp_timing *t = ctx;
    const uint64_t line = (vaddr >> 6) + 1;
    op->events |= ARMPROF_SPE_EV_TLB_ACCESS;
    op->l1d_access = true;
    op->translation_latency = 0;
    op->issue_latency = QP_LAT_ISSUE;
    /* the line of the last access: the most recent of its L1 set and its
     * page the most recent of its TLB set, so both lookups would hit
     * without moving anything */
    bool walk = false;
    const found_at at = line == t->last_line ? FOUND_L1 : look_up(t, vaddr, line, &walk);
    const uint32_t translation = walk ? QP_LAT_TLB_WALK : 0;
    if (walk) op->events |= ARMPROF_SPE_EV_TLB_WALK;
    if (at != FOUND_L1) {
        op->l1d_refill = true;
        op->events |= ARMPROF_SPE_EV_L2_ACCESS;
    }
    if (at == FOUND_DRAM)
        op->events |= ARMPROF_SPE_EV_L2_MISS | ARMPROF_SPE_EV_LLC_ACCESS | ARMPROF_SPE_EV_LLC_MISS;
    /* a store completes into the store buffer: its latency is the issue */
    const uint32_t latency = store ? QP_LAT_L1 : found_table[at].latency;
    if (!store) {
        op->data_source_valid = true;
        op->data_source = found_table[at].source;
    }
    op->translation_latency = translation;
    op->total_latency = QP_LAT_ISSUE + translation + latency;
    return op->total_latency;
}

/* access() for exact mode's other loads and stores: the same look-ups and
 * cycles, what they saw added to c. */
static uint32_t touch(void *ctx, uint64_t vaddr, bool store, qp_timing_counts *c)
{
    qp_timing *t = ctx;
    const uint64_t line = (vaddr >> 6) + 1;
    c->tlb++;
    c->l1d_access++;
    if (line == t->last_line) return QP_LAT_ISSUE + QP_LAT_L1;
    bool walk;
    const found_at at = look_up(t, vaddr, line, &walk);
    c->tlb_refill += walk;
    c->l1d_refill += at != FOUND_L1;
    c->l2 += at != FOUND_L1;
    c->l2_refill += at == FOUND_DRAM;
    return QP_LAT_ISSUE + (walk ? QP_LAT_TLB_WALK : 0) +
           (store ? QP_LAT_L1 : found_table[at].latency);
}

/* The 2-bit counter of pc's entry learns the outcome: true when it had
 * predicted otherwise. */
static inline bool mispredicts(qp_timing *t, uint64_t pc, bool taken)
{
    uint8_t *c = &t->bp[(pc >> 2) % QP_BP_SIZE];
    const bool predicted = *c >= 2;
    if (taken && *c < 3) (*c)++;
    if (!taken && *c > 0) (*c)--;
    return predicted != taken;
}

static uint32_t branch(void *ctx, armprof_op *op)
{
    qp_timing *t = ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    if (!op->conditional) return op->total_latency;
    if (mispredicts(t, op->pc, op->taken)) {
        op->mispredicted = true;
        op->total_latency += QP_LAT_MISPREDICT;
    }
    return op->total_latency;
}

/* branch() for exact mode's other branches. */
static uint32_t resolve(void *ctx, uint64_t pc, uint64_t target, bool conditional, bool taken,
                        bool *mispredicted)
{
    (void)target;
    *mispredicted = conditional && mispredicts(ctx, pc, taken);
    return QP_LAT_ISSUE + 1 + (*mispredicted ? QP_LAT_MISPREDICT : 0);
}

static uint32_t other(void *ctx, armprof_op *op)
{
    (void)ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    return 1;
}

const qp_timing_ops qp_timing_default = {access, branch, other, touch, resolve};
