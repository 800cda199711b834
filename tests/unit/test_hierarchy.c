/* SPDX-License-Identifier: BSD-3-Clause */
/* The QEMU plugin's memory hierarchy (frontends/qemu/hierarchy.c,
 * docs/memory-model.md), by construction: where an access is served follows
 * from the sizes (a line is in a set-associative level until as many other
 * lines of its set as it has ways came after it), and the coherence
 * transitions from MESI (a load of a line alone is Exclusive, a store makes
 * it Modified and the only copy, a load of a line another PE holds
 * Exclusive or Modified is served by that PE and leaves both Shared). */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hierarchy.h"

static qp_hier *make(const qp_hier_config *c)
{
    char err[256];
    qp_hier *h = qp_hier_create(c, err, sizeof err);
    if (!h) {
        fprintf(stderr, "qp_hier_create: %s\n", err);
        exit(1);
    }
    return h;
}

static qp_mem_outcome go(qp_hier *h, unsigned pe, uint64_t paddr, bool store)
{
    qp_mem_outcome o;
    qp_hier_ops.access(h, pe, paddr, store, &o);
    return o;
}

static qp_level load(qp_hier *h, unsigned pe, uint64_t paddr)
{
    return go(h, pe, paddr, false).level;
}

/* A PE's pending messages applied (its next access would). */
static void settle(qp_hier *h, unsigned pe)
{
    qp_hier_pe_drain(qp_hier_pe_of(h, pe));
}

/* One PE, the default sizes: L1 64KB 4-way (256 sets), L2 1MB 8-way (2048
 * sets), lines of 64 bytes. */
static void levels_by_construction(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    qp_hier *h = make(&c);
    qp_hier_ops.attach(h, 0);
    const uint64_t a = 0x100000;
    qp_mem_outcome o = go(h, 0, a, false);
    CHECK(o.level == QP_LEVEL_DRAM && o.llc_access && o.llc_miss && o.l2_access,
          "first touch: DRAM, level %d", o.level);
    CHECK(o.latency == c.latency[QP_LEVEL_DRAM], "DRAM's latency %u", o.latency);
    CHECK(o.tlb_walk && o.translation == c.walk_latency, "first touch of the page walks");
    o = go(h, 0, a + 8, false);
    CHECK(o.level == QP_LEVEL_L1 && !o.l2_access && !o.tlb_walk, "same line again: L1");
    /* four more lines of a's L1 set (16KB apart: 256 sets of 64 bytes) push
     * it out of the 4-way L1; they fall in four other L2 sets */
    for (uint64_t k = 1; k <= 4; k++)
        CHECK(load(h, 0, a + k * 16384) == QP_LEVEL_DRAM, "line %llu: DRAM", (unsigned long long)k);
    o = go(h, 0, a, false);
    CHECK(o.level == QP_LEVEL_L2 && o.l2_access && !o.llc_access,
          "a after 4 in its L1 set: L2 (%d)", o.level);
    CHECK(o.latency == c.latency[QP_LEVEL_L2], "L2's latency");
    /* eight more lines of its L2 set (128KB apart) push it out of the L2 */
    for (uint64_t k = 1; k <= 8; k++)
        load(h, 0, a + k * 131072);
    o = go(h, 0, a, false);
    CHECK(o.level == QP_LEVEL_SLC && o.llc_access && !o.llc_miss,
          "a after 8 in its L2 set: SLC (%d)", o.level);
    /* seven in its L2 set leave it there (8 ways) */
    for (uint64_t k = 9; k <= 15; k++)
        load(h, 0, a + k * 131072);
    CHECK(load(h, 0, a) != QP_LEVEL_SLC, "a after 7 in its L2 set: still the PE's");
    qp_hier_destroy(h);
}

/* One set a level (L1 2 ways, L2 4, SLC 8): the SLC's capacity by
 * construction, and an inclusive SLC's eviction taking the private copy. */
static void slc_capacity(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    c.l1_size = 128, c.l1_ways = 2;
    c.l2_size = 256, c.l2_ways = 4;
    c.slc_size = 512, c.slc_ways = 8;
    qp_hier *h = make(&c);
    qp_hier_ops.attach(h, 0);
    for (uint64_t k = 0; k < 8; k++)
        load(h, 0, k * 64);
    CHECK(load(h, 0, 0) == QP_LEVEL_SLC, "line 0 after 7 others: in the 8-way SLC");
    for (uint64_t k = 8; k < 16; k++)
        load(h, 0, k * 64);
    /* 0 was the most recent of the SLC after its reload: eight more push it out */
    CHECK(load(h, 0, 0) == QP_LEVEL_DRAM, "line 0 after 8 others since: DRAM");
    qp_hier_destroy(h);
}

