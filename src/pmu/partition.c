/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU counter partitioning: the counters the external agent reserves
 * (PMCCR.EPMN, FEAT_PMUv3_EXTPMN) and those EL2 reserves (MDCR_EL2.HPMN), as
 * the pseudocode's helpers give them. */
#include "core/arch.h"
#include "pmu/pmu.h"

/* EffectiveEPMN(). ConstrainUnpredictableBits(Unpredictable_RES_EPMN) for an
 * EPMN above the counters: the model keeps the choice within the counters
 * that exist, as for Unpredictable_RES_HPMN. */
unsigned EffectiveEPMN(const armprof_pe *pe)
{
    const unsigned counters = (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
    if (!IsFeatureImplemented(pe, PMUv3_EXTPMN)) return counters;
    unsigned epmn = (unsigned)FIELD(pe, PMCCR, EPMN);
    if (epmn > counters) {
        epmn = (unsigned)constrained_unpredictable(pe, RES_EPMN);
        if (epmn > counters) epmn = counters;
    }
    return epmn;
}

unsigned EffectiveHPMN(const armprof_pe *pe)
{
    const unsigned counters = EffectiveEPMN(pe);
    if (!HaveEL(pe, EL2)) return counters;
    unsigned hpmn = (unsigned)FIELD(pe, MDCR_EL2, HPMN);
    if (hpmn > counters && IsFeatureImplemented(pe, PMUv3_EXTPMN)) hpmn = counters;
    if (hpmn > counters || (!IsFeatureImplemented(pe, HPMN0) && hpmn == 0)) {
        /* ConstrainUnpredictableBits(Unpredictable_RES_HPMN): the model keeps
         * the choice within the counters that exist. */
        hpmn = (unsigned)constrained_unpredictable(pe, RES_HPMN);
        if (hpmn > counters) hpmn = counters;
    }
    return hpmn;
}

/* GetNumEventCountersSelfHosted(): EffectiveEPMN() is NUM_PMU_COUNTERS
 * without FEAT_PMUv3_EXTPMN. */
unsigned GetNumEventCountersSelfHosted(const armprof_pe *pe)
{
    return EffectiveEPMN(pe);
}

unsigned GetNumEventCountersAccessible(const armprof_pe *pe)
{
    if (pe->ctx.el <= EL1 && EL2Enabled(pe)) return EffectiveHPMN(pe);
    return EffectiveEPMN(pe);
}
