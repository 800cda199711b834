/* SPDX-License-Identifier: BSD-3-Clause */
/* The memory hierarchy the PEs share (docs/memory-model.md): each PE's
 * private L1 data cache, L2 and L1 data TLB, and, shared by every PE, a
 * last-level cache (the system level cache, SLC) per node in front of its
 * DRAM, with a directory in the SLC's tags that keeps the private copies
 * coherent (MESI-like: a line one PE holds Exclusive or Modified is served
 * to another by that PE; a store takes the only copy).
 *
 * Threads: each PE's private levels are touched only by the thread that
 * runs it. The SLC and its directory are shared: each set has a lock of its
 * own, taken only when a private level misses (or a store needs the only
 * copy), never two at once. What a PE must drop or stop writing (another
 * PE stored, or loaded its Exclusive line) reaches it as a message in its
 * mailbox, a ring of atomics it drains at its next access: under races
 * the model is approximate (a copy can outlive its invalidation by the
 * accesses in flight), never undefined. A full mailbox makes its PE drop
 * every private line.
 *
 * A simulator replaces the hierarchy by filling a qp_memory_ops; the
 * default timing model (timing.c) calls the one given to the plugin. */
#ifndef ARMPROF_QEMU_HIERARCHY_H
#define ARMPROF_QEMU_HIERARCHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a load's line was found: each has a latency and a Data Source
 * value (docs/memory-model.md). */
typedef enum qp_level {
    QP_LEVEL_L1,           /* the PE's L1 data cache */
    QP_LEVEL_L2,           /* the PE's L2 */
    QP_LEVEL_PEER_CORE,    /* another PE's private cache, in the PE's cluster */
    QP_LEVEL_PEER_CLUSTER, /* another PE's private cache, in another cluster of the node */
    QP_LEVEL_SLC,          /* the node's system level cache */
    QP_LEVEL_REMOTE,       /* the other node: its SLC, a PE there, or its DRAM */
    QP_LEVEL_DRAM,         /* the node's DRAM */
    QP_LEVEL_COUNT
} qp_level;

/* The sizes, latencies and topology, each a plugin option (the names in
 * qp_hier_options[], docs/qemu.md). Sizes in bytes, latencies in cycles
 * from issue to data. */
typedef struct qp_hier_config {
    uint32_t l1_size, l1_ways, l2_size, l2_ways, slc_size, slc_ways;
    uint32_t tlb_entries, tlb_ways;
    uint32_t latency[QP_LEVEL_COUNT];
    uint32_t walk_latency;
    uint32_t cluster_pes; /* PEs a cluster: PE n is in cluster n / cluster_pes */
    uint32_t nodes;       /* 1 or 2: the second holds every other 4KB page */
    uint32_t node_pes;    /* PEs a node: PE n on node (n / node_pes) % nodes */
} qp_hier_config;

/* The defaults: docs/memory-model.md gives each figure's source. */
void qp_hier_config_default(qp_hier_config *c);
/* One option name=value: false when name is not one; *bad with a message
 * in err when its value is not valid. */
bool qp_hier_option(qp_hier_config *c, const char *name, const char *value, bool *bad, char *err,
                    size_t errlen);
/* A configuration the hierarchy can be built with: false with a message
 * naming the option. */
bool qp_hier_config_check(const qp_hier_config *c, char *err, size_t errlen);

/* What one access saw. */
typedef struct qp_mem_outcome {
    qp_level level;       /* a store that needed the only copy: where it was found */
    bool tlb_walk;        /* the L1 data TLB missed */
    bool l2_access;       /* the L1 missed (or a store's upgrade): the L2 looked */
    bool llc_access;      /* the L2 missed: the SLC and directory looked */
    bool llc_miss;        /* ... and the line was in no SLC: from DRAM */
    bool remote;          /* the line's home is the other node */
    uint32_t latency;     /* the level's latency */
    uint32_t translation; /* the walk's, 0 on a TLB hit */
} qp_mem_outcome;

/* A hierarchy: its functions receive ctx, and pe is the PE's number (the
 * vCPU index). attach() comes before a PE's first access, from its own
 * thread, and detach() after its last. */
typedef struct qp_memory_ops {
    void (*attach)(void *ctx, unsigned pe);
    void (*detach)(void *ctx, unsigned pe);
    void (*access)(void *ctx, unsigned pe, uint64_t paddr, bool store, qp_mem_outcome *out);
} qp_memory_ops;

typedef struct qp_hier qp_hier;
typedef struct qp_hier_pe qp_hier_pe;

/* The default hierarchy (NULL with a message when memory is short), and
 * its functions, ctx a qp_hier. */
qp_hier *qp_hier_create(const qp_hier_config *c, char *err, size_t errlen);
void qp_hier_destroy(qp_hier *h);
extern const qp_memory_ops qp_hier_ops;
const qp_hier_config *qp_hier_get_config(const qp_hier *h);
/* The most PEs the default hierarchy tells apart; PE numbers beyond wrap
 * (their messages go to every PE of the same number modulo this). */
#define QP_HIER_MAX_PES 1024u

/* A PE's private levels, kept by the thread that runs it alone but for
 * its mailbox, which other PEs' threads write. Exposed so that the access
 * that hits the L1 is inline in exact mode's callback (qp_hier_pe_access()). */
