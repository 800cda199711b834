/* SPDX-License-Identifier: BSD-3-Clause */
/* The Branch Record Buffer Extension: whether branch recording is allowed,
 * and the BRBE freeze event (pseudocode J1.1.1 BranchRecordAllowed,
 * BRBEFreeze; PMUCaptureEvent() in J1.3). */
#include "pmu/brbe.h"

#include "core/arch.h"
#include "pmu/pmu.h"

/* BranchRecordAllowed(el) */
bool BranchRecordAllowed(const armprof_pe *pe, unsigned el)
{
    if (ELUsingAArch32(pe, el)) return false;
    /* A BRBE freeze event stops recording until software clears PAUSED. */
    if (FIELD(pe, BRBFCR_EL1, PAUSED) == 1) return false;
    /* FEAT_BRBEv1p1 adds recording at EL3, enabled by MDCR_EL3.{E3BREC,E3BREW}
     * differing (equal values are the 'disabled' encodings). */
    if (el == EL3 && IsFeatureImplemented(pe, BRBEv1p1))
        return FIELD(pe, MDCR_EL3, E3BREC) != FIELD(pe, MDCR_EL3, E3BREW);
    /* MDCR_EL3.SBRBE: '00' prohibits recording in Secure and Non-secure
     * state, '01' in Secure state only. */
    if (HaveEL(pe, EL3)) {
        const unsigned sbrbe = (unsigned)FIELD(pe, MDCR_EL3, SBRBE);
        if (sbrbe == 0 || (CurrentSecurityState(pe) == ARMPROF_SS_SECURE && sbrbe == 1))
            return false;
    }
    switch (el) {
    case EL3:
        return false; /* FEAT_BRBEv1p1 not implemented */
    case EL2:
        return FIELD(pe, BRBCR_EL2, E2BRE) == 1;
    case EL1:
        return FIELD(pe, BRBCR_EL1, E1BRE) == 1;
    default:
        /* EL0 in a host (TGE == 1) is controlled from EL2. */
        if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1)
            return FIELD(pe, BRBCR_EL2, E0HBRE) == 1;
        return FIELD(pe, BRBCR_EL1, E0BRE) == 1;
    }
}

/* BRBEFreeze() */
void BRBEFreeze(armprof_pe *pe)
{
    REG(pe, BRBFCR_EL1) |= 1ull << BRBFCR_EL1_PAUSED_LO;
}

/* The BRBE step of PMUCaptureEvent() (RLBQZR). BRBCR_EL1.FZPSS and
 * BRBCR_EL2.FZPSS are RES0 without FEAT_PMUv3_SS, and so is all of BRBCR_EL2
 * without EL2: the stored values are 0 then, as the declarations make them. */
void brbe_on_capture(armprof_pe *pe)
{
    if (IsFeatureImplemented(pe, BRBE) && BranchRecordAllowed(pe, pe->ctx.el) &&
        FIELD(pe, BRBCR_EL1, FZPSS) == 1 && (!HaveEL(pe, EL2) || FIELD(pe, BRBCR_EL2, FZPSS) == 1))
        BRBEFreeze(pe);
}

/* BRBFCR_EL1.PAUSED, the BRBE freeze state, for the public API: false when
 * FEAT_BRBE is not implemented (no BRBFCR_EL1). */
bool armprof_brbe_paused(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, BRBE) && FIELD(pe, BRBFCR_EL1, PAUSED) == 1;
}
