/* SPDX-License-Identifier: BSD-3-Clause */
/* The Statistical Profiling Extension (chapter D17): the control layer.
 *
 * control.c transliterates the pseudocode that decides who owns the
 * Profiling Buffer and where profiling is enabled (ProfilingBufferOwner(),
 * ProfilingBufferEnabled(), StatisticalProfilingEnabled(),
 * SPEProfilingStopped()), and the Effective values of the PMSCR_EL2,
 * PMSCR_EL1 and PMBLIMITR_EL1 controls. The functions are pure: they read
 * the registers and the context on every call and keep no state. */
#ifndef ARMPROF_SPE_SPE_H
#define ARMPROF_SPE_SPE_H

#include "core/arch.h"
#include "spe/spe_unit.h"

/* The pair ProfilingBufferOwner() returns: (owning_ss, owning_el).
 * owning_ss is ARMPROF_SS_ROOT when MDCR_EL3.{NSPBE,NSPB} selects no Security
 * state (see ProfilingBufferOwner()): no Security state matches it, so the
 * Profiling Buffer is disabled. */
typedef struct spe_owner {
    armprof_security_state ss;
    unsigned el;
} spe_owner;

/* The owning translation regime (RWWFKZ, RTDHBH, RKRVDC), the pseudocode's
 * Regime_EL10, Regime_EL2 and Regime_EL20; NONE when the Profiling Buffer is
 * disabled (Table D17-4 "Disabled"). Same numbering as armprof_spe_regime. */
typedef enum spe_regime {
    SPE_REGIME_NONE = 0,
    SPE_REGIME_EL10 = 1,
    SPE_REGIME_EL2 = 2,
    SPE_REGIME_EL20 = 3,
} spe_regime;

/* ProfilingBufferOwner() */
spe_owner ProfilingBufferOwner(const armprof_pe *pe);
/* "EL2 is implemented and enabled in the owning Security state" */
bool EL2EnabledInOwningSecurityState(const armprof_pe *pe, spe_owner owner);
/* SPEProfilingStopped() */
bool SPEProfilingStopped(const armprof_pe *pe);
/* ProfilingBufferEnabled() */
bool ProfilingBufferEnabled(const armprof_pe *pe);
/* StatisticalProfilingEnabled(el) */
bool StatisticalProfilingEnabled(const armprof_pe *pe, unsigned el);
/* The owning translation regime (RWWFKZ, RTDHBH, RKRVDC, Table D17-4) */
spe_regime SPEOwningTranslationRegime(const armprof_pe *pe);

/* EffectivePMBLIMITR_EL1_nVM() */
unsigned EffectivePMBLIMITR_EL1_nVM(const armprof_pe *pe);
/* EffectivePMSCR_EL2_EE() */
unsigned EffectivePMSCR_EL2_EE(const armprof_pe *pe);
/* EffectivePMSCR_EL1_EE() */
unsigned EffectivePMSCR_EL1_EE(const armprof_pe *pe);

/* The Effective values of the other PMSCR_EL2 fields (seed 003, and
 * registers/PMSCR_EL2.md where it is newer). Where a page says an enable
 * bit (TS, CX, E2SPE, E0HSPE) "is ignored by the PE", the function returns
 * 0: the bit then enables nothing (docs/spec-notes.md). */
unsigned EffectivePMSCR_EL2_EnVM(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_KE(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_PCT(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_TS(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_PA(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_CX(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_E2SPE(const armprof_pe *pe);
unsigned EffectivePMSCR_EL2_E0HSPE(const armprof_pe *pe);
/* ... and of PMSCR_EL1.PCT, which PMSCR_EL2.PCT refers to. */
unsigned EffectivePMSCR_EL1_PCT(const armprof_pe *pe);

/* A PMSCR_ELx.PCT value as CollectTimeStamp() reads it: '0':PCT<0> without
 * FEAT_ECV ("bit[7] is RES0"), and the reserved '10' replaced by
 * ConstrainUnpredictableBits(Unpredictable_PMSCR_PCT, 2), whose configured
 * choice is never '10' itself (config.c). The two fields have one encoding. */
_Static_assert(PMSCR_EL1_PCT_RESERVED == PMSCR_EL2_PCT_RESERVED &&
                   PMSCR_EL1_PCT_PHYSICAL == PMSCR_EL2_PCT_PHYSICAL,
               "PMSCR_EL1.PCT and PMSCR_EL2.PCT share their encoding");
static inline unsigned spe_pct_value(const armprof_pe *pe, unsigned pct)
{
    if (!IsFeatureImplemented(pe, ECV)) pct &= 1u;
    if (pct == PMSCR_EL1_PCT_RESERVED)
        pct = (unsigned)constrained_unpredictable(pe, PMSCR_PCT) & 3u;
    return pct;
}

#endif
