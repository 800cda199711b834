/* The external (memory-mapped) PMU interface: chapter I5 and the
 * registers/<NAME>.external.md pages. The locations are declared once in
 * regs/external_pmu.def; a location that is a view of a System register is
 * read and written through that register's storage and hooks
 * (sysreg_read()/sysreg_write()), so an external write of 1 to
 * PMU.PMSSCR_EL1.SS requests a Capture event exactly as MSR PMSSCR_EL1 does.
 * What differs is who may access: each page's 'Accessing' bullets, which the
 * perm functions below transliterate (AllowExternalPMUAccess(),
 * AllowExternalPMSSAccess(), IsCorePowered(), DoubleLockStatus(),
 * OSLockStatus(), SoftwareLockStatus(), IsRange3Counter()). */
#include "sysreg/external.h"

#include "core/arch.h"
#include "sysreg/sysreg.h"

/* ---- The table ---- */

#define IMPL(feat) armprof_config_has(c, ARMPROF_FEAT_##feat)
#define OPT(opt)   (c->options[ARMPROF_OPT_##opt])
#define NOHOOK     NULL
#define ALL        (~0ull)
#define LO32       0x00000000ffffffffull
#define HI32       0xffffffff00000000ull

static ext_decision perm_PMU(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                             unsigned n, const char **why);
static ext_decision perm_PMSS(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why);
static ext_decision perm_DOPD(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why);
static uint64_t ext_read_PMCFGR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMIIDR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMLSR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMAUTHSTATUS(const armprof_pe *pe, const armprof_ext_access *a,
                                      unsigned m);
static uint64_t ext_read_PMDEVARCH(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMDEVID(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMDEVTYPE(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMPIDR0(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static uint64_t ext_read_PMCIDR0(const armprof_pe *pe, const armprof_ext_access *a, unsigned m);
static void ext_write_PMLAR(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                            uint64_t value);
static void ext_write_ignored(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                              uint64_t value);

/* The present column of each entry. */
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)                                   \
    static bool ext_present_##id(const armprof_config *c)                                          \
    {                                                                                              \
        (void)c;                                                                                   \
        return (cond);                                                                             \
    }
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl)                          \
    EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, 0, 0)
#include "sysreg/regs/external_pmu.def"
#undef EXTREG
#undef EXTREG_ARRAY

/* The sysreg column, pasted onto EXT_SR_: SR_<id>, or -1 for NONE. */
enum {
    EXT_SR_NONE = -1,
#define SYSREG(id, enc, cond, rd, wr, flags)            EXT_SR_##id = SR_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) EXT_SR_##p##s = SR_##p##s,
#include "sysreg/regs/all.def"
};

#define EXT_ENTRY(id, nm, off, st, n, w, sr, msk, pm, fl, rd, wr)                                  \
    [EXT_##id] = {.name = nm,                                                                      \
                  .offset = (off),                                                                 \
                  .stride = (st),                                                                  \
                  .count = (n),                                                                    \
                  .width = (w),                                                                    \
                  .sysreg = EXT_SR_##sr,                                                           \
                  .flags = (fl),                                                                   \
                  .mask = (msk),                                                                   \
                  .perm = perm_##pm,                                                               \
                  .read = rd,                                                                      \
                  .write = wr,                                                                     \
                  .present = ext_present_##id},
const ext_desc ext_table[EXT_COUNT] = {
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)                                   \
    EXT_ENTRY(id, nm, off, 0, 1, w, sr, mask, perm, fl, rd, wr)
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl)                          \
    EXT_ENTRY(id, nm, off, stride, n, w, sr, mask, perm, fl, NOHOOK, NOHOOK)
#include "sysreg/regs/external_pmu.def"
#undef EXTREG
#undef EXTREG_ARRAY
};

#undef IMPL
#undef OPT

/* ---- Pseudocode helpers (J1.3.1) ---- */

/* IsCorePowered() */
static bool IsCorePowered(const armprof_pe *pe)
{
    return pe->ctx.core_powered;
}

