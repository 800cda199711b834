/* SPDX-License-Identifier: BSD-3-Clause */
/* The pseudocode's shared helper functions that the access checks and the
 * profiling units call, in one place. Each cites its pseudocode function.
 * Most read the cached Effective values of pe_effective. */
#ifndef ARMPROF_CORE_ARCH_H
#define ARMPROF_CORE_ARCH_H

#include "core/pe.h"

/* HaveEL() */
static inline bool HaveEL(const armprof_pe *pe, unsigned el)
{
    switch (el) {
    case EL0:
    case EL1:
        return true;
    case EL2:
        return IsFeatureImplemented(pe, EL2);
    default:
        return IsFeatureImplemented(pe, EL3);
    }
}

/* EL2Enabled() */
static inline bool EL2Enabled(const armprof_pe *pe)
{
    return pe->eff.el2_enabled;
}
/* ELIsInHost(EL2) and ELIsInHost(EL0) */
static inline bool ELIsInHost(const armprof_pe *pe, unsigned el)
{
    return el == EL2 ? pe->eff.el2_in_host : el == EL0 ? pe->eff.el0_in_host : false;
}
/* EffectiveHCR_EL2_NVx(): bits NV2:NV1:NV */
static inline unsigned EffectiveHCR_EL2_NVx(const armprof_pe *pe)
{
    return pe->eff.nvx;
}
/* EL3SDDUndef() */
static inline bool EL3SDDUndef(const armprof_pe *pe)
{
    return pe->eff.sdd_undef;
}
/* EL3SDDUndefPriority() */
static inline bool EL3SDDUndefPriority(const armprof_pe *pe)
{
    return pe->eff.sdd_undef_priority;
}
/* OSLockStatus(): OSLSR_EL1.OSLK, kept as PE context */
static inline bool OSLockStatus(const armprof_pe *pe)
{
    return pe->ctx.os_lock;
}
/* Halted() */
static inline bool Halted(const armprof_pe *pe)
{
    return pe->ctx.halted;
}
/* CurrentSecurityState() */
static inline armprof_security_state CurrentSecurityState(const armprof_pe *pe)
{
    return (armprof_security_state)pe->eff.ss;
}

/* HaveSecureState() */
bool HaveSecureState(const armprof_pe *pe);
/* EffectiveSCR_EL3_NS() */
unsigned EffectiveSCR_EL3_NS(const armprof_pe *pe);
/* EffectiveSCR_EL3_NSE() */
unsigned EffectiveSCR_EL3_NSE(const armprof_pe *pe);
/* IsSecureEL2Enabled(), computed from SCR_EL3 (pe->eff.secure_el2_enabled
 * caches it for the current context). */
bool IsSecureEL2Enabled(const armprof_pe *pe);
/* SecurityStateAtEL() */
armprof_security_state SecurityStateAtEL(const armprof_pe *pe, unsigned el);
/* ELUsingAArch32() */
bool ELUsingAArch32(const armprof_pe *pe, unsigned el);
/* HaveAArch32EL() */
bool HaveAArch32EL(const armprof_pe *pe, unsigned el);
/* IsSecureBelowEL3() */
bool IsSecureBelowEL3(const armprof_pe *pe);
/* HighestEL() */
unsigned HighestEL(const armprof_pe *pe);
/* EffectiveHCR_EL2_E2H() */
unsigned EffectiveHCR_EL2_E2H(const armprof_pe *pe);
/* EffectiveMDCR_EL3_NSPB(): returns state_bits (NSPBE:NSPB), sets *reserved */
unsigned EffectiveMDCR_EL3_NSPB(const armprof_pe *pe, bool *reserved);
/* CheckMDCR_EL3_NSPBTrap(), cached: MDCR_EL3 and SCR_EL3 are SR_CONTEXT registers */
static inline bool CheckMDCR_EL3_NSPBTrap(const armprof_pe *pe)
{
    return pe->eff.nspb_trap;
}

/* The authentication interface (J1.3.1). */
bool ExternalInvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalSecureInvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalRealmInvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalRootInvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalNoninvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalSecureNoninvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalRealmNoninvasiveDebugEnabled(const armprof_pe *pe);
bool ExternalRootNoninvasiveDebugEnabled(const armprof_pe *pe);
/* ExternalNoninvasiveDebugAllowed(el) */
bool ExternalNoninvasiveDebugAllowed(const armprof_pe *pe, unsigned el);

/* UpdateDbgAuthStatus(): the DBGAUTHSTATUS_EL1 value the signals give (bits [31:0]). */
uint32_t DbgAuthStatus(const armprof_pe *pe);
/* EDSCR.SDD as a read of EDSCR sees it (Debug state: latched on entry). */
bool EDSCR_SDD(const armprof_pe *pe);

/* ConstrainUnpredictable...(): the configured choice (docs/design.md rule 2). */
#define constrained_unpredictable(pe, which) OPTION_VALUE(pe, UNPRED_##which)

/* ---- PMU counter helpers ---- */
/* NUM_PMU_COUNTERS: the number of implemented event counters (PMCR_EL0.N). */
static inline unsigned NumPMUCounters(const armprof_pe *pe)
{
    return (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
}
/* ---- end PMU counter helpers ---- */

#endif
