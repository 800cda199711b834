/* SPDX-License-Identifier: BSD-3-Clause */
/* The default timing model (timing.h). */
#include "timing.h"

#include <string.h>

#include "timing_default.h"

/* Arm Neoverse's Data Source encodings (docs/memory-model.md) */
const uint16_t qp_data_source[QP_LEVEL_COUNT] = {
    [QP_LEVEL_L1] = 0x0,           [QP_LEVEL_L2] = 0x8,  [QP_LEVEL_PEER_CORE] = 0x9,
    [QP_LEVEL_PEER_CLUSTER] = 0xc, [QP_LEVEL_SLC] = 0xb, [QP_LEVEL_REMOTE] = 0xd,
    [QP_LEVEL_DRAM] = 0xe,
};

/* a store's latency when the hierarchy is not the default one */
enum { STORE_LATENCY = 4 };

void qp_timing_init(qp_timing *t, const qp_memory_ops *mem, void *mem_ctx, unsigned pe)
{
    memset(t, 0, sizeof *t);
    t->ops = &qp_timing_default;
    t->ctx = t;
    t->mem = mem;
    t->mem_ctx = mem_ctx;
    t->pe = pe;
    memset(t->bp, 1, sizeof t->bp); /* weakly not taken */
    t->store_latency = STORE_LATENCY;
    if (!mem) return;
    mem->attach(mem_ctx, pe);
    if (mem == &qp_hier_ops) {
        t->hpe = qp_hier_pe_of(mem_ctx, pe);
        t->store_latency = qp_hier_get_config(mem_ctx)->latency[QP_LEVEL_L1];
    }
}

void qp_timing_fini(qp_timing *t)
{
    if (t->mem) t->mem->detach(t->mem_ctx, t->pe);
    t->mem = NULL;
    t->hpe = NULL;
}

static uint32_t access(void *ctx, armprof_op *op, uint64_t vaddr, bool store)
{
    qp_timing *t = ctx;
    qp_mem_outcome o;
    /* the hierarchy is physically addressed: qemu-user's PA is its VA */
    qp_memory_access(t, op->paddr ? op->paddr : vaddr, store, &o);
    op->events |= ARMPROF_SPE_EV_TLB_ACCESS;
    op->l1d_access = true;
    op->issue_latency = QP_LAT_ISSUE;
    if (o.tlb_walk) op->events |= ARMPROF_SPE_EV_TLB_WALK;
    op->l1d_refill = o.level != QP_LEVEL_L1;
    if (o.l2_access) op->events |= ARMPROF_SPE_EV_L2_ACCESS;
    if (qp_level_beyond_l2(o.level)) op->events |= ARMPROF_SPE_EV_L2_MISS;
    if (o.llc_access) op->events |= ARMPROF_SPE_EV_LLC_ACCESS;
    if (o.llc_miss) op->events |= ARMPROF_SPE_EV_LLC_MISS;
    if (o.level == QP_LEVEL_REMOTE) op->events |= ARMPROF_SPE_EV_REMOTE;
    if (!store) {
        op->data_source_valid = true;
        op->data_source = qp_data_source[o.level];
    }
    op->translation_latency = o.translation;
    op->total_latency = QP_LAT_ISSUE + o.translation + (store ? t->store_latency : o.latency);
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

/* Fast mode: a load or store costs what any operation does, and says
 * nothing of caches, TLB or data source (none was looked up). */
static uint32_t no_memory(void *ctx, armprof_op *op, uint64_t vaddr, bool store)
{
    (void)vaddr;
    (void)store;
    return other(ctx, op);
}

const qp_timing_ops qp_timing_default = {access, branch, other, touch, resolve};
const qp_timing_ops qp_timing_default_ops = {access, branch, other, touch, resolve};
const qp_timing_ops qp_timing_default_access = {access, branch, other, NULL, NULL};
const qp_timing_ops qp_timing_no_memory = {no_memory, branch, other, NULL, resolve};
