/* SPDX-License-Identifier: BSD-3-Clause */
/* The SPE control layer, first part: the Profiling Buffer owner, the
 * enables, and the Effective values of the controls (D17.4, D17.7.5,
 * registers/PMSCR_EL2.md, seed 003). Each function transliterates the
 * pseudocode function it is named after (pseudocode/full/arm-J1.1.md), or,
 * where the manual has none, the page sentence its comment quotes. All are
 * pure: they read the registers and the context on every call. */
#include <string.h>

#include "core/arch.h"
#include "spe/spe.h"

/* EffectivePMSCR_EL2_EE(). The extracted text reads
 * 'EffectiveSCR_EL3_NS() == IsSecureEL2Enabled()', which compares a bit with a
 * boolean; the same test in EffectiveTRFCR_EL2_EE() reads
 * 'EffectiveSCR_EL3_NS() == '1' || IsSecureEL2Enabled()', which is used here:
 * PMSCR_EL2.EE counts wherever EL2 is enabled for the Security state. */
unsigned EffectivePMSCR_EL2_EE(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE_EXC)) return PMSCR_EL2_EE_DISABLED;
    if (HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, PMSEE) == MDCR_EL3_PMSEE_DISABLED)
        return PMSCR_EL2_EE_DISABLED;
    const bool check_el2 =
        HaveEL(pe, EL2) && (EffectiveSCR_EL3_NS(pe) == 1 || IsSecureEL2Enabled(pe));
    return check_el2 ? (unsigned)FIELD(pe, PMSCR_EL2, EE) : PMSCR_EL2_EE_DELEGATED;
}

/* ---- The owner ---- */

/* ProfilingBufferOwner() (J1.1.1.67). The case statement on state_bits has
 * arms for '00x', '01x' and '11x' only. EffectiveMDCR_EL3_NSPB() replaces a
 * reserved value by Unpredictable_RESERVEDNSxB, which can itself be '10x', or
 * '00x' on a PE without Secure state (FEAT_RME without FEAT_SEL2). Neither
 * names an implemented Security state, which the MDCR_EL3.NSPB page requires
 * of a choice ("Selects an implemented Security state as the owning Security
 * state"), so both take the other permitted behaviour, "Behaves as if
 * profiling is disabled": the owner is ARMPROF_SS_ROOT, which no state_match
 * arm of ProfilingBufferEnabled() accepts (docs/spec-notes.md). */
spe_owner ProfilingBufferOwner(const armprof_pe *pe)
{
    spe_owner owner;
    unsigned state_bits;
    if (HaveEL(pe, EL3)) {
        bool reserved;
        state_bits = EffectiveMDCR_EL3_NSPB(pe, &reserved);
    } else {
        /* SecureOnlyImplementation() is option secure_only_implementation */
        state_bits = OPTION_VALUE(pe, SECURE_ONLY) ? 1u /* '001' */ : 3u /* '011' */;
    }
    switch (state_bits >> 1) {
    case 0: /* '00x' */
        owner.ss = HaveSecureState(pe) ? ARMPROF_SS_SECURE : ARMPROF_SS_ROOT;
        break;
    case 1: /* '01x' */
        owner.ss = ARMPROF_SS_NONSECURE;
        break;
    case 3: /* '11x' */
        owner.ss = ARMPROF_SS_REALM;
        break;
    default: /* '10x': no arm, see above */
        owner.ss = ARMPROF_SS_ROOT;
        break;
    }
    if (HaveEL(pe, EL2) && (owner.ss != ARMPROF_SS_SECURE || IsSecureEL2Enabled(pe)))
        owner.el = FIELD(pe, MDCR_EL2, E2PB) == 0 ? EL2 : EL1;
    else
        owner.el = EL1;
    return owner;
}

/* "EL2 is implemented and enabled in the owning Security state": the test
 * 'HaveEL(EL2) && (owning_ss != SS_Secure || IsSecureEL2Enabled())' of
 * ProfilingBufferOwner(), EffectivePMBLIMITR_EL1_nVM() and
 * CollectPhysicalAddress(). */