/* MESI between PEs 0 and 1 (one cluster of 2) and PE 2 (the next cluster). */
static void coherence(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    c.cluster_pes = 2;
    qp_hier *h = make(&c);
    for (unsigned pe = 0; pe < 3; pe++)
        qp_hier_ops.attach(h, pe);
    const uint64_t x = 0x4000;
    CHECK(load(h, 0, x) == QP_LEVEL_DRAM, "P0 loads x first");
    CHECK(qp_hier_state(h, 0, x) == 'E', "alone: Exclusive (%c)", qp_hier_state(h, 0, x));
    qp_mem_outcome o = go(h, 0, x, true);
    CHECK(o.level == QP_LEVEL_L1 && !o.llc_access, "E to M needs no message");
    CHECK(qp_hier_state(h, 0, x) == 'M', "a store: Modified (%c)", qp_hier_state(h, 0, x));
    CHECK(load(h, 1, x) == QP_LEVEL_PEER_CORE, "P1's load of P0's Modified line: the peer core");
    settle(h, 0);
    CHECK(qp_hier_state(h, 0, x) == 'S' && qp_hier_state(h, 1, x) == 'S', "both Shared (%c %c)",
          qp_hier_state(h, 0, x), qp_hier_state(h, 1, x));
    o = go(h, 1, x, true);
    CHECK(o.llc_access && o.level == QP_LEVEL_L1, "S to M: the directory, the data its own");
    settle(h, 0);
    CHECK(qp_hier_state(h, 1, x) == 'M' && qp_hier_state(h, 0, x) == 'I', "P1 M, P0 I (%c %c)",
          qp_hier_state(h, 1, x), qp_hier_state(h, 0, x));
    CHECK(load(h, 0, x) == QP_LEVEL_PEER_CORE, "P0 loads it back from P1");
    go(h, 0, x, true);
    settle(h, 1);
    CHECK(qp_hier_state(h, 1, x) == 'I', "P0's store invalidates P1's copy");
    CHECK(load(h, 2, x) == QP_LEVEL_PEER_CLUSTER, "P2, in the other cluster: the peer cluster");
    settle(h, 0);
    /* Shared in 0 and 2: a third reader is served by the SLC */
    CHECK(load(h, 1, x) == QP_LEVEL_SLC, "a Shared line: the SLC");
    /* the owner's L2 losing the line: the directory forgets it */
    const uint64_t y = 0x8000;
    go(h, 0, y, true);
    for (uint64_t k = 1; k <= 8; k++)
        load(h, 0, y + k * 131072);
    CHECK(qp_hier_state(h, 0, y) == 'I', "y left P0's L2");
    CHECK(load(h, 1, y) == QP_LEVEL_SLC, "then a load of y: the SLC, no peer");
    qp_hier_destroy(h);
}

/* Two nodes of 2 PEs: pages alternate between their homes. */
static void two_nodes(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    c.nodes = 2, c.node_pes = 2, c.cluster_pes = 2;
    qp_hier *h = make(&c);
    qp_hier_ops.attach(h, 0);
    qp_hier_ops.attach(h, 2);
    qp_mem_outcome o = go(h, 2, 0x0000, false); /* page 0: node 0's */
    CHECK(o.level == QP_LEVEL_REMOTE && o.remote && o.llc_miss, "PE 2 (node 1), page 0: remote");
    CHECK(load(h, 2, 0x1000) == QP_LEVEL_DRAM, "PE 2, page 1 (its node's): DRAM");
    go(h, 0, 0x2000, true);
    CHECK(load(h, 2, 0x2000) == QP_LEVEL_REMOTE, "a line PE 0 holds Modified, from node 1: remote");
    qp_hier_destroy(h);
}

/* More messages than a mailbox holds: the PE drops every private line. */
static void mailbox_overflow(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    qp_hier *h = make(&c);
    qp_hier_ops.attach(h, 0);
    qp_hier_ops.attach(h, 1);
    const uint64_t keep = 0x7000000;
    load(h, 0, keep);
    /* lines P0 holds that P1 then stores to, P0 not running meanwhile:
     * one invalidation each, one more than the mailbox holds */
    for (uint64_t k = 0; k <= QP_HIER_MAILBOX; k++)
        load(h, 0, 0x100000 + k * 64);
    for (uint64_t k = 0; k <= QP_HIER_MAILBOX; k++)
        go(h, 1, 0x100000 + k * 64, true);
    CHECK(qp_hier_state(h, 0, keep) != 'I', "before the drain, P0 holds its line");
    settle(h, 0);
    CHECK(qp_hier_state(h, 0, keep) == 'I', "a full mailbox: P0 dropped every line");
    qp_hier_destroy(h);
}

