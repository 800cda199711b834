/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU snapshots (FEAT_PMUv3_SS, D13.9): Capture event requests, whether
 * Capture events are enabled and allowed, and the Capture event itself. */
#include "core/arch.h"
#include "pmu/brbe.h"
#include "pmu/pmu.h"

/* PMECR_EL1.SSE after the reserved value 0b01 is resolved
 * (Unpredictable_RESPMSSE): Constraint_DISABLED reads as 0b00, the other
 * choices are the non-reserved value they name. */
static unsigned effective_pmecr_sse(const armprof_pe *pe)
{
    const unsigned sse = (unsigned)FIELD(pe, PMECR_EL1, SSE);
    if (sse != 1) return sse;
    switch (constrained_unpredictable(pe, RESPMSSE)) {
    case ARMPROF_UNPRED_RESPMSSE_AS_10:
        return 2;
    case ARMPROF_UNPRED_RESPMSSE_AS_11:
        return 3;
    default:
        return 0; /* Constraint_DISABLED */
    }
}

/* PMUCaptureEventEnabled(): RYWLFL */
bool PMUCaptureEventEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PMUv3_SS) || !IsFeatureImplemented(pe, AA64)) return false;
    if (HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, PMSSE) != 1)
        return (FIELD(pe, MDCR_EL3, PMSSE) & 2) != 0; /* '1x' */
    if (HaveEL(pe, EL2) && ELUsingAArch32(pe, EL2)) return false;
    if (HaveEL(pe, EL2) && FIELD(pe, MDCR_EL2, PMSSE) != 1)
        return (FIELD(pe, MDCR_EL2, PMSSE) & 2) != 0;
    if (ELUsingAArch32(pe, EL1)) return false;
    return (effective_pmecr_sse(pe) & 2) != 0;
}

/* PMUCaptureEventAllowed(): RTSYTY. The pseudocode leaves out the Debug
 * state condition the rule states; it is applied here with the
 * IMPLEMENTATION DEFINED choice capture_in_debug_state. */
bool PMUCaptureEventAllowed(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PMUv3_SS) || !IsFeatureImplemented(pe, AA64)) return false;
    if (!PMUCaptureEventEnabled(pe) || OSLockStatus(pe)) return false;
    if (Halted(pe) && !OPTION_VALUE(pe, CAPTURE_IN_DEBUG)) return false;
    if (HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, PMSSE) != 1) return FIELD(pe, MDCR_EL3, PMSSE) == 3;
    if (HaveEL(pe, EL2) && FIELD(pe, MDCR_EL2, PMSSE) != 1) return FIELD(pe, MDCR_EL2, PMSSE) == 3;
    return effective_pmecr_sse(pe) == 3;
}

static void set_pmsscr(armprof_pe *pe, unsigned nc, unsigned ss)
{
    uint64_t v = REG(pe, PMSSCR_EL1);
    v &= ~(1ull << PMSSCR_EL1_NC_LO | 1ull << PMSSCR_EL1_SS_LO);
    v |= (uint64_t)nc << PMSSCR_EL1_NC_LO | (uint64_t)ss << PMSSCR_EL1_SS_LO;
    REG(pe, PMSSCR_EL1) = v;
}

/* PMUCaptureEvent(). The pseudocode's 'assert HaveEL(EL3)' is not applied:
 * the rules of D13.9 describe PEs without EL3 too (RYWLFL, RTSYTY). */
static void PMUCaptureEvent(armprof_pe *pe)
{
    const bool debug_state = Halted(pe);
    if (!PMUCaptureEventAllowed(pe)) {
        /* A Capture event completed, unsuccessfully */
        set_pmsscr(pe, 1, 0);
        PMU_STATE(pe)->captures_prohibited++;
        return;
    }
    /* One instant: every saved value is taken before anything else changes. */
    const unsigned counters = (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
    for (unsigned idx = 0; idx < counters; idx++)
        pe->regs[STO_PMEVCNTSVR_EL1 + idx] = pe->regs[STO_PMEVCNTR_EL0 + idx];
    REG(pe, PMCCNTSVR_EL1) = REG(pe, PMCCNTR_EL0);
    if (IsFeatureImplemented(pe, PMUv3_ICNTR)) REG(pe, PMICNTSVR_EL1) = REG(pe, PMICNTR_EL0);
    if (IsFeatureImplemented(pe, PCSRv8p9)) pcsr_on_capture(pe, debug_state);
    brbe_on_capture(pe);
    /* A successful Capture event */
    set_pmsscr(pe, 0, 0);
    PMU_STATE(pe)->captures++;
    if (!debug_state ||
        constrained_unpredictable(pe, PMUSNAPSHOTEVENT) == ARMPROF_UNPRED_PMUSNAPSHOTEVENT_TRUE)
        PMUEvent(pe, (uint16_t)OPTION_VALUE(pe, EVENT_PMU_SNAPSHOT), 1);
}

void pmu_capture_complete(armprof_pe *pe)
{
    PMU_STATE(pe)->capture_pending = false;
    PMUCaptureEvent(pe);
}

/* RSCLCQ, RMFJWS: a request while Capture events are disabled, or while the
 * Core power domain is off, generates no Capture event and leaves SS as it
 * is. */
void pmu_capture_request(armprof_pe *pe, bool external)
{
    (void)external; /* both sources act alike: the external one writes SS */
    if (!IsFeatureImplemented(pe, PMUv3_SS) || !PMUCaptureEventEnabled(pe) || !pe->ctx.core_powered)
        return;
    if (PMU_STATE(pe)->capture_pending && constrained_unpredictable(pe, PMSSCR_SS_ONGOING) ==
                                              ARMPROF_UNPRED_PMSSCR_SS_ONGOING_CONTINUE)
        return;
    set_pmsscr(pe, (unsigned)FIELD(pe, PMSSCR_EL1, NC), 1);
    PMU_STATE(pe)->capture_pending = true;
    PMU_STATE(pe)->capture_countdown = OPTION_VALUE(pe, CAPTURE_DELAY);
    if (PMU_STATE(pe)->capture_countdown == 0) pmu_capture_complete(pe);
}

/* MSR PMSSCR_EL1: a write of 1 to SS requests a Capture event, a write of 0
 * is ignored; NC is written only by Capture events. */
void write_PMSSCR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                      uint64_t value)
{
    (void)ext;
    (void)reg;
    (void)m;
    if ((value >> PMSSCR_EL1_SS_LO) & 1) pmu_capture_request(pe, false);
}

void armprof_snapshot_request(armprof_pe *pe)
{
    pmu_capture_request(pe, true);
    sysreg_notify(pe);
}
