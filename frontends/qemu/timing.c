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
    for (; i > 0; i--)
        set[i] = set[i - 1];
    set[0] = tag;
    return hit;
}

static bool tlb_lookup(qp_timing *t, uint64_t page)
{
    return lookup(t->tlb[page % QP_TLB_SETS], QP_TLB_WAYS, page);
}

static uint32_t access(void *ctx, armprof_op *op, uint64_t vaddr, bool store)
{
    qp_timing *t = ctx;
    const uint64_t line = (vaddr >> 6) + 1;
    uint32_t translation = 0;
    op->events |= ARMPROF_SPE_EV_TLB_ACCESS;
    op->l1d_access = true;
    op->translation_latency = 0;
    op->issue_latency = QP_LAT_ISSUE;
    if (line == t->last_line) {
        /* the line of the last access: the most recent of its L1 set and
         * its page the most recent of its TLB set, so both lookups would
         * hit without moving anything */
        if (!store) {
            op->data_source_valid = true;
            op->data_source = QP_DS_L1D;
        }
        op->total_latency = QP_LAT_ISSUE + QP_LAT_L1;
        return op->total_latency;
    }
    t->last_line = line;
    /* the L1 set is often out of the host's own L1 (the guest's data and
     * QEMU's share it): its line on the way while the TLB is looked at */
    __builtin_prefetch(t->l1[(line - 1) % QP_L1_SETS], 1);
    if (!tlb_lookup(t, (vaddr >> 12) + 1)) {
        translation = QP_LAT_TLB_WALK;
        op->events |= ARMPROF_SPE_EV_TLB_WALK;
    }
    uint32_t latency;
    uint16_t source;
    if (lookup(t->l1[(line - 1) % QP_L1_SETS], QP_L1_WAYS, line)) {
        latency = QP_LAT_L1;
        source = QP_DS_L1D;
    } else {
        op->l1d_refill = true;
        op->events |= ARMPROF_SPE_EV_L2_ACCESS;
        if (lookup(t->l2[(line - 1) % QP_L2_SETS], QP_L2_WAYS, line)) {
            latency = QP_LAT_L2;
            source = QP_DS_L2;
        } else {
            latency = QP_LAT_DRAM;
            source = QP_DS_DRAM;
            op->events |=
                ARMPROF_SPE_EV_L2_MISS | ARMPROF_SPE_EV_LLC_ACCESS | ARMPROF_SPE_EV_LLC_MISS;
        }
    }
    /* a store completes into the store buffer: its latency is the issue */
    if (store)
        latency = QP_LAT_L1;
    else {
        op->data_source_valid = true;
        op->data_source = source;
    }
    op->translation_latency = translation;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + translation + latency;
    return op->total_latency;
}

static uint32_t branch(void *ctx, armprof_op *op)
{
    qp_timing *t = ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    if (!op->conditional) return op->total_latency;
    uint8_t *c = &t->bp[(op->pc >> 2) % QP_BP_SIZE];
    const bool predicted = *c >= 2;
    if (op->taken && *c < 3) (*c)++;
    if (!op->taken && *c > 0) (*c)--;
    if (predicted != op->taken) {
        op->mispredicted = true;
        op->total_latency += QP_LAT_MISPREDICT;
    }
    return op->total_latency;
}

static uint32_t other(void *ctx, armprof_op *op)
{
    (void)ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    return 1;
}

const qp_timing_ops qp_timing_default = {access, branch, other};