static void options(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    char err[256];
    bool bad;
    CHECK(qp_hier_option(&c, "mem_l1_size", "32K", &bad, err, sizeof err) && !bad &&
              c.l1_size == 32768,
          "32K");
    CHECK(qp_hier_option(&c, "mem_slc_size", "8M", &bad, err, sizeof err) && !bad &&
              c.slc_size == 8u << 20,
          "8M");
    CHECK(qp_hier_option(&c, "mem_dram_latency", "300", &bad, err, sizeof err) && !bad &&
              c.latency[QP_LEVEL_DRAM] == 300,
          "a latency");
    CHECK(qp_hier_option(&c, "mem_l2_ways", "x", &bad, err, sizeof err) && bad &&
              strstr(err, "mem_l2_ways=x"),
          "a bad number named: %s", err);
    CHECK(qp_hier_option(&c, "mem_l1_size", "8G", &bad, err, sizeof err) && bad, "8G too large");
    CHECK(!qp_hier_option(&c, "interval", "1024", &bad, err, sizeof err), "not one of them");
    CHECK(qp_hier_config_check(&c, err, sizeof err), "32K L1, 8M SLC: %s", err);
    c.l1_size = 48u << 10; /* 192 sets */
    CHECK(!qp_hier_config_check(&c, err, sizeof err) && strstr(err, "mem_l1_size=49152"),
          "sets not a power of two: %s", err);
    qp_hier_config_default(&c);
    c.slc_size = 36u << 20; /* Graviton 4's: 36864 sets of 16 */
    CHECK(qp_hier_config_check(&c, err, sizeof err), "any number of SLC sets: %s", err);
    c.nodes = 3;
    CHECK(!qp_hier_config_check(&c, err, sizeof err) && strstr(err, "mem_nodes=3"), "%s", err);
    qp_hier_config_default(&c);
    c.tlb_entries = 48, c.tlb_ways = 4;
    CHECK(!qp_hier_config_check(&c, err, sizeof err) && strstr(err, "mem_tlb_entries"), "%s", err);
}

/* Four threads loading and storing the same few lines at once: every
 * access gets a level, nothing crashes (ThreadSanitizer: no data race). */
typedef struct worker {
    qp_hier *h;
    unsigned pe;
    unsigned bad;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    qp_hier_ops.attach(w->h, w->pe);
    uint64_t x = 0x9e3779b97f4a7c15ull * (w->pe + 1);
    for (unsigned i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const uint64_t addr = 0x10000 + (x % 64) * 64 + (i % 2) * 8;
        qp_mem_outcome o;
        qp_hier_ops.access(w->h, w->pe, addr, (x >> 20) % 3 == 0, &o);
        w->bad += o.level >= QP_LEVEL_COUNT;
    }
    qp_hier_ops.detach(w->h, w->pe);
    return NULL;
}

static void threads(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    qp_hier *h = make(&c);
    pthread_t th[4];
    worker w[4];
    for (unsigned i = 0; i < 4; i++) {
        w[i] = (worker){h, i, 0};
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    unsigned bad = 0;
    for (unsigned i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        bad += w[i].bad;
    }
    CHECK(bad == 0, "%u accesses without a level", bad);
    qp_hier_destroy(h);
}

/* Two threads taking turns (a barrier between turns): each loads the
 * line the other stored in its last turn, then stores it. With no race,
 * the model is exact: every load after the first turn is the peer core's
 * (PE 0 and 1, one cluster of 2), and each store finds the only copy
 * needing the directory (the load left it Shared). */
typedef struct turn {
    qp_hier *h;
    pthread_barrier_t *b;
    unsigned pe, peer_loads, turns;
} turn;

static void *take_turns(void *arg)
{
    turn *w = arg;
    qp_hier_ops.attach(w->h, w->pe);
    pthread_barrier_wait(w->b);
    for (unsigned r = 0; r < 200; r++) {
        if (r % 2 == w->pe) {
            qp_mem_outcome o;
            qp_hier_ops.access(w->h, w->pe, 0x5000, false, &o);
            w->peer_loads += o.level == QP_LEVEL_PEER_CORE;
            w->turns++;
            qp_hier_ops.access(w->h, w->pe, 0x5008, true, &o);
        }
        pthread_barrier_wait(w->b);
    }
    return NULL;
}

static void turns(void)
{
    qp_hier_config c;
    qp_hier_config_default(&c);
    qp_hier *h = make(&c);
    pthread_barrier_t b;
    pthread_barrier_init(&b, NULL, 2);
    pthread_t th[2];
    turn w[2];
    for (unsigned i = 0; i < 2; i++) {
        w[i] = (turn){h, &b, i, 0, 0};
        pthread_create(&th[i], NULL, take_turns, &w[i]);
    }
    for (unsigned i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&b);
    /* PE 0's first load is DRAM's; every other load follows the other's store */
    CHECK(w[0].turns == 100 && w[1].turns == 100, "turns %u %u", w[0].turns, w[1].turns);
    CHECK(w[0].peer_loads == 99 && w[1].peer_loads == 100, "peer-core loads %u and %u of 100",
          w[0].peer_loads, w[1].peer_loads);
    qp_hier_destroy(h);
}

int main(void)
{
    levels_by_construction();
    slc_capacity();
    coherence();
    two_nodes();
    mailbox_overflow();
    options();
    threads();
    turns();
    return check_summary();
}
