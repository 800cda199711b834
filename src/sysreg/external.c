/* The external (memory-mapped) interfaces: the PMU block (chapter I5 and the
 * registers/<NAME>.external.md pages, with the PC sample registers of
 * FEAT_PCSRv8p2, H7.1.2) and the external debug block (chapter H9, the
 * registers/<NAME>.external-debug.md pages: FEAT_PCSRv8, EDSCR, the
 * identification). One machinery serves both: the locations are declared once
 * in regs/external_all.def, each with its component; a location that is a
 * view of a System register is
 * read and written through that register's storage and hooks
 * (sysreg_read()/sysreg_write()), so an external write of 1 to
 * PMU.PMSSCR_EL1.SS requests a Capture event exactly as MSR PMSSCR_EL1 does.
 * What differs is who may access: each page's 'Accessing' bullets, which the
 * perm functions below transliterate (AllowExternalPMUAccess(),
 * AllowExternalPMSSAccess(), IsCorePowered(), DoubleLockStatus(),
 * OSLockStatus(), SoftwareLockStatus(), IsRange3Counter()). */
#include "sysreg/external.h"

#include "core/arch.h"
#include "pcsr/pcsr.h"
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
static ext_decision perm_PCSR(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why);
static ext_decision perm_DBG(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                             unsigned n, const char **why);
#define EXT_READ_FN(name)                                                                          \
    static uint64_t name(armprof_pe *pe, const armprof_ext_access *a, unsigned m, uint64_t bits)
#define EXT_WRITE_FN(name)                                                                         \
    static void name(armprof_pe *pe, const armprof_ext_access *a, unsigned m, uint64_t value,      \
                     uint64_t bits)
EXT_READ_FN(ext_read_PMCFGR);
EXT_READ_FN(ext_read_PMIIDR);
EXT_READ_FN(ext_read_PMLSR);
EXT_READ_FN(ext_read_PMAUTHSTATUS);
EXT_READ_FN(ext_read_PMDEVARCH);
EXT_READ_FN(ext_read_PMDEVID);
EXT_READ_FN(ext_read_PMDEVTYPE);
EXT_READ_FN(ext_read_PMPIDR0);
EXT_READ_FN(ext_read_PMCIDR0);
EXT_WRITE_FN(ext_write_PMLAR);
EXT_WRITE_FN(ext_write_ignored);
/* The PC sample registers (external_pcsr.def) */
EXT_READ_FN(ext_read_PMPCSR);
EXT_READ_FN(ext_read_PMPCSR_HI);
EXT_READ_FN(ext_read_PMCID1SR);
EXT_READ_FN(ext_read_PMCID2SR);
EXT_READ_FN(ext_read_PMVIDSR);
EXT_READ_FN(ext_read_PMVCIDSR);
EXT_READ_FN(ext_read_PMCCIDSR);
EXT_READ_FN(ext_read_PMPCSCTL);
EXT_WRITE_FN(ext_write_PMPCSCTL);
/* The external debug block (external_debug.def) */
EXT_READ_FN(ext_read_EDSCR);
EXT_WRITE_FN(ext_write_EDSCR);
EXT_READ_FN(ext_read_EDPCSR_LO);
EXT_READ_FN(ext_read_EDPCSR_HI);
EXT_READ_FN(ext_read_EDCIDSR);
EXT_READ_FN(ext_read_EDVIDSR);
EXT_READ_FN(ext_read_EDDEVID);
EXT_READ_FN(ext_read_EDDEVID1);

/* The present column of each entry. */
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)                                   \
    static bool ext_present_##id(const armprof_config *c)                                          \
    {                                                                                              \
        (void)c;                                                                                   \
        return (cond);                                                                             \
    }
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl)                          \
    EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, 0, 0)
#include "sysreg/regs/external_all.def"
#undef EXTREG
#undef EXTREG_ARRAY

/* The sysreg column, pasted onto EXT_SR_: SR_<id>, or -1 for NONE. */
enum {
    EXT_SR_NONE = -1,
#define SYSREG(id, enc, cond, rd, wr, flags)            EXT_SR_##id = SR_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) EXT_SR_##p##s = SR_##p##s,
#include "sysreg/regs/all.def"
};

/* The component of the entries being declared: EXT_COMPONENT (PMU, DEBUG),
 * which regs/external_all.def defines around each file, as an
 * armprof_ext_component. */