/* OSLockStatus() is in core/arch.h. */

/* DoubleLockStatus(): OSDLR_EL1.DLK == '1' && DBGPRCR_EL1.CORENPDRQ == '0' &&
 * !Halted(). DBGPRCR_EL1 is not modelled: CORENPDRQ is taken as 0. */
static bool DoubleLockStatus(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, DoubleLock)) return false;
    return pe->ctx.os_double_lock && !Halted(pe);
}

/* HaveSoftwareLock(Component_PMU): the OPTIONAL Software Lock (option
 * pmu_software_lock); 'If FEAT_DoPD is implemented, Software Lock is not
 * implemented' (PMLAR, PMLSR). */
static bool HaveSoftwareLock(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMU_SOFTWARE_LOCK) && !IsFeatureImplemented(pe, DoPD);
}

/* SoftwareLockStatus() with GetAccessComponent() == Component_PMU. It
 * 'depends on the type of access attempted': PMLSR.SLK is RES0 'for an access
 * to LSR that is not a memory-mapped access', so the lock binds memory-mapped
 * accesses only. */
static bool SoftwareLockStatus(const armprof_pe *pe, const armprof_ext_access *a)
{
    return HaveSoftwareLock(pe) && a->memory_mapped && pe->ext.pmlsr_slk;
}

/* NonSecureOnlyImplementation(): without EL3 the PE has one Security state,
 * option secure_only_implementation. */
static bool NonSecureOnlyImplementation(const armprof_pe *pe)
{
    return !HaveEL(pe, EL3) && !OPTION_VALUE(pe, SECURE_ONLY);
}

/* IsMostSecureAccess(). The last branch asserts the PAS is Non-secure; an
 * access from another PAS to a Non-secure-only PE is taken as not Most
 * secure. */
static bool IsMostSecureAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    if (IsFeatureImplemented(pe, RME)) return a->pas == ARMPROF_PAS_ROOT;
    if (HaveEL(pe, EL3) || OPTION_VALUE(pe, SECURE_ONLY)) return a->pas == ARMPROF_PAS_SECURE;
    return a->pas == ARMPROF_PAS_NONSECURE;
}

/* IsRange3Counter(n): GetPMUCounterRange(n) == PMUCounterRange_R3, an
 * implemented event counter at or above EffectiveEPMN(). */
static bool IsRange3Counter(const armprof_pe *pe, unsigned n)
{
    return n < (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS) && n >= EffectiveEPMN(pe);
}

/* PMCCR.OSLO: PMCCR (FEAT_PMUv3_EXTPMN) is not modelled; it reads '0'. */
static unsigned PMCCR_OSLO(const armprof_pe *pe)
{
    (void)pe;
    return 0;
}

/* AllowExternalPMUAccess(). The SDCR.EPMAD branch (EL3 using AArch32) does
 * not arise: the model has AArch64 at EL3. */
static bool AllowExternalPMUAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    const armprof_pas pas = a->pas;
    if (IsFeatureImplemented(pe, RME)) {
        switch (FIELD(pe, MDCR_EL3, EPMADE) << 1 | FIELD(pe, MDCR_EL3, EPMAD)) {
        case 0:
            return true;
        case 1:
            return pas == ARMPROF_PAS_ROOT || pas == ARMPROF_PAS_SECURE;
        case 2:
            return pas == ARMPROF_PAS_ROOT || pas == ARMPROF_PAS_REALM;
        default:
            return pas == ARMPROF_PAS_ROOT;
        }
    }
    if (IsFeatureImplemented(pe, Debugv8p4)) {
        if (pas == ARMPROF_PAS_SECURE) return true;
    } else {
        if (!ExternalInvasiveDebugEnabled(pe)) return false;
        if (ExternalSecureInvasiveDebugEnabled(pe)) return true;
    }
    if (HaveEL(pe, EL3)) return FIELD(pe, MDCR_EL3, EPMAD) == 0;
    return NonSecureOnlyImplementation(pe);
}

