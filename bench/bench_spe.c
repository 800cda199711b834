/* SPDX-License-Identifier: BSD-3-Clause */
/* Statistical Profiling throughput. A stream of operations is generated
 * first (about 30% loads, 12% stores, 18% branches, the rest other
 * operations, with addresses, latencies and cache events), then replayed:
 * - two read-only passes: a scan of the packed stream, and a fill of an
 *   armprof_op per operation (the floors of the two interfaces);
 * - armprof_retire() per operation on an Armv9.4 PE profiling EL1 at
 *   interval 1024 (PMSIRR_EL1 = 0x400) with timestamps, context and
 *   physical addresses, the records going to a sink that counts their
 *   bytes; the PMU counts nothing, so the time is the sampling unit's;
 * - the skip-ahead interface on a second PE: runs of operations as long as
 *   armprof_ops_until_event() allows (and the timer tick), built from the
 *   packed stream, armprof_retire() for the operation a sample selects; it
 *   must make the same records;
 * - armprof_retire() per operation on a PE with profiling disabled.
 * Prints operations and records per second, and each pass's time as a ratio
 * of its floor's. The physical count (timestamps) moves every 64
 * operations, as a generic timer slower than the core would.
 * Usage: bench_spe [OPERATIONS] (default 10^8: the stream takes 16 bytes
 * per operation). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"
#include "bench_common.h"

/* One operation of the stream, packed. */
typedef struct packed_op {
    uint32_t pc;   /* low bits of the PC (the code is in the first 4 GB) */
    uint32_t addr; /* data address offset, or branch target */
    uint16_t latency;
    uint8_t op_class; /* armprof_op_class */
    uint8_t flags;    /* bit 0 l1d, 1 refill, 2 mispredicted, 3 taken, 4 TLB walk */
    uint32_t pad;
} packed_op;

static uint64_t rng_state = 0x123456789abcdefull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void generate(packed_op *ops, long n)
{
    uint32_t pc = 0x400000;
    for (long i = 0; i < n; i++) {
        const uint64_t r = rng();
        packed_op *o = &ops[i];
        const unsigned kind = (unsigned)(r % 100);
        o->pc = pc;
        o->flags = 0;
        o->latency = (uint16_t)(1 + (r >> 8) % 24);
        if (kind < 30) {
            o->op_class = ARMPROF_OP_LOAD;
            o->addr = (uint32_t)(r >> 16) & 0xffff8;
            o->flags = 1 | ((r >> 40) % 10 == 0 ? 2 : 0) | ((r >> 44) % 50 == 0 ? 16 : 0);
            if (o->flags & 2) o->latency = (uint16_t)(o->latency + 100 + (r >> 48) % 200);
        } else if (kind < 42) {
            o->op_class = ARMPROF_OP_STORE;
            o->addr = (uint32_t)(r >> 16) & 0xffff8;
            o->flags = 1;
        } else if (kind < 60) {
            o->op_class = ARMPROF_OP_BRANCH;
            const bool taken = (r >> 40) % 3 != 0;
            o->flags = (uint8_t)(((r >> 44) % 20 == 0 ? 4 : 0) | (taken ? 8 : 0));
            o->addr = taken ? 0x400000 + ((uint32_t)(r >> 20) & 0xfffc) : pc + 4;
        } else {
            o->op_class = ARMPROF_OP_OTHER;
            o->addr = 0;
        }
        pc = (o->op_class == ARMPROF_OP_BRANCH) ? o->addr : pc + 4;
    }
}

static inline void unpack(const packed_op *p, armprof_op *op)
{
    op->pc = p->pc;
    op->op_class = (armprof_op_class)p->op_class;
    op->l1d_access = p->flags & 1;
    op->l1d_refill = (p->flags >> 1) & 1;
    op->mispredicted = (p->flags >> 2) & 1;
    op->taken = (p->flags >> 3) & 1;
    op->target = p->addr;
    op->vaddr = 0x7f0000000000ull + p->addr;
    op->paddr = 0x80000000ull + p->addr;
    op->total_latency = p->latency;
    op->issue_latency = p->latency >> 2;
    op->translation_latency = (p->flags & 16) ? 30 : 1;
    op->events = (p->flags & 16) ? ARMPROF_SPE_EV_TLB_WALK | ARMPROF_SPE_EV_TLB_ACCESS
                                 : ARMPROF_SPE_EV_TLB_ACCESS;
}

/* What an embedder computes for a run of operations ops[start, end) (a
 * simulator has it per block): each operation's counts are two words of
 * 16-bit lanes, looked up by class and flags and added (the flags say l1d
 * for loads and stores, refill for loads, mispredicted and taken for
 * branches), the lanes emptied every 2^15 operations; then the last branch
 * and the last taken one, from the end back. The stream is prefetched a
 * cache line at a time, 128 operations ahead. */