#define EXT_COMPONENT_ID_(c) ARMPROF_EXT_##c
#define EXT_COMPONENT_ID(c)  EXT_COMPONENT_ID_(c)
#define EXT_ENTRY(id, nm, off, st, n, w, sr, msk, pm, fl, rd, wr)                                  \
    [EXT_##id] = {.name = nm,                                                                      \
                  .offset = (off),                                                                 \
                  .stride = (st),                                                                  \
                  .count = (n),                                                                    \
                  .component = EXT_COMPONENT_ID(EXT_COMPONENT),                                    \
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
#include "sysreg/regs/external_all.def"
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

/* The PC sample registers (PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR, PMCCIDSR,
 * PMVCIDSR, PMPCSCTL): 'When DoubleLockStatus() or !IsCorePowered(), accesses
 * to this register generate an error response'; the OS Lock bullet; otherwise
 * RO (RW for PMPCSCTL, whose RO bits the write function keeps). */
static ext_decision perm_PCSR(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned n, const char **why)
{
    (void)d;
    (void)n;
    if (DoubleLockStatus(pe)) return refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return refuse(why, "!IsCorePowered()");
    if (os_lock_error(pe, a)) return refuse(why, "OSLockStatus()");
    return EXT_ALLOW;
}

/* The external debug registers EDPCSR, EDCIDSR, EDVIDSR and EDSCR: 'When
 * DoubleLockStatus(), or !IsCorePowered(), or OSLockStatus(), accesses to this
 * register return an ERROR.' (OSLockStatus() alone: these pages have no
 * FEAT_PMUv3_EXTPMN term.) EDSCR's 'When SoftwareLockStatus(), accesses to
 * this register are RO' needs the external debug Software Lock (EDLAR,
 * EDLSR), which the model does not implement. */
static ext_decision perm_DBG(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                             unsigned n, const char **why)
{
    (void)a;
    (void)d;
    (void)n;
    if (DoubleLockStatus(pe)) return refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return refuse(why, "!IsCorePowered()");
    if (OSLockStatus(pe)) return refuse(why, "OSLockStatus()");
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
    if (err && constrained_unpredictable(pe, EXT_UNIMPL_COUNTER) ==
                   ARMPROF_UNPRED_EXT_UNIMPL_COUNTER_ERROR)
        return refuse(why, err);
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
EXT_READ_FN(ext_read_PMCFGR)
{
    (void)bits;
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
EXT_READ_FN(ext_read_PMIIDR)
{
    (void)bits;
    (void)a;
    (void)m;
    return OPTION_VALUE(pe, PMIIDR) & 0xffffffffu;
}

/* PMLAR: 'Writing the key value 0xC5ACCE55 to this field unlocks the lock ...
 * Writing any other value to this register locks the lock'; RES0 when the
 * Software Lock is not implemented. A write that is not memory-mapped does not
 * change the lock, which binds memory-mapped accesses only. */
EXT_WRITE_FN(ext_write_PMLAR)
{
    (void)bits;
    (void)m;
    if (!HaveSoftwareLock(pe) || !a->memory_mapped) return;
    pe->ext.pmlsr_slk = (value & 0xffffffffu) != 0xC5ACCE55u;
}

/* PMLSR: nTT [2] reads 0; SLK [1] the lock, SLI [0] 'Software Lock
 * implemented', both RAZ for an access that is not memory-mapped. */
EXT_READ_FN(ext_read_PMLSR)
{
    (void)bits;
    (void)m;
    if (!HaveSoftwareLock(pe) || !a->memory_mapped) return 0;
    return (uint64_t)pe->ext.pmlsr_slk << 1 | 1u;
}

/* PMAUTHSTATUS: every field 'has the same value as' (or 'holds the same value
 * as') the DBGAUTHSTATUS_EL1 field - UpdateDbgAuthStatus() (DbgAuthStatus()). */
EXT_READ_FN(ext_read_PMAUTHSTATUS)
{
    (void)bits;
    (void)a;
    (void)m;
    return DbgAuthStatus(pe);
}

/* FEAT_PCSRv8p2 without the Performance Monitors Extension: the PC sample
 * registers alone in the area reserved for the PMU (H7.1.2, Table H7-1). */
static bool PCSROnly(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8p2) && !IsFeatureImplemented(pe, PMUv3);
}

/* PMDEVARCH: ARCHITECT 0b01000111011 (Arm), PRESENT 1, REVISION 0, and
 * ARCHID (ARCHVER:ARCHPART): with the PMU, ARCHVER 0b0010 (PMUv3) and ARCHPART
 * 0xA16 (FEAT_PMUv3_EXT32) or 0xA26 (FEAT_PMUv3_EXT64); with FEAT_PCSRv8p2 and
 * no PMU, 'PMDEVARCH.ARCHID has the value 0x0A10 or 0x0A20' (H7.1.2): ARCHVER
 * 0b0000 ('PC Sample-based Profiling version 2, FEAT_PCSRv8p2') and ARCHPART
 * 0xA10, 'including the 32-bit programmers' model extension' - the layout of
 * Table H7-1 (the model has no FEAT_PMUv3_EXT64 without the PMU). */
EXT_READ_FN(ext_read_PMDEVARCH)
{
    (void)bits;
    (void)a;
    (void)m;
    const uint64_t archid = PCSROnly(pe)                            ? 0x0A10
                            : IsFeatureImplemented(pe, PMUv3_EXT64) ? 0x2A26
                                                                    : 0x2A16;
    return 0x23Bull << 21 | 1ull << 20 | archid;
}

/* PMDEVID: EXTPMN (FEAT_PMUv3_EXTPMN), PMSS (FEAT_PMUv3_SS), PCSample
 * (0b0010 FEAT_PCSRv8p9, 0b0001 FEAT_PCSRv8p2, else 0b0000: 'FEAT_PCSRv8p2
 * implements the functionality identified by the value 0b0001', 'FEAT_PCSRv8p9
 * ... 0b0010', and from Armv8.9 0b0001 is not permitted with FEAT_PCSRv8p9).
 * With FEAT_PCSRv8 the PC sample registers are in the external debug block:
 * PCSample is 0b0000 (EDDEVID.PCSample reports them). */
EXT_READ_FN(ext_read_PMDEVID)
{
    (void)bits;
    (void)a;
    (void)m;
    const uint64_t pcsample = IsFeatureImplemented(pe, PCSRv8p9)   ? 2
                              : IsFeatureImplemented(pe, PCSRv8p2) ? 1
                                                                   : 0;
    return (uint64_t)IsFeatureImplemented(pe, PMUv3_EXTPMN) << 8 |
           (uint64_t)IsFeatureImplemented(pe, PMUv3_SS) << 4 | pcsample;
}

/* PMDEVTYPE: SUB 0b0001, MAJOR 0b0110 ('FEAT_PMUv3 implements the
 * functionality described by the value 0b0110'), or, for the PC sample
 * registers without the PMU, 'PMDEVTYPE.MAJOR has the value 0x0' (H7.1.2). */
EXT_READ_FN(ext_read_PMDEVTYPE)
{
    (void)bits;
    (void)a;
    (void)m;
    return PCSROnly(pe) ? 0x10 : 0x16;
}

/* PMPIDR0.PART_0: the part number's low byte, PMIIDR.ProductID[7:0]
 * ('Matches the PMPIDR1.PART_1, PMPIDR0.PART_0 fields'). */
EXT_READ_FN(ext_read_PMPIDR0)
{
    (void)bits;
    (void)a;
    (void)m;
    return (OPTION_VALUE(pe, PMIIDR) >> 20) & 0xff;
}

/* PMCIDR0.PRMBL_0: 'Reads as 0x0D'. */
EXT_READ_FN(ext_read_PMCIDR0)
{
    (void)bits;
    (void)pe;
    (void)a;
    (void)m;
    return 0x0D;
}

/* A write the model's CONSTRAINED UNPREDICTABLE choice makes do nothing
 * (PMSWINC_EL0: no SW_INCR event). */
EXT_WRITE_FN(ext_write_ignored)
{
    (void)bits;
    (void)pe;
    (void)a;
    (void)m;
    (void)value;
}

/* ---- The PC sample registers (external_pcsr.def) ---- */

/* PMPCSR as it reads: bit [60] and bits [58:56] are RES0, and NSE [59]
 * without FEAT_RME (the stored value may hold UNKNOWN bits there). */
static uint64_t pmpcsr_view(const armprof_pe *pe, uint64_t v)
{
    uint64_t res0 = 1ull << 60 | BITS_MASK(58, 56);
    if (!IsFeatureImplemented(pe, RME)) res0 |= 1ull << 59;
    return v & ~res0;
}

/* PMPCSR (EXT64) and PMPCSR[31:0] (EXT32), at 0x200 and at 0x220. A read that
 * covers bits [31:0] is Read_PMPCSR(memory_mapped) with its side effects:
 * 'Only a 64-bit access to PMPCSR[63:0] or a 32-bit access to PMPCSR[31:0]
 * updates the PC sample registers'. A 32-bit read of bits [63:32] of the
 * 64-bit location, and the value reported after a (ignored) write, are the
 * register as the last sample left it. */
EXT_READ_FN(ext_read_PMPCSR)
{
    (void)m;
    const uint64_t v = (bits & 0xffffffffu) ? Read_PMPCSR(pe, a->memory_mapped) : pe->pcsr.pmpcsr;
    return pmpcsr_view(pe, v);
}

/* PMPCSR[63:32] (EXT32), at 0x204 and 0x224: 'A 32-bit access to
 * PMPCSR[63:32] does not update the PC sample registers.' */
EXT_READ_FN(ext_read_PMPCSR_HI)
{
    (void)a;
    (void)m;
    (void)bits;
    return pmpcsr_view(pe, pe->pcsr.pmpcsr) >> 32;
}

/* The VMID bits of PMVIDSR.VMID / PMVCIDSR.VMID: [15:8] 'When FEAT_VMID16 is
 * implemented', RES0 otherwise. */
static uint64_t vmid_mask(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, VMID16) ? 0xffff : 0xff;
}

/* PMCID1SR (0x208, 0x228): CONTEXTIDR_EL1 of the last sample. */
EXT_READ_FN(ext_read_PMCID1SR)
{
    (void)a;
    (void)m;
    (void)bits;
    return pe->pcsr.pmcid1sr;
}

/* PMCID2SR (0x22C): CONTEXTIDR_EL2 of the last sample. */
EXT_READ_FN(ext_read_PMCID2SR)
{
    (void)a;
    (void)m;
    (void)bits;
    return pe->pcsr.pmcid2sr;
}

/* PMVIDSR (0x20C): bits [31:16] RES0, VMID [15:0]. */
EXT_READ_FN(ext_read_PMVIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return pe->pcsr.pmvidsr & vmid_mask(pe);
}

/* PMVCIDSR (0x208, EXT64): bits [63:48] RES0, VMID [47:32], CONTEXTIDR_EL1
 * [31:0] - 'the same content' as PMVIDSR and PMCID1SR. */
EXT_READ_FN(ext_read_PMVCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return (pe->pcsr.pmvidsr & vmid_mask(pe)) << 32 | pe->pcsr.pmcid1sr;
}

/* PMCCIDSR (0x228, EXT64): CONTEXTIDR_EL2 [63:32], CONTEXTIDR_EL1 [31:0] -
 * 'the same content' as PMCID2SR and PMCID1SR. */
EXT_READ_FN(ext_read_PMCCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return (uint64_t)pe->pcsr.pmcid2sr << 32 | pe->pcsr.pmcid1sr;
}

#define PMPCSCTL_EN  (1u << 0)
#define PMPCSCTL_IMP (1u << 1)
#define PMPCSCTL_SS  (1u << 4)

/* The PMPCSCTL fields: SS 'When FEAT_PMUv3_SS is implemented' (RES0
 * otherwise), IMP (RO, option pcsr_pmpcsctl_imp from reset), EN 'When
 * PMU.PMPCSCTL.IMP == '1'' ('Otherwise: Reserved, RAZ/WI'). */
static uint64_t pmpcsctl_fields(const armprof_pe *pe)
{
    uint64_t f = PMPCSCTL_IMP;
    if (pe->pcsr.pmpcsctl & PMPCSCTL_IMP) f |= PMPCSCTL_EN;
    if (IsFeatureImplemented(pe, PMUv3_SS)) f |= PMPCSCTL_SS;
    return f;
}

/* PMPCSCTL (0xE50): SS [4], IMP [1], EN [0]; bits [63:5] and [3:2] RES0. */
EXT_READ_FN(ext_read_PMPCSCTL)
{
    (void)a;
    (void)m;
    (void)bits;
    return pe->pcsr.pmpcsctl & pmpcsctl_fields(pe);
}

/* A write is pcsr_write_pmpcsctl() (the PC sampling unit keeps IMP, and
 * applies the writable fields and what entering suspended state or setting SS
 * does to later samples). A 32-bit write to one word of the 64-bit location
 * leaves the other as it reads. */
EXT_WRITE_FN(ext_write_PMPCSCTL)
{
    (void)a;
    (void)m;
    const uint64_t v = (pe->pcsr.pmpcsctl & pmpcsctl_fields(pe) & ~bits) | (value & bits);
    pcsr_write_pmpcsctl(pe, (uint32_t)v);
}

/* ---- The external debug block (external_debug.def) ---- */

/* EDSCR.SC2 'When FEAT_PCSRv8 is implemented, EL2 is implemented,
 * FEAT_Debugv8p1 is implemented, and FEAT_PCSRv8p2 is not implemented';
 * RES0 otherwise. */
static bool edscr_sc2_implemented(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8) && HaveEL(pe, EL2) &&
           IsFeatureImplemented(pe, Debugv8p1) && !IsFeatureImplemented(pe, PCSRv8p2);
}

