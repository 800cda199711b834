/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_event_plan() (issue 41, part 1): the plan of the next samples,
 * checked two ways on PEs the virtual kernel booted (as the QEMU plugin's
 * are), with PMSIRR_EL1.INTERVAL from 256 to 2^24, RND on and off,
 * FEAT_SPE_ERnd on and off, and PMSICR_EL1 started at COUNT 0, 1 and more,
 * ECOUNT 0, 1 and more:
 *   - against the manual: SPEToCollectSample() and SPEResetSampleCounter()
 *     stepped here one operation at a time, on the generator that
 *     docs/configuration.md gives for option spe_random_seed (xorshift64*),
 *     give the operations between two selected ones;
 *   - against the PE: as the plan's gaps retire (a run, then the selected
 *     operation through armprof_retire()), armprof_ops_until_event() says
 *     each gap in turn, and the operation is sampled; the plan leaves the
 *     PE as it was; the buffer's services between samples change nothing.
 * The instruction counter's overflow (FEAT_PMUv3_ICNTR) cuts the plan. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/kernel.h"
#include "check.h"
#include "fields.h"

/* ---- the manual's interval counter, one operation at a time ---- */

/* docs/configuration.md, spe_random_seed: xorshift64*, seed 1 by default */
typedef struct ref_counter {
    uint32_t count, ecount;
    uint64_t rng;
    uint32_t reload; /* PMSIRR_EL1.INTERVAL << 8 */
    bool rnd, ernd;
} ref_counter;

/* SPEGetRandomInterval(): the top 8 bits of the next output */
static uint32_t ref_random_interval(ref_counter *c)
{
    c->rng ^= c->rng >> 12;
    c->rng ^= c->rng << 25;
    c->rng ^= c->rng >> 27;
    return (uint32_t)((c->rng * 0x2545F4914F6CDD1Dull) >> 56);
}

/* SPEToCollectSample(), with SPEResetSampleCounter() (RND without ERnd
 * randomizes COUNT<7:0> at the reload; with ERnd, ECOUNT is drawn when COUNT
 * reaches 0 and counts down from there) */
static bool ref_collect(ref_counter *c)
{
    if (c->count == 0) {
        c->count = c->reload;
        if (c->rnd && !c->ernd) c->count |= ref_random_interval(c);
    } else {
        c->count--;
        if (c->count == 0) {
            if (c->rnd && c->ernd) {
                c->ecount = ref_random_interval(c);
                return c->ecount == 0;
            }
            return true;
        }
    }
    if (c->rnd && c->ernd && c->ecount != 0) {
        c->ecount--;
        if (c->ecount == 0) return true;
    }
    return false;
}

/* the operations before the next selected one */
static uint64_t ref_gap(ref_counter *c)
{
    uint64_t n = 0;
    while (!ref_collect(c))
        n++;
    return n;
}

/* ---- the PE ---- */

typedef struct setup {
    const char *preset;
    bool ernd, rnd;
    uint32_t interval; /* in operations */
    uint32_t count, ecount;
    uint64_t samples; /* how many to follow */
} setup;

static void on_data(void *ctx, const uint8_t *data, size_t size)
{
    (void)data;
    *(uint64_t *)ctx += size;
}

static armprof_pe *boot(const setup *s, armprof_kernel **k, uint64_t *bytes)
{
    armprof_config c;
    char err[256];
    CHECK(armprof_config_preset(&c, s->preset), "preset %s", s->preset);
    armprof_config_set_feature(&c, ARMPROF_FEAT_SPE_ERnd, s->ernd);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return NULL;
    armprof_kernel_params p;
    armprof_kernel_params_default(&p);
    p.interval = s->interval;
    p.random = s->rnd;
    p.buffer_pages = 1; /* full often: services between samples */
    p.data = on_data;
    p.data_ctx = bytes;
    *k = armprof_kernel_boot(pe, &p, err, sizeof err);
    CHECK(*k != NULL, "%s", err);
    if (!*k) return NULL;
    armprof_kernel_switch_context(*k, 42);
    /* below the interval PMSIDR_EL1.Interval recommends, which the kernel
     * programs at least, set here */
    set_field_of(pe, "PMSIRR_EL1", "INTERVAL", s->interval >> 8);
    set_field_of(pe, "PMSICR_EL1", "COUNT", s->count);
    if (s->ernd) set_field_of(pe, "PMSICR_EL1", "ECOUNT", s->ecount);
    return pe;
}