#define QP_HIER_MAILBOX 1024u
struct qp_hier_pe {
    /* what an L1 hit reads, on the first cache line: the head too, which
     * other PEs write only when they send a message */
    /* sets of ways, most recent first: line + 1 with QP_TAG_W and QP_TAG_D
     * (the TLB's: page + 1) */
    _Alignas(64) uint64_t *l1;
    uint64_t *tlb;
    uint64_t head;       /* the mailbox's: slots claimed by senders */
    uint64_t taken;      /* messages drained: the mailbox's tail */
    uint64_t last;       /* the last access's line + 1 (0: none): the first of its L1 set */
    uint64_t *last_slot; /* ... its L1 entry */
    uint32_t l1_sets, l1_ways, tlb_sets, tlb_ways; /* sets: powers of two */
    bool last_w;                                   /* the last line held writable */
    /* the rest */
    _Alignas(64) qp_hier *h;
    unsigned id, cluster, node;
    uint64_t *l2;
    uint32_t l2_sets, l2_ways;
    uint32_t latency_l1, walk_latency;
    uint32_t overflow; /* set by a sender that found no room */
    uint64_t slot[QP_HIER_MAILBOX];
};
#define QP_TAG_W (1ull << 63) /* Exclusive or Modified: a store needs no message */
#define QP_TAG_D (1ull << 62) /* Modified */
/* an L1 entry's: stored to since it came from the L2, whose copy is to be
 * marked Modified when the L1's leaves (only then: a line the L2 knows is
 * Modified costs no look in the L2 when it leaves the L1) */
#define QP_TAG_DL1   (1ull << 61)
#define QP_TAG_STORE (QP_TAG_D | QP_TAG_DL1)
#define QP_TAG_LINE  (QP_TAG_DL1 - 1)

qp_hier_pe *qp_hier_pe_of(qp_hier *h, unsigned pe);
/* The messages others sent; an access whose line (+ 1) the L1 does not
 * hold, or not writable for a store (at l1_way, or l1_ways when absent),
 * after the TLB's look-up (hierarchy.c). */
void qp_hier_pe_drain(qp_hier_pe *p);
void qp_hier_pe_miss(qp_hier_pe *p, uint64_t line, unsigned l1_way, bool walk, bool store,
                     qp_mem_outcome *out);

/* A set-associative look-up of the TLB, most recent first: true on a hit;
 * the page most recent either way. */
static inline bool qp_hier_tlb_hit(qp_hier_pe *p, uint64_t page)
{
    uint64_t *set = p->tlb + (page & (p->tlb_sets - 1)) * p->tlb_ways;
    if (set[0] == page) return true;
    unsigned i = 1;
    while (i < p->tlb_ways && set[i] != page)
        i++;
    const bool hit = i < p->tlb_ways;
    if (!hit) i = p->tlb_ways - 1;
    for (; i > 0; i--)
        set[i] = set[i - 1];
    set[0] = page;
    return hit;
}

/* The L1 part of an access by the PE: true when the L1 served it (*walk:
 * the TLB missed); otherwise the miss path (out of line) filled out. */
static inline bool qp_hier_pe_l1(qp_hier_pe *p, uint64_t paddr, bool store, bool *walk,
                                 qp_mem_outcome *out)
{
    if (__atomic_load_n(&p->head, __ATOMIC_RELAXED) != p->taken) qp_hier_pe_drain(p);
    const uint64_t line = (paddr >> 6) + 1;
    if (line == p->last && (!store || p->last_w)) {
        /* the first of its L1 set, its page the first of its TLB set */
        if (store) *p->last_slot |= QP_TAG_STORE;
        *walk = false;
        return true;
    }
    uint64_t *set = p->l1 + ((line - 1) & (p->l1_sets - 1)) * p->l1_ways;
    /* the L1 set is often out of the host's own L1 (the guest's data and
     * QEMU's share it): its line on the way while the TLB is looked at */
    __builtin_prefetch(set, 1);
    *walk = !qp_hier_tlb_hit(p, (paddr >> 12) + 1);
    unsigned i = 0;
    while (i < p->l1_ways && (set[i] & QP_TAG_LINE) != line)
        i++;
    if (i == p->l1_ways || (store && !(set[i] & QP_TAG_W))) {
        qp_hier_pe_miss(p, line, i, *walk, store, out);
        return false;
    }
    const uint64_t e = set[i] | (store ? QP_TAG_STORE : 0);
    for (; i > 0; i--)
        set[i] = set[i - 1];
    set[0] = e;
    p->last = line;
    p->last_slot = set;
    p->last_w = (e & QP_TAG_W) != 0;
    return true;
}

/* An access by the PE: the L1's hits inline, the rest out of line. */
static inline void qp_hier_pe_access(qp_hier_pe *p, uint64_t paddr, bool store, qp_mem_outcome *out)
{
    bool walk;
    if (!qp_hier_pe_l1(p, paddr, store, &walk, out)) return;
    *out = (qp_mem_outcome){.level = QP_LEVEL_L1,
                            .tlb_walk = walk,
                            .latency = p->latency_l1,
                            .translation = walk ? p->walk_latency : 0};
}

/* For the tests: the MESI state the directory and pe's private levels give
 * paddr's line ('M', 'E', 'S' or 'I'; 'M' and 'E' are one directory state,
 * told apart by whether pe stored since it took the line). */
char qp_hier_state(qp_hier *h, unsigned pe, uint64_t paddr);

#endif