/* EDPCSR and EDVIDSR have the EDSCR.SC2 == '1' format: 'If FEAT_Debugv8p1 is
 * implemented, the format of this register differs depending on the value of
 * EDSCR.SC2' (EDVIDSR: 'When EL2 is implemented, FEAT_Debugv8p1 is
 * implemented, and EDSCR.SC2 == '1''). SC2 can be 1 only where it is
 * implemented, which includes both conditions. */
static bool edscr_sc2_format(const armprof_pe *pe)
{
    return edscr_sc2_implemented(pe) && pe->pcsr.edscr_sc2;
}

/* EDSCR.RW in Debug state: the Execution state of each Exception level
 * (RW[3] EL3 ... RW[0] EL0). 0b1111 when EL1 (and so EL0 unless at EL0
 * using AArch32) uses AArch64; 0b1110 in Debug state at EL0 using AArch32
 * with EL1 using AArch64; 0b110x with EL0 and EL1 using AArch32 and EL2
 * enabled using AArch64; 0b10xx with EL3 using AArch64 only; 0b0xxx with every
 * Exception level using AArch32. The x bits are given as 0: the Exception
 * levels they stand for use AArch32 or are not implemented. */
static uint32_t edscr_rw_debug(const armprof_pe *pe)
{
    if (!ELUsingAArch32(pe, EL1)) return pe->ctx.el == EL0 && ELUsingAArch32(pe, EL0) ? 0xE : 0xF;
    if (HaveEL(pe, EL2) && EL2Enabled(pe) && !ELUsingAArch32(pe, EL2)) return 0xC;
    if (HaveEL(pe, EL3) && !ELUsingAArch32(pe, EL3)) return 0x8;
    return 0;
}

