/* SPDX-License-Identifier: BSD-3-Clause */
/* The interrupt callbacks: the PE's outputs (PMUIRQ, PMBIRQ, the SPE
 * Profiling exception) compared with the levels the embedder was last
 * told, after each entry point that can change them. */
#include "pe/instance.h"

static void outputs_now(armprof_pe *pe, bool level[ARMPROF_IRQ_COUNT], unsigned *spe_el)
{
    level[ARMPROF_IRQ_PMU] = armprof_pmuirq(pe);
    level[ARMPROF_IRQ_PMB] = armprof_pmbirq(pe);
    *spe_el = 0;
    level[ARMPROF_IRQ_SPE_EXCEPTION] = armprof_spe_exception(pe, spe_el);
}

static void remember_inputs(armprof_pe *pe)
{
    pe_outputs *o = &PE_INSTANCE(pe)->out;
    o->seen_gen = pe->controls_gen;
    o->seen_pmovs = REG(pe, PMOVSSET_EL0);
    o->seen_pmbsr[0] = REG(pe, PMBSR_EL1);
    o->seen_pmbsr[1] = REG(pe, PMBSR_EL2);
    o->seen_pmbsr[2] = REG(pe, PMBSR_EL3);
}

void pe_outputs_check(armprof_pe *pe)
{
    pe_outputs *o = &PE_INSTANCE(pe)->out;
    if (!o->fn) return;
    bool level[ARMPROF_IRQ_COUNT];
    unsigned spe_el;
    outputs_now(pe, level, &spe_el);
    /* armprof_pmuirq() may have refreshed the PMU's cache: remember the
     * generation after it. */
    remember_inputs(pe);
    for (unsigned i = 0; i < ARMPROF_IRQ_COUNT; i++) {
        const bool el_changed = i == ARMPROF_IRQ_SPE_EXCEPTION && level[i] && spe_el != o->spe_el;
        if (level[i] == o->level[i] && !el_changed) continue;
        o->level[i] = level[i];
        if (i == ARMPROF_IRQ_SPE_EXCEPTION) o->spe_el = (uint8_t)spe_el;
        o->fn(o->ctx, (armprof_irq)i, level[i], i == ARMPROF_IRQ_SPE_EXCEPTION ? spe_el : 0);
    }
}

void armprof_set_irq_callback(armprof_pe *pe, armprof_irq_fn fn, void *ctx)
{
    pe_outputs *o = &PE_INSTANCE(pe)->out;
    o->fn = fn;
    o->ctx = ctx;
    /* armprof_retire()'s lean path skips the levels: decided again. */
    PE_INSTANCE(pe)->retire_gen = pe->controls_gen - 1;
    PE_INSTANCE(pe)->lean_gen = pe->controls_gen - 1;
    SYSREG_LEVEL(pe)->after_change = fn ? pe_outputs_check : NULL;
    for (unsigned i = 0; i < ARMPROF_IRQ_COUNT; i++)
        o->level[i] = false;
    o->spe_el = 0;
    pe_outputs_check(pe);
}
