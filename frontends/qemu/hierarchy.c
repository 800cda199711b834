/* SPDX-License-Identifier: BSD-3-Clause */
/* The default memory hierarchy (hierarchy.h, docs/memory-model.md). */
#include "hierarchy.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of a node's SLC, and the directory's word on it: which PEs may
 * hold it (bit pe % 64) and which one holds it Exclusive or Modified. */
typedef struct slc_line {
    uint64_t tag; /* line + 1; 0: empty */
    uint64_t sharers;
    int32_t owner; /* -1: none */
} slc_line;

struct qp_hier {
    qp_hier_config c;
    uint32_t slc_sets;                /* a node's */
    slc_line *slc;                    /* node, set, way */
    uint8_t *locks;                   /* node, set: 1 while a thread holds it */
    unsigned top;                     /* 1 + the highest PE number attached (atomic) */
    qp_hier_pe *pes[QP_HIER_MAX_PES]; /* written once each (atomic), freed by destroy */
};

/* Messages: what to do (bit 0), the line + 1 (bits 52:1) and the lap of
 * the ring its slot was claimed in (bits 63:53), by which the PE tells a
 * message for the slot it is at from one not written yet, or a late one. */
enum { MSG_INVALIDATE = 0, MSG_DOWNGRADE = 1 };
#define MSG_LINE_BITS 52
#define MSG_LAP_SHIFT (MSG_LINE_BITS + 1)

#define LINE_MASK ((1ull << MSG_LINE_BITS) - 1)

/* never 0, which no slot holds before its first message */
static uint64_t msg_lap(uint64_t index)
{
    return (index / QP_HIER_MAILBOX % 2047 + 1) << MSG_LAP_SHIFT;
}

/* ---- configuration ---------------------------------------------------- */

void qp_hier_config_default(qp_hier_config *c)
{
    /* docs/memory-model.md, "Defaults and their sources": Ampere Altra's
     * Neoverse N1 */
    *c = (qp_hier_config){
        .l1_size = 64u << 10,
        .l1_ways = 4,
        .l2_size = 1u << 20,
        .l2_ways = 8,
        .slc_size = 32u << 20,
        .slc_ways = 16,
        .tlb_entries = 48,
        .tlb_ways = 3,
        .latency =
            {
                [QP_LEVEL_L1] = 4,
                [QP_LEVEL_L2] = 11,
                [QP_LEVEL_PEER_CORE] = 110,
                [QP_LEVEL_PEER_CLUSTER] = 120,
                [QP_LEVEL_SLC] = 75,
                [QP_LEVEL_REMOTE] = 350,
                [QP_LEVEL_DRAM] = 200,
            },
        .walk_latency = 20,
        .cluster_pes = 2,
        .nodes = 1,
        .node_pes = 64,
    };
}

typedef struct option {
    const char *name;
    size_t offset;
    bool size; /* takes K, M and G */
} option;

#define OPT(n, field, sz)                                                                          \
    {                                                                                              \
        n, offsetof(qp_hier_config, field), sz                                                     \
    }
static const option options[] = {
    OPT("mem_l1_size", l1_size, true),
    OPT("mem_l1_ways", l1_ways, false),
    OPT("mem_l2_size", l2_size, true),
    OPT("mem_l2_ways", l2_ways, false),
    OPT("mem_slc_size", slc_size, true),
    OPT("mem_slc_ways", slc_ways, false),
    OPT("mem_tlb_entries", tlb_entries, false),
    OPT("mem_tlb_ways", tlb_ways, false),
    OPT("mem_l1_latency", latency[QP_LEVEL_L1], false),
    OPT("mem_l2_latency", latency[QP_LEVEL_L2], false),
    OPT("mem_peer_core_latency", latency[QP_LEVEL_PEER_CORE], false),
    OPT("mem_peer_cluster_latency", latency[QP_LEVEL_PEER_CLUSTER], false),
    OPT("mem_slc_latency", latency[QP_LEVEL_SLC], false),
    OPT("mem_remote_latency", latency[QP_LEVEL_REMOTE], false),
    OPT("mem_dram_latency", latency[QP_LEVEL_DRAM], false),
    OPT("mem_walk_latency", walk_latency, false),
    OPT("mem_cluster_pes", cluster_pes, false),
    OPT("mem_nodes", nodes, false),
    OPT("mem_node_pes", node_pes, false),
};
#undef OPT


