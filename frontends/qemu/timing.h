/* SPDX-License-Identifier: BSD-3-Clause */
/* The plugin's timing model: what QEMU does not say about an operation
 * (latencies, cache and TLB hits, the data source, branch prediction),
 * modelled, not measured. An embedder replaces it by filling a
 * qp_timing_ops with its own functions (docs/qemu.md, "Timing model").
 *
 * The default (timing.c) is a small in-order core: a 4-way 32KB L1D and an
 * 8-way 1MB L2 with 64-byte lines and LRU replacement, a 48-entry 3-way
 * L1 data TLB of 4KB pages with LRU replacement, a 2048-entry table of 2-bit
 * counters predicting conditional branches, and fixed latencies (below). */
#ifndef ARMPROF_QEMU_TIMING_H
#define ARMPROF_QEMU_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"

/* Latencies of the default model, in cycles. */
enum {
    QP_LAT_L1 = 4,
    QP_LAT_L2 = 12,
    QP_LAT_DRAM = 120,
    QP_LAT_TLB_WALK = 20,
    QP_LAT_ISSUE = 1,
    QP_LAT_MISPREDICT = 11,
};

/* The Data Source packet values the default model writes (the encoding is
 * IMPLEMENTATION DEFINED; these are Arm Neoverse's, which perf decodes). */
enum {
    QP_DS_L1D = 0x0,
    QP_DS_L2 = 0x8,
    QP_DS_DRAM = 0xe,
};

typedef struct qp_timing qp_timing;

/* What a model saw of the accesses given to touch(): exact mode's PMU
 * events (L1D_CACHE, L1D_CACHE_REFILL, L1D_TLB, L1D_TLB_REFILL, L2D_CACHE,
 * L2D_CACHE_REFILL), which the plugin takes at its visits. */
typedef struct qp_timing_counts {
    uint64_t l1d_access, l1d_refill, tlb, tlb_refill, l2, l2_refill;
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

#define QP_L1_SETS  128u /* 32KB / 64B / 4 ways */
#define QP_L1_WAYS  4u
#define QP_L2_SETS  2048u /* 1MB / 64B / 8 ways */
#define QP_L2_WAYS  8u
#define QP_TLB_SETS 16u /* 48 entries: 16 sets of 3 ways */
#define QP_TLB_WAYS 3u
#define QP_BP_SIZE  2048u

struct qp_timing {
    const qp_timing_ops *ops;
    void *ctx; /* ops' context; the default model's is this struct */
    uint64_t l1[QP_L1_SETS][QP_L1_WAYS], l2[QP_L2_SETS][QP_L2_WAYS]; /* line address + 1 */
    uint64_t last_line;                     /* the line of the last access (+ 1) */
    uint64_t tlb[QP_TLB_SETS][QP_TLB_WAYS]; /* page + 1 */
    uint8_t bp[QP_BP_SIZE];
};

/* The default model, empty caches. */
void qp_timing_init(qp_timing *t);
extern const qp_timing_ops qp_timing_default;
/* The same functions in tables of their own: exact mode takes its inline
 * path by qp_timing_default's address, so a thread with one of these (or a
 * replaced model, which needs no flag to clear) is called through
 * qp_timing_ops: all five, and without touch() and resolve(). */
extern const qp_timing_ops qp_timing_default_ops, qp_timing_default_access;

#endif
