/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks and hooks of the PMUv3 counter registers: PMEVCNTR<n>_EL0,
 * PMEVTYPER<n>_EL0, PMCCNTR_EL0, PMCCFILTR_EL0, PMICNTR_EL0, PMICFILTR_EL0,
 * PMSELR_EL0, PMXEVCNTR_EL0, PMXEVTYPER_EL0 and PMZR_EL0 (the 'Accessing'
 * pseudocode of each page in registers/). */
#include "pmu/pmu.h"
#include "pmu/pmu_regs.h"

/* ---- The PMUSERENR_EL0 tests at EL0 ----
 * Each page opens its EL0 branch with one of these (after the
 * EL3SDDUndefPriority() test); true means the access is not enabled at EL0
 * and is trapped to EL1 (to EL2 when HCR_EL2.TGE == 1). */

/* (IsFeatureImplemented(FEAT_PMUv3p9) && PMUSERENR_EL0.<UEN,ER,EN> == '000') ||
 * (!IsFeatureImplemented(FEAT_PMUv3p9) && PMUSERENR_EL0.<ER,EN> == '00')
 * (MRS PMEVCNTR<n>_EL0 and PMXEVCNTR_EL0; MRS and MSR PMSELR_EL0) */
static bool el0_disabled_uen_er_en(const armprof_pe *pe)
{
    const bool er_en_clear = FIELD(pe, PMUSERENR_EL0, ER) == 0 && FIELD(pe, PMUSERENR_EL0, EN) == 0;
    if (IsFeatureImplemented(pe, PMUv3p9)) return er_en_clear && FIELD(pe, PMUSERENR_EL0, UEN) == 0;
    return er_en_clear;
}

/* (IsFeatureImplemented(FEAT_PMUv3p9) && PMUSERENR_EL0.<UEN,CR,EN> == '000') ||
 * (!IsFeatureImplemented(FEAT_PMUv3p9) && PMUSERENR_EL0.<CR,EN> == '00')
 * (MRS PMCCNTR_EL0) */
static bool el0_disabled_uen_cr_en(const armprof_pe *pe)
{
    const bool cr_en_clear = FIELD(pe, PMUSERENR_EL0, CR) == 0 && FIELD(pe, PMUSERENR_EL0, EN) == 0;
    if (IsFeatureImplemented(pe, PMUv3p9)) return cr_en_clear && FIELD(pe, PMUSERENR_EL0, UEN) == 0;
    return cr_en_clear;
}

/* PMUSERENR_EL0.EN == '0' && (!IsFeatureImplemented(FEAT_PMUv3p9) || PMUSERENR_EL0.UEN == '0')
 * (every MSR but PMSELR_EL0's; MRS PMEVTYPER<n>_EL0, PMCCFILTR_EL0, PMXEVTYPER_EL0) */
static bool el0_disabled_uen_en(const armprof_pe *pe)
{
    return FIELD(pe, PMUSERENR_EL0, EN) == 0 &&
           (!IsFeatureImplemented(pe, PMUv3p9) || FIELD(pe, PMUSERENR_EL0, UEN) == 0);
}

/* The target of the EL0 enable trap: 'if EL2Enabled() && HCR_EL2.TGE == '1'
 * then AArch64.SystemAccessTrap(EL2, 0x18); else AArch64.SystemAccessTrap(EL1, 0x18);' */
static sysreg_route el0_enable_trap(const armprof_pe *pe)
{
    return route_trap(EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1 ? EL2 : EL1, 0x18);
}

/* The pages' last EL0 test (FEAT_PMUv3p9), for a counter whose PMUACR_EL1 bit
 * is acr and whose PMUSERENR_EL0 read-only control is ro (ER, CR or IR):
 *   MRS: IsFeatureImplemented(FEAT_PMUv3p9) && PMUSERENR_EL0.UEN == '1' &&
 *        PMUACR_EL1.<bit> == '0' then X[t, 64] = Zeros(64);
 *   MSR: ... && (PMUACR_EL1.<bit> == '0' || PMUSERENR_EL0.<ro> == '1') then return; */
