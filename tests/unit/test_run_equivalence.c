/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_retire_run() against armprof_retire() (issue 16, part 1): the same
 * random stream of operations, on the same random configuration, retired
 * one at a time on one PE and in runs (as long as armprof_ops_until_event()
 * allows, the rest one at a time) on another, with the same cycles and the
 * same control changes at the same places. Every register instance, the
 * Statistical Profiling statistics, the interrupt outputs, the PC sample
 * (read through PMPCSR), every record the sink saw and every byte of the
 * Profiling Buffer must be the same. The expected value is the one-at-a-time
 * path itself: the run interface promises exactly that (armprof.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/memory.h"
#include "check.h"
#include "fields.h"
#include "same_state.h"

#define BUF_BASE 0x80000000ull
#define BUF_SIZE 0x10000ull

/* xorshift64*: the test's own stream, reproducible from its seed. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}
static unsigned below(uint64_t *s, unsigned n)
{
    return (unsigned)(next_random(s) % n);
}

static const char *const presets[] = {"armv9.4-all", "armv8.2-spe", "armv8.4-nv"};
static const uint16_t events[] = {0x08, 0x21, 0x22,   0x06,   0x07, 0x13,
                                  0x04, 0x03, 0x4000, 0x4001, 0x11, 0x812A};

typedef struct setup {
    unsigned preset, el, interval, rnd, icr, sample_all;
    uint16_t evt[8];
    uint64_t icntr, pmsfcr;
    bool pbt, icntr_near_overflow;
    bool no_icntr; /* the instruction counter (FEAT_PMUv3_ICNTR) left disabled */
} setup;

/* A random configuration, its events drawn from evts. */
static void random_setup(uint64_t *r, setup *st, const uint16_t *evts, size_t nevts)
{
    memset(st, 0, sizeof *st);
    st->preset = below(r, 3);
    st->el = below(r, 2);
    st->interval = 1 + below(r, 3);
    st->rnd = below(r, 2);
    st->icr = below(r, 600);
    st->sample_all = below(r, 2);
    st->pbt = below(r, 2);
    st->pmsfcr = below(r, 4);
    for (unsigned n = 0; n < 8; n++)
        st->evt[n] = evts[below(r, (unsigned)nevts)];
}