bool qp_hier_option(qp_hier_config *c, const char *name, const char *value, bool *bad, char *err,
                    size_t errlen)
{
    *bad = false;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (strcmp(name, options[i].name)) continue;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 0);
        unsigned shift = 0;
        if (options[i].size && *end && !end[1]) {
            const char *units = "KMG", *u = strchr(units, *end);
            if (u && *u) {
                shift = 10u * (unsigned)(u - units + 1);
                end++;
            }
        }
        if (!*value || *value == '-' || *end || errno || v > (UINT32_MAX >> shift)) {
            snprintf(err, errlen, "%s=%s: %s", name, value,
                     options[i].size ? "a size in bytes below 4G, with K, M or G"
                                     : "a number below 2^32");
            *bad = true;
            return true;
        }
        *(uint32_t *)((char *)c + options[i].offset) = (uint32_t)(v << shift);
        return true;
    }
    return false;
}

static bool power_of_two(uint32_t v)
{
    return v && !(v & (v - 1));
}

/* size / 64 / ways sets, whole: a power of two unless any is allowed */
static bool sets_of(uint32_t size, uint32_t ways, const char *what, bool any, char *err,
                    size_t errlen)
{
    if (!ways || size % 64 || size / 64 % ways || !size ||
        (!any && !power_of_two(size / 64 / ways))) {
        snprintf(err, errlen,
                 "mem_%s_size=%u with mem_%s_ways=%u: the size must be a whole number of 64-byte "
                 "lines in each way%s",
                 what, size, what, ways,
                 any ? "" : ", and the sets (size / 64 / ways) a power of two");
        return false;
    }
    return true;
}

bool qp_hier_config_check(const qp_hier_config *c, char *err, size_t errlen)
{
    if (!sets_of(c->l1_size, c->l1_ways, "l1", false, err, errlen) ||
        !sets_of(c->l2_size, c->l2_ways, "l2", false, err, errlen) ||
        !sets_of(c->slc_size, c->slc_ways, "slc", true, err, errlen))
        return false;
    if (!c->tlb_ways || c->tlb_entries % c->tlb_ways ||
        !power_of_two(c->tlb_entries / c->tlb_ways)) {
        snprintf(err, errlen,
                 "mem_tlb_entries=%u with mem_tlb_ways=%u: the sets (entries / ways) must be a "
                 "power of two",
                 c->tlb_entries, c->tlb_ways);
        return false;
    }
    if (c->l1_ways > 64 || c->l2_ways > 64 || c->slc_ways > 64 || c->tlb_ways > 64) {
        snprintf(err, errlen, "the ways of a level: at most 64");
        return false;
    }
    if (!c->cluster_pes || !c->node_pes) {
        snprintf(err, errlen, "mem_cluster_pes and mem_node_pes: at least 1");
        return false;
    }
    if (c->nodes != 1 && c->nodes != 2) {
        snprintf(err, errlen, "mem_nodes=%u: 1 or 2", c->nodes);
        return false;
    }
    return true;
}

/* ---- the shared level ------------------------------------------------- */

qp_hier *qp_hier_create(const qp_hier_config *c, char *err, size_t errlen)
{
    if (!qp_hier_config_check(c, err, errlen)) return NULL;
    qp_hier *h = calloc(1, sizeof *h);
    if (!h) goto short_of_memory;
    h->c = *c;
    h->slc_sets = c->slc_size / 64 / c->slc_ways;
    /* calloc: the pages of sets never used are never touched */
    h->slc = calloc((size_t)c->nodes * h->slc_sets * c->slc_ways, sizeof *h->slc);
    h->locks = calloc((size_t)c->nodes * h->slc_sets, 1);
    if (h->slc && h->locks) return h;
    qp_hier_destroy(h);
short_of_memory:
    snprintf(err, errlen, "the memory hierarchy: %s", strerror(ENOMEM));
    return NULL;
}

