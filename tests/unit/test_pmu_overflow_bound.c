/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_pmu_ops_until_overflow(): how many operations can retire before a
 * counter that counts could overflow. The expected values come from the
 * counters' overflow widths (AArch64.IncrementEventCounter(): bit 32, or bit
 * 64 with FEAT_PMUv3p5 and PMCR_EL0.LP; AArch64.IncrementCycleCounter(): bit
 * 64 without AArch32, every 64th cycle with PMCR_EL0.D), and where a count
 * is claimed exact the test retires that many and sees PMOVSSET_EL0 stay
 * clear, then one more and sees it set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"
#include "drv/drv_regs.h"

#define INST_RETIRED 0x08
#define EXC_TAKEN    0x09
#define CPU_CYCLES   0x11
#define CHAIN        0x1e
#define BR_RETIRED   0x21
#define SAMPLE_POP   0x4000

#define PMCR_E      (1ull << 0)
#define PMCR_D      (1ull << 3)
#define PMCR_LC     (1ull << 6)
#define PMCR_LP     (1ull << 7)
#define PMEVTYPER_P (1ull << 31) /* do not count at EL1 */
#define PMEVTYPER_U (1ull << 30) /* do not count at EL0 */

/* A PE of preset at Non-secure EL1, event counting enabled by pmcr, nothing
 * else counting yet. */
static armprof_pe *make_pe(const char *preset, uint64_t pmcr)
{
    armprof_pe *pe = new_pe_or_exit(preset);
    char err[256];
    if (!armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err) ||
        !armprof_set_el(pe, 1, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", preset, err);
        exit(2);
    }
    drv_set(pe, "PMCR_EL0", pmcr);
    return pe;
}

/* Event counter n counts event (with the filter bits of PMEVTYPER) from
 * value. */
static void counter(armprof_pe *pe, unsigned n, uint64_t type, uint64_t value)
{
    char name[32];
    snprintf(name, sizeof name, "PMEVTYPER%u_EL0", n);
    drv_set(pe, name, type);
    snprintf(name, sizeof name, "PMEVCNTR%u_EL0", n);
    drv_set(pe, name, value);
    drv_set(pe, "PMCNTENSET_EL0", drv_get(pe, "PMCNTENSET_EL0") | 1ull << n);
}

static bool overflowed(armprof_pe *pe, unsigned bit)
{
    return drv_get(pe, "PMOVSSET_EL0") >> bit & 1;
}

/* The bound is expected; what names the case in a failure. */
static void bound_is(armprof_pe *pe, uint64_t expected, const char *what)
{
    const uint64_t got = armprof_pmu_ops_until_overflow(pe);
    CHECK(got == expected, "%s: %llu, expected %llu", what, (unsigned long long)got,
          (unsigned long long)expected);
}

/* ops plain operations (branches when branch) retire in one run, then as
 * many cycles end. */
static bool run(armprof_pe *pe, uint64_t ops, bool branch)
{
    armprof_op_run r = ARMPROF_OP_RUN_INIT;
    r.ops = ops;
    r.branches = branch ? ops : 0;
    r.last_is_branch = branch && ops > 0;
    if (!armprof_retire_run(pe, &r)) return false;
    armprof_cycles(pe, ops);
    return true;
}

/* The bound is exact for counter bit: the bound's operations leave it clear,
 * one more sets it. */
static void check_exact(armprof_pe *pe, unsigned bit, uint64_t bound, bool branch, const char *what)
{
    bound_is(pe, bound, what);
    CHECK(run(pe, bound, branch), "%s: a run of %llu refused", what, (unsigned long long)bound);
    CHECK(!overflowed(pe, bit), "%s: overflow after %llu operations", what,
          (unsigned long long)bound);
    bound_is(pe, 0, "at the brink");
    CHECK(run(pe, 1, branch), "%s: one more refused", what);
    CHECK(overflowed(pe, bit), "%s: no overflow at operation %llu", what,
          (unsigned long long)bound + 1);
}

/* Nothing bounds it: no PE, no PMU, nothing counting, counters of events
 * retirement does not make, a CHAIN counter alone. */