/* AllowExternalPMSSAccess(). Its asserts (FEAT_PMUv3_SS, FEAT_Debugv8p4)
 * are not checked: the PMSS locations exist only with FEAT_PMUv3_SS, and the
 * function does not use FEAT_Debugv8p4. */
static bool AllowExternalPMSSAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    const armprof_pas pas = a->pas;
    unsigned epmssad = HaveEL(pe, EL3) ? (unsigned)FIELD(pe, MDCR_EL3, EPMSSAD) : 3;
    /* ConstrainUnpredictableBits(Unpredictable_RESEPMSSAD): a non-reserved value */
    if (!IsFeatureImplemented(pe, RME) && (epmssad == 1 || epmssad == 2))
        epmssad = constrained_unpredictable(pe, RESEPMSSAD) ? 3 : 0;
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

/* ---- The Accessing bullets (perm column) ---- */

static ext_decision refuse(const char **why, const char *cond)
{
    *why = cond;
    return EXT_ERROR;
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

/* PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0, PMCCNTR_EL0, PMCR_EL0, the SET/CLR
 * registers, PMZR_EL0, PMSWINC_EL0, PMCFGR, PMIIDR:
 *   DoubleLockStatus(), !IsCorePowered(), !AllowExternalPMUAccess() -> error;
 *   the OS Lock bullet -> error; IsRange3Counter(n) -> RAZ/WI;
 *   'When SoftwareLockStatus(), accesses to this register are RO' (WI for
 *   PMZR_EL0 and PMSWINC_EL0) - a bullet of every FEAT_PMUv3_EXT32 block; of
 *   the blocks for both interfaces, PMICNTR_EL0's and PMZR_EL0's only, and of
 *   no FEAT_PMUv3_EXT64 block;
 *   otherwise the register's own access. */
static ext_decision perm_PMU(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                             unsigned n, const char **why)
{
    const char *err =
        power_lock_error(pe, AllowExternalPMUAccess(pe, a), "!AllowExternalPMUAccess()");
    if (err) return refuse(why, err);
    if (os_lock_error(pe, a)) return refuse(why, "OSLockStatus()");
    if (range3_razwi(pe, a, d, n)) {
        *why = "IsRange3Counter()";
        return EXT_RAZWI;
    }
    const bool swlock_bullet = IsFeatureImplemented(pe, PMUv3_EXT32) ||
                               d->sysreg == SR_PMICNTR_EL0 || d->sysreg == SR_PMZR_EL0;
    if (swlock_bullet && SoftwareLockStatus(pe, a)) {
        *why = "SoftwareLockStatus()";
        return EXT_WI;
    }
    return EXT_ALLOW;
}

/* PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, PMSSCR_EL1:
 *   DoubleLockStatus(), !IsCorePowered(), !AllowExternalPMSSAccess() -> error
 *   (no OS Lock bullet); IsRange3Counter(n) -> RAZ/WI; PMSSCR_EL1.SS: 'When
 *   SoftwareLockStatus(), access to this field is RO'; otherwise RO (the
 *   saved values) or RW (PMSSCR_EL1). */
static ext_decision perm_PMSS(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why)
{
    const char *err =
        power_lock_error(pe, AllowExternalPMSSAccess(pe, a), "!AllowExternalPMSSAccess()");
    if (err) return refuse(why, err);
    if (range3_razwi(pe, a, d, n)) {
        *why = "IsRange3Counter()";
        return EXT_RAZWI;
    }
    if (d->sysreg == SR_PMSSCR_EL1 && SoftwareLockStatus(pe, a)) {
        *why = "SoftwareLockStatus()";
        return EXT_WI;
    }
    return EXT_ALLOW;
}

/* The CoreSight management registers (PMLAR, PMLSR, PMAUTHSTATUS, PMDEVARCH,
 * PMDEVID, PMDEVTYPE, PMPIDR0, PMCIDR0): 'When FEAT_DoPD is implemented and
 * !IsCorePowered(), accesses to this register generate an error response';
 * without FEAT_DoPD they are in the Debug power domain, which the model keeps
 * powered. */
static ext_decision perm_DOPD(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why)
{
    (void)a;
    (void)d;
    (void)n;
    if (IsFeatureImplemented(pe, DoPD) && !IsCorePowered(pe))
        return refuse(why, "!IsCorePowered()");
    return EXT_ALLOW;
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
    if (err && constrained_unpredictable(pe, EXT_UNIMPL_COUNTER)) return refuse(why, err);
    *why = "event counter not implemented";
    return EXT_RAZWI;
}

/* ---- External-only registers ---- */

/* PMCFGR: NCG (FEAT_PMUv3_ICNTR: two counter groups), SS (FEAT_PMUv3_SS), FZO
 * (FEAT_PMUv3p7), UEN, WT, NA RAZ, EX (no PMU event export bus in the model:
 * PMCR_EL0.X is RES0), CCD ('RES1 if AArch32 is supported': FEAT_AA32EL0, as
 * PMCR_EL0.D), CC 1, SIZE 0b111111, N the event counters (plus one with the
 * instruction counter; EffectiveEPMN() for an access that is not Most secure
 * with FEAT_PMUv3_EXTPMN). */
static uint64_t ext_read_PMCFGR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)m;
    unsigned n = (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
    if (IsFeatureImplemented(pe, PMUv3_EXTPMN) && !IsMostSecureAccess(pe, a)) n = EffectiveEPMN(pe);
    const bool icntr = IsFeatureImplemented(pe, PMUv3_ICNTR);
    if (icntr) n += 1;
    return (uint64_t)(icntr ? 1 : 0) << 28 | (uint64_t)IsFeatureImplemented(pe, PMUv3_SS) << 22 |
           (uint64_t)IsFeatureImplemented(pe, PMUv3p7) << 21 |
           (uint64_t)IsFeatureImplemented(pe, AA32EL0) << 15 | 1ull << 14 | 0x3full << 8 | n;
}