bool EL2EnabledInOwningSecurityState(const armprof_pe *pe, spe_owner owner)
{
    return HaveEL(pe, EL2) && (owner.ss != ARMPROF_SS_SECURE || IsSecureEL2Enabled(pe));
}

/* ---- The enables ---- */

/* SPEProfilingStopped() (J1.1.1.100), and the prose of D17.4 "profiling is
 * stopped" (Table D17-2 reads inverted: docs/spec-notes.md). */
bool SPEProfilingStopped(const armprof_pe *pe)
{
    bool stopped = FIELD(pe, PMBSR_EL1, S) == 1;
    if (IsFeatureImplemented(pe, SPE_EXC)) {
        if (HaveEL(pe, EL3) && (FIELD(pe, MDCR_EL3, PMSEE) & 2) != 0 /* '1x' */)
            stopped = stopped || FIELD(pe, PMBSR_EL3, S) == 1;
        if ((EffectivePMSCR_EL2_EE(pe) & 2) != 0 /* '1x' */)
            stopped = stopped || FIELD(pe, PMBSR_EL2, S) == 1;
    }
    return stopped;
}

/* ProfilingBufferEnabled() (J1.1.1.66). The PE's Security state is read from
 * EffectiveSCR_EL3_NSE():EffectiveSCR_EL3_NS(), so the answer is the same at
 * every Exception level, EL3 included. */
bool ProfilingBufferEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE) || Halted(pe)) return false;
    const spe_owner owner = ProfilingBufferOwner(pe);
    const unsigned state_bits = EffectiveSCR_EL3_NSE(pe) << 1 | EffectiveSCR_EL3_NS(pe);
    bool state_match;
    switch (owner.ss) {
    case ARMPROF_SS_SECURE:
        state_match = state_bits == 0; /* '00' */
        break;
    case ARMPROF_SS_NONSECURE:
        state_match = state_bits == 1; /* '01' */
        break;
    case ARMPROF_SS_REALM:
        state_match = state_bits == 3; /* '11' */
        break;
    default: /* no owning Security state (ProfilingBufferOwner()) */
        state_match = false;
        break;
    }
    const bool stopped = SPEProfilingStopped(pe);
    return !ELUsingAArch32(pe, owner.el) && state_match && FIELD(pe, PMBLIMITR_EL1, E) == 1 &&
           !stopped;
}

/* StatisticalProfilingEnabled(el) (J1.1.1.126). UsingAArch32() is the
 * current Exception level's, as in the pseudocode, whatever el is asked. */
bool StatisticalProfilingEnabled(const armprof_pe *pe, unsigned el)
{
    if (!IsFeatureImplemented(pe, SPE) || ELUsingAArch32(pe, pe->ctx.el) ||
        !ProfilingBufferEnabled(pe))
        return false;
    const bool tge_set = EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1;
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (owner.el < el || (tge_set && owner.el == EL1) || owner.ss != SecurityStateAtEL(pe, el))
        return false;
    switch (el) {
    case EL2:
        return FIELD(pe, PMSCR_EL2, E2SPE) == 1;
    case EL1:
        return FIELD(pe, PMSCR_EL1, E1SPE) == 1;
    case EL0:
        return (tge_set ? FIELD(pe, PMSCR_EL2, E0HSPE) : FIELD(pe, PMSCR_EL1, E0SPE)) == 1;
    default: /* EL3: Unreachable(), owning_el < EL3 returned above */
        return false;
    }
}

/* The owning translation regime. RWWFKZ: "defined by the owning Security
 * state and the owning Exception level"; RTDHBH: owning EL1 -> EL1&0;
 * RKRVDC: owning EL2 -> EL2 if the Effective value of HCR_EL2.E2H is 0,
 * EL2&0 if it is 1 (TranslationRegime(EL2): ELIsInHost(EL2)). Both rules
 * hold "when the Profiling Buffer is enabled": ProfilingBufferEnabled()
 * decides, which also makes the Table D17-4 "Disabled in <state>" rows and
 * the rows the table omits (README) come out as NONE. */