static armprof_pe *make(const setup *st, sink_log *log)
{
    armprof_config c;
    armprof_config_preset(&c, presets[st->preset]);
    char err[256];
    if (st->pbt) armprof_config_set_feature(&c, ARMPROF_FEAT_SPE_PBT, true);
    armprof_config_set(&c, "pcsr_sample_all_instructions", st->sample_all ? "1" : "0", err,
                       sizeof err);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return NULL;
    CHECK(own_buffer_nonsecure_el1(pe, BUF_BASE, BUF_SIZE), "the Profiling Buffer at EL1");
    set_field_of(pe, "MDCR_EL2", "HPMN", 6);
    set_field_of(pe, "MDCR_EL2", "HPME", 1);
    set_field_of(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field_of(pe, "PMSCR_EL1", "E0SPE", 1);
    set_field_of(pe, "PMSCR_EL1", "TS", 1);
    set_field_of(pe, "PMSFCR_EL1", "FT", st->pmsfcr & 1);
    set_field_of(pe, "PMSFCR_EL1", "B", (st->pmsfcr >> 1) & 1);
    set_field_of(pe, "PMSIRR_EL1", "INTERVAL", st->interval);
    set_field_of(pe, "PMSIRR_EL1", "RND", st->rnd);
    set_field_of(pe, "PMSICR_EL1", "COUNT", st->icr);
    set_field_of(pe, "PMCR_EL0", "E", 1);
    set_field_of(pe, "PMCR_EL0", "LP", 0);
    for (unsigned n = 0; n < 8; n++) {
        char name[32];
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", n);
        set_field_of(pe, name, "evtCount", st->evt[n]);
        set_field_of(pe, name, "NSH", 1);
    }
    unsigned idx = 0;
    armprof_reg_set(pe, armprof_reg_lookup("PMCNTENSET_EL0", &idx), 0,
                    st->no_icntr ? 0x800000ffull : 0x1800000ffull);
    armprof_reg_set(pe, armprof_reg_lookup("PMINTENSET_EL1", &idx), 0, 0x1800000ffull);
    armprof_reg_set(pe, armprof_reg_lookup("PMICNTR_EL0", &idx), 0, st->icntr);
    armprof_reg_set(pe, armprof_reg_lookup("PMEVCNTR0_EL0", &idx), 0, 0xfffffff0u);
    CHECK(armprof_set_el(pe, st->el, err, sizeof err), "EL%u: %s", st->el, err);
    armprof_spe_set_sink(pe, sink_log_record, log);
    /* PC sampling active (a read of PMPCSR activates a suspended sampler). */
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    armprof_external_read(pe, 0x200, 4, &how);
    return pe;
}

static armprof_op random_op(uint64_t *r)
{
    armprof_op op = ARMPROF_OP_INIT;
    const unsigned k = below(r, 100);
    op.pc = 0x400000 + 4 * (uint64_t)below(r, 4096);
    if (k < 20) {
        op.op_class = ARMPROF_OP_BRANCH;
        op.taken = below(r, 3) != 0;
        op.target = 0x400000 + 4 * (uint64_t)below(r, 4096);
        op.mispredicted = below(r, 8) == 0;
        op.conditional = !op.taken || below(r, 2);
        op.branch_kind = (armprof_branch_kind)below(r, 5); /* not ERET or EXCEPTION */
        if (below(r, 50) == 0) { /* an exception entry: retired one at a time */
            op.branch_kind = ARMPROF_BRANCH_EXCEPTION;
            op.target_el_valid = true;
            op.target_el = 1;
        }
    } else if (k < 50) {
        op.op_class = below(r, 3) ? ARMPROF_OP_LOAD : ARMPROF_OP_STORE;
        op.vaddr = 0x10000000 + 8 * (uint64_t)below(r, 1 << 20);
        op.l1d_access = below(r, 2);
        op.l1d_refill = op.l1d_access && below(r, 4) == 0;
    } else {
        op.op_class = ARMPROF_OP_OTHER;
    }
    op.total_latency = below(r, 200);
    op.issue_latency = below(r, 20);
    if (below(r, 200) == 0) op.misspeculated = true;
    return op;
}

static bool plain(const armprof_op *op)
{
    return !op->misspeculated && !op->dispatched &&
           !(op->op_class == ARMPROF_OP_BRANCH && op->branch_kind >= ARMPROF_BRANCH_ERET);
}

static void add_to_run(armprof_op_run *run, const armprof_op *op)
{
    run->ops++;
    run->last_pc = op->pc;
    run->last_is_branch = op->op_class == ARMPROF_OP_BRANCH;
    switch (op->op_class) {
    case ARMPROF_OP_BRANCH:
        run->branches++;
        run->mispredicted += op->mispredicted;
        run->last_branch_next = op->taken ? op->target : op->pc + 4;
        if (op->taken) {
            run->any_taken = true;
            run->last_taken_target = op->target;
        }
        break;
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        if (op->op_class == ARMPROF_OP_LOAD)
            run->loads++;
        else
            run->stores++;
        run->l1d_access += op->l1d_access;
        run->l1d_refill += op->l1d_refill;
        break;
    default:
        break;
    }
}

/* The event at stream position i, the same on both PEs: cycles, or a
 * control change. */
static void between(armprof_pe *pe, uint64_t seed, size_t i)
{
    uint64_t r = seed ^ (i * 0x9E3779B97F4A7C15ull) ^ 0x1234;
    next_random(&r);
    const unsigned k = below(&r, 100);
    if (k < 3) {
        armprof_cycles(pe, 1 + below(&r, 40));
    } else if (k == 3) {
        set_field_of(pe, "PMSCR_EL1", "E1SPE", below(&r, 4) != 0);
    } else if (k == 4) {
        set_field_of(pe, "PMCR_EL0", "E", below(&r, 4) != 0);
    }
}

static bool at_event(uint64_t seed, size_t i)
{
    uint64_t r = seed ^ (i * 0x9E3779B97F4A7C15ull) ^ 0x1234;
    next_random(&r);
    return below(&r, 100) < 5;
}

/* "seed N" for the messages of same_state_differences(). */
static unsigned compare(armprof_pe *a, armprof_pe *b, const sink_log *la, const sink_log *lb,
                        uint64_t seed)
{
    char what[32];
    snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
    return same_state_differences(a, b, la, lb, BUF_BASE, BUF_SIZE, what);
}

/* armprof_ops_until_event() is exact across the interval counter's
 * boundaries: the operation after the operations it allows is the one
 * SPEToCollectSample() selects, through COUNT's reload
 * (SPEResetSampleCounter(), a random COUNT<7:0> with PMSIRR_EL1.RND and no
 * FEAT_SPE_ERnd) and FEAT_SPE_ERnd's draw of ECOUNT. The selected positions
 * come from a PE that retires every operation on its own. */
static void lookahead_is_exact(void)
{
    enum { OPS = 40000 };
    for (unsigned k = 0; k < 16; k++) {
        setup st;
        memset(&st, 0, sizeof st);
        st.preset = k & 1;       /* armv9.4-all (ERnd), armv8.2-spe */
        st.rnd = (k >> 1) & 1;   /* PMSIRR_EL1.RND */
        st.icr = (k >> 2) * 150; /* COUNT at the start: 0, 150, 300, 450 */
        st.interval = 1;         /* 256 operations */
        sink_log la = {NULL, 0, 0}, lb = {NULL, 0, 0};
        armprof_pe *a = make(&st, &la), *b = make(&st, &lb);
        if (!a || !b) return;
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000;
        uint64_t picked_a[OPS / 100], picked_b[OPS / 100];
        unsigned na = 0, nb = 0, unselected_full = 0;
        for (uint64_t i = 0; i < OPS; i++) {
            const uint64_t before = armprof_spe_get_stats(a).selected;
            armprof_retire(a, &op);
            if (armprof_spe_get_stats(a).selected != before && na < OPS / 100) picked_a[na++] = i;
        }
        for (uint64_t i = 0; i < OPS;) {
            uint64_t u = armprof_ops_until_event(b);
            if (u > OPS - i) u = OPS - i;
            if (u) {
                armprof_op_run run = ARMPROF_OP_RUN_INIT;
                run.ops = u;
                run.last_pc = op.pc;
                CHECK(armprof_retire_run(b, &run), "case %u: run of %llu refused", k,
                      (unsigned long long)u);
                i += u;
                if (i == OPS) break;
            }
            const uint64_t before = armprof_spe_get_stats(b).selected;
            armprof_retire(b, &op);
            if (armprof_spe_get_stats(b).selected != before) {
                if (nb < OPS / 100) picked_b[nb++] = i;
            } else {
                unselected_full++;
            }
            i++;
        }
        CHECK(na > OPS / 512, "case %u: %u samples", k, na);
        CHECK(na == nb && memcmp(picked_a, picked_b, na * sizeof picked_a[0]) == 0,
              "case %u (%s, RND %u, COUNT %u): the same operations selected (%u, %u)", k,
              presets[st.preset], st.rnd, st.icr, na, nb);
        CHECK(unselected_full == 0,
              "case %u (%s, RND %u, COUNT %u): %u operations took the full path unselected", k,
              presets[st.preset], st.rnd, st.icr, unselected_full);
        free(la.bytes);
        free(lb.bytes);
        armprof_pe_destroy(a);
        armprof_pe_destroy(b);
    }
}

static void ignore_irq(void *ctx, armprof_irq irq, bool level, unsigned el)
{
    (void)ctx;
    (void)irq;
    (void)level;
    (void)el;
}

/* armprof_retire() has a lean path for the operations that only count
 * down, taken while no counter counts an event a retired operation or a
 * sample's population generates (CPU_CYCLES, SAMPLE_FEED and an
 * IMPLEMENTATION DEFINED event here; the instruction counter disabled) and
 * no interrupt callback is set. The same stream on a PE with a callback
 * (the full path for every operation) must leave the same state; the first
 * PE sets and clears a callback now and then, which decides the path
 * again. */
static void lean_path_is_full_path(unsigned configs)
{
    static const uint16_t quiet[] = {0x11, 0x4001, 0x812A};
    enum { STREAM = 20000 };
    armprof_op *ops = malloc(STREAM * sizeof *ops);
    if (!ops) return;
    for (unsigned seed = 1; seed <= configs; seed++) {
        uint64_t r = seed * 0x9E3779B97F4A7C15ull;
        setup st;
        random_setup(&r, &st, quiet, sizeof quiet / sizeof quiet[0]);
        st.no_icntr = true;
        for (size_t i = 0; i < STREAM; i++)
            ops[i] = random_op(&r);
        sink_log la = {NULL, 0, 0}, lc = {NULL, 0, 0};
        armprof_pe *a = make(&st, &la), *c = make(&st, &lc);
        if (!a || !c) break;
        armprof_set_irq_callback(c, ignore_irq, NULL);
        for (size_t i = 0; i < STREAM; i++) {
            if (at_event(seed, i)) between(a, seed, i);
            if (i % 4999 == 1000) armprof_set_irq_callback(a, ignore_irq, NULL);
            if (i % 4999 == 1500) armprof_set_irq_callback(a, NULL, NULL);
            armprof_retire(a, &ops[i]);
        }
        for (size_t i = 0; i < STREAM; i++) {
            if (at_event(seed, i)) between(c, seed, i);
            armprof_retire(c, &ops[i]);
        }
        CHECK(la.size > 0 || st.icr > STREAM, "seed %u: records were made", seed);
        CHECK(compare(a, c, &la, &lc, seed) == 0, "seed %u (%s): the lean path's state differs",
              seed, presets[st.preset]);
        free(la.bytes);
        free(lc.bytes);
        armprof_pe_destroy(a);
        armprof_pe_destroy(c);
    }
    free(ops);
}

int main(int argc, char **argv)
{
    lookahead_is_exact();
    lean_path_is_full_path(argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 60);
    const unsigned configs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 60;
    const size_t stream = 20000;
    armprof_op *ops = malloc(stream * sizeof *ops);
    if (!ops) return 1;
    uint64_t runs_taken = 0, ops_in_runs = 0, record_bytes = 0;
    for (unsigned seed = 1; seed <= configs; seed++) {
        uint64_t r = seed * 0x100000001B3ull;
        setup st;
        random_setup(&r, &st, events, sizeof events / sizeof events[0]);
        st.icntr = below(&r, 3) == 0 ? ~0ull - below(&r, 3000) : below(&r, 1000);
        for (size_t i = 0; i < stream; i++)
            ops[i] = random_op(&r);

        sink_log la = {NULL, 0, 0}, lb = {NULL, 0, 0};
        armprof_pe *a = make(&st, &la), *b = make(&st, &lb);
        if (!a || !b) break;
        for (size_t i = 0; i < stream; i++) {
            if (at_event(seed, i)) between(a, seed, i);
            armprof_retire(a, &ops[i]);
        }
        for (size_t i = 0; i < stream;) {
            if (at_event(seed, i)) between(b, seed, i);
            const uint64_t room = armprof_ops_until_event(b);
            armprof_op_run run = ARMPROF_OP_RUN_INIT;
            size_t j = i;
            while (j < stream && run.ops < room && plain(&ops[j]) && (j == i || !at_event(seed, j)))
                add_to_run(&run, &ops[j++]);
            if (run.ops > 0) {
                CHECK(armprof_retire_run(b, &run), "seed %u: run of %llu refused (room %llu)", seed,
                      (unsigned long long)run.ops, (unsigned long long)room);
                runs_taken++;
                ops_in_runs += run.ops;
                i = j;
            } else {
                armprof_retire(b, &ops[i++]);
            }
        }
        CHECK(compare(a, b, &la, &lb, seed) == 0, "seed %u (%s): state differs", seed,
              presets[st.preset]);
        record_bytes += la.size;
        free(la.bytes);
        free(lb.bytes);
        armprof_pe_destroy(a);
        armprof_pe_destroy(b);
    }
    free(ops);
    printf("%llu runs, %llu operations in runs, %llu record bytes\n",
           (unsigned long long)runs_taken, (unsigned long long)ops_in_runs,
           (unsigned long long)record_bytes);
    CHECK(record_bytes > 0, "the streams made records");
    CHECK(ops_in_runs > configs * stream / 2, "most operations went through runs");
    return check_summary();
}
