/* SPDX-License-Identifier: BSD-3-Clause */
/* The plugin's timing model: what QEMU does not say about an operation
 * (latencies, cache and TLB hits, the data source, branch prediction),
 * modelled, not measured. An embedder replaces it by filling a
 * qp_timing_ops with its own functions (docs/qemu.md, "Timing model").
 *
 * The default (timing.c) is a small in-order core in front of a memory
 * hierarchy (hierarchy.h: the PE's L1D, L2 and L1 data TLB, the SLC and
 * coherence every PE shares; or an embedder's qp_memory_ops), a 2048-entry
 * table of 2-bit counters predicting conditional branches, and fixed
 * latencies (below, and the hierarchy's per level). */
#ifndef ARMPROF_QEMU_TIMING_H
#define ARMPROF_QEMU_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "hierarchy.h"

/* Latencies of the default model, in cycles (the memory's: the
 * hierarchy's configuration). */
enum {
    QP_LAT_ISSUE = 1,
    QP_LAT_MISPREDICT = 11,
};

/* The Data Source packet's value for each level (the encoding is
 * IMPLEMENTATION DEFINED; these are Arm Neoverse's, which perf decodes for
 * the Neoverse MIDR_EL1 values: docs/memory-model.md). */
extern const uint16_t qp_data_source[QP_LEVEL_COUNT];

typedef struct qp_timing qp_timing;

/* What a model saw of the accesses given to touch(): exact mode's PMU
 * events (L1D_CACHE, L1D_CACHE_REFILL, L1D_TLB, L1D_TLB_REFILL, L2D_CACHE,
 * L2D_CACHE_REFILL, LL_CACHE_RD, LL_CACHE_MISS_RD, REMOTE_ACCESS), which
 * the plugin takes at its visits. */
typedef struct qp_timing_counts {
    uint64_t l1d_access, l1d_refill, tlb, tlb_refill, l2, l2_refill, llc_rd, llc_miss_rd, remote;
} qp_timing_counts;

/* An embedder's model: every function receives its ctx. */
typedef struct qp_timing_ops {
    /* A load or store of vaddr: fill op's latencies, l1d_access/l1d_refill,
     * events and data source; return the cycles the operation took. */
    uint32_t (*access)(void *ctx, armprof_op *op, uint64_t vaddr, bool store);
    /* A branch with its outcome: fill op->mispredicted and latencies;
     * return the cycles it took. */
    uint32_t (*branch)(void *ctx, armprof_op *op);
    /* Any other operation. */
    uint32_t (*other)(void *ctx, armprof_op *op);
    /* Exact mode's loads and stores that no record carries (all but the
     * sampled one): what access() does, the events it saw added to c
     * instead of written into an operation; return the cycles. NULL: the
     * plugin calls access() with a scratch operation and counts from it. */
    uint32_t (*touch)(void *ctx, uint64_t vaddr, bool store, qp_timing_counts *c);
    /* Exact mode's branches that no record carries: what branch() does for
     * the branch at pc with its outcome, *mispredicted set as branch() sets
     * op->mispredicted; return the cycles. NULL: branch() with a scratch
     * operation. */
    uint32_t (*resolve)(void *ctx, uint64_t pc, uint64_t target, bool conditional, bool taken,
                        bool *mispredicted);
} qp_timing_ops;

#define QP_BP_SIZE 2048u

struct qp_timing {
    const qp_timing_ops *ops;
    void *ctx; /* ops' context; the default model's is this struct */
    /* the default model's memory: a hierarchy and the PE's number in it;
     * the default hierarchy's PE when it is that one (the inline path) */
    const qp_memory_ops *mem;
    void *mem_ctx;
    unsigned pe;
    qp_hier_pe *hpe;
    uint32_t store_latency; /* a store's, into the store buffer: the L1's */
    uint8_t bp[QP_BP_SIZE];
};

/* The default model on PE pe of the hierarchy mem (called from the PE's
 * thread: it attaches there); qp_timing_fini() detaches it. */
void qp_timing_init(qp_timing *t, const qp_memory_ops *mem, void *mem_ctx, unsigned pe);
void qp_timing_fini(qp_timing *t);
extern const qp_timing_ops qp_timing_default;
/* The same functions in tables of their own: exact mode takes its inline
 * path by qp_timing_default's address, so a thread with one of these (or a
 * replaced model, which needs no flag to clear) is called through
 * qp_timing_ops: all five, and without touch() and resolve(). */
extern const qp_timing_ops qp_timing_default_ops, qp_timing_default_access;
/* Fast mode's: no memory model (no access is looked up, so none claims a
 * level, an event of the caches or TLB, or a data source), the predictor
 * as the default's. */
extern const qp_timing_ops qp_timing_no_memory;

#endif