/* EDSCR, the fields the model has state for:
 *   SC2 [19]      the PC sampling control (pe->pcsr.edscr_sc2), RW where
 *                 implemented. Its indirect access through MDSCR_EL1 under
 *                 the OS Lock is not modelled (MDSCR_EL1 is not declared).
 *   NS [18], NSE [15] (FEAT_RME)
 *                 in Debug state the current Security state; UNKNOWN/WI in
 *                 Non-debug state (the bits of option unknown_fill).
 *   SDD [16]      RO: EDSCR_SDD() - latched on entry to Debug state, the
 *                 inverse of the authentication in Non-debug state.
 *   RW [13:10]    RAO/WI in Non-debug state, edscr_rw_debug() in Debug state.
 *   EL [9:8]      RAZ/WI in Non-debug state, PSTATE.EL in Debug state.
 *   STATUS [5:0]  0b000010 'PE is in Non-debug state'; in Debug state the
 *                 halting reason, which the model's Debug state entry does not
 *                 carry: 0b010011 'External debug request' (the scenario's
 *                 `debug on` stands for the debugger halting the PE).
 * The other fields (TFO, RXfull, TXfull, ITO, RXO, TXU, PipeAdv, ITE, INTdis,
 * TDA, MA, HDE, A, ERR) belong to halting debug and the DCC, which the model
 * does not implement: they read as 0 and writes to them are ignored. */