static void unbounded(void)
{
    CHECK(armprof_pmu_ops_until_overflow(NULL) == UINT64_MAX, "NULL pe");
    armprof_pe *pe = make_pe("minimal", 0);
    CHECK(armprof_pmu_ops_until_overflow(pe) == UINT64_MAX, "no PMU");
    armprof_pe_destroy(pe);

    /* PMCR_EL0.E clear: the counter does not count. */
    pe = make_pe("armv9.4-all", 0);
    counter(pe, 0, INST_RETIRED, 0xffffffffull);
    bound_is(pe, UINT64_MAX, "PMCR_EL0.E 0");
    armprof_pe_destroy(pe);

    pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 0, EXC_TAKEN, 0xffffffffull);
    counter(pe, 1, CHAIN, 0xffffffffull);
    counter(pe, 2, 0 /* SW_INCR */, 0xffffffffull);
    counter(pe, 3, CHAIN, 0xffffffffull); /* odd, its partner counter 2 SW_INCR */
    bound_is(pe, UINT64_MAX, "EXC_TAKEN, SW_INCR, CHAIN");
    armprof_pe_destroy(pe);
}

/* INST_RETIRED at 0xFFFFFFF0 at EL1: the 16th operation makes it reach 2^32. */
static void inst_retired_32(const char *preset)
{
    armprof_pe *pe = make_pe(preset, PMCR_E);
    counter(pe, 0, INST_RETIRED, 0xfffffff0ull);
    check_exact(pe, 0, 15, false, preset);
    armprof_pe_destroy(pe);

    /* Without FEAT_PMUv3p5, PMCR_EL0.LP does not widen it. */
    if (strcmp(preset, "armv8.2-spe") == 0) {
        pe = make_pe(preset, PMCR_E | PMCR_LP);
        counter(pe, 0, INST_RETIRED, 0xfffffff0ull);
        check_exact(pe, 0, 15, false, "armv8.2-spe, PMCR_EL0.LP 1");
        armprof_pe_destroy(pe);
    }
}

/* PMCR_EL0.LP 1 with FEAT_PMUv3p5: the overflow is at 2^64. */
static void long_counter(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", PMCR_E | PMCR_LP);
    counter(pe, 0, INST_RETIRED, 0xfffffff0ull);
    bound_is(pe, UINT64_MAX - 0xfffffff0ull, "LP 1");
    counter(pe, 0, INST_RETIRED, UINT64_MAX - 20);
    check_exact(pe, 0, 20, false, "LP 1 near 2^64");
    armprof_pe_destroy(pe);
}

/* A counter filtered away from the current Exception level does not bound
 * it; at the level it counts at, it does. */
static void filtered(void)
{
    static const struct {
        uint64_t type;
        unsigned el;
        uint64_t bound;
        const char *what;
    } cases[] = {
        {INST_RETIRED | PMEVTYPER_P, 1, UINT64_MAX, "PMEVTYPER.P at EL1"},
        {INST_RETIRED | PMEVTYPER_P, 0, 15, "PMEVTYPER.P at EL0"},
        {INST_RETIRED | PMEVTYPER_U, 0, UINT64_MAX, "PMEVTYPER.U at EL0"},
        {INST_RETIRED | PMEVTYPER_U, 1, 15, "PMEVTYPER.U at EL1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        armprof_pe *pe = make_pe("armv9.4-all", PMCR_E);
        counter(pe, 0, cases[i].type, 0xfffffff0ull);
        char err[128];
        CHECK(armprof_set_el(pe, cases[i].el, err, sizeof err), "EL%u: %s", cases[i].el, err);
        bound_is(pe, cases[i].bound, cases[i].what);
        armprof_pe_destroy(pe);
    }
}

/* A CHAIN pair: the odd counter near its own overflow moves only when the
 * even one wraps, so the even one's room is the bound. */
static void chain_pair(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 0, INST_RETIRED, 0xffffff00ull);
    counter(pe, 1, CHAIN, 0xffffffffull);
    check_exact(pe, 0, 0xff, false, "CHAIN pair");
    CHECK(overflowed(pe, 1), "the even counter's wrap carried the odd one over");
    armprof_pe_destroy(pe);
}