/* PMIIDR: option pmiidr (IMPLEMENTATION DEFINED). */
static uint64_t ext_read_PMIIDR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)a;
    (void)m;
    return OPTION_VALUE(pe, PMIIDR) & 0xffffffffu;
}

/* PMLAR: 'Writing the key value 0xC5ACCE55 to this field unlocks the lock ...
 * Writing any other value to this register locks the lock'; RES0 when the
 * Software Lock is not implemented. A write that is not memory-mapped does not
 * change the lock, which binds memory-mapped accesses only. */
static void ext_write_PMLAR(armprof_pe *pe, const armprof_ext_access *a, unsigned m, uint64_t value)
{
    (void)m;
    if (!HaveSoftwareLock(pe) || !a->memory_mapped) return;
    pe->ext.pmlsr_slk = (value & 0xffffffffu) != 0xC5ACCE55u;
}

/* PMLSR: nTT [2] reads 0; SLK [1] the lock, SLI [0] 'Software Lock
 * implemented', both RAZ for an access that is not memory-mapped. */
static uint64_t ext_read_PMLSR(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)m;
    if (!HaveSoftwareLock(pe) || !a->memory_mapped) return 0;
    return (uint64_t)pe->ext.pmlsr_slk << 1 | 1u;
}

/* One field of DBGAUTHSTATUS_EL1: 0b00 not implemented, 0b10 implemented and
 * disabled, 0b11 implemented and enabled. */
static uint64_t auth_field(bool implemented, bool enabled)
{
    return !implemented ? 0 : enabled ? 3 : 2;
}

/* PMAUTHSTATUS: the same values as DBGAUTHSTATUS_EL1 (its page gives each
 * field from the authentication functions). */