static void retire_plain(armprof_pe *pe, uint64_t ops)
{
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    run.ops = ops;
    run.last_pc = 0x400000;
    if (ops) CHECK(armprof_retire_run(pe, &run), "a run of %llu", (unsigned long long)ops);
}

static void retire_one(armprof_pe *pe, armprof_kernel *k)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x400100;
    op.op_class = ARMPROF_OP_OTHER;
    armprof_retire(pe, &op);
    if (armprof_pmbirq(pe)) armprof_kernel_service(k);
}

#define PLAN 64

static void check_setup(const setup *s)
{
    armprof_kernel *k = NULL;
    uint64_t bytes = 0;
    armprof_pe *pe = boot(s, &k, &bytes);
    if (!pe) return;
    ref_counter ref = {s->count, s->ernd ? s->ecount : 0, 1, s->interval, s->rnd, s->ernd};
    const uint64_t samples = s->samples;
    uint64_t gaps[PLAN], again[PLAN];
    uint64_t sampled = 0, steps = 0;
    /* the plain operations since the last sample, and the manual's count of
     * them: a gap of 0 at COUNT 1 with ECOUNT counting (the draw's
     * operation takes the full path, selected or not) is the model's safe
     * answer, so the two are compared at each sample */
    uint64_t since = 0, want = ref_gap(&ref);
    bool agree = true;
    while (sampled < samples && agree) {
        const uint64_t until = armprof_ops_until_event(pe);
        const size_t n = armprof_event_plan(pe, gaps, PLAN);
        CHECK(n == PLAN, "%s interval %u rnd %d ernd %d: %zu gaps", s->preset, s->interval, s->rnd,
              s->ernd, n);
        /* the plan changes nothing: the same plan, the same answer */
        CHECK(armprof_event_plan(pe, again, PLAN) == n && !memcmp(gaps, again, n * sizeof *gaps),
              "a second plan differs");
        CHECK(armprof_ops_until_event(pe) == until && gaps[0] == until, "gaps[0] %llu, until %llu",
              (unsigned long long)gaps[0], (unsigned long long)until);
        for (size_t i = 0; i < n && agree; i++, steps++) {
            const uint64_t now = armprof_ops_until_event(pe);
            agree = gaps[i] == now;
            CHECK(agree,
                  "%s interval %u rnd %d ernd %d count %u ecount %u, step %llu: plan %llu, "
                  "armprof_ops_until_event() %llu",
                  s->preset, s->interval, s->rnd, s->ernd, s->count, s->ecount,
                  (unsigned long long)steps, (unsigned long long)gaps[i], (unsigned long long)now);
            const uint64_t selected = armprof_spe_get_stats(pe).selected;
            retire_plain(pe, gaps[i]);
            retire_one(pe, k);
            since += gaps[i];
            if (armprof_spe_get_stats(pe).selected == selected) {
                since++; /* not selected: a plain operation to the manual */
                continue;
            }
            agree = agree && since == want;
            CHECK(since == want,
                  "%s interval %u rnd %d ernd %d count %u ecount %u, sample %llu: "
                  "%llu operations before it, the manual %llu",
                  s->preset, s->interval, s->rnd, s->ernd, s->count, s->ecount,
                  (unsigned long long)sampled, (unsigned long long)since, (unsigned long long)want);
            sampled++;
            since = 0;
            want = ref_gap(&ref);
        }
    }
    const armprof_kernel_status st = armprof_kernel_get_status(k);
    /* a one-page buffer: the services in between are part of the check */
    if (samples >= 200)
        CHECK(st.buffer_full > 0, "no buffer full in %llu samples", (unsigned long long)samples);
    CHECK(st.faults == 0 && st.profiling, "profiling went on");
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
}