static bool el0_uen_razwi(const armprof_pe *pe, bool is_read, unsigned acr, uint64_t ro)
{
    if (!IsFeatureImplemented(pe, PMUv3p9) || FIELD(pe, PMUSERENR_EL0, UEN) != 1) return false;
    return is_read ? acr == 0 : (acr == 0 || ro == 1);
}

/* ---- ConstrainUnpredictableProcedure(Unpredictable_PMUEVENTCOUNTER) ----
 * Without FEAT_FGT, an access to an event counter n at or beyond
 * GetNumEventCountersSelfHosted(), or (at EL0 and EL1 with EL2 enabled) at or
 * beyond GetNumEventCountersAccessible(). The pages list the permitted
 * behaviours; option Unpredictable_PMUEVENTCOUNTER chooses:
 *   TRAP_EL2 trapped to EL2 where that is permitted ('If EL2 is implemented
 *     and enabled in the current Security state, and <n> is less than the
 *     number of implemented event counters, accesses from EL1 or permitted
 *     accesses from EL0 are trapped to EL2'), UNDEFINED otherwise: what
 *     FEAT_FGT defines;
 *   UNDEF UNDEFINED;  RAZ_WI RAZ/WI;
 *   UNKNOWN_INDEX as if n were an UNKNOWN value below the number of accessible
 *     counters: the highest accessible counter (UNDEFINED when there is none);
 *   SEL_31 PMXEVTYPER_EL0 only: as if PMSELR_EL0.SEL were 31 (UNDEFINED
 *     otherwise).
 * 'Execute as a NOP' is not offered: the model has no general-purpose
 * registers, so an MRS that leaves X[t] unchanged cannot be told from RAZ. */
typedef struct counter_access {
    sysreg_access_fn self; /* the access check, to run again for another n */
    const sysreg_desc *d;  /* ... and its register */
    unsigned n;            /* the counter: <n>, or UInt(PMSELR_EL0.SEL) */
    bool is_read;
    bool sel31_permitted; /* PMXEVTYPER_EL0: 'as if PMSELR_EL0.SEL is 31' */
    unsigned razwi_reg, razwi_index;
} counter_access;

static sysreg_route pmu_event_counter_unpredictable(const armprof_pe *pe, const counter_access *ca)
{
    switch (constrained_unpredictable(pe, PMUEVENTCOUNTER)) {
    case ARMPROF_UNPRED_PMUEVENTCOUNTER_TRAP_EL2:
        if (EL2Enabled(pe) && pe->ctx.el <= EL1 && ca->n < NumPMUCounters(pe))
            return route_trap(EL2, 0x18);
        return route_undefined();
    case ARMPROF_UNPRED_PMUEVENTCOUNTER_UNDEF:
        return route_undefined();
    case ARMPROF_UNPRED_PMUEVENTCOUNTER_RAZ_WI:
        return route_razwi(ca->razwi_reg, ca->razwi_index);
    case ARMPROF_UNPRED_PMUEVENTCOUNTER_UNKNOWN_INDEX: {
        /* n below the accessible counters passes both index tests: no loop */
        const unsigned accessible = GetNumEventCountersAccessible(pe);
        if (accessible == 0) return route_undefined();
        return ca->self(pe, ca->d, accessible - 1, ca->is_read);
    }
    case ARMPROF_UNPRED_PMUEVENTCOUNTER_SEL_31:
    default:
        return ca->sel31_permitted ? ca->self(pe, ca->d, 31, ca->is_read) : route_undefined();
    }
}

/* The leading index test of the event counter pages:
 *   elsif m >= GetNumEventCountersSelfHosted() then
 *       if IsFeatureImplemented(FEAT_FGT) then UNDEFINED;
 *       else ConstrainUnpredictableProcedure(Unpredictable_PMUEVENTCOUNTER); */