static void run_totals(const packed_op *ops, long start, long end, long n,
                       const uint64_t lanes[256][2], armprof_op_run *run)
{
    uint64_t branches = 0, loads = 0, stores = 0, l1d = 0, refill = 0, mispredicted = 0;
    long i = start;
    while (i < end) {
        const long chunk_end = end - i > 32768 ? i + 32768 : end;
        uint64_t w0 = 0, w1 = 0;
        for (; i < chunk_end; i++) {
            if ((i & 3) == 0 && i + 128 < n) __builtin_prefetch(&ops[i + 128]);
            const unsigned key = (unsigned)(ops[i].op_class & 7) << 5 | (ops[i].flags & 31);
            w0 += lanes[key][0];
            w1 += lanes[key][1];
        }
        branches += w0 & 0xffff;
        loads += (w0 >> 16) & 0xffff;
        stores += (w0 >> 32) & 0xffff;
        l1d += w0 >> 48;
        refill += w1 & 0xffff;
        mispredicted += (w1 >> 16) & 0xffff;
    }
    run->ops = (uint64_t)(end - start);
    run->branches = branches;
    run->loads = loads;
    run->stores = stores;
    run->l1d_access = l1d;
    run->l1d_refill = refill;
    run->mispredicted = mispredicted;
    long last_branch = end - 1;
    while (last_branch >= start && ops[last_branch].op_class != ARMPROF_OP_BRANCH)
        last_branch--;
    long last_taken = last_branch;
    while (last_taken >= start && !(ops[last_taken].flags & 8))
        last_taken--;
    run->last_branch_next = last_branch >= start ? ops[last_branch].addr : 0;
    run->any_taken = last_taken >= start;
    run->last_taken_target = last_taken >= start ? ops[last_taken].addr : 0;
    run->last_pc = ops[end - 1].pc;
    run->last_is_branch = ops[end - 1].op_class == ARMPROF_OP_BRANCH;
}