EXT_READ_FN(ext_read_EDSCR)
{
    (void)a;
    (void)m;
    (void)bits;
    const bool halted = Halted(pe), rme = IsFeatureImplemented(pe, RME);
    uint64_t v = 0;
    if (edscr_sc2_format(pe)) v |= 1u << 19;
    if (halted) {
        const armprof_security_state ss = CurrentSecurityState(pe);
        if (rme) {
            v |= (uint64_t)(ss == ARMPROF_SS_NONSECURE || ss == ARMPROF_SS_REALM) << 18;
            v |= (uint64_t)(ss == ARMPROF_SS_ROOT || ss == ARMPROF_SS_REALM) << 15;
        } else {
            v |= (uint64_t)(ss != ARMPROF_SS_SECURE) << 18;
        }
        v |= (uint64_t)edscr_rw_debug(pe) << 10 | (uint64_t)(pe->ctx.el & 3) << 8 | 0x13;
    } else {
        const uint64_t unknown = 1ull << 18 | (rme ? 1ull << 15 : 0);
        v |= (OPTION_VALUE(pe, UNKNOWN_FILL) & unknown) | 0xFull << 10 | 0x02;
    }
    v |= (uint64_t)EDSCR_SDD(pe) << 16;
    return v;
}

/* A write to EDSCR sets SC2 where it is implemented; the rest is RO or not
 * modelled (ext_read_EDSCR). */
