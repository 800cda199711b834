/* SPDX-License-Identifier: BSD-3-Clause */
/* The default timing model (timing.h). */
#include "timing.h"

#include <string.h>

#include "timing_default.h"

void qp_timing_init(qp_timing *t)
{
    memset(t, 0, sizeof *t);
    t->ops = &qp_timing_default;
    t->ctx = t;
    memset(t->bp, 1, sizeof t->bp); /* weakly not taken */
}

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
    const qp_found_at at = line == t->last_line ? QP_FOUND_L1 : qp_look_up(t, vaddr, line, &walk);
    const uint32_t translation = walk ? QP_LAT_TLB_WALK : 0;
    if (walk) op->events |= ARMPROF_SPE_EV_TLB_WALK;
    if (at != QP_FOUND_L1) {
        op->l1d_refill = true;
        op->events |= ARMPROF_SPE_EV_L2_ACCESS;
    }
    if (at == QP_FOUND_DRAM)
        op->events |= ARMPROF_SPE_EV_L2_MISS | ARMPROF_SPE_EV_LLC_ACCESS | ARMPROF_SPE_EV_LLC_MISS;
    /* a store completes into the store buffer: its latency is the issue */
    const uint32_t latency = store ? QP_LAT_L1 : qp_found_table[at].latency;
    if (!store) {
        op->data_source_valid = true;
        op->data_source = qp_found_table[at].source;
    }
    op->translation_latency = translation;
    op->total_latency = QP_LAT_ISSUE + translation + latency;
    return op->total_latency;
}

static uint32_t touch(void *ctx, uint64_t vaddr, bool store, qp_timing_counts *c)
{
    return qp_default_touch(ctx, vaddr, store, c);
}

static uint32_t branch(void *ctx, armprof_op *op)
{
    qp_timing *t = ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    if (!op->conditional) return op->total_latency;
    if (qp_mispredicts(t, op->pc, op->taken)) {
        op->mispredicted = true;
        op->total_latency += QP_LAT_MISPREDICT;
    }
    return op->total_latency;
}

static uint32_t resolve(void *ctx, uint64_t pc, uint64_t target, bool conditional, bool taken,
                        bool *mispredicted)
{
    (void)target;
    return qp_default_resolve(ctx, pc, conditional, taken, mispredicted);
}

static uint32_t other(void *ctx, armprof_op *op)
{
    (void)ctx;
    op->issue_latency = QP_LAT_ISSUE;
    op->total_latency = QP_LAT_ISSUE + 1;
    return 1;
}

const qp_timing_ops qp_timing_default = {access, branch, other, touch, resolve};
const qp_timing_ops qp_timing_default_ops = {access, branch, other, touch, resolve};
const qp_timing_ops qp_timing_default_access = {access, branch, other, NULL, NULL};