static void count_record(void *ctx, const uint8_t *record, size_t size)
{
    uint64_t *bytes = ctx;
    *bytes += size + record[0];
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 100000000L;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_spe [OPERATIONS]\n");
        return 2;
    }
    packed_op *ops = malloc((size_t)n * sizeof *ops);
    if (!ops) {
        fprintf(stderr, "bench_spe: cannot allocate %ld operations\n", n);
        return 2;
    }
    generate(ops, n);

    /* The buffer is emptied by the PMBIRQ handler below whenever it fills. */
    uint64_t buffer, buffer_size;
    armprof_pe *pe = bench_spe_pe("bench_spe", &buffer, &buffer_size);
    bench_set(pe, "PMCR_EL0", 0);
    uint64_t record_bytes = 0;
    armprof_spe_set_sink(pe, count_record, &record_bytes);
    if (!armprof_spe_profiling_enabled(pe, 1)) {
        fprintf(stderr, "bench_spe: profiling is not enabled at EL1\n");
        return 2;
    }

    /* Two read-only passes, the floor of each interface. The scan is the
     * skip-ahead pass's own work without the model: the same totals for
     * runs of 1024 operations (about as long as the model allows at this
     * interval), summed so that they are kept. The fill reads each
     * operation into an armprof_op kept in memory, as a call needs it
     * (bench_keep(): without it the compiler stores only the fields the sum
     * reads); it is what the passes of one call per operation are compared
     * with. */
    uint64_t lanes[256][2];
    for (unsigned key = 0; key < 256; key++) {
        const unsigned op_class = key >> 5, flags = key & 31;
        lanes[key][0] = (uint64_t)(op_class == ARMPROF_OP_BRANCH) |
                        (uint64_t)(op_class == ARMPROF_OP_LOAD) << 16 |
                        (uint64_t)(op_class == ARMPROF_OP_STORE) << 32 |
                        (uint64_t)(flags & 1) << 48;
        lanes[key][1] = (uint64_t)((flags >> 1) & 1) | (uint64_t)((flags >> 2) & 1) << 16;
    }
    armprof_op op = {0};
    uint64_t sum = 0;
    double t0 = bench_now();
    for (long i = 0; i < n; i += 1024) {
        armprof_op_run run = ARMPROF_OP_RUN_INIT;
        run_totals(ops, i, i + 1024 < n ? i + 1024 : n, n, lanes, &run);
        sum += run.branches ^ run.loads ^ run.l1d_refill ^ run.last_pc ^ run.last_taken_target;
    }
    const double t_read = bench_now() - t0;
    t0 = bench_now();
    for (long i = 0; i < n; i++) {
        bench_prefetch_stream(&ops[i]);
        unpack(&ops[i], &op);
        bench_keep(&op);
        sum += op.pc ^ op.total_latency;
    }
    const double t_fill = bench_now() - t0;

    uint64_t interrupts = 0;
    t0 = bench_now();
    for (long i = 0; i < n; i++) {
        if ((i & 63) == 0) {
            armprof_set_physical_count(pe, (uint64_t)i); /* the timer's tick */
            if (armprof_pmbirq(pe)) {
                /* The driver's PMBIRQ handler: the buffer is full; start
                 * again from its base, PMBSR_EL1 cleared last. */
                armprof_psb_csync(pe);
                bench_set(pe, "PMBPTR_EL1", buffer);
                bench_set(pe, "PMBSR_EL1", 0);
                interrupts++;
            }
        }
        bench_prefetch_stream(&ops[i]);
        unpack(&ops[i], &op);
        armprof_retire(pe, &op);
    }
    const double t_model = bench_now() - t0;
    const armprof_spe_stats s = armprof_spe_get_stats(pe);

    /* The skip-ahead pass. */
    uint64_t buffer2, buffer_size2;
    armprof_pe *pe2 = bench_spe_pe("bench_spe", &buffer2, &buffer_size2);
    bench_set(pe2, "PMCR_EL0", 0);
    uint64_t record_bytes2 = 0;
    armprof_spe_set_sink(pe2, count_record, &record_bytes2);
    uint64_t interrupts2 = 0, runs = 0;
    t0 = bench_now();
    for (long i = 0; i < n;) {
        /* The timer and the PMBIRQ handler as in the pass above: the count a
         * sample reads is the last tick's, and the handler runs at a tick.
         * A run needs neither unless the interrupt is pending, so it ends
         * at the next tick only then. */
        if ((i & 63) == 0 && armprof_pmbirq(pe2)) {
            armprof_psb_csync(pe2);
            bench_set(pe2, "PMBPTR_EL1", buffer2);
            bench_set(pe2, "PMBSR_EL1", 0);
            interrupts2++;
        }
        const uint64_t room = armprof_ops_until_event(pe2);
        long end = n;
        if (armprof_pmbirq(pe2)) end = (i | 63) + 1 < n ? (i | 63) + 1 : n;
        if ((uint64_t)(end - i) > room) end = i + (long)room;
        if (end == i) {
            armprof_set_physical_count(pe2, (uint64_t)(i & ~63L));
            unpack(&ops[i++], &op);
            armprof_retire(pe2, &op);
            continue;
        }
        armprof_op_run run = ARMPROF_OP_RUN_INIT;
        run_totals(ops, i, end, n, lanes, &run);
        i = end;
        if (!armprof_retire_run(pe2, &run)) {
            fprintf(stderr, "bench_spe: a run was refused\n");
            return 2;
        }
        runs++;
    }
    const double t_runs = bench_now() - t0;
    const armprof_spe_stats s2 = armprof_spe_get_stats(pe2);

    /* The floor of armprof_retire(): the same stream on a PE with profiling
     * disabled (PMSCR_EL1.E1SPE 0) and the PMU counting nothing, so that
     * only the call and the units' "off" tests remain. */
    uint64_t buffer3, buffer_size3;
    armprof_pe *pe3 = bench_spe_pe("bench_spe", &buffer3, &buffer_size3);
    bench_set(pe3, "PMCR_EL0", 0);
    bench_set(pe3, "PMSCR_EL1", 0);
    t0 = bench_now();
    for (long i = 0; i < n; i++) {
        bench_prefetch_stream(&ops[i]);
        unpack(&ops[i], &op);
        armprof_retire(pe3, &op);
    }
    const double t_off = bench_now() - t0;
    armprof_pe_destroy(pe3);
    printf("bench_spe: %ld operations (read-only scan %.3f s, read-only fill %.3f s: %.1f million "
           "operations per second; checksum %llx)\n",
           n, t_read, t_fill, (double)n / t_fill / 1e6, (unsigned long long)(sum & 0xffff));
    printf("bench_spe: %.3f s through the model: %.1f million operations per second, "
           "%.0f records per second (%llu records, %llu bytes), %.2f times the read-only fill\n",
           t_model, (double)n / t_model / 1e6, (double)s.records / t_model,
           (unsigned long long)s.records, (unsigned long long)s.bytes, t_model / t_fill);
    printf("bench_spe: %llu records (%llu bytes) written to the Profiling Buffer, %llu lost, "
           "%llu buffer full interrupts\n",
           (unsigned long long)s.written, (unsigned long long)s.written_bytes,
           (unsigned long long)s.lost, (unsigned long long)interrupts);
    printf("bench_spe: %.3f s through the skip-ahead interface (%llu runs): %.1f million "
           "operations per second, %.2f times the read-only scan; records %s\n",
           t_runs, (unsigned long long)runs, (double)n / t_runs / 1e6, t_runs / t_read,
           s2.records == s.records && s2.bytes == s.bytes && record_bytes2 == record_bytes &&
                   interrupts2 == interrupts
               ? "identical"
               : "DIFFERENT");
    printf("bench_spe: %.3f s through armprof_retire() with profiling disabled: %.1f million "
           "operations per second, %.2f times the read-only fill\n",
           t_off, (double)n / t_off / 1e6, t_off / t_fill);
    armprof_pe_destroy(pe2);
    armprof_pe_destroy(pe);
    free(ops);
    return 0;
}