static void pe_free(qp_hier_pe *p)
{
    if (!p) return;
    free(p->l1);
    free(p->l2);
    free(p->tlb);
    free(p);
}

void qp_hier_destroy(qp_hier *h)
{
    if (!h) return;
    for (unsigned i = 0; i < QP_HIER_MAX_PES; i++)
        pe_free(h->pes[i]);
    free(h->slc);
    free(h->locks);
    free(h);
}

const qp_hier_config *qp_hier_get_config(const qp_hier *h)
{
    return &h->c;
}

static void lock(uint8_t *l)
{
    unsigned spins = 0;
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
        /* the holder may be a descheduled thread: let it run */
        if (++spins % 64 == 0) sched_yield();
    }
}

static void unlock(uint8_t *l)
{
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static void send(qp_hier_pe *to, uint64_t msg)
{
    const uint64_t i = __atomic_fetch_add(&to->head, 1, __ATOMIC_ACQ_REL);
    if (i - __atomic_load_n(&to->taken, __ATOMIC_ACQUIRE) >= QP_HIER_MAILBOX) {
        /* no room: it drops every private line at its next access */
        __atomic_store_n(&to->overflow, 1, __ATOMIC_RELEASE);
        return;
    }
    __atomic_store_n(&to->slot[i % QP_HIER_MAILBOX], msg | msg_lap(i), __ATOMIC_RELEASE);
}

static qp_hier_pe *pe_at(qp_hier *h, unsigned i)
{
    return __atomic_load_n(&h->pes[i], __ATOMIC_ACQUIRE);
}

/* msg to every PE other than self that bits (pe % 64) may name */
static void send_to(qp_hier *h, uint64_t bits, unsigned self, uint64_t msg)
{
    const unsigned top = __atomic_load_n(&h->top, __ATOMIC_ACQUIRE);
    while (bits) {
        const unsigned b = (unsigned)__builtin_ctzll(bits);
        bits &= bits - 1;
        for (unsigned q = b; q < top; q += 64) {
            qp_hier_pe *p = q == self ? NULL : pe_at(h, q);
            if (p) send(p, msg);
        }
    }
}

static uint64_t bit_of(unsigned pe)
{
    return 1ull << (pe % 64);
}

/* The home node of line (+ 1): 4KB pages alternate between the nodes. */
static unsigned home_of(const qp_hier *h, uint64_t line)
{
    return h->c.nodes > 1 ? (unsigned)(((line - 1) >> 6) % h->c.nodes) : 0;
}

static unsigned node_of(const qp_hier *h, unsigned pe)
{
    return (pe / h->c.node_pes) % h->c.nodes;
}

/* line's SLC set, and its lock */
static slc_line *slc_set(qp_hier *h, uint64_t line, uint8_t **l)
{
    const size_t set = (size_t)home_of(h, line) * h->slc_sets + (line - 1) % h->slc_sets;
    *l = &h->locks[set];
    return &h->slc[set * h->c.slc_ways];
}

/* line (+ 1) in set, moved first (inserted when absent, the last way's line
 * leaving: its holders are told); *found whether it was there. */
static slc_line *slc_take(qp_hier *h, slc_line *set, uint64_t line, bool *found)
{
    const unsigned ways = h->c.slc_ways;
    unsigned i = 0;
    while (i < ways && set[i].tag != line)
        i++;
    *found = i < ways;
    slc_line e = {line, 0, -1};
    if (*found) {
        e = set[i];
    } else {
        i = ways - 1;
        /* inclusive: the private copies of the line that leaves go too */
        if (set[i].tag)
            send_to(h, set[i].sharers, UINT32_MAX, (set[i].tag & LINE_MASK) << 1 | MSG_INVALIDATE);
    }
    memmove(set + 1, set, i * sizeof *set);
    set[0] = e;
    return set;
}

/* A private miss of line (+ 1) by p, or a store's need for the only copy:
 * the directory's transition; returns where the data came from, *writable
 * whether p may now store to it without a message. */
static qp_level shared_access(qp_hier_pe *p, uint64_t line, bool store, bool *writable, bool *miss)
{
    qp_hier *h = p->h;
    uint8_t *l;
    slc_line *set = slc_set(h, line, &l);
    const bool remote = home_of(h, line) != p->node;
    lock(l);
    bool found;
    slc_line *e = slc_take(h, set, line, &found);
    *miss = !found;
    qp_level level = remote ? QP_LEVEL_REMOTE : found ? QP_LEVEL_SLC : QP_LEVEL_DRAM;
    if (found && e->owner >= 0 && (unsigned)e->owner != p->id) {
        /* the owner's copy may be Modified: it supplies the line, and
         * keeps it Shared (a load) or drops it (a store) */
        const unsigned o = (unsigned)e->owner;
        level = node_of(h, o) != p->node             ? QP_LEVEL_REMOTE
                : o / h->c.cluster_pes == p->cluster ? QP_LEVEL_PEER_CORE
                                                     : QP_LEVEL_PEER_CLUSTER;
        /* a store's invalidation reaches it with the other sharers' */
        qp_hier_pe *op = o < QP_HIER_MAX_PES ? pe_at(h, o) : NULL;
        if (op && !store) send(op, (line & LINE_MASK) << 1 | MSG_DOWNGRADE);
        e->owner = -1;
    }
    if (store) {
        send_to(h, e->sharers, p->id, (line & LINE_MASK) << 1 | MSG_INVALIDATE);
        e->sharers = bit_of(p->id);
        e->owner = (int32_t)p->id;
    } else {
        e->sharers |= bit_of(p->id);
        /* alone: Exclusive */
        if (e->sharers == bit_of(p->id) && e->owner < 0) e->owner = (int32_t)p->id;
    }
    *writable = e->owner == (int32_t)p->id;
    unlock(l);
    return level;
}

/* p's L2 lost line (+ 1): the directory forgets p's copy. */
static void shared_evict(qp_hier_pe *p, uint64_t line)
{
    qp_hier *h = p->h;
    uint8_t *l;
    slc_line *set = slc_set(h, line, &l);
    lock(l);
    for (unsigned i = 0; i < h->c.slc_ways; i++) {
        if (set[i].tag != line) continue;
        if (set[i].owner == (int32_t)p->id) set[i].owner = -1;
        set[i].sharers &= ~bit_of(p->id);
        break;
    }
    unlock(l);
}

/* ---- a PE's private levels ------------------------------------------- */

static unsigned find(const uint64_t *set, unsigned ways, uint64_t line)
{
    unsigned i = 0;
    while (i < ways && (set[i] & QP_TAG_LINE) != line)
        i++;
    return i;
}

/* set[i] moved first as e (i == ways: inserted, the last way leaving);
 * returns the entry that left, or 0 */
static uint64_t put_first(uint64_t *set, unsigned ways, unsigned i, uint64_t e)
{
    uint64_t gone = 0;
    if (i == ways) {
        i = ways - 1;
        gone = set[i];
    }
    for (; i > 0; i--)
        set[i] = set[i - 1];
    set[0] = e;
    return gone;
}

static uint64_t *l1_set(qp_hier_pe *p, uint64_t line)
{
    return p->l1 + ((line - 1) & (p->l1_sets - 1)) * p->l1_ways;
}

static uint64_t *l2_set(qp_hier_pe *p, uint64_t line)
{
    return p->l2 + ((line - 1) & (p->l2_sets - 1)) * p->l2_ways;
}

static void drop_all(qp_hier_pe *p)
{
    memset(p->l1, 0, (size_t)p->l1_sets * p->l1_ways * sizeof *p->l1);
    memset(p->l2, 0, (size_t)p->l2_sets * p->l2_ways * sizeof *p->l2);
    p->last = 0;
}

/* msg applied to the entry of line in set, if there */
static void apply(uint64_t *set, unsigned ways, uint64_t line, bool downgrade)
{
    const unsigned i = find(set, ways, line);
    if (i == ways) return;
    set[i] = downgrade ? set[i] & QP_TAG_LINE : 0;
}

void qp_hier_pe_drain(qp_hier_pe *p)
{
    if (__atomic_exchange_n(&p->overflow, 0, __ATOMIC_ACQUIRE)) {
        /* messages were lost: every private line goes, and the ring
         * starts again where its head is (its slots hold nothing of the
         * new laps) */
        drop_all(p);
        __atomic_store_n(&p->taken, __atomic_load_n(&p->head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
        return;
    }
    const uint64_t head = __atomic_load_n(&p->head, __ATOMIC_ACQUIRE);
    uint64_t k = p->taken;
    for (; k != head; k++) {
        uint64_t *slot = &p->slot[k % QP_HIER_MAILBOX];
        const uint64_t msg = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        /* not written yet (its sender is between claim and store): the
         * rest waits for the next access */
        if ((msg & ~((1ull << MSG_LAP_SHIFT) - 1)) != msg_lap(k)) break;
        const uint64_t line = msg >> 1 & LINE_MASK;
        apply(l1_set(p, line), p->l1_ways, line, msg & MSG_DOWNGRADE);
        apply(l2_set(p, line), p->l2_ways, line, msg & MSG_DOWNGRADE);
        if (line == p->last) p->last = 0;
    }
    __atomic_store_n(&p->taken, k, __ATOMIC_RELEASE);
}

void qp_hier_pe_miss(qp_hier_pe *p, uint64_t line, unsigned l1_way, bool walk, bool store,
                     qp_mem_outcome *out)
{
    const qp_hier_config *c = &p->h->c;
    *out = (qp_mem_outcome){.tlb_walk = walk, .translation = walk ? c->walk_latency : 0};
    out->l2_access = true;
    uint64_t *s2 = l2_set(p, line);
    unsigned j = find(s2, p->l2_ways, line);
    uint64_t e;
    if (j < p->l2_ways && (!store || s2[j] & QP_TAG_W)) {
        out->level = QP_LEVEL_L2;
        e = s2[j];
        put_first(s2, p->l2_ways, j, e);
    } else {
        out->llc_access = true;
        out->remote = home_of(p->h, line) != p->node;
        bool writable;
        out->level = shared_access(p, line, store, &writable, &out->llc_miss);
        e = line | (writable ? QP_TAG_W : 0) | (j < p->l2_ways ? s2[j] & QP_TAG_D : 0);
        const uint64_t gone = put_first(s2, p->l2_ways, j, e);
        if (gone) {
            /* the L2 holds what the L1 does */
            const uint64_t g = gone & QP_TAG_LINE;
            apply(l1_set(p, g), p->l1_ways, g, false);
            if (g == p->last) p->last = 0;
            shared_evict(p, g);
        }
        /* a store's upgrade: the data was the PE's own */
        if (j < p->l2_ways) out->level = l1_way < p->l1_ways ? QP_LEVEL_L1 : QP_LEVEL_L2;
    }
    uint64_t *s1 = l1_set(p, line);
    if (l1_way < p->l1_ways) e |= s1[l1_way] & QP_TAG_STORE;
    if (store) e |= QP_TAG_STORE;
    const uint64_t gone = put_first(s1, p->l1_ways, l1_way, e);
    if (gone & QP_TAG_DL1) {
        /* the L2's copy is Modified now */
        const uint64_t g = gone & QP_TAG_LINE;
        uint64_t *g2 = l2_set(p, g);
        const unsigned k = find(g2, p->l2_ways, g);
        if (k < p->l2_ways) g2[k] |= QP_TAG_D;
    }
    p->last = line;
    p->last_slot = s1;
    p->last_w = (e & QP_TAG_W) != 0;
    out->latency = c->latency[out->level];
}

qp_hier_pe *qp_hier_pe_of(qp_hier *h, unsigned pe)
{
    return pe < QP_HIER_MAX_PES ? pe_at(h, pe) : NULL;
}

/* p's levels, empty, for PE pe */
static void pe_init(qp_hier *h, qp_hier_pe *p, unsigned pe)
{
    memset(p, 0, sizeof *p);
    const qp_hier_config *c = &h->c;
    p->h = h;
    p->id = pe;
    p->cluster = pe / c->cluster_pes;
    p->node = node_of(h, pe);
    p->l1_ways = c->l1_ways;
    p->l2_ways = c->l2_ways;
    p->tlb_ways = c->tlb_ways;
    p->l1_sets = c->l1_size / 64 / c->l1_ways;
    p->l2_sets = c->l2_size / 64 / c->l2_ways;
    p->tlb_sets = c->tlb_entries / c->tlb_ways;
    p->latency_l1 = c->latency[QP_LEVEL_L1];
    p->walk_latency = c->walk_latency;
    p->l1 = calloc((size_t)p->l1_sets * p->l1_ways, sizeof *p->l1);
    p->l2 = calloc((size_t)p->l2_sets * p->l2_ways, sizeof *p->l2);
    p->tlb = calloc((size_t)p->tlb_sets * p->tlb_ways, sizeof *p->tlb);
    if (!p->l1 || !p->l2 || !p->tlb) abort();
}

/* p is PE pe's from now on: senders find it */
static void publish(qp_hier *h, unsigned pe, qp_hier_pe *p)
{
    __atomic_store_n(&h->pes[pe], p, __ATOMIC_RELEASE);
    unsigned top = __atomic_load_n(&h->top, __ATOMIC_RELAXED);
    while (top < pe + 1 && !__atomic_compare_exchange_n(&h->top, &top, pe + 1, true,
                                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
}

static void attach(void *ctx, unsigned pe)
{
    qp_hier *h = ctx;
    if (pe >= QP_HIER_MAX_PES) abort(); /* the plugin has no more vCPUs */
    qp_hier_pe *p = pe_at(h, pe);
    if (p) {
        /* a new thread on a PE number whose thread ended: empty levels, and
         * the messages sent to the old one dropped */
        memset(p->tlb, 0, (size_t)p->tlb_sets * p->tlb_ways * sizeof *p->tlb);
        drop_all(p);
        qp_hier_pe_drain(p);
        drop_all(p);
        return;
    }
    p = aligned_alloc(64, (sizeof *p + 63) / 64 * 64);
    if (!p) abort();
    pe_init(h, p, pe);
    publish(h, pe, p);
}

/* p's copies forgotten by the directory, its levels emptied */
static void forget(qp_hier_pe *p)
{
    for (size_t i = 0; i < (size_t)p->l2_sets * p->l2_ways; i++)
        if (p->l2[i]) shared_evict(p, p->l2[i] & QP_TAG_LINE);
    drop_all(p);
}

/* The thread ends: the directory forgets its copies (its levels stay
 * allocated: another thread may be sending to its mailbox). */
static void detach(void *ctx, unsigned pe)
{
    qp_hier_pe *p = qp_hier_pe_of(ctx, pe);
    if (p) forget(p);
}

static void access(void *ctx, unsigned pe, uint64_t paddr, bool store, qp_mem_outcome *out)
{
    qp_hier_pe *p = qp_hier_pe_of(ctx, pe);
    if (!p) abort(); /* an access before attach(): a bug of the caller */
    qp_hier_pe_access(p, paddr, store, out);
}

const qp_memory_ops qp_hier_ops = {attach, detach, access};

char qp_hier_state(qp_hier *h, unsigned pe, uint64_t paddr)
{
    qp_hier_pe *p = qp_hier_pe_of(h, pe);
    if (!p) return 'I';
    const uint64_t line = (paddr >> 6) + 1;
    uint64_t *s1 = l1_set(p, line), *s2 = l2_set(p, line);
    unsigned i = find(s1, p->l1_ways, line);
    uint64_t e = i < p->l1_ways ? s1[i] : 0;
    if (!e) {
        i = find(s2, p->l2_ways, line);
        e = i < p->l2_ways ? s2[i] : 0;
    }
    if (!e) return 'I';
    return e & QP_TAG_D ? 'M' : e & QP_TAG_W ? 'E' : 'S';
}
