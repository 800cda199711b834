/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared pseudocode helpers (arch.h) and the recomputation of the cached
 * Effective values they read. */
#include "core/arch.h"

/* SecureOnlyImplementation() is option secure_only_implementation.
 * HaveSecureState() */
bool HaveSecureState(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL3)) return OPTION_VALUE(pe, SECURE_ONLY) != 0;
    if (IsFeatureImplemented(pe, RME) && !IsFeatureImplemented(pe, SEL2)) return false;
    return true;
}

/* HighestEL() */
unsigned HighestEL(const armprof_pe *pe)
{
    return HaveEL(pe, EL3) ? EL3 : HaveEL(pe, EL2) ? EL2 : EL1;
}

/* ELUsingAArch32(), cached by pe_recompute() from ELStateUsingAArch32K(). */
bool ELUsingAArch32(const armprof_pe *pe, unsigned el)
{
    return pe->eff.aarch32[el & 3];
}

/* HaveAArch32EL() */
bool HaveAArch32EL(const armprof_pe *pe, unsigned el)
{
    switch (el) {
    case EL0:
        return IsFeatureImplemented(pe, AA32EL0);
    case EL1:
        return IsFeatureImplemented(pe, AA32EL1);
    case EL2:
        return IsFeatureImplemented(pe, AA32EL2);
    default:
        return IsFeatureImplemented(pe, AA32EL3);
    }
}

/* IsSecureBelowEL3() */
bool IsSecureBelowEL3(const armprof_pe *pe)
{
    if (HaveEL(pe, EL3)) return EffectiveSCR_EL3_NS(pe) == 0;
    return OPTION_VALUE(pe, SECURE_ONLY) != 0; /* SecureOnlyImplementation() */
}

/* SCR_EL3.EEL2 as the pseudocode reads it. registers/SCR_EL3.md, EEL2: "A
 * Secure only implementation that does not implement EL3 but implements
 * EL2, behaves as if SCR_EL3.EEL2 == 1." */
static unsigned EffectiveSCR_EL3_EEL2(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SEL2)) return 0; /* RES0 */
    if (!HaveEL(pe, EL3)) return HaveEL(pe, EL2) && OPTION_VALUE(pe, SECURE_ONLY) != 0;
    return (unsigned)FIELD(pe, SCR_EL3, EEL2);
}

/* The Effective value of SCR_EL3.RW (registers/SCR_EL3.md): 1 when "EL2 is
 * implemented and does not support AArch32, and SCR_EL3.NS is 1", or when
 * "The Effective value of SCR_EL3.{EEL2,NS} is {1,0}". */
static unsigned EffectiveSCR_EL3_RW(const armprof_pe *pe)
{
    if (HaveEL(pe, EL2) && !HaveAArch32EL(pe, EL2) && FIELD(pe, SCR_EL3, NS) == 1) return 1;
    if (EffectiveSCR_EL3_EEL2(pe) == 1 && FIELD(pe, SCR_EL3, NS) == 0) return 1;
    return (unsigned)FIELD(pe, SCR_EL3, RW);
}

/* ELStateUsingAArch32K(el, secure): the aarch32 result. For EL0 when the PE
 * is not at EL0 and EL1 uses AArch64 the pseudocode does not know the state
 * (known = FALSE); the model answers with the PSTATE.nRW EL0 will run with
 * (ctx.nrw). el0_in_host is ELIsInHost(EL0). Reads SCR_EL3.RW through its
 * Effective value. */
static bool ELStateUsingAArch32K(const armprof_pe *pe, unsigned el, bool secure, bool el0_in_host)
{
    if (!HaveEL(pe, el) || !HaveAArch32EL(pe, el)) return false; /* using AArch64 */
    if (secure && el == EL2) return false;                       /* Secure EL2 uses AArch64 */
    if (!IsFeatureImplemented(pe, AA64)) return true; /* the highest EL, so all, use AArch32 */
    if (el == EL3) return false;
    if (HaveEL(pe, EL3) && EffectiveSCR_EL3_RW(pe) == 0 &&
        (!secure || EffectiveSCR_EL3_EEL2(pe) == 0))
        return true; /* AArch32 below EL3 */
    if (el == EL2) return false;
    if (HaveEL(pe, EL2) && !el0_in_host && FIELD(pe, HCR_EL2, RW) == 0 &&
        (!secure || EffectiveSCR_EL3_EEL2(pe) == 1))
        return true; /* AArch32 below EL2 */
    if (el == EL1) return false;
    return pe->ctx.nrw; /* PSTATE.nRW (known at EL0) */
}