EXT_WRITE_FN(ext_write_EDSCR)
{
    (void)a;
    (void)m;
    if (edscr_sc2_implemented(pe) && (bits & (1u << 19))) pe->pcsr.edscr_sc2 = (value >> 19) & 1;
}

/* EDPCSR[31:0] (0x0A0): a read is Read_EDPCSRlo(memory_mapped), with its side
 * effects on EDPCSRhi, EDCIDSR and EDVIDSR. EDPCSRlo has no stored value of
 * its own, so what an (ignored, RO) write reports is 0: the write reads
 * nothing. */
EXT_READ_FN(ext_read_EDPCSR_LO)
{
    (void)m;
    return (bits & 0xffffffffu) ? Read_EDPCSRlo(pe, a->memory_mapped) : 0;
}

/* EDPCSR[63:32] (0x0AC): EDPCSRhi as the last read of EDPCSR[31:0] left it.
 * In the EDSCR.SC2 == '1' format, EDPCSR bits [60:56] (bits [28:24] of this
 * word) are RES0. */
EXT_READ_FN(ext_read_EDPCSR_HI)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint32_t hi = pe->pcsr.edpcsrhi;
    return edscr_sc2_format(pe) ? hi & ~(uint32_t)BITS_MASK(28, 24) : hi;
}

/* EDCIDSR (0x0A4): the Context ID of the last EDPCSR sample. */
EXT_READ_FN(ext_read_EDCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return pe->pcsr.edcidsr;
}

/* EDVIDSR (0x0A8). In the EDSCR.SC2 == '1' format, CONTEXTIDR_EL2 [31:0].
 * Otherwise NS [31], E2 [30] 'When EL2 is implemented', E3 [29] 'When EL3 is
 * implemented and FEAT_AA64 is implemented', HV [28], bits [27:16] RES0, VMID
 * [15:8] 'When FEAT_VMID16 is implemented and EL2 is implemented', VMID [7:0]
 * 'When EL2 is implemented'; RES0 where the condition fails. */
EXT_READ_FN(ext_read_EDVIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint32_t v = pe->pcsr.edvidsr;
    if (edscr_sc2_format(pe)) return v;
    uint32_t mask = 1u << 31 | 1u << 28;
    if (HaveEL(pe, EL2)) mask |= 1u << 30 | 0xffu;
    if (HaveEL(pe, EL3) && IsFeatureImplemented(pe, AA64)) mask |= 1u << 29;
    if (HaveEL(pe, EL2) && IsFeatureImplemented(pe, VMID16)) mask |= 0xff00u;
    return v & mask;
}

/* FEAT_PCSRv8 (the PC sample registers in the external debug block), and
 * whether EDVIDSR is among them (its entry's present column: option
 * pcsr_edvidsr without EL2 and EL3). */
static bool PCSRv8Registers(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8) && !IsFeatureImplemented(pe, PCSRv8p2);
}
static bool EDVIDSRImplemented(const armprof_pe *pe)
{
    return ext_table[EXT_EDVIDSR].present(&pe->cfg);
}

/* EDDEVID (0xFC8): AuxRegs [27:24] 0b0000 (EDACR is not implemented),
 * DebugPower [7:4] 0b0001 with FEAT_DoPD, PCSample [3:0]: 0b0011 'EDPCSR,
 * EDCIDSR, and EDVIDSR are implemented', 0b0010 'Only EDPCSR and EDCIDSR are
 * implemented' (permitted only without EL3 and EL2: option pcsr_edvidsr),
 * 0b0000 without FEAT_PCSRv8 ('When FEAT_PCSRv8p2 is implemented, the only
 * permitted value is 0b0000'). */
