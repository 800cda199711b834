/* SPDX-License-Identifier: BSD-3-Clause */
/* The interrupt callbacks (armprof_set_irq_callback()): each output's
 * callback fires in the call that changes its level, with the level the
 * polling functions give, and only then.
 *
 * Directed cases, expected values from the manual:
 *  - PMUIRQ: an event counter whose overflow width is 32 bits (PMCR_EL0.LP
 *    0, AArch64.IncrementEventCounter()) set to 0xFFFFFFFE overflows on the
 *    second INST_RETIRED it counts; PMOVSSET_EL0.P0 is set and, with
 *    PMINTENSET_EL1.P0 and the counter enabled, CheckForPMUOverflow()
 *    asserts PMUIRQ at the end of that cycle (AArch64.PMUCycle()). An MSR
 *    of PMOVSCLR_EL0.P0 deasserts it inside the MSR.
 *  - PMBIRQ: asserted while PMBSR_EL1.S is 1 and SPEInterruptEnabled()
 *    (RTSJRP, IGRLRX); a write of PMBSR_EL1.S = 0 deasserts it.
 * Then a property: random MSRs to the PMU and SPE controls, retired
 * operations and cycles; after every call, the level the callback last gave
 * equals the polled level, and no callback repeats a level. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

typedef struct seen {
    bool level[ARMPROF_IRQ_COUNT];
    unsigned calls[ARMPROF_IRQ_COUNT];
    unsigned repeats; /* a call that did not change the level */
} seen;

static void on_irq(void *ctx, armprof_irq irq, bool level, unsigned target_el)
{
    seen *s = ctx;
    (void)target_el;
    if (s->level[irq] == level) s->repeats++;
    s->level[irq] = level;
    s->calls[irq]++;
}

static armprof_pe *make_pe(void)
{
    armprof_pe *pe = new_pe_or_exit("armv9.4-all");
    char err[256];
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    return pe;
}

static void retire_one(armprof_pe *pe)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x1000;
    armprof_retire(pe, &op);
    armprof_cycles(pe, 1);
}

static void pmuirq_directed(void)
{
    armprof_pe *pe = make_pe();
    drv_cpu cpu = {.pe = pe};
    seen s;
    memset(&s, 0, sizeof s);
    armprof_set_irq_callback(pe, on_irq, &s);
    CHECK(s.calls[ARMPROF_IRQ_PMU] == 0, "no PMUIRQ call at installation: PMUIRQ is low");
    drv_msr(&cpu, "MDCR_EL2", 8); /* HPMN 8: counter 0 in the first range */
    drv_msr(&cpu, "PMEVTYPER0_EL0", (uint64_t)armprof_pmu_event_number("INST_RETIRED"));
    drv_msr(&cpu, "PMEVCNTR0_EL0", 0xFFFFFFFEu);
    drv_msr(&cpu, "PMINTENSET_EL1", 1);
    drv_msr(&cpu, "PMCNTENSET_EL0", 1);
    drv_msr(&cpu, "PMCR_EL0", 1); /* E; LP 0: 32-bit overflow */
    drv_set_el(&cpu, 1);
    retire_one(pe); /* 0xFFFFFFFF */
    CHECK(s.calls[ARMPROF_IRQ_PMU] == 0 && !armprof_pmuirq(pe), "no overflow yet");
    retire_one(pe); /* wraps: PMOVSSET_EL0.P0 */
    CHECK(s.calls[ARMPROF_IRQ_PMU] == 1 && s.level[ARMPROF_IRQ_PMU], "PMUIRQ asserted (%u calls)",
          s.calls[ARMPROF_IRQ_PMU]);
    CHECK(armprof_pmuirq(pe), "polled PMUIRQ agrees");
    retire_one(pe);
    CHECK(s.calls[ARMPROF_IRQ_PMU] == 1, "no call while the level stays");
    drv_msr(&cpu, "PMOVSCLR_EL0", 1);
    CHECK(s.calls[ARMPROF_IRQ_PMU] == 2 && !s.level[ARMPROF_IRQ_PMU],
          "PMUIRQ deasserted inside the MSR");
    CHECK(!armprof_pmuirq(pe), "polled PMUIRQ agrees");
    CHECK(s.repeats == 0, "no repeated level");
    armprof_pe_destroy(pe);
}