/* EffectiveSCR_EL3_NS() */
unsigned EffectiveSCR_EL3_NS(const armprof_pe *pe)
{
    if (!HaveSecureState(pe)) return 1;
    if (!HaveEL(pe, EL3)) return 0;
    return (unsigned)FIELD(pe, SCR_EL3, NS);
}

/* EffectiveSCR_EL3_NSE() */
unsigned EffectiveSCR_EL3_NSE(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, RME) ? (unsigned)FIELD(pe, SCR_EL3, NSE) : 0;
}

/* SecurityStateAtEL(). The pseudocode's Unreachable() cases (NSE:NS = '10',
 * or '00' without FEAT_SEL2 under FEAT_RME) cannot be set through the model's
 * context API; a direct write of SCR_EL3 that produces one is reported as
 * Secure. */
armprof_security_state SecurityStateAtEL(const armprof_pe *pe, unsigned el)
{
    if (IsFeatureImplemented(pe, RME)) {
        if (el == EL3) return ARMPROF_SS_ROOT;
        switch (EffectiveSCR_EL3_NSE(pe) << 1 | EffectiveSCR_EL3_NS(pe)) {
        case 1:
            return ARMPROF_SS_NONSECURE;
        case 3:
            return ARMPROF_SS_REALM;
        default:
            return ARMPROF_SS_SECURE;
        }
    }
    if (!HaveEL(pe, EL3))
        return OPTION_VALUE(pe, SECURE_ONLY) ? ARMPROF_SS_SECURE : ARMPROF_SS_NONSECURE;
    if (el == EL3) return ARMPROF_SS_SECURE;
    return EffectiveSCR_EL3_NS(pe) ? ARMPROF_SS_NONSECURE : ARMPROF_SS_SECURE;
}

/* EffectiveHCR_EL2_E2H() */
unsigned EffectiveHCR_EL2_E2H(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, VHE)) return 0;
    if (!IsFeatureImplemented(pe, E2H0)) return 1;
    return (unsigned)FIELD(pe, HCR_EL2, E2H);
}

/* IsSecureEL2Enabled() */
bool IsSecureEL2Enabled(const armprof_pe *pe)
{
    if (HaveEL(pe, EL2) && IsFeatureImplemented(pe, SEL2)) {
        if (HaveEL(pe, EL3)) return !ELUsingAArch32(pe, EL3) && FIELD(pe, SCR_EL3, EEL2) == 1;
        return OPTION_VALUE(pe, SECURE_ONLY) != 0; /* CurrentSecurityState() == SS_Secure */
    }
    return false;
}

/* EL2Enabled() */
static bool compute_EL2Enabled(const armprof_pe *pe)
{
    const unsigned scr_ns = HaveEL(pe, EL3) ? (unsigned)FIELD(pe, SCR_EL3, NS) : 0;
    return HaveEL(pe, EL2) && (!HaveEL(pe, EL3) || scr_ns == 1 || IsSecureEL2Enabled(pe));
}