/* Profiling disabled (the PE as created, no kernel): one gap, UINT64_MAX. */
static void check_disabled(void)
{
    armprof_pe *pe = new_pe_or_exit("armv8.2-spe");
    uint64_t gaps[4] = {0};
    CHECK(armprof_event_plan(pe, gaps, 4) == 1 && gaps[0] == UINT64_MAX, "disabled: %llu",
          (unsigned long long)gaps[0]);
    CHECK(armprof_event_plan(pe, gaps, 0) == 0, "n 0");
    CHECK(armprof_event_plan(pe, NULL, 4) == 0, "no gaps");
    CHECK(armprof_event_plan(NULL, gaps, 4) == 0, "no PE");
    armprof_pe_destroy(pe);
}

/* The instruction counter 100 operations from its overflow, interval 256
 * from COUNT 40: samples at operations 40 and 40 + 256 + 1... the first gap
 * is 39 (COUNT 40 selects its 40th operation), the second would be 255
 * (256 - 1) but the counter leaves 100 - 40 = 60 operations: it is cut to
 * 60, and the plan ends there. */
static void check_icntr(void)
{
    const setup s = {"armv9.4-all", false, false, 256, 40, 0, 2};
    armprof_kernel *k = NULL;
    uint64_t bytes = 0;
    armprof_pe *pe = boot(&s, &k, &bytes);
    if (!pe) return;
    unsigned idx = 0;
    const int en = armprof_reg_lookup("PMCNTENSET_EL0", &idx);
    armprof_reg_set(pe, en, 0, armprof_reg_get(pe, en, 0) | 1ull << 32);
    set_field_of(pe, "PMCR_EL0", "E", 1);
    const int icntr = armprof_reg_lookup("PMICNTR_EL0", &idx);
    armprof_reg_set(pe, icntr, 0, UINT64_MAX - 100);
    uint64_t gaps[PLAN];
    const size_t n = armprof_event_plan(pe, gaps, PLAN);
    const uint64_t until = armprof_ops_until_event(pe);
    CHECK(n == 2 && gaps[0] == 39 && gaps[1] == 60, "%zu gaps: %llu, %llu (until %llu)", n,
          (unsigned long long)gaps[0], (unsigned long long)(n > 1 ? gaps[1] : 0),
          (unsigned long long)until);
    retire_plain(pe, gaps[0]);
    retire_one(pe, k);
    CHECK(armprof_ops_until_event(pe) == 60, "then %llu",
          (unsigned long long)armprof_ops_until_event(pe));
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
}

int main(void)
{
    /* the manual's counter steps one operation at a time: about 2^17 of
     * them a setup (the largest interval: one sample, after its first
     * reload), more than a plan's 64 samples at the smaller ones */
    static const uint32_t intervals[] = {256, 512, 1024, 4096, 65536, 1u << 24};
    static const uint32_t counts[] = {0, 1, 2, 700};
    static const uint32_t ecounts[] = {0, 1, 5};
    for (unsigned ernd = 0; ernd < 2; ernd++)
        for (unsigned rnd = 0; rnd < 2; rnd++)
            for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++)
                for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
                    for (size_t e = 0; e < (ernd ? 3u : 1u); e++) {
                        uint64_t samples = (1u << 17) / intervals[i];
                        if (samples > 100) samples = 100;
                        if (samples < 1) samples = 1;
                        /* the largest interval once each way, not for
                         * every start */
                        if (intervals[i] == 1u << 24 && (c || e || !rnd)) continue;
                        const setup s = {"armv9.4-all", ernd,       rnd,    intervals[i],
                                         counts[c],     ecounts[e], samples};
                        check_setup(&s);
                    }
    /* a one-page buffer filled again and again: its services between
     * samples change nothing the plan follows */
    const setup services[] = {{"armv9.4-all", false, true, 256, 0, 0, 1000},
                              {"armv9.4-all", true, true, 256, 0, 0, 1000}};
    for (size_t i = 0; i < 2; i++)
        check_setup(&services[i]);
    /* FEAT_SPE without the later features */
    const setup plain = {"armv8.2-spe", false, true, 1024, 0, 0, 100};
    check_setup(&plain);
    check_disabled();
    check_icntr();
    return check_summary();
}