EXT_READ_FN(ext_read_EDDEVID)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint64_t pcsample = !PCSRv8Registers(pe) ? 0 : EDVIDSRImplemented(pe) ? 3 : 2;
    return (uint64_t)IsFeatureImplemented(pe, DoPD) << 4 | pcsample;
}

/* EDDEVID1 (0xFC4): HSR [7:4] 0b0010 with FEAT_Debugv8p9 ('From Armv8.9, the
 * values 0b0000 and 0b0001 are not permitted'), otherwise 0b0000 (EDHSR is not
 * modelled); PCSROffset [3:0] 0b0010 'EDPCSR implemented, and samples have no
 * offset applied' with FEAT_PCSRv8, 0b0000 'EDPCSR not implemented' otherwise
 * (the only value permitted with FEAT_PCSRv8p2). */
EXT_READ_FN(ext_read_EDDEVID1)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint64_t hsr = IsFeatureImplemented(pe, Debugv8p9) ? 2 : 0;
    return hsr << 4 | (PCSRv8Registers(pe) ? 2 : 0);
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
 * has no separate External debug reset; a Cold reset (power-on) includes one.
 * Without the Software Lock, SLK is RES0 and the lock is never set, so that
 * Read_PMPCSR(), which reads PMLSR.SLK, sees '0'. */
void external_reset(armprof_pe *pe, bool cold)
{
    pe->ext.access = NULL;
    if (cold) pe->ext.pmlsr_slk = HaveSoftwareLock(pe);
}

/* ---- Accesses ---- */

/* Whether a component's block is there: the PMU block with FEAT_PMUv3_EXT,
 * and with FEAT_PCSRv8p2 without the PMU, where the PC sample registers are
 * 'implemented in their own memory-mapped register space, within the area
 * that is reserved for the Performance Monitors' (H7.1.2; with the CoreSight
 * management registers, which give PMDEVARCH.ARCHID and PMDEVTYPE.MAJOR their
 * values); the external debug block always. */
static bool component_present(const armprof_pe *pe, unsigned component)
{
    if (component == ARMPROF_EXT_DEBUG) return true;
    return IsFeatureImplemented(pe, PMUv3_EXT) || PCSROnly(pe);
}

static bool entry_present(const armprof_pe *pe, unsigned id)
{
    const ext_desc *d = &ext_table[id];
    if (!component_present(pe, d->component) || !d->present(&pe->cfg)) return false;
    return d->sysreg < 0 || pe->info[d->sysreg].present;
}

/* The location an access reaches: entry, instance, and the word of a 64-bit
 * location a 4-byte access selects. */
typedef struct ext_location {
    int id;
    unsigned m;
    unsigned word; /* 0: the whole location, or its word at the offset; 1: bits [63:32] */
} ext_location;

enum {
    LOC_UNMODELLED = -2, /* debug block: no entry declares the offset in any configuration */
    LOC_SIZE = -1,       /* a location overlaps but does not take this size at this offset */
    LOC_RESERVED = 0,    /* no location of this configuration overlaps: RES0 */
    LOC_FOUND = 1,
};

static bool overlaps(const ext_desc *d, unsigned m, uint32_t offset, unsigned size)
{
    const uint32_t base = d->offset + (uint32_t)m * d->stride;
    return offset + size > base && offset < base + d->width / 8u;
}

static int find_location(const armprof_pe *pe, unsigned component, uint32_t offset, unsigned size,
                         ext_location *loc)
{
    int result = LOC_RESERVED;
    bool declared = false;
    for (unsigned id = 0; id < EXT_COUNT; id++) {
        const ext_desc *d = &ext_table[id];
        const unsigned bytes = d->width / 8u;
        if (d->component != component || offset + size <= d->offset) continue;
        for (unsigned m = 0; m < d->count && !declared; m++)
            declared = overlaps(d, m, offset, size);
        if (!entry_present(pe, id)) continue;
        for (unsigned m = 0; m < d->count; m++) {
            const uint32_t base = d->offset + (uint32_t)m * d->stride;
            if (!overlaps(d, m, offset, size)) continue;
            if (size == bytes && offset == base) {
                *loc = (ext_location){(int)id, m, 0};
                return LOC_FOUND;
            }
            if (size == 4 && bytes == 8) {
                *loc = (ext_location){(int)id, m, (offset - base) / 4u};
                return LOC_FOUND;
            }
            result = LOC_SIZE;
        }
    }
    /* I5.2.1 (PMU): 'All other entries are reserved'. The debug block has
     * registers the model does not implement. */
    if (result == LOC_RESERVED && component == ARMPROF_EXT_DEBUG && !declared)
        return LOC_UNMODELLED;
    return result;
}