/* EffectiveHCR_EL2_NVx() */
static unsigned compute_EffectiveHCR_EL2_NVx(const armprof_pe *pe, bool el2_enabled)
{
    if (!el2_enabled || !IsFeatureImplemented(pe, NV)) return 0;
    unsigned nv1 = (unsigned)FIELD(pe, HCR_EL2, NV1);
    if (!IsFeatureImplemented(pe, E2H0) && OPTION_VALUE(pe, NV1_RAZ)) nv1 = 0;
    if (FIELD(pe, HCR_EL2, NV) == 0) {
        if (nv1 == 1) {
            switch (constrained_unpredictable(pe, NVNV1)) {
            case ARMPROF_UNPRED_NVNV1_AS_010:
                return 2; /* '010' */
            case ARMPROF_UNPRED_NVNV1_AS_011:
                return 3; /* '011' */
            default:
                return 0; /* Constraint_NVNV1_00: '000' */
            }
        }
        return 0;
    }
    if (!IsFeatureImplemented(pe, NV2)) return nv1 << 1 | 1;
    unsigned nv2 = (unsigned)FIELD(pe, HCR_EL2, NV2);
    if (nv2 == 0 && OPTION_VALUE(pe, NV_NV2_10_AS_11)) nv2 = 1;
    return nv2 << 2 | nv1 << 1 | 1;
}

/* EffectiveMDCR_EL3_NSPB() */
unsigned EffectiveMDCR_EL3_NSPB(const armprof_pe *pe, bool *reserved)
{
    unsigned state_bits;
    *reserved = false;
    if (IsFeatureImplemented(pe, RME)) {
        state_bits = (unsigned)(FIELD(pe, MDCR_EL3, NSPBE) << 2 | FIELD(pe, MDCR_EL3, NSPB));
        if ((state_bits >> 1) == 2 /* '10x' */ ||
            (!HaveSecureState(pe) && (state_bits >> 1) == 0 /* '00x' */)) {
            *reserved = true;
            state_bits = (unsigned)constrained_unpredictable(pe, RESERVEDNSXB) & 7;
        }
    } else {
        state_bits = (unsigned)FIELD(pe, MDCR_EL3, NSPB);
    }
    return state_bits;
}

/* CheckMDCR_EL3_NSPBTrap(). shared/spec's flattened copy lost a fragment of
 * the return expression; this is the complete form of its twin
 * CheckMDCR_EL3_NSTBTrap(), which the MDCR_EL3.NSPB tables confirm: NSPB<0> = 0
 * traps EL2 and EL1 in every Security state, the owning one included
 * (docs/spec-notes.md). */
static bool compute_CheckMDCR_EL3_NSPBTrap(const armprof_pe *pe)
{
    bool reserved;
    const unsigned state_bits = EffectiveMDCR_EL3_NSPB(pe, &reserved);
    return (reserved && constrained_unpredictable(pe, RESERVEDNSXB_TRAP) != 0) ||
           (state_bits & 1) == 0 || ((state_bits >> 1) & 1) != FIELD(pe, SCR_EL3, NS) ||
           (IsFeatureImplemented(pe, RME) && ((state_bits >> 2) & 1) != FIELD(pe, SCR_EL3, NSE));
}

/* ---- Authentication interface ---- */
#define SIGNAL(pe, s) ((pe)->ctx.signal[ARMPROF_SIG_##s])

/* ExternalInvasiveDebugEnabled() */
bool ExternalInvasiveDebugEnabled(const armprof_pe *pe)
{
    return SIGNAL(pe, DBGEN);
}

/* ExternalSecureInvasiveDebugEnabled() */
bool ExternalSecureInvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!HaveSecureState(pe)) return false;
    return ExternalInvasiveDebugEnabled(pe) && SIGNAL(pe, SPIDEN);
}

/* ExternalRealmInvasiveDebugEnabled() */
bool ExternalRealmInvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, RME)) return false;
    return ExternalInvasiveDebugEnabled(pe) && SIGNAL(pe, RLPIDEN);
}

/* ExternalRootInvasiveDebugEnabled() */
bool ExternalRootInvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, RME)) return false;
    return ExternalInvasiveDebugEnabled(pe) &&
           (!IsFeatureImplemented(pe, SEL2) || ExternalSecureInvasiveDebugEnabled(pe)) &&
           ExternalRealmInvasiveDebugEnabled(pe) && SIGNAL(pe, RTPIDEN);
}

/* ExternalNoninvasiveDebugEnabled(): with FEAT_Debugv8p4 non-invasive debug
 * is always enabled; otherwise the recommended interface, DBGEN OR NIDEN. */