static void pmbirq_directed(void)
{
    armprof_pe *pe = make_pe();
    drv_cpu cpu = {.pe = pe};
    seen s;
    memset(&s, 0, sizeof s);
    armprof_set_irq_callback(pe, on_irq, &s);
    drv_set_field(pe, "PMBSR_EL1", "S", 1);
    CHECK(s.calls[ARMPROF_IRQ_PMB] == 1 && s.level[ARMPROF_IRQ_PMB], "PMBIRQ asserted");
    CHECK(armprof_pmbirq(pe), "polled PMBIRQ agrees");
    drv_msr(&cpu, "PMBSR_EL1", 0);
    CHECK(s.calls[ARMPROF_IRQ_PMB] == 2 && !s.level[ARMPROF_IRQ_PMB],
          "PMBIRQ deasserted inside the MSR");
    /* Installing the callback while PMBIRQ is high reports it at once. */
    drv_set_field(pe, "PMBSR_EL1", "S", 1);
    seen t;
    memset(&t, 0, sizeof t);
    armprof_set_irq_callback(pe, on_irq, &t);
    CHECK(t.calls[ARMPROF_IRQ_PMB] == 1 && t.level[ARMPROF_IRQ_PMB],
          "an asserted output is reported at installation");
    armprof_set_irq_callback(pe, NULL, NULL);
    drv_set_field(pe, "PMBSR_EL1", "S", 0);
    CHECK(t.calls[ARMPROF_IRQ_PMB] == 1, "no call after the callback is removed");
    armprof_pe_destroy(pe);
}

static void agree_property(void)
{
    static const char *const regs[] = {
        "PMCR_EL0",     "PMCNTENSET_EL0", "PMCNTENCLR_EL0", "PMINTENSET_EL1", "PMINTENCLR_EL1",
        "PMOVSSET_EL0", "PMOVSCLR_EL0",   "PMEVCNTR0_EL0",  "PMEVCNTR1_EL0",  "PMCCNTR_EL0",
        "PMBSR_EL1",    "PMSCR_EL1",      "PMBLIMITR_EL1",  "PMBPTR_EL1",     "PMSIRR_EL1",
        "PMSICR_EL1",   "MDCR_EL2",       "MDCR_EL3",       "PMSCR_EL2",      "PMECR_EL1",
    };
    rng gen = {0x5eed1234abcdull};
    unsigned checked = 0, changes = 0;
    for (unsigned round = 0; round < 40; round++) {
        armprof_pe *pe = make_pe();
        seen s;
        memset(&s, 0, sizeof s);
        armprof_set_irq_callback(pe, on_irq, &s);
        char err[128];
        for (unsigned step = 0; step < 400; step++) {
            const uint64_t r = rnd(&gen);
            switch (r % 5) {
            case 0: {
                const char *name = regs[(r >> 8) % (sizeof regs / sizeof regs[0])];
                unsigned index;
                const int reg = armprof_reg_lookup(name, &index);
                uint64_t v = rnd(&gen);
                if ((r >> 16) & 1) v &= 0xff;           /* small values set enables and S bits */
                if ((r >> 17) & 1) v = ~0ull - (v & 3); /* counters near overflow */
                armprof_msr(pe, armprof_reg_encoding(reg, index), 0, v);
                break;
            }
            case 1:
                armprof_set_el(pe, 1 + (unsigned)((r >> 8) % 3), err, sizeof err);
                break;
            case 2:
                armprof_cycles(pe, 1 + (r >> 8) % 70);
                break;
            default: {
                armprof_op op = ARMPROF_OP_INIT;
                op.pc = 0x400000 + ((r >> 8) & 0xfffc);
                op.op_class = (armprof_op_class)((r >> 24) % 4);
                op.vaddr = op.paddr = 0x80000000u + ((r >> 32) & 0xff8);
                armprof_retire(pe, &op);
                break;
            }
            }
            unsigned el;
            const bool polled[ARMPROF_IRQ_COUNT] = {armprof_pmuirq(pe), armprof_pmbirq(pe),
                                                    armprof_spe_exception(pe, &el)};
            for (unsigned i = 0; i < ARMPROF_IRQ_COUNT; i++) {
                CHECK(s.level[i] == polled[i], "round %u step %u: output %u callback %d polled %d",
                      round, step, i, s.level[i], polled[i]);
                checked++;
            }
        }
        for (unsigned i = 0; i < ARMPROF_IRQ_COUNT; i++)
            changes += s.calls[i];
        CHECK(s.repeats == 0, "round %u: %u calls repeated a level", round, s.repeats);
        armprof_pe_destroy(pe);
    }
    /* The streams must reach both levels, or the agreement proves little. */
    CHECK(changes >= 40, "the random streams changed levels %u times", changes);
    printf("agreement: %u comparisons, %u level changes\n", checked, changes);
}

int main(void)
{
    pmuirq_directed();
    pmbirq_directed();
    agree_property();
    return check_summary();
}