static uint64_t ext_read_PMAUTHSTATUS(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)a;
    (void)m;
    const bool v8p4 = IsFeatureImplemented(pe, Debugv8p4);
    const bool ns = HaveEL(pe, EL3) || !OPTION_VALUE(pe, SECURE_ONLY);
    const bool s = HaveSecureState(pe), rme = IsFeatureImplemented(pe, RME);
    const uint64_t nsid = auth_field(ns, ExternalInvasiveDebugEnabled(pe));
    const uint64_t nsnid =
        v8p4 ? (ns ? 3 : 0) : auth_field(ns, ExternalNoninvasiveDebugEnabled(pe));
    const uint64_t sid = auth_field(s, ExternalSecureInvasiveDebugEnabled(pe));
    const uint64_t snid = v8p4 ? sid : auth_field(s, ExternalSecureNoninvasiveDebugEnabled(pe));
    const uint64_t rlid = auth_field(rme, ExternalRealmInvasiveDebugEnabled(pe));
    const uint64_t rtid = auth_field(rme, ExternalRootInvasiveDebugEnabled(pe));
    return rtid << 26 | rtid << 24 | rlid << 14 | rlid << 12 | snid << 6 | sid << 4 | nsnid << 2 |
           nsid;
}

/* PMDEVARCH: ARCHITECT 0b01000111011 (Arm), PRESENT 1, REVISION 0, ARCHVER
 * 0b0010 (PMUv3), ARCHPART 0xA16 (FEAT_PMUv3_EXT32) or 0xA26
 * (FEAT_PMUv3_EXT64). */
static uint64_t ext_read_PMDEVARCH(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)a;
    (void)m;
    const uint64_t archpart = IsFeatureImplemented(pe, PMUv3_EXT64) ? 0xA26 : 0xA16;
    return 0x23Bull << 21 | 1ull << 20 | 0x2ull << 12 | archpart;
}

/* PMDEVID: EXTPMN (FEAT_PMUv3_EXTPMN), PMSS (FEAT_PMUv3_SS), PCSample
 * (0b0010 FEAT_PCSRv8p9, 0b0001 FEAT_PCSRv8p2, else 0b0000). */
static uint64_t ext_read_PMDEVID(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)a;
    (void)m;
    const uint64_t pcsample = IsFeatureImplemented(pe, PCSRv8p9)   ? 2
                              : IsFeatureImplemented(pe, PCSRv8p2) ? 1
                                                                   : 0;
    return (uint64_t)IsFeatureImplemented(pe, PMUv3_EXTPMN) << 8 |
           (uint64_t)IsFeatureImplemented(pe, PMUv3_SS) << 4 | pcsample;
}

/* PMDEVTYPE: SUB 0b0001, MAJOR 0b0110 ('FEAT_PMUv3 implements the
 * functionality described by the value 0b0110'). */
static uint64_t ext_read_PMDEVTYPE(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)pe;
    (void)a;
    (void)m;
    return 0x16;
}

/* PMPIDR0.PART_0: the part number's low byte, PMIIDR.ProductID[7:0]
 * ('Matches the PMPIDR1.PART_1, PMPIDR0.PART_0 fields'). */
static uint64_t ext_read_PMPIDR0(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)a;
    (void)m;
    return (OPTION_VALUE(pe, PMIIDR) >> 20) & 0xff;
}

/* PMCIDR0.PRMBL_0: 'Reads as 0x0D'. */
static uint64_t ext_read_PMCIDR0(const armprof_pe *pe, const armprof_ext_access *a, unsigned m)
{
    (void)pe;
    (void)a;
    (void)m;
    return 0x0D;
}

/* A write the model's CONSTRAINED UNPREDICTABLE choice makes do nothing
 * (PMSWINC_EL0: no SW_INCR event). */
static void ext_write_ignored(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                              uint64_t value)
{
    (void)pe;
    (void)a;
    (void)m;
    (void)value;
}

/* ---- What the PMU layer asks during an external access ---- */