bool ExternalNoninvasiveDebugEnabled(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, Debugv8p4) || ExternalInvasiveDebugEnabled(pe) ||
           SIGNAL(pe, NIDEN);
}

/* ExternalSecureNoninvasiveDebugEnabled() */
bool ExternalSecureNoninvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!HaveSecureState(pe)) return false;
    if (!IsFeatureImplemented(pe, Debugv8p4))
        return ExternalNoninvasiveDebugEnabled(pe) && (SIGNAL(pe, SPIDEN) || SIGNAL(pe, SPNIDEN));
    return ExternalSecureInvasiveDebugEnabled(pe);
}

/* ExternalRealmNoninvasiveDebugEnabled() */
bool ExternalRealmNoninvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, RME)) return false;
    return ExternalRealmInvasiveDebugEnabled(pe);
}

/* ExternalRootNoninvasiveDebugEnabled() */
bool ExternalRootNoninvasiveDebugEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, RME)) return false;
    return ExternalRootInvasiveDebugEnabled(pe);
}

/* ExternalNoninvasiveDebugAllowed(el) */
bool ExternalNoninvasiveDebugAllowed(const armprof_pe *pe, unsigned el)
{
    if (!ExternalNoninvasiveDebugEnabled(pe)) return false;
    const armprof_security_state ss = SecurityStateAtEL(pe, el);
    if ((ELUsingAArch32(pe, EL3) || ELUsingAArch32(pe, EL1)) && el == EL0 &&
        ss == ARMPROF_SS_SECURE && FIELD(pe, SDER32_EL3, SUNIDEN) == 1)
        return true;
    switch (ss) {
    case ARMPROF_SS_NONSECURE:
        return true;
    case ARMPROF_SS_SECURE:
        return ExternalSecureNoninvasiveDebugEnabled(pe);
    case ARMPROF_SS_REALM:
        return ExternalRealmNoninvasiveDebugEnabled(pe);
    default:
        return ExternalRootNoninvasiveDebugEnabled(pe);
    }
}

/* EDSCR.SDD as read in Non-debug state: the inverse of
 * ExternalRootInvasiveDebugEnabled() with FEAT_RME, otherwise of
 * ExternalSecureInvasiveDebugEnabled(). */
static bool edscr_sdd_live(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, RME) ? !ExternalRootInvasiveDebugEnabled(pe)
                                         : !ExternalSecureInvasiveDebugEnabled(pe);
}

void pe_recompute(armprof_pe *pe)
{
    pe_effective *e = &pe->eff;
    /* ELUsingAArch32() = ELStateUsingAArch32(el, IsSecureBelowEL3()), from the
     * highest level down: IsSecureEL2Enabled() reads EL3's state, ELIsInHost()
     * EL2's, and EL1's and EL0's read ELIsInHost(EL0). */
    const bool secure = IsSecureBelowEL3(pe);
    e->aarch32[EL3] = ELStateUsingAArch32K(pe, EL3, secure, false);
    e->secure_el2_enabled = IsSecureEL2Enabled(pe);
    e->el2_enabled = compute_EL2Enabled(pe);
    e->aarch32[EL2] = ELStateUsingAArch32K(pe, EL2, secure, false);
    e->nvx = (uint8_t)compute_EffectiveHCR_EL2_NVx(pe, e->el2_enabled);
    e->e2h = (uint8_t)EffectiveHCR_EL2_E2H(pe);
    /* ELIsInHost() */
    const bool vhe = IsFeatureImplemented(pe, VHE) && !ELUsingAArch32(pe, EL2);
    e->el2_in_host = vhe && e->el2_enabled && e->e2h == 1;
    e->el0_in_host = vhe && e->el2_enabled && e->e2h == 1 && FIELD(pe, HCR_EL2, TGE) == 1;
    e->aarch32[EL1] = ELStateUsingAArch32K(pe, EL1, secure, e->el0_in_host);
    e->aarch32[EL0] = ELStateUsingAArch32K(pe, EL0, secure, e->el0_in_host) || e->aarch32[EL1];
    e->ss = (uint8_t)SecurityStateAtEL(pe, pe->ctx.el);
    /* EL3SDDUndef(): Halted() && EDSCR.SDD == '1'. The SDD value in Debug state
     * is the one latched on entry (EDSCR). */
    e->sdd_undef = pe->ctx.halted && pe->ctx.edscr_sdd;
    e->sdd_undef_priority = e->sdd_undef && OPTION_VALUE(pe, EL3_SDD_TRAP_PRIORITY);
    e->nspb_trap = HaveEL(pe, EL3) && compute_CheckMDCR_EL3_NSPBTrap(pe);
    /* What the PMU counts depends on the context and the controls: computed
     * again when next needed. */
    pe_controls_changed(pe);
}