spe_regime SPEOwningTranslationRegime(const armprof_pe *pe)
{
    if (!ProfilingBufferEnabled(pe)) return SPE_REGIME_NONE;
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (owner.el == EL1) return SPE_REGIME_EL10;
    return EffectiveHCR_EL2_E2H(pe) == 1 ? SPE_REGIME_EL20 : SPE_REGIME_EL2;
}

/* ---- Effective values ---- */

/* EffectivePMBLIMITR_EL1_nVM() (J1.1.1.58) */
unsigned EffectivePMBLIMITR_EL1_nVM(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE_nVM)) return 0;
    if (HaveEL(pe, EL2)) {
        const spe_owner owner = ProfilingBufferOwner(pe);
        if (EL2EnabledInOwningSecurityState(pe, owner) && owner.el == EL1 &&
            FIELD(pe, PMSCR_EL2, EnVM) == 0)
            return 0;
    }
    return (unsigned)FIELD(pe, PMBLIMITR_EL1, nVM);
}

/* EffectivePMSCR_EL1_EE(). The reserved values '01' and '10' take ee<0> =
 * ee<1> with FEAT_NV (PMSCR_EL1.md: '01' behaves as '00', '10' as '11' for
 * the exception and PMBIRQ); otherwise ConstrainUnpredictableBits(
 * Unpredictable_RESPMSEE): Constraint_DISABLED gives '00', Constraint_UNKNOWN
 * a non-reserved value; option Unpredictable_RESPMSEE is DISABLED or AS_11
 * (option_values.def). */
unsigned EffectivePMSCR_EL1_EE(const armprof_pe *pe)
{
    if (EffectivePMSCR_EL2_EE(pe) == PMSCR_EL2_EE_DISABLED) return PMSCR_EL1_EE_DISABLED;
    unsigned ee = (unsigned)FIELD(pe, PMSCR_EL1, EE);
    if (ee != PMSCR_EL1_EE_ENABLED && ee != PMSCR_EL1_EE_DISABLED) { /* reserved */
        if (IsFeatureImplemented(pe, NV))
            ee = (ee >> 1) ? PMSCR_EL1_EE_ENABLED : PMSCR_EL1_EE_DISABLED;
        else
            ee = constrained_unpredictable(pe, RESPMSEE) == ARMPROF_UNPRED_RESPMSEE_AS_11
                     ? PMSCR_EL1_EE_ENABLED
                     : PMSCR_EL1_EE_DISABLED;
    }
    return ee;
}

/* PMSCR_EL2.EnVM: "If EL2 is disabled in the owning Security state, or the
 * Profiling Buffer owning Exception level is EL2, then the Effective value of
 * this field is 1." Without FEAT_SPE_nVM the field is RES0. EL2 not
 * implemented counts as disabled, as EffectivePMBLIMITR_EL1_nVM() (which
 * ignores EnVM without EL2) agrees. */
unsigned EffectivePMSCR_EL2_EnVM(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE_nVM)) return 0;
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (!EL2EnabledInOwningSecurityState(pe, owner) || owner.el == EL2) return 1;
    return (unsigned)FIELD(pe, PMSCR_EL2, EnVM);
}

/* PMSCR_EL2.KE: the page gives no Effective value; the field is RES0
 * without FEAT_SPE_EXC and, as the whole register, "RES0 from EL3" without
 * EL2. Its use, the EL2 mask of CheckForSPEException(), is not modelled yet. */
unsigned EffectivePMSCR_EL2_KE(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE_EXC) || !HaveEL(pe, EL2)) return 0;
    return (unsigned)FIELD(pe, PMSCR_EL2, KE);
}

/* PMSCR_EL2.PCT: "If EL2 is not implemented or EL2 is disabled in the
 * current Security state, then the Effective value of this field is 0b01,
 * other than for a direct read of the register." Otherwise, as
 * CollectTimeStamp() reads it (spe_pct_value()). */
