/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's PMU driver, as perf's armv8 PMU driver programs it
 * (kernel.h). */
#include <stdio.h>

#include "kernel/kernel_internal.h"

static void counter_reg(char *buf, size_t len, const char *fmt, unsigned i)
{
    snprintf(buf, len, fmt, i);
}

void kernel_pmu_start(armprof_kernel *k)
{
    drv_cpu *c = &k->cpu;
    /* The OS Lock is locked at Cold reset; the kernel unlocks it at boot
     * (MSR OSLAR_EL1, XZR). While it is locked, Capture events are
     * prohibited. The model holds the lock as PE state. */
    armprof_set_os_lock(c->pe, false);
    /* PMEVTYPER<n>_EL0.P (bit 31) 1: not counted at EL1 */
    const uint64_t filter = k->p.pmu_el1 ? 0 : drv_fld("PMEVTYPER0_EL0", "P", 1);
    unsigned programmed = 0;
    for (unsigned i = 0; i < k->p.events && i < k->setup.counters; i++, programmed++) {
        char reg[32];
        counter_reg(reg, sizeof reg, "PMEVTYPER%u_EL0", i);
        drv_msr(c, reg, k->p.event[i] | filter);
    }
    k->p.events = programmed;
    drv_msr(c, "PMCCFILTR_EL0", filter);
    uint64_t enable = ((1ull << programmed) - 1) | 1ull << 31; /* P<n> and C */
    if (armprof_config_has(armprof_pe_config(c->pe), ARMPROF_FEAT_PMUv3_ICNTR)) {
        drv_msr(c, "PMICFILTR_EL0", filter);
        enable |= 1ull << 32; /* F0: the instruction counter */
    }
    drv_msr(c, "PMCNTENSET_EL0", enable);
    /* E, with P and C resetting the counters; LC: a 64-bit cycle counter */
    drv_msr(c, "PMCR_EL0",
            drv_fld("PMCR_EL0", "E", 1) | drv_fld("PMCR_EL0", "P", 1) |
                drv_fld("PMCR_EL0", "C", 1) | drv_fld("PMCR_EL0", "LC", 1));
}

void armprof_kernel_counters(armprof_kernel *k, uint64_t *cycles, uint64_t *instructions,
                             uint64_t *event)
{
    drv_cpu *c = &k->cpu;
    const unsigned el = armprof_current_el(c->pe);
    if (el != 1) drv_set_el(c, 1);
    if (cycles) *cycles = drv_mrs(c, "PMCCNTR_EL0");
    if (instructions)
        *instructions = armprof_config_has(armprof_pe_config(c->pe), ARMPROF_FEAT_PMUv3_ICNTR)
                            ? drv_mrs(c, "PMICNTR_EL0")
                            : 0;
    for (unsigned i = 0; event && i < k->p.events; i++) {
        char reg[32];
        counter_reg(reg, sizeof reg, "PMEVCNTR%u_EL0", i);
        event[i] = drv_mrs(c, reg);
    }
    if (el != 1) drv_set_el(c, el);
}