/* EDSCR.SDD on entry to Debug state: 0 when entering from EL3 (from Secure
 * state without FEAT_RME), otherwise the inverse of the authentication. */
bool pe_sdd_on_debug_entry(const armprof_pe *pe)
{
    if (IsFeatureImplemented(pe, RME)) return pe->ctx.el == EL3 ? false : edscr_sdd_live(pe);
    if (CurrentSecurityState(pe) == ARMPROF_SS_SECURE) return false;
    return edscr_sdd_live(pe);
}

/* ---- Debug authentication and EDSCR ---- */
/* One field of DBGAUTHSTATUS_EL1: '00' not implemented, '10' implemented and
 * disabled, '11' implemented and enabled. */
static uint32_t auth_field(bool implemented, bool enabled)
{
    return !implemented ? 0u : enabled ? 3u : 2u;
}

/* The value UpdateDbgAuthStatus() (J1.3.1.67) writes to DBGAUTHSTATUS_EL1.
 * SecureOnlyImplementation() can hold only without EL3 (option
 * secure_only_implementation: 'without EL3, the PE is in Secure state'). With
 * FEAT_Debugv8p4, ExternalNoninvasiveDebugEnabled() is TRUE and
 * ExternalSecureNoninvasiveDebugEnabled() is ExternalSecureInvasiveDebugEnabled(),
 * so NSNID reads '11' and SNID equals SID, as the field descriptions give. */
uint32_t DbgAuthStatus(const armprof_pe *pe)
{
    const bool secure_only = !HaveEL(pe, EL3) && OPTION_VALUE(pe, SECURE_ONLY) != 0;
    const bool secure = HaveSecureState(pe), rme = IsFeatureImplemented(pe, RME);
    const uint32_t nsid = auth_field(!secure_only, ExternalInvasiveDebugEnabled(pe));
    const uint32_t nsnid = auth_field(!secure_only, ExternalNoninvasiveDebugEnabled(pe));
    const uint32_t sid = auth_field(secure, ExternalSecureInvasiveDebugEnabled(pe));
    const uint32_t snid = auth_field(secure, ExternalSecureNoninvasiveDebugEnabled(pe));
    const uint32_t rlid = auth_field(rme, ExternalRealmInvasiveDebugEnabled(pe));
    const uint32_t rtid = auth_field(rme, ExternalRootInvasiveDebugEnabled(pe));
    /* RLNID = RLID, RTNID = RTID */
    return rtid << 26 | rtid << 24 | rlid << 14 | rlid << 12 | snid << 6 | sid << 4 | nsnid << 2 |
           nsid;
}

/* EDSCR.SDD: in Debug state the value latched on entry (pe_sdd_on_debug_entry());
 * in Non-debug state the inverse of ExternalRootInvasiveDebugEnabled() with
 * FEAT_RME, else of ExternalSecureInvasiveDebugEnabled() - which makes it 1,
 * 'RES1', when EL3 is not implemented and the implementation is Non-secure. */
bool EDSCR_SDD(const armprof_pe *pe)
{
    return Halted(pe) ? pe->ctx.edscr_sdd : edscr_sdd_live(pe);
}
/* ---- end Debug authentication and EDSCR ---- */