uint64_t ext_pmu_counter_mask(const armprof_pe *pe)
{
    static const armprof_ext_access nonsecure = {ARMPROF_PAS_NONSECURE, false};
    const armprof_ext_access *a = pe->ext.access ? pe->ext.access : &nonsecure;
    unsigned n = (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
    if (IsFeatureImplemented(pe, PMUv3_EXTPMN) && !IsMostSecureAccess(pe, a) &&
        EffectiveEPMN(pe) < n)
        n = EffectiveEPMN(pe);
    uint64_t mask = 1ull << CYCLE_COUNTER_ID | ((1ull << n) - 1);
    if (IsFeatureImplemented(pe, PMUv3_ICNTR)) mask |= 1ull << INSTRUCTION_COUNTER_ID;
    return mask;
}

/* PMLSR.SLK: 'On a External debug reset, this field resets to '1''. The model
 * has no separate External debug reset; a Cold reset (power-on) includes one. */
void external_reset(armprof_pe *pe, bool cold)
{
    pe->ext.access = NULL;
    if (cold) pe->ext.pmlsr_slk = true;
}

/* ---- Accesses ---- */

static bool entry_present(const armprof_pe *pe, unsigned id)
{
    const ext_desc *d = &ext_table[id];
    if (!IsFeatureImplemented(pe, PMUv3_EXT) || !d->present(&pe->cfg)) return false;
    return d->sysreg < 0 || pe->info[d->sysreg].present;
}

/* The location an access reaches: entry, instance, and the word of a 64-bit
 * location a 4-byte access selects. */
typedef struct ext_location {
    int id;
    unsigned m;
    unsigned word; /* 0: the whole location, or its word at the offset; 1: bits [63:32] */
} ext_location;

/* 1: found; 0: no location overlaps (reserved); -1: a location overlaps but
 * does not take this size at this offset. */
static int find_location(const armprof_pe *pe, uint32_t offset, unsigned size, ext_location *loc)
{
    int overlap = 0;
    for (unsigned id = 0; id < EXT_COUNT; id++) {
        const ext_desc *d = &ext_table[id];
        const unsigned bytes = d->width / 8u;
        if (offset + size <= d->offset) continue;
        if (!entry_present(pe, id)) continue;
        for (unsigned m = 0; m < d->count; m++) {
            const uint32_t base = d->offset + (uint32_t)m * d->stride;
            if (offset + size <= base || offset >= base + bytes) continue;
            if (size == bytes && offset == base) {
                *loc = (ext_location){(int)id, m, 0};
                return 1;
            }
            if (size == 4 && bytes == 8) {
                *loc = (ext_location){(int)id, m, (offset - base) / 4u};
                return 1;
            }
            overlap = -1;
        }
    }
    return overlap;
}

/* The bits of the System register the location shows start at bit 32 when the
 * mask has none below it (HI32). */
static unsigned view_shift(uint64_t mask)
{
    return (mask & 0xffffffffu) == 0 ? 32 : 0;
}

/* The location's value (width bits). WO locations read as zero. */
static uint64_t location_read(armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned m)
{
    if (d->flags & EXT_WO) return 0;
    if (d->read) return d->read(pe, a, m);
    if (d->sysreg < 0) return 0;
    const uint64_t v = (sysreg_read(pe, (unsigned)d->sysreg, m) & d->mask) >> view_shift(d->mask);
    return d->width == 32 ? v & 0xffffffffu : v;
}

/* Writes value (location coordinates) to the bits of words, through the
 * external-only function or the System register's hook. A write to part of a
 * register keeps the rest (read through the hook), except for EXT_W1
 * registers, where the rest is written as 0: the write acts only on the ones
 * written. */
static void location_write(armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                           unsigned m, uint64_t value, uint64_t words)
{
    if (d->write) {
        d->write(pe, a, m, value & words);
        return;
    }
    if (d->sysreg < 0) return;
    const unsigned sr = (unsigned)d->sysreg, sh = view_shift(d->mask);
    const uint64_t writable = (words << sh) & d->mask;
    const uint64_t bits = (value << sh) & writable;
    const uint64_t keep = (d->flags & EXT_W1) ? 0 : sysreg_read(pe, sr, m) & ~writable;
    sysreg_write(pe, sr, m, keep | bits);
}

static armprof_ext_outcome ext_access(armprof_pe *pe, uint32_t offset, unsigned size, bool is_read,
                                      uint64_t value, const armprof_ext_access *how)
{
    armprof_ext_outcome o = {.kind = ARMPROF_EXT_OK, .reg = -1, .sysreg = -1};
    const armprof_ext_access a = how ? *how : (armprof_ext_access){ARMPROF_PAS_NONSECURE, false};
    if ((size != 4 && size != 8) || offset % size != 0 || offset >= 0x1000) {
        o.kind = ARMPROF_EXT_UNMODELLED;
        o.why = "access size or alignment";
        return o;
    }
    ext_location loc;
    const int found = find_location(pe, offset, size, &loc);
    if (found < 0) {
        o.kind = ARMPROF_EXT_UNMODELLED;
        o.why = "access size for this location";
        return o;
    }
    if (found == 0) {
        /* I5.2.1: 'All other entries are reserved' - RES0. */
        o.ignored = !is_read;
        o.why = "reserved";
        return o;
    }
    const ext_desc *d = &ext_table[loc.id];
    o.reg = loc.id;
    o.index = loc.m;
    o.sysreg = d->sysreg;
    const char *why = NULL;
    ext_decision dec;
    if ((d->flags & EXT_CTR) && loc.m >= (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS))
        dec = unimplemented_counter(pe, &a, &why);
    else
        dec = d->perm(pe, &a, d, loc.m, &why);
    o.why = why;
    if (dec == EXT_ERROR) {
        o.kind = ARMPROF_EXT_ERROR;
        return o;
    }
    if (dec == EXT_RAZWI) {
        o.ignored = !is_read;
        return o;
    }
    /* The word a 4-byte access to a 64-bit location selects. */
    const unsigned word_shift = size == 4 && d->width == 64 ? 32u * loc.word : 0;
    const uint64_t size_mask = size == 8 ? ~0ull : 0xffffffffull;
    pe->ext.access = &a;
    if (!is_read) {
        if (dec == EXT_WI || (d->flags & EXT_RO)) {
            o.ignored = true;
            if (!why) o.why = "RO";
        } else {
            location_write(pe, &a, d, loc.m, (value & size_mask) << word_shift,
                           size_mask << word_shift);
        }
    }
    o.value = (location_read(pe, &a, d, loc.m) >> word_shift) & size_mask;
    pe->ext.access = NULL;
    return o;
}

armprof_ext_outcome armprof_external_read(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                          const armprof_ext_access *how)
{
    return ext_access(pe, offset, size_bytes, true, 0, how);
}

armprof_ext_outcome armprof_external_write(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                           uint64_t value, const armprof_ext_access *how)
{
    return ext_access(pe, offset, size_bytes, false, value, how);
}

/* ---- Table queries and context for the public API ---- */

size_t armprof_ext_reg_count(void)
{
    return EXT_COUNT;
}

const char *armprof_ext_reg_name(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].name : NULL;
}

uint32_t armprof_ext_reg_offset(int reg, unsigned index)
{
    if (reg < 0 || reg >= EXT_COUNT) return 0;
    return ext_table[reg].offset + index * ext_table[reg].stride;
}

unsigned armprof_ext_reg_width(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].width : 0;
}

unsigned armprof_ext_reg_instances(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].count : 0;
}

bool armprof_ext_reg_present(const armprof_pe *pe, int reg)
{
    return reg >= 0 && reg < EXT_COUNT && entry_present(pe, (unsigned)reg);
}

int armprof_ext_reg_sysreg(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].sysreg : -1;
}

const char *armprof_pas_name(armprof_pas pas)
{
    static const char *const names[] = {"Non-secure", "Secure", "Realm", "Root"};
    return (unsigned)pas < 4 ? names[pas] : "?";
}

void armprof_set_os_double_lock(armprof_pe *pe, bool locked)
{
    pe->ctx.os_double_lock = locked;
}

bool armprof_os_double_locked(const armprof_pe *pe)
{
    return pe->ctx.os_double_lock;
}