static bool beyond_self_hosted(const armprof_pe *pe, unsigned n)
{
    return n >= GetNumEventCountersSelfHosted(pe);
}
static sysreg_route self_hosted_index_fault(const armprof_pe *pe, const counter_access *ca)
{
    if (IsFeatureImplemented(pe, FGT)) return route_undefined();
    return pmu_event_counter_unpredictable(pe, ca);
}

/* ---- The shape the PMUv3 pages share ----
 * Every page but PMICNTR_EL0/PMICFILTR_EL0 has, MRS and MSR alike:
 *   EL0: EL3SDDUndefPriority() && MDCR_EL3.TPM -> UNDEFINED;
 *        <PMUSERENR_EL0 test> -> trap to EL1 (EL2 with TGE);
 *        EL2Enabled() && !ELIsInHost(EL0) && <fine-grained trap> -> EL2;
 *        EL2Enabled() && MDCR_EL2.TPM -> EL2;
 *        [event counters: EL2Enabled() && n >= GetNumEventCountersAccessible()
 *          -> EL2 with FEAT_FGT, else Unpredictable_PMUEVENTCOUNTER];
 *        MDCR_EL3.TPM -> UNDEFINED if EL3SDDUndef(), else EL3;
 *        [FEAT_PMUv3p9 UEN test -> RAZ/WI]; the register.
 *   EL1: the same without the EL0 tests (and with the fine-grained trap not
 *        conditional on ELIsInHost(EL0)).
 *   EL2: EL3SDDUndefPriority() && MDCR_EL3.TPM -> UNDEFINED; MDCR_EL3.TPM -> EL3
 *        (or UNDEFINED); the register.
 *   EL3: the register.
 * fgt is the page's whole fine-grained trap condition, EL2Enabled() included
 * (page_fgt_trap(), from the register's FGT facts). ca is NULL for a page
 * without the
 * GetNumEventCountersAccessible() test. */
typedef struct pmuv3_page {
    bool el0_disabled;
    bool fgt;
    const counter_access *ca;
    bool el0_razwi;
    sysreg_route target;
} pmuv3_page;

static sysreg_route pmuv3_access(const armprof_pe *pe, const pmuv3_page *pg)
{
    const bool tpm3 = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TPM) == 1;
    const bool tpm2 = EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1;
    const bool beyond_accessible =
        pg->ca && EL2Enabled(pe) && pg->ca->n >= GetNumEventCountersAccessible(pe);
    switch (pe->ctx.el) {
    case EL0:
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (pg->el0_disabled) return el0_enable_trap(pe);
        if (!ELIsInHost(pe, EL0) && pg->fgt) return route_trap(EL2, 0x18);
        if (tpm2) return route_trap(EL2, 0x18);
        if (beyond_accessible) {
            if (!IsFeatureImplemented(pe, FGT)) return pmu_event_counter_unpredictable(pe, pg->ca);
            return route_trap(EL2, 0x18);
        }
        if (tpm3) return el3_trap_or_undefined(pe);
        if (pg->el0_razwi) return route_razwi(pg->target.reg, pg->target.index);
        return pg->target;
    case EL1:
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (pg->fgt) return route_trap(EL2, 0x18);
        if (tpm2) return route_trap(EL2, 0x18);
        if (beyond_accessible) {
            if (!IsFeatureImplemented(pe, FGT)) return pmu_event_counter_unpredictable(pe, pg->ca);
            return route_trap(EL2, 0x18);
        }
        if (tpm3) return el3_trap_or_undefined(pe);
        return pg->target;
    case EL2:
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm3) return el3_trap_or_undefined(pe);
        return pg->target;
    default:
        return pg->target;
    }
}

/* ---- The shape of PMICNTR_EL0 and PMICFILTR_EL0 ----
 * As pmuv3_access() with a second EL3 control, MDCR_EL3.EnPM2 == '0', tested
 * ahead of MDCR_EL3.TPM at each step; the EL0 enable test is
 * PMUSERENR_EL0.UEN == '0'; the fine-grained trap is FEAT_FGT2's. */
