/* SPDX-License-Identifier: BSD-3-Clause */
/* Two threads drive two PEs at once. The library keeps no global state
 * (armprof.h: "A PE instance holds everything"), so PEs on different
 * threads must not interfere: each thread creates its PE from its own
 * configuration, programs the PMU and Statistical Profiling with MSRs,
 * retires a few hundred thousand operations (servicing PMBIRQ as a driver
 * would) and must end with exactly the results the same sequence gave on
 * the main thread alone: counters, SPE statistics, the records the sink
 * saw and what the buffer holds. .ci/run also runs this test under
 * ThreadSanitizer (ARMPROF_TSAN), which reports any data race between the
 * two. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"

#define OPS      400000u
#define BUF_BASE 0x80000000ull
#define BUF_SIZE 0x4000ull

/* Everything a run ends with; all uint64_t, so compared with memcmp. */
typedef struct result {
    uint64_t failed; /* an MSR or MRS did not complete, or set-up failed */
    uint64_t counters[6], cycle_counter, overflow;
    armprof_spe_stats stats;
    uint64_t sink_records, sink_hash;  /* every record as the sink saw it */
    uint64_t drained, buffer_hash;     /* records decoded from memory */
    uint64_t pmbirqs, pmuirqs, pmbirq; /* interrupts taken; PMBIRQ level at the end */
} result;

typedef struct run {
    uint64_t seed;
    armprof_pe *pe;
    bool pmbirq_pending;
    result r;
} run;

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void on_record(void *ctx, const uint8_t *record, size_t size)
{
    run *u = ctx;
    u->r.sink_records++;
    for (size_t i = 0; i < size; i++)
        u->r.sink_hash = mix(u->r.sink_hash, record[i]);
}

/* Only notes the level: the PE must not be driven from a callback. */
static void on_irq(void *ctx, armprof_irq irq, bool level, unsigned target_el)
{
    run *u = ctx;
    (void)target_el;
    if (irq == ARMPROF_IRQ_PMB) u->pmbirq_pending = level;
    if (irq == ARMPROF_IRQ_PMU && level) u->r.pmuirqs++;
}

static void msr(run *u, const char *name, uint64_t value)
{
    unsigned index = 0;
    const int reg = armprof_reg_lookup(name, &index);
    if (reg < 0 ||
        armprof_msr(u->pe, armprof_reg_encoding(reg, index), 0, value).kind != ARMPROF_DONE)
        u->r.failed++;
}

static uint64_t mrs(run *u, const char *name)
{
    unsigned index = 0;
    const int reg = armprof_reg_lookup(name, &index);
    if (reg < 0) {
        u->r.failed++;
        return 0;
    }
    const armprof_outcome o = armprof_mrs(u->pe, armprof_reg_encoding(reg, index), 0);
    if (o.kind != ARMPROF_DONE) u->r.failed++;
    return o.value;
}

/* The buffer's records, decoded from memory; then it starts again. */
static void drain(run *u)
{
    const uint64_t end = mrs(u, "PMBPTR_EL1");
    if (end < BUF_BASE || end > BUF_BASE + BUF_SIZE) {
        u->r.failed++;
        return;
    }
    uint8_t buf[BUF_SIZE];
    const size_t len = (size_t)(end - BUF_BASE);
    armprof_mem_read(armprof_pe_memory(u->pe), ARMPROF_PAS_NONSECURE, BUF_BASE, buf, len);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, buf, len);
    armprof_spe_record rec;
    while (armprof_spe_next_record(&d, &rec) == ARMPROF_SPE_DECODE_OK) {
        u->r.drained++;
        u->r.buffer_hash = mix(u->r.buffer_hash, rec.address[ARMPROF_SPE_ADDR_PC]);
        u->r.buffer_hash = mix(u->r.buffer_hash, rec.counter[ARMPROF_SPE_COUNTER_TOTAL]);
    }
    msr(u, "PMBPTR_EL1", BUF_BASE);
}

/* A pseudo-random workload from the seed: loads, stores, branches and
 * other operations, with their cycles. */
static void workload(run *u)
{
    uint64_t s = u->seed;
    for (unsigned i = 0; i < OPS; i++) {
        const uint64_t x = next(&s);
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000 + 4 * (x >> 40 & 0xfff);
        op.op_class = (armprof_op_class)(x & 3);
        op.total_latency = 1 + (uint32_t)(x >> 8 & 63);
        op.issue_latency = (uint32_t)(x >> 14 & 7);
        switch (op.op_class) {
        case ARMPROF_OP_LOAD:
        case ARMPROF_OP_STORE:
            op.vaddr = op.paddr = 0x10000000 + (x >> 20 & 0xffff) * 8;
            op.l1d_access = true;
            op.l1d_refill = (x >> 36 & 7) == 0;
            op.events = (x >> 37 & 1) ? ARMPROF_SPE_EV_TLB_ACCESS : 0;
            break;
        case ARMPROF_OP_BRANCH:
            op.taken = x >> 2 & 1;
            op.mispredicted = (x >> 3 & 15) == 0;
            op.target = 0x400000 + 4 * (x >> 52);
            break;
        default:
            break;
        }
        /* every 16th operation through dispatch, as a simulator with
         * operations in flight does */
        if ((i & 15) == 0) armprof_dispatch(u->pe, &op);
        armprof_retire(u->pe, &op);
        armprof_cycles(u->pe, 1 + (x >> 60));
        if (u->pmbirq_pending) {
            /* the PMBIRQ handler: buffer full */
            drain(u);
            msr(u, "PMBSR_EL1", 0);
            u->r.pmbirqs++;
        }
    }
}

