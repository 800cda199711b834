/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_cycles(pe, N) with a freeze on overflow possible (PMCR_EL0.FZO,
 * MDCR_EL2.HPMFZO, FEAT_PMUv3p7) ends in the same state as N calls of
 * armprof_cycles(pe, 1): the model batches cycles up to each new overflow
 * (AArch64.PMUCycle(): a counter frozen by ShouldPMUFreeze() stops from the
 * cycle after the overflow), and the time it takes does not depend on N.
 *
 * Random configurations: event counters counting CPU_CYCLES, CHAIN or a
 * retirement event, values near their 32- or 64-bit overflow, PMCR_EL0.LP,
 * LC and D, MDCR_EL2.HPMN and HLP, overflow bits already set, events pending
 * from retired operations. Every register instance and PMUIRQ must match.
 * Then armprof_cycles(pe, 2^64 - 1) must return (it stepped one cycle at a
 * time before: issue 15). */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

static armprof_pe *make_pe(void)
{
    armprof_pe *pe = new_pe_or_exit("armv9.4-all");
    char err[256];
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    return pe;
}

/* Near the overflow of a 32-bit or 64-bit counter, or anywhere. */
static uint64_t near_overflow(rng *g)
{
    switch (below(g, 4)) {
    case 0:
        return 0xffffffffull - below(g, 300);
    case 1:
        return ~0ull - below(g, 300);
    case 2:
        return rnd(g) & 0xffffffffull;
    default:
        return below(g, 1000);
    }
}

static void program(armprof_pe *pe, uint64_t seed)
{
    rng g = {seed};
    static const char *const events[] = {"CPU_CYCLES", "CPU_CYCLES", "CHAIN", "INST_RETIRED",
                                         "BR_RETIRED"};
    char name[32];
    for (unsigned i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", i);
        drv_set(pe, name, (uint64_t)armprof_pmu_event_number(events[below(&g, 5)]));
        snprintf(name, sizeof name, "PMEVCNTR%u_EL0", i);
        drv_set(pe, name, near_overflow(&g));
    }
    drv_set(pe, "PMCCNTR_EL0", near_overflow(&g));
    /* HPMN splits the counters into two ranges; HPMFZO freezes the second,
     * PMCR_EL0.FZO the first; LP and HLP make them 64-bit. */
    drv_set(pe, "MDCR_EL2",
            (2 + below(&g, 5)) | (uint64_t)chance(&g, 2) << 26 /* HLP */ |
                (uint64_t)chance(&g, 2) << 29 /* HPMFZO */);
    uint64_t pmcr = 1;                     /* E */
    pmcr |= (uint64_t)chance(&g, 2) << 3;  /* D */
    pmcr |= (uint64_t)chance(&g, 2) << 6;  /* LC */
    pmcr |= (uint64_t)chance(&g, 2) << 7;  /* LP */
    pmcr |= (uint64_t)!chance(&g, 4) << 9; /* FZO */
    drv_set(pe, "PMCR_EL0", pmcr);
    drv_set(pe, "PMCNTENSET_EL0", 0x8000003full);
    drv_set(pe, "PMINTENSET_EL1", rnd(&g) & 0x8000003full);
    drv_set(pe, "PMOVSSET_EL0", chance(&g, 3) ? rnd(&g) & 0x8000003full : 0);
    char err[128];
    armprof_set_el(pe, 1, err, sizeof err);
    /* Events pending from retired operations, counted in the next cycle. */
    const unsigned ops = below(&g, 5);
    for (unsigned i = 0; i < ops; i++) {
        armprof_op op = ARMPROF_OP_INIT;
        op.op_class = chance(&g, 2) ? ARMPROF_OP_BRANCH : ARMPROF_OP_OTHER;
        armprof_retire(pe, &op);
    }
}

static bool same_registers(armprof_pe *a, armprof_pe *b, unsigned round)
{
    for (size_t r = 0; r < armprof_reg_count(); r++)
        for (unsigned m = 0; m < armprof_reg_instances((int)r); m++)
            if (armprof_reg_get(a, (int)r, m) != armprof_reg_get(b, (int)r, m)) {
                char nm[64];
                fprintf(stderr, "round %u: %s differs: one by one 0x%llx, batched 0x%llx\n", round,
                        armprof_reg_instance_name((int)r, m, nm, sizeof nm),
                        (unsigned long long)armprof_reg_get(a, (int)r, m),
                        (unsigned long long)armprof_reg_get(b, (int)r, m));
                return false;
            }
    return armprof_pmuirq(a) == armprof_pmuirq(b);
}

int main(void)
{
    rng g = {0xf00dfeedull};
    unsigned overflows = 0;
    for (unsigned round = 0; round < 300; round++) {
        const uint64_t seed = rnd(&g) | 1;
        armprof_pe *one = make_pe(), *batch = make_pe();
        program(one, seed);
        program(batch, seed);
        const uint64_t before = armprof_reg_get(one, drv_reg("PMOVSSET_EL0", &(unsigned){0}), 0);
        const unsigned n = 1 + below(&g, 1200);
        for (unsigned i = 0; i < n; i++)
            armprof_cycles(one, 1);
        armprof_cycles(batch, n);
        CHECK(same_registers(one, batch, round), "round %u: %u cycles batched differ", round, n);
        if (armprof_reg_get(one, drv_reg("PMOVSSET_EL0", &(unsigned){0}), 0) != before) overflows++;
        armprof_pe_destroy(one);
        armprof_pe_destroy(batch);
    }
    /* The rounds must reach overflows, or they prove little. */
    CHECK(overflows >= 100, "%u of 300 rounds overflowed a counter", overflows);

    /* Every cycle a 32-bit counter could count, and more: ends. */
    armprof_pe *pe = make_pe();
    program(pe, 12345);
    armprof_cycles(pe, UINT64_MAX);
    CHECK(armprof_reg_get(pe, drv_reg("PMCR_EL0", &(unsigned){0}), 0) & 1, "the PE is still there");
    armprof_pe_destroy(pe);
    printf("freeze batches: %u rounds with a new overflow\n", overflows);
    return check_summary();
}