static sysreg_route icntr_access(const armprof_pe *pe, bool fgt2, bool el0_razwi,
                                 sysreg_route target)
{
    const bool el3 = HaveEL(pe, EL3);
    const bool enpm2 = el3 && FIELD(pe, MDCR_EL3, EnPM2) == 0;
    const bool tpm3 = el3 && FIELD(pe, MDCR_EL3, TPM) == 1;
    const bool tpm2 = EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1;
    switch (pe->ctx.el) {
    case EL0:
        if (enpm2 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (FIELD(pe, PMUSERENR_EL0, UEN) == 0) return el0_enable_trap(pe);
        if (!ELIsInHost(pe, EL0) && fgt2) return route_trap(EL2, 0x18);
        if (tpm2) return route_trap(EL2, 0x18);
        if (enpm2) return el3_trap_or_undefined(pe);
        if (tpm3) return el3_trap_or_undefined(pe);
        if (el0_razwi) return route_razwi(target.reg, target.index);
        return target;
    case EL1:
        if (enpm2 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (fgt2) return route_trap(EL2, 0x18);
        if (tpm2) return route_trap(EL2, 0x18);
        if (enpm2) return el3_trap_or_undefined(pe);
        if (tpm3) return el3_trap_or_undefined(pe);
        return target;
    case EL2:
        if (enpm2 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm3 && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpm2) return el3_trap_or_undefined(pe);
        if (tpm3) return el3_trap_or_undefined(pe);
        return target;
    default:
        return target;
    }
}

/* ---- Accessing PMEVCNTR<n>_EL0 ---- */
sysreg_route access_PMEVCNTR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    const counter_access ca = {access_PMEVCNTR_EL0, d, m, is_read, false, d->id, m};
    if (beyond_self_hosted(pe, m)) return self_hosted_index_fault(pe, &ca);
    const pmuv3_page pg = {
        .el0_disabled = is_read ? el0_disabled_uen_er_en(pe) : el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = &ca,
        .el0_razwi =
            el0_uen_razwi(pe, is_read, PMUACR_EL1_bit(pe, m), FIELD(pe, PMUSERENR_EL0, ER)),
        .target = route_self(d, m),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Accessing PMEVTYPER<n>_EL0 ---- */
sysreg_route access_PMEVTYPER_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read)
{
    const counter_access ca = {access_PMEVTYPER_EL0, d, m, is_read, false, d->id, m};
    if (beyond_self_hosted(pe, m)) return self_hosted_index_fault(pe, &ca);
    const pmuv3_page pg = {
        .el0_disabled = el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = &ca,
        .el0_razwi =
            el0_uen_razwi(pe, is_read, PMUACR_EL1_bit(pe, m), FIELD(pe, PMUSERENR_EL0, ER)),
        .target = route_self(d, m),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Accessing PMCCNTR_EL0 ----
 * The MRS enable test includes PMUSERENR_EL0.CR; the MSR one does not. */
sysreg_route access_PMCCNTR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)m;
    const pmuv3_page pg = {
        .el0_disabled = is_read ? el0_disabled_uen_cr_en(pe) : el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = NULL,
        .el0_razwi = el0_uen_razwi(pe, is_read, (unsigned)FIELD(pe, PMUACR_EL1, C),
                                   FIELD(pe, PMUSERENR_EL0, CR)),
        .target = route_self(d, 0),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Accessing PMCCFILTR_EL0 ---- */
sysreg_route access_PMCCFILTR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read)
{
    (void)m;
    const pmuv3_page pg = {
        .el0_disabled = el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = NULL,
        .el0_razwi = el0_uen_razwi(pe, is_read, (unsigned)FIELD(pe, PMUACR_EL1, C),
                                   FIELD(pe, PMUSERENR_EL0, CR)),
        .target = route_self(d, 0),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Accessing PMICNTR_EL0 and PMICFILTR_EL0 ----
 * Their pages differ only in the FEAT_FGT2 bit (HDFG<R|W>TR2_EL2.nPMICNTR_EL0
 * or nPMICFILTR_EL0, the registers' FGT facts). */
sysreg_route access_icntr_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read)
{
    (void)m;
    const bool razwi = el0_uen_razwi(pe, is_read, (unsigned)FIELD(pe, PMUACR_EL1, F0),
                                     FIELD(pe, PMUSERENR_EL0, IR));
    return icntr_access(pe, page_fgt_trap(pe, d, is_read), razwi, route_self(d, 0));
}

/* ---- Accessing PMSELR_EL0 (MRS and MSR have the same enable test) ---- */
sysreg_route access_PMSELR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    const pmuv3_page pg = {
        .el0_disabled = el0_disabled_uen_er_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = NULL,
        .el0_razwi = false,
        .target = route_self(d, 0),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Accessing PMXEVCNTR_EL0 ----
 * PMEVCNTR<n>_EL0's checks with n = UInt(PMSELR_EL0.SEL), the fine-grained
 * trap bits of PMEVCNTR<n>_EL0 (PMXEVCNTR_EL0's FGT facts); SEL == 31 is at or beyond
 * GetNumEventCountersSelfHosted() (at most 31 counters), so the leading test
 * catches it. sel is a parameter so that Unpredictable_PMUEVENTCOUNTER can
 * run the check again 'as if PMSELR_EL0.SEL' had another value. */
static sysreg_route pmxevcntr_access(const armprof_pe *pe, const sysreg_desc *d, unsigned sel,
                                     bool is_read)
{
    const counter_access ca = {pmxevcntr_access, d, sel, is_read, false, SR_PMEVCNTR_EL0, sel};
    if (beyond_self_hosted(pe, sel)) {
        /* RAZ/WI of SEL 31 reaches no event counter: reported as PMXEVCNTR_EL0 */
        counter_access none = ca;
        if (sel >= 31) {
            none.razwi_reg = d->id;
            none.razwi_index = 0;
        }
        return self_hosted_index_fault(pe, &none);
    }
    const pmuv3_page pg = {
        .el0_disabled = is_read ? el0_disabled_uen_er_en(pe) : el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = &ca,
        .el0_razwi =
            el0_uen_razwi(pe, is_read, PMUACR_EL1_bit(pe, sel), FIELD(pe, PMUSERENR_EL0, ER)),
        .target = route_reg(SR_PMEVCNTR_EL0, sel),
    };
    return pmuv3_access(pe, &pg);
}

sysreg_route access_PMXEVCNTR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read)
{
    (void)m;
    return pmxevcntr_access(pe, d, (unsigned)FIELD(pe, PMSELR_EL0, SEL), is_read);
}

/* ---- Accessing PMXEVTYPER_EL0 ----
 * SEL == 31 selects PMCCFILTR_EL0; otherwise PMEVTYPER<SEL>_EL0, with
 * PMEVTYPER<n>_EL0's index tests ('UInt(PMSELR_EL0.SEL) != 31 && ...') and
 * fine-grained trap bits (HDFGxTR_EL2.PMEVTYPERn_EL0, for SEL 31 too:
 * PMXEVTYPER_EL0's FGT facts). The
 * FEAT_PMUv3p9 test at EL0 uses PMUACR_EL1.C and PMUSERENR_EL0.CR for
 * SEL == 31, PMUACR_EL1[SEL] and PMUSERENR_EL0.ER otherwise. */
static sysreg_route pmxevtyper_access(const armprof_pe *pe, const sysreg_desc *d, unsigned sel,
                                      bool is_read)
{
    const bool cycle = sel == 31;
    const counter_access ca = {pmxevtyper_access, d, sel, is_read, true, SR_PMEVTYPER_EL0, sel};
    if (!cycle && beyond_self_hosted(pe, sel)) return self_hosted_index_fault(pe, &ca);
    const bool razwi =
        cycle ? el0_uen_razwi(pe, is_read, (unsigned)FIELD(pe, PMUACR_EL1, C),
                              FIELD(pe, PMUSERENR_EL0, CR))
              : el0_uen_razwi(pe, is_read, PMUACR_EL1_bit(pe, sel), FIELD(pe, PMUSERENR_EL0, ER));
    const pmuv3_page pg = {
        .el0_disabled = el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, is_read),
        .ca = cycle ? NULL : &ca,
        .el0_razwi = razwi,
        .target = cycle ? route_reg(SR_PMCCFILTR_EL0, 0) : route_reg(SR_PMEVTYPER_EL0, sel),
    };
    return pmuv3_access(pe, &pg);
}

sysreg_route access_PMXEVTYPER_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read)
{
    (void)m;
    return pmxevtyper_access(pe, d, (unsigned)FIELD(pe, PMSELR_EL0, SEL), is_read);
}

/* ---- Accessing PMZR_EL0 (MSR only) ----
 * The PMUv3 shape with FEAT_FGT2's HDFGWTR2_EL2.nPMZR_EL0; the write itself
 * is ZeroPMUCounters(X[t, 64]) (write_PMZR_EL0). */
sysreg_route access_PMZR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    const pmuv3_page pg = {
        .el0_disabled = el0_disabled_uen_en(pe),
        .fgt = page_fgt_trap(pe, d, false),
        .ca = NULL,
        .el0_razwi = false,
        .target = route_self(d, 0),
    };
    return pmuv3_access(pe, &pg);
}

/* ---- Hooks ---- */

/* The stored value of one instance with the configuration's RES0/RES1. */
static uint64_t stored(const armprof_pe *pe, unsigned reg, unsigned m)
{
    return (pe->regs[sysreg_desc_of(pe, reg)->storage + m] & ~sysreg_info(pe, reg)->res0) |
           sysreg_info(pe, reg)->res1;
}

/* PMEVCNTR<n>_EL0 bits [63:32]: RES0 without FEAT_PMUv3p5 (the counter is
 * EVCNT[31:0]; AArch64.IncrementEventCounter() then writes
 * ZeroExtend(new_value<31:0>, 64)). */
static uint64_t pmevcntr_res0(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PMUv3p5) ? 0 : ~0ull << 32;
}

uint64_t read_PMEVCNTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    return stored(pe, reg, m) & ~pmevcntr_res0(pe);
}

void write_PMEVCNTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value) & ~pmevcntr_res0(pe));
    pmu_changed(pe);
}