unsigned EffectivePMSCR_EL2_PCT(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL2) || !EL2Enabled(pe)) return PMSCR_EL2_PCT_PHYSICAL;
    return spe_pct_value(pe, (unsigned)FIELD(pe, PMSCR_EL2, PCT));
}

/* PMSCR_EL1.PCT: without EL2 it "reads as 0b01 and ignores writes";
 * otherwise as CollectTimeStamp() reads it (spe_pct_value()). Whether
 * PMSCR_EL2.PCT overrides it is CollectTimeStamp()'s business. */
unsigned EffectivePMSCR_EL1_PCT(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL2)) return PMSCR_EL1_PCT_PHYSICAL;
    return spe_pct_value(pe, (unsigned)FIELD(pe, PMSCR_EL1, PCT));
}

/* PMSCR_EL2.TS: "If the Profiling Buffer owning Exception level is EL1,
 * then this field is ignored by the PE" (registers/PMSCR_EL2.md; the seed's
 * list of conditions is lost in extraction). CollectTimeStamp() reads
 * PMSCR_EL2.TS only when owning_el == EL2; otherwise it enables nothing: 0. */
unsigned EffectivePMSCR_EL2_TS(const armprof_pe *pe)
{
    if (ProfilingBufferOwner(pe).el != EL2) return 0;
    return (unsigned)FIELD(pe, PMSCR_EL2, TS);
}

/* PMSCR_EL2.PA: "If EL2 is not implemented or EL2 is disabled in the owning
 * Security state, then the Effective value of this field is 1"
 * (registers/PMSCR_EL2.md and CollectPhysicalAddress(); the older seed page
 * says "current Security state": docs/spec-notes.md). */
unsigned EffectivePMSCR_EL2_PA(const armprof_pe *pe)
{
    if (!EL2EnabledInOwningSecurityState(pe, ProfilingBufferOwner(pe))) return 1;
    return (unsigned)FIELD(pe, PMSCR_EL2, PA);
}

/* PMSCR_EL2.CX: "If EL2 is not implemented or EL2 is disabled in the
 * current Security state, the PE ignores the value of this bit" - and
 * CollectContextIDR2() returns FALSE if !EL2Enabled(): 0. */
unsigned EffectivePMSCR_EL2_CX(const armprof_pe *pe)
{
    if (!EL2Enabled(pe)) return 0;
    return (unsigned)FIELD(pe, PMSCR_EL2, CX);
}

/* PMSCR_EL2.E2SPE: "This bit is RES0 if MDCR_EL2.E2PB != 0b00. If EL2 is
 * disabled in the current Security state, this bit is ignored by the PE."
 * Both give 0: sampling is not enabled at EL2 by it. Without EL2 the
 * register is RES0. */
unsigned EffectivePMSCR_EL2_E2SPE(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL2) || FIELD(pe, MDCR_EL2, E2PB) != 0 || !EL2Enabled(pe)) return 0;
    return (unsigned)FIELD(pe, PMSCR_EL2, E2SPE);
}

/* PMSCR_EL2.E0HSPE: "If MDCR_EL2.E2PB != 0b00, this bit is RES0. If EL2 is
 * implemented and enabled in the current Security state, this bit is ignored
 * by the PE when HCR_EL2.TGE == 0" - and when EL2 is disabled the Effective
 * value of HCR_EL2.TGE is 0 (registers/PMSCR_EL2.md: "If the Effective value
 * of HCR_EL2.TGE is 0, then this field is ignored"), as
 * StatisticalProfilingEnabled()'s tge_set has it. Ignored gives 0. */
unsigned EffectivePMSCR_EL2_E0HSPE(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL2) || FIELD(pe, MDCR_EL2, E2PB) != 0) return 0;
    if (!(EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1)) return 0;
    return (unsigned)FIELD(pe, PMSCR_EL2, E0HSPE);
}

/* ---- Public API (include/armprof/armprof.h) ---- */

bool armprof_spe_buffer_enabled(const armprof_pe *pe)
{
    return ProfilingBufferEnabled(pe);
}

bool armprof_spe_buffer_owner(const armprof_pe *pe, armprof_security_state *ss, unsigned *el)
{
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (ss) *ss = owner.ss;
    if (el) *el = owner.el;
    return ProfilingBufferEnabled(pe);
}

