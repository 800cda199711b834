/* SPDX-License-Identifier: BSD-3-Clause */
/* The PMU block's Accessing bullets (chapter I5 and the pages
 * registers/<NAME>.external.md): the perm column of every page in the block,
 * the PMU's (pmu/regs/external_pmu.def) and the PC sample registers'
 * (pcsr/regs/external_pcsr.def, whose pages share the block's OS Lock
 * bullet and its PMCCR.OSLO), and the PMU's pseudocode helpers of J1.3.1
 * they use. The engine
 * (sysreg/external.c) finds the location and applies the decision; the
 * helpers both blocks share (DoubleLockStatus(), IsCorePowered(),
 * SoftwareLockStatus(), IsMostSecureAccess()) are the engine's. */
#include "pmu/external.h"

#include "core/arch.h"

/* IsRange3Counter(n): GetPMUCounterRange(n) == PMUCounterRange_R3, an
 * implemented event counter at or above EffectiveEPMN(). */
bool IsRange3Counter(const armprof_pe *pe, unsigned n)
{
    return n < (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS) && n >= EffectiveEPMN(pe);
}

/* PMCCR.OSLO (FEAT_PMUv3_EXTPMN; RES0 storage without it). */
static unsigned PMCCR_OSLO(const armprof_pe *pe)
{
    return (unsigned)FIELD(pe, PMCCR, OSLO);
}

/* AllowExternalPMUAccess(): MDCR_EL3.<EPMADE,EPMAD>. */
bool AllowExternalPMUAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    return allow_external_access(pe, a, (unsigned)FIELD(pe, MDCR_EL3, EPMADE),
                                 (unsigned)FIELD(pe, MDCR_EL3, EPMAD));
}

/* AllowExternalPMSSAccess(). Its asserts (FEAT_PMUv3_SS, FEAT_Debugv8p4)
 * are not checked: the PMSS locations exist only with FEAT_PMUv3_SS, and the
 * function does not use FEAT_Debugv8p4. */
bool AllowExternalPMSSAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    const armprof_pas pas = a->pas;
    unsigned epmssad = HaveEL(pe, EL3) ? (unsigned)FIELD(pe, MDCR_EL3, EPMSSAD) : 3;
    /* ConstrainUnpredictableBits(Unpredictable_RESEPMSSAD): a non-reserved value */
    if (!IsFeatureImplemented(pe, RME) && (epmssad == 1 || epmssad == 2))
        epmssad =
            constrained_unpredictable(pe, RESEPMSSAD) == ARMPROF_UNPRED_RESEPMSSAD_AS_11 ? 3 : 0;
    switch (epmssad) {
    case 0:
        return IsFeatureImplemented(pe, RME) ? pas == ARMPROF_PAS_ROOT : pas == ARMPROF_PAS_SECURE;
    case 1:
        return pas == ARMPROF_PAS_ROOT || pas == ARMPROF_PAS_REALM;
    case 2:
        return pas == ARMPROF_PAS_ROOT || pas == ARMPROF_PAS_SECURE;
    default:
        return true;
    }
}

/* The first bullet of the PMU and PMSS pages (and the conditions of the
 * 'event counter n is not implemented' rule): the error response's cause,
 * NULL when none holds. allow is AllowExternalPMUAccess() or
 * AllowExternalPMSSAccess(). */
static const char *power_lock_error(const armprof_pe *pe, bool allow, const char *allow_name)
{
    if (DoubleLockStatus(pe)) return "DoubleLockStatus()";
    if (!IsCorePowered(pe)) return "!IsCorePowered()";
    if (!allow) return allow_name;
    return NULL;
}

/* The second bullet of the PMU pages: '(((!IsFeatureImplemented(
 * FEAT_PMUv3_EXTPMN)) || (!IsMostSecureAccess(addrdesc))) || (PMCCR.OSLO ==
 * '0')) && OSLockStatus()'. */
static bool os_lock_error(const armprof_pe *pe, const armprof_ext_access *a)
{
    return (!IsFeatureImplemented(pe, PMUv3_EXTPMN) || !IsMostSecureAccess(pe, a) ||
            PMCCR_OSLO(pe) == 0) &&
           OSLockStatus(pe);
}

/* 'When FEAT_PMUv3_EXTPMN is implemented, IsRange3Counter(n), and
 * !IsMostSecureAccess(addrdesc), accesses to this register are RAZ/WI.' */
static bool range3_razwi(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                         unsigned n)
{
    return (d->flags & EXT_CTR) && IsFeatureImplemented(pe, PMUv3_EXTPMN) &&
           IsRange3Counter(pe, n) && !IsMostSecureAccess(pe, a);
}

/* 'If event counter n is not implemented: When IsCorePowered() &&
 * !DoubleLockStatus() && !OSLockStatus() && AllowExternalPMUAccess(addrdesc),
 * accesses are RES0. Otherwise, it is CONSTRAINED UNPREDICTABLE whether
 * accesses to this register are RES0 or generate an error response'
 * (PMEVTYPER<n>_EL0, PMEVCNTSVR<n>_EL1; applied to PMEVCNTR<n>_EL0 too). */