/* PMEVTYPER<n>_EL0 bits that are RES0 for this instance beyond the
 * declaration's: evtCount[15:10] without FEAT_PMUv3p1, and TLC for even n
 * ('When FEAT_PMUv3_TH2 is implemented and (n MOD 2) == 1'). */
static uint64_t pmevtyper_res0(const armprof_pe *pe, unsigned m)
{
    uint64_t res0 = 0;
    if (!IsFeatureImplemented(pe, PMUv3p1)) res0 |= BITS_MASK(15, 10);
    if (m % 2 == 0)
        res0 |= BITS_MASK(PMEVTYPER_EL0_TLC_LO + PMEVTYPER_EL0_TLC_W - 1, PMEVTYPER_EL0_TLC_LO);
    return res0;
}

uint64_t read_PMEVTYPER_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    return stored(pe, reg, m) & ~pmevtyper_res0(pe, m);
}

void write_PMEVTYPER_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value) & ~pmevtyper_res0(pe, m));
    pmu_changed(pe);
}

/* The cycle and instruction counters and the filters: plain storage, then
 * the PMU layer recomputes what counts. */
static void store_and_notify(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value));
    pmu_changed(pe);
}

void write_PMCCNTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    store_and_notify(pe, reg, m, value);
}

void write_PMCCFILTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    store_and_notify(pe, reg, m, value);
}

void write_PMICNTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    store_and_notify(pe, reg, m, value);
}

void write_PMICFILTR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    store_and_notify(pe, reg, m, value);
}

/* MSR PMZR_EL0: ZeroPMUCounters(X[t, 64]), which applies GetPMUWriteMask(TRUE)
 * (the P<m>, C and F0 fields' RAZ/WI conditions). PMZR_EL0 holds nothing. */
void write_PMZR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)reg;
    (void)m;
    ZeroPMUCounters(pe, ext, value);
    pmu_changed(pe);
}