/* CPU_CYCLES counters and the cycle counter, at one cycle an operation. */
static void cycles(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 2, CPU_CYCLES, 0xffffff00ull);
    check_exact(pe, 2, 0xff, false, "CPU_CYCLES");
    armprof_pe_destroy(pe);

    /* PMCCNTR_EL0 overflows at 2^64 (PMCR_EL0.LC 1). */
    pe = make_pe("armv9.4-all", PMCR_E | PMCR_LC);
    drv_set(pe, "PMCCNTR_EL0", UINT64_MAX - 99);
    drv_set(pe, "PMCNTENSET_EL0", 1ull << 31);
    check_exact(pe, 31, 99, false, "PMCCNTR_EL0");
    armprof_pe_destroy(pe);

    /* PMCR_EL0.D with LC 0: one increment every 64 cycles, the counter 99
     * below 2^64 - 1: the 100th increment, at cycle 64 * 100, overflows it. */
    pe = make_pe("armv9.4-all", PMCR_E | PMCR_D);
    drv_set(pe, "PMCCNTR_EL0", UINT64_MAX - 99);
    drv_set(pe, "PMCNTENSET_EL0", 1ull << 31);
    check_exact(pe, 31, 64 * 100 - 1, false, "PMCCNTR_EL0 with PMCR_EL0.D");
    armprof_pe_destroy(pe);
}

/* Events accumulated and not counted yet (no cycle has ended) take from the
 * room; past it, the bound is 0. */
static void accumulated(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 0, INST_RETIRED, 0xfffffff0ull);
    for (unsigned i = 0; i < 5; i++) {
        armprof_op op = ARMPROF_OP_INIT;
        armprof_retire(pe, &op);
    }
    bound_is(pe, 10, "5 accumulated");
    armprof_pmu_event(pe, INST_RETIRED, 20);
    bound_is(pe, 0, "25 accumulated");
    armprof_cycles(pe, 1);
    CHECK(overflowed(pe, 0), "the accumulated events overflowed it");
    armprof_pe_destroy(pe);

    /* A counter of an event retirement does not make is no bound, until its
     * accumulated events carry it over: then it overflows at the next cycle
     * whatever retires. */
    pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 1, EXC_TAKEN, 0xfffffffeull);
    armprof_pmu_event(pe, EXC_TAKEN, 1);
    bound_is(pe, UINT64_MAX, "EXC_TAKEN at 2^32 - 1");
    armprof_pmu_event(pe, EXC_TAKEN, 1);
    bound_is(pe, 0, "EXC_TAKEN carried over");
    armprof_cycles(pe, 1);
    CHECK(overflowed(pe, 1), "the EXC_TAKEN events overflowed it");
    bound_is(pe, UINT64_MAX, "EXC_TAKEN counted");
    armprof_pe_destroy(pe);
}

/* Every retirement event bounds it, even one an operation may not make
 * (BR_RETIRED, SAMPLE_POP); the least room of all counters is the answer,
 * the instruction counter's among them. */
static void least_room(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", PMCR_E);
    counter(pe, 0, INST_RETIRED, 0xffff0000ull);
    counter(pe, 1, EXC_TAKEN, 0xffffffffull);
    counter(pe, 4, BR_RETIRED, 0xfffffffdull);
    counter(pe, 5, SAMPLE_POP, 0xfffffff0ull);
    check_exact(pe, 4, 2, true, "BR_RETIRED");
    counter(pe, 4, BR_RETIRED, 0);
    bound_is(pe, 15, "SAMPLE_POP");
    /* The instruction counter (FEAT_PMUv3_ICNTR) always overflows at 2^64. */
    drv_set(pe, "PMICNTR_EL0", UINT64_MAX - 7);
    drv_set(pe, "PMCNTENSET_EL0", drv_get(pe, "PMCNTENSET_EL0") | 1ull << 32);
    bound_is(pe, 7, "PMICNTR_EL0");
    CHECK(armprof_ops_until_event(pe) == 7, "armprof_ops_until_event(): %llu",
          (unsigned long long)armprof_ops_until_event(pe));
    armprof_pe_destroy(pe);
}

int main(void)
{
    unbounded();
    inst_retired_32("armv9.4-all");
    inst_retired_32("armv8.2-spe");
    long_counter();
    filtered();
    chain_pair();
    cycles();
    accumulated();
    least_room();
    return check_summary();
}
