/* SPDX-License-Identifier: BSD-3-Clause */
/* The default timing model's look-ups (timing.c), inline: exact mode calls
 * them directly when the thread has the default model, without a call
 * through qp_timing_ops on every access and branch. */
#ifndef ARMPROF_QEMU_TIMING_DEFAULT_H
#define ARMPROF_QEMU_TIMING_DEFAULT_H

#include "timing.h"

/* The default model's memory: the default hierarchy inline, another
 * through its functions. */
static inline void qp_memory_access(qp_timing *t, uint64_t paddr, bool store, qp_mem_outcome *o)
{
    if (t->hpe)
        qp_hier_pe_access(t->hpe, paddr, store, o);
    else
        t->mem->access(t->mem_ctx, t->pe, paddr, store, o);
}

/* A level past the PE's own L1 and L2 */
static inline bool qp_level_beyond_l2(qp_level l)
{
    return l != QP_LEVEL_L1 && l != QP_LEVEL_L2;
}

/* access() for exact mode's other loads and stores: the same look-ups and
 * cycles, what they saw added to c. */
static inline uint32_t qp_default_touch(qp_timing *t, uint64_t vaddr, bool store,
                                        qp_timing_counts *c)
{
    qp_mem_outcome o;
    c->tlb++;
    c->l1d_access++;
    if (t->hpe) {
        /* the default hierarchy: an L1 hit, most accesses, counts here */
        bool walk;
        if (qp_hier_pe_l1(t->hpe, vaddr, store, &walk, &o)) {
            c->tlb_refill += walk;
            return QP_LAT_ISSUE + (walk ? t->hpe->walk_latency : 0) +
                   (store ? t->store_latency : t->hpe->latency_l1);
        }
    } else {
        t->mem->access(t->mem_ctx, t->pe, vaddr, store, &o);
    }
    c->tlb_refill += o.tlb_walk;
    c->l1d_refill += o.level != QP_LEVEL_L1;
    c->l2 += o.l2_access;
    c->l2_refill += qp_level_beyond_l2(o.level);
    c->llc_rd += o.llc_access && !store;
    c->llc_miss_rd += o.llc_miss && !store;
    c->remote += o.level == QP_LEVEL_REMOTE;
    /* a store completes into the store buffer: its latency is the issue */
    return QP_LAT_ISSUE + o.translation + (store ? t->store_latency : o.latency);
}

/* The 2-bit counter of pc's entry learns the outcome: true when it had
 * predicted otherwise. */
static inline bool qp_mispredicts(qp_timing *t, uint64_t pc, bool taken)
{
    uint8_t *c = &t->bp[(pc >> 2) % QP_BP_SIZE];
    const bool predicted = *c >= 2;
    if (taken && *c < 3) (*c)++;
    if (!taken && *c > 0) (*c)--;
    return predicted != taken;
}

/* branch() for exact mode's other branches. */
static inline uint32_t qp_default_resolve(qp_timing *t, uint64_t pc, bool conditional, bool taken,
                                          bool *mispredicted)
{
    *mispredicted = conditional && qp_mispredicts(t, pc, taken);
    return QP_LAT_ISSUE + 1 + (*mispredicted ? QP_LAT_MISPREDICT : 0);
}

#endif