/* The bits of the System register the location shows start at bit 32 when the
 * mask has none below it (HI32). */
static unsigned view_shift(uint64_t mask)
{
    return (mask & 0xffffffffu) == 0 ? 32 : 0;
}

/* The location's value (width bits). WO locations read as zero. bits: the
 * location's bits the access reads, 0 for the value reported after a write
 * (ext_read_fn). */
static uint64_t location_read(armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                              unsigned m, uint64_t bits)
{
    if (d->flags & EXT_WO) return 0;
    if (d->read) return d->read(pe, a, m, bits);
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
        d->write(pe, a, m, value & words, words);
        return;
    }
    if (d->sysreg < 0) return;
    const unsigned sr = (unsigned)d->sysreg, sh = view_shift(d->mask);
    const uint64_t writable = (words << sh) & d->mask;
    const uint64_t bits = (value << sh) & writable;
    const uint64_t keep = (d->flags & EXT_W1) ? 0 : sysreg_read(pe, sr, m) & ~writable;
    sysreg_write(pe, sr, m, keep | bits);
    pe_controls_changed(pe);
}

static armprof_ext_outcome ext_access(armprof_pe *pe, unsigned component, uint32_t offset,
                                      unsigned size, bool is_read, uint64_t value,
                                      const armprof_ext_access *how)
{
    armprof_ext_outcome o = {.kind = ARMPROF_EXT_OK, .reg = -1, .sysreg = -1};
    const armprof_ext_access a = how ? *how : (armprof_ext_access){ARMPROF_PAS_NONSECURE, false};
    if ((size != 4 && size != 8) || offset % size != 0 || offset >= 0x1000) {
        o.kind = ARMPROF_EXT_UNMODELLED;
        o.why = "access size or alignment";
        return o;
    }
    ext_location loc = {-1, 0, 0}; /* set by find_location() when it finds one */
    const int found = find_location(pe, component, offset, size, &loc);
    if (found == LOC_UNMODELLED) {
        o.kind = ARMPROF_EXT_UNMODELLED;
        o.why = "register not modelled";
        return o;
    }
    if (found == LOC_SIZE) {
        o.kind = ARMPROF_EXT_UNMODELLED;
        o.why = "access size for this location";
        return o;
    }
    if (found == LOC_RESERVED) {
        /* I5.2.1: 'All other entries are reserved' - RES0; a register of the
         * debug block absent in this configuration: 'direct accesses to
         * <register> are RES0'. */
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
    /* A write reports the value the location reads as afterwards, without
     * the side effects of a read (bits 0). */
    const uint64_t read_bits = is_read ? size_mask << word_shift : 0;
    o.value = (location_read(pe, &a, d, loc.m, read_bits) >> word_shift) & size_mask;
    pe->ext.access = NULL;
    return o;
}

armprof_ext_outcome armprof_external_read(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                          const armprof_ext_access *how)
{
    return ext_access(pe, ARMPROF_EXT_PMU, offset, size_bytes, true, 0, how);
}

armprof_ext_outcome armprof_external_write(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                           uint64_t value, const armprof_ext_access *how)
{
    return ext_access(pe, ARMPROF_EXT_PMU, offset, size_bytes, false, value, how);
}

armprof_ext_outcome armprof_external_debug_read(armprof_pe *pe, uint32_t offset,
                                                unsigned size_bytes, const armprof_ext_access *how)
{
    return ext_access(pe, ARMPROF_EXT_DEBUG, offset, size_bytes, true, 0, how);
}

armprof_ext_outcome armprof_external_debug_write(armprof_pe *pe, uint32_t offset,
                                                 unsigned size_bytes, uint64_t value,
                                                 const armprof_ext_access *how)
{
    return ext_access(pe, ARMPROF_EXT_DEBUG, offset, size_bytes, false, value, how);
}

/* ---- Table queries and context for the public API ---- */

size_t armprof_ext_reg_count(void)
{
    return EXT_COUNT;
}

armprof_ext_component armprof_ext_reg_component(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? (armprof_ext_component)ext_table[reg].component
                                       : ARMPROF_EXT_PMU;
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