static void drive(run *u)
{
    memset(&u->r, 0, sizeof u->r);
    u->r.sink_hash = u->r.buffer_hash = 0xcbf29ce484222325ull;
    u->pmbirq_pending = false;
    armprof_config cfg;
    char err[256];
    if (!armprof_config_preset(&cfg, "armv9.4-all") ||
        !(u->pe = armprof_pe_create(&cfg, err, sizeof err))) {
        u->r.failed++;
        return;
    }
    if (!armprof_set_security_state(u->pe, ARMPROF_SS_NONSECURE, err, sizeof err)) u->r.failed++;
    msr(u, "MDCR_EL3", 3ull << 12);     /* NSPB: Non-secure EL1 owns the buffer */
    msr(u, "MDCR_EL2", 6 | 3ull << 12); /* HPMN 6, E2PB 0b11 */
    msr(u, "HCR_EL2", 1ull << 31);      /* EL1 is AArch64 */
    if (!armprof_set_el(u->pe, 1, err, sizeof err)) u->r.failed++;
    armprof_set_os_lock(u->pe, false);
    armprof_set_irq_callback(u->pe, on_irq, u);
    armprof_spe_set_sink(u->pe, on_record, u);

    static const char *const events[] = {"INST_RETIRED",     "BR_RETIRED",  "LD_RETIRED",
                                         "L1D_CACHE_REFILL", "BR_MIS_PRED", "CPU_CYCLES"};
    char name[32];
    for (unsigned i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", i);
        msr(u, name, (uint64_t)armprof_pmu_event_number(events[i]));
    }
    msr(u, "PMEVCNTR5_EL0", 0xffffffffull - 100000); /* overflows: PMUIRQ */
    msr(u, "PMINTENSET_EL1", 1ull << 5);
    msr(u, "PMCNTENSET_EL0", 0x3full | 1ull << 31);
    msr(u, "PMCR_EL0", 1); /* E */

    msr(u, "PMBPTR_EL1", BUF_BASE);
    msr(u, "PMBLIMITR_EL1", (BUF_BASE + BUF_SIZE) | 1);
    msr(u, "PMSIRR_EL1", 256 + (u->seed & 0x300)); /* INTERVAL */
    msr(u, "PMSFCR_EL1", 0);
    msr(u, "PMSCR_EL1", 3 | 1ull << 5); /* E0SPE, E1SPE, TS */

    workload(u);
    armprof_psb_csync(u->pe);
    drain(u);
    for (unsigned i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "PMEVCNTR%u_EL0", i);
        u->r.counters[i] = mrs(u, name);
    }
    u->r.cycle_counter = mrs(u, "PMCCNTR_EL0");
    u->r.overflow = mrs(u, "PMOVSSET_EL0");
    u->r.stats = armprof_spe_get_stats(u->pe);
    u->r.pmbirq = armprof_pmbirq(u->pe);
    armprof_pe_destroy(u->pe);
    u->pe = NULL;
}

static void *thread_main(void *arg)
{
    drive(arg);
    return NULL;
}

static bool same(const char *what, const result *a, const result *b)
{
    if (memcmp(a, b, sizeof *a) == 0) return true;
    fprintf(stderr,
            "test_threads: %s differs from the single-threaded run: counter0 %" PRIu64
            " vs %" PRIu64 ", records %" PRIu64 " vs %" PRIu64 ", sink hash %" PRIx64 " vs %" PRIx64
            "\n",
            what, a->counters[0], b->counters[0], a->stats.records, b->stats.records, a->sink_hash,
            b->sink_hash);
    return false;
}

int main(void)
{
    run ref[2] = {{.seed = 0x9E3779B97F4A7C15ull}, {.seed = 0xD1B54A32D192ED03ull}};
    run thr[2] = {{.seed = ref[0].seed}, {.seed = ref[1].seed}};
    int failed = 0;
    /* The references, one after the other on this thread. */
    for (unsigned i = 0; i < 2; i++) {
        drive(&ref[i]);
        if (ref[i].r.failed) {
            fprintf(stderr, "test_threads: set-up of run %u failed\n", i);
            return 1;
        }
        /* the workload must reach what it is meant to test */
        if (ref[i].r.stats.records < 100 || ref[i].r.pmbirqs == 0 || ref[i].r.pmuirqs == 0 ||
            ref[i].r.drained == 0) {
            fprintf(stderr,
                    "test_threads: run %u too quiet: %" PRIu64 " records, %" PRIu64
                    " PMBIRQs, %" PRIu64 " PMUIRQs\n",
                    i, ref[i].r.stats.records, ref[i].r.pmbirqs, ref[i].r.pmuirqs);
            failed = 1;
        }
    }
    pthread_t t[2];
    for (unsigned i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, thread_main, &thr[i]) != 0) {
            fprintf(stderr, "test_threads: pthread_create failed\n");
            return 1;
        }
    for (unsigned i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (!same("thread 0", &thr[0].r, &ref[0].r)) failed = 1;
    if (!same("thread 1", &thr[1].r, &ref[1].r)) failed = 1;
    /* different seeds, different results: the comparison can fail */
    if (memcmp(&ref[0].r, &ref[1].r, sizeof ref[0].r) == 0) failed = 1;
    printf("test_threads: 2 threads x %u operations, %" PRIu64 " + %" PRIu64 " records, %" PRIu64
           " + %" PRIu64 " PMBIRQs: %s\n",
           OPS, thr[0].r.stats.records, thr[1].r.stats.records, thr[0].r.pmbirqs, thr[1].r.pmbirqs,
           failed ? "FAILED" : "same as single-threaded");
    return failed;
}