static ext_decision unimplemented_counter(const armprof_pe *pe, const armprof_ext_access *a,
                                          const char **why)
{
    const char *err =
        power_lock_error(pe, AllowExternalPMUAccess(pe, a), "!AllowExternalPMUAccess()");
    if (!err && OSLockStatus(pe)) err = "OSLockStatus()";
    if (err && constrained_unpredictable(pe, EXT_UNIMPL_COUNTER) ==
                   ARMPROF_UNPRED_EXT_UNIMPL_COUNTER_ERROR)
        return ext_refuse(why, err);
    *why = "event counter not implemented";
    return EXT_RAZWI;
}

/* Whether instance n of an entry whose instances are the event counters
 * (EXT_CTR) is a counter the PE does not implement. */
static bool counter_unimplemented(const armprof_pe *pe, const ext_desc *d, unsigned n)
{
    return (d->flags & EXT_CTR) && n >= (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
}

/* The bullets after the error responses, in the order the PMU and PMSS
 * pages give them: IsRange3Counter(n) -> RAZ/WI; then, on a page with the
 * Software Lock bullet, SoftwareLockStatus() -> RO (WI). */
static ext_decision range3_or_swlock(const armprof_pe *pe, const armprof_ext_access *a,
                                     const ext_desc *d, unsigned n, bool swlock_bullet,
                                     const char **why)
{
    if (range3_razwi(pe, a, d, n)) {
        *why = "IsRange3Counter()";
        return EXT_RAZWI;
    }
    if (swlock_bullet && SoftwareLockStatus(pe, a, ARMPROF_EXT_PMU)) {
        *why = "SoftwareLockStatus()";
        return EXT_WI;
    }
    return EXT_ALLOW;
}

/* PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0, PMCCNTR_EL0, PMCR_EL0, the SET/CLR
 * registers, PMZR_EL0, PMSWINC_EL0, PMCFGR, PMIIDR:
 *   DoubleLockStatus(), !IsCorePowered(), !AllowExternalPMUAccess() -> error;
 *   the OS Lock bullet -> error; IsRange3Counter(n) -> RAZ/WI;
 *   'When SoftwareLockStatus(), accesses to this register are RO' (WI for
 *   PMZR_EL0 and PMSWINC_EL0) - a bullet of every FEAT_PMUv3_EXT32 block; of
 *   the blocks for both interfaces, PMICNTR_EL0's and PMZR_EL0's only, and of
 *   no FEAT_PMUv3_EXT64 block;
 *   otherwise the register's own access. */
ext_decision perm_PMU(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                      unsigned n, const char **why)
{
    if (counter_unimplemented(pe, d, n)) return unimplemented_counter(pe, a, why);
    const char *err =
        power_lock_error(pe, AllowExternalPMUAccess(pe, a), "!AllowExternalPMUAccess()");
    if (err) return ext_refuse(why, err);
    if (os_lock_error(pe, a)) return ext_refuse(why, "OSLockStatus()");
    const bool swlock_bullet = IsFeatureImplemented(pe, PMUv3_EXT32) || (d->flags & EXT_SWLOCK);
    return range3_or_swlock(pe, a, d, n, swlock_bullet, why);
}

/* PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, PMSSCR_EL1:
 *   DoubleLockStatus(), !IsCorePowered(), !AllowExternalPMSSAccess() -> error
 *   (no OS Lock bullet); IsRange3Counter(n) -> RAZ/WI; PMSSCR_EL1.SS: 'When
 *   SoftwareLockStatus(), access to this field is RO'; otherwise RO (the
 *   saved values) or RW (PMSSCR_EL1). */
ext_decision perm_PMSS(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                       unsigned n, const char **why)
{
    if (counter_unimplemented(pe, d, n)) return unimplemented_counter(pe, a, why);
    const char *err =
        power_lock_error(pe, AllowExternalPMSSAccess(pe, a), "!AllowExternalPMSSAccess()");
    if (err) return ext_refuse(why, err);
    return range3_or_swlock(pe, a, d, n, (d->flags & EXT_SWLOCK) != 0, why);
}

/* The PC sample registers in the PMU block (PMPCSR, PMCID1SR, PMCID2SR,
 * PMVIDSR, PMCCIDSR, PMVCIDSR, PMPCSCTL; declared by PC sampling,
 * pcsr/regs/external_pcsr.def), whose pages share the block's OS Lock
 * bullet: 'When DoubleLockStatus() or !IsCorePowered(), accesses
 * to this register generate an error response'; the OS Lock bullet; otherwise
 * RO (RW for PMPCSCTL, whose RO bits the write function keeps). */
ext_decision perm_PCSR(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                       unsigned n, const char **why)
{
    (void)d;
    (void)n;
    if (DoubleLockStatus(pe)) return ext_refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return ext_refuse(why, "!IsCorePowered()");
    if (os_lock_error(pe, a)) return ext_refuse(why, "OSLockStatus()");
    return EXT_ALLOW;
}