bool armprof_spe_profiling_enabled(const armprof_pe *pe, unsigned el)
{
    return pe && el <= EL3 && StatisticalProfilingEnabled(pe, el);
}

bool armprof_spe_profiling_stopped(const armprof_pe *pe)
{
    return SPEProfilingStopped(pe);
}

armprof_spe_regime armprof_spe_owning_regime(const armprof_pe *pe)
{
    return (armprof_spe_regime)SPEOwningTranslationRegime(pe);
}

/* The Effective values by name, for armprof_spe_value(). */
static const struct {
    const char *name;
    unsigned (*fn)(const armprof_pe *pe);
} effective_values[] = {
    {"PMBLIMITR_EL1.nVM", EffectivePMBLIMITR_EL1_nVM},
    {"PMSCR_EL1.EE", EffectivePMSCR_EL1_EE},
    {"PMSCR_EL1.PCT", EffectivePMSCR_EL1_PCT},
    {"PMSCR_EL2.EnVM", EffectivePMSCR_EL2_EnVM},
    {"PMSCR_EL2.KE", EffectivePMSCR_EL2_KE},
    {"PMSCR_EL2.EE", EffectivePMSCR_EL2_EE},
    {"PMSCR_EL2.PCT", EffectivePMSCR_EL2_PCT},
    {"PMSCR_EL2.TS", EffectivePMSCR_EL2_TS},
    {"PMSCR_EL2.PA", EffectivePMSCR_EL2_PA},
    {"PMSCR_EL2.CX", EffectivePMSCR_EL2_CX},
    {"PMSCR_EL2.E2SPE", EffectivePMSCR_EL2_E2SPE},
    {"PMSCR_EL2.E0HSPE", EffectivePMSCR_EL2_E0HSPE},
};

bool armprof_spe_value(const armprof_pe *pe, const char *name, uint64_t *value)
{
    static const char eff[] = "effective.";
    if (!pe || !name || !value) return false;
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (strcmp(name, "owner_ss") == 0) {
        *value = (uint64_t)owner.ss;
    } else if (strcmp(name, "owner_el") == 0) {
        *value = owner.el;
    } else if (strcmp(name, "buffer_enabled") == 0) {
        *value = ProfilingBufferEnabled(pe);
    } else if (strcmp(name, "stopped") == 0) {
        *value = SPEProfilingStopped(pe);
    } else if (strcmp(name, "regime") == 0) {
        *value = (uint64_t)SPEOwningTranslationRegime(pe);
    } else if (strncmp(name, "enabled_el", 10) == 0 && name[10] >= '0' && name[10] <= '3' &&
               name[11] == '\0') {
        *value = StatisticalProfilingEnabled(pe, (unsigned)(name[10] - '0'));
    } else if (strncmp(name, eff, sizeof eff - 1) == 0) {
        for (size_t i = 0; i < sizeof effective_values / sizeof effective_values[0]; i++) {
            if (strcmp(name + sizeof eff - 1, effective_values[i].name) == 0) {
                *value = effective_values[i].fn(pe);
                return true;
            }
        }
        return false;
    } else if (strncmp(name, "stats.", 6) == 0) {
        const armprof_spe_stats *t = &SPE_STATE(pe)->stats;
        const struct {
            const char *name;
            uint64_t value;
        } stats[] = {
            {"population", t->population},
            {"selected", t->selected},
            {"collisions", t->collisions},
            {"filtered", t->filtered},
            {"discarded", t->discarded},
            {"records", t->records},
            {"bytes", t->bytes},
            {"written", t->written},
            {"written_bytes", t->written_bytes},
            {"lost", t->lost},
            {"management_events", t->management_events},
            {"serrors", t->serrors},
            {"held", t->held},
        };
        for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++) {
            if (strcmp(name + 6, stats[i].name) == 0) {
                *value = stats[i].value;
                return true;
            }
        }
        return false;
    } else {
        return false;
    }
    return true;
}
