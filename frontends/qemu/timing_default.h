/* SPDX-License-Identifier: BSD-3-Clause */
/* The default timing model's look-ups (timing.c), inline: exact mode calls
 * them directly when the thread has the default model, without a call
 * through qp_timing_ops on every access and branch. */
#ifndef ARMPROF_QEMU_TIMING_DEFAULT_H
#define ARMPROF_QEMU_TIMING_DEFAULT_H

#include "timing.h"

/* A set-associative lookup with LRU order kept by position (way 0 most
 * recent): true on a hit; the entry is most recent either way. */
static inline bool qp_lru_lookup(uint64_t *set, unsigned ways, uint64_t tag)
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

static inline bool qp_tlb_lookup(qp_timing *t, uint64_t page)
{
    return qp_lru_lookup(t->tlb[page % QP_TLB_SETS], QP_TLB_WAYS, page);
}

/* Where an access's line was found */
typedef enum { QP_FOUND_L1, QP_FOUND_L2, QP_FOUND_DRAM } qp_found_at;

/* The lookups of an access to line (vaddr's, + 1) other than the last
 * access's: the TLB (*walk when it missed), then the caches. */
static inline qp_found_at qp_look_up(qp_timing *t, uint64_t vaddr, uint64_t line, bool *walk)
{
    t->last_line = line;
    /* the L1 set is often out of the host's own L1 (the guest's data and
     * QEMU's share it): its line on the way while the TLB is looked at */
    __builtin_prefetch(t->l1[(line - 1) % QP_L1_SETS], 1);
    *walk = !qp_tlb_lookup(t, (vaddr >> 12) + 1);
    if (qp_lru_lookup(t->l1[(line - 1) % QP_L1_SETS], QP_L1_WAYS, line)) return QP_FOUND_L1;
    return qp_lru_lookup(t->l2[(line - 1) % QP_L2_SETS], QP_L2_WAYS, line) ? QP_FOUND_L2
                                                                           : QP_FOUND_DRAM;
}

static const struct {
    uint32_t latency;
    uint16_t source;
} qp_found_table[] = {
    [QP_FOUND_L1] = {QP_LAT_L1, QP_DS_L1D},
    [QP_FOUND_L2] = {QP_LAT_L2, QP_DS_L2},
    [QP_FOUND_DRAM] = {QP_LAT_DRAM, QP_DS_DRAM},
};

/* access() for exact mode's other loads and stores: the same look-ups and
 * cycles, what they saw added to c. */
static inline uint32_t qp_default_touch(qp_timing *t, uint64_t vaddr, bool store,
                                        qp_timing_counts *c)
{
    const uint64_t line = (vaddr >> 6) + 1;
    c->tlb++;
    c->l1d_access++;
    if (line == t->last_line) return QP_LAT_ISSUE + QP_LAT_L1;
    bool walk;
    const qp_found_at at = qp_look_up(t, vaddr, line, &walk);
    c->tlb_refill += walk;
    c->l1d_refill += at != QP_FOUND_L1;
    c->l2 += at != QP_FOUND_L1;
    c->l2_refill += at == QP_FOUND_DRAM;
    return QP_LAT_ISSUE + (walk ? QP_LAT_TLB_WALK : 0) +
           (store ? QP_LAT_L1 : qp_found_table[at].latency);
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
