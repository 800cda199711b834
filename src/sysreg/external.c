/* SPDX-License-Identifier: BSD-3-Clause */
/* The external (memory-mapped) interfaces: the PMU block (chapter I5 and the
 * registers/<NAME>.external.md pages, with the PC sample registers of
 * FEAT_PCSRv8p2, H7.1.2) and the external debug block (chapter H9, the
 * registers/<NAME>.external-debug.md pages: FEAT_PCSRv8, EDSCR, the
 * identification). One machinery serves both: the locations are declared
 * once, by their owners (pe/external_all.def lists the files), each with its
 * component; a location that is a view of a System register is read and
 * written through that register's storage and hooks
 * (sysreg_read()/sysreg_write()), so an external write of 1 to
 * PMU.PMSSCR_EL1.SS requests a Capture event exactly as MSR PMSSCR_EL1 does.
 * What differs is who may access: each page's 'Accessing' bullets, the perm
 * column: the external debug block's and the CoreSight registers' below,
 * the PMU block's in pmu/external_access.c (the PC sample registers' pages
 * there included). Here are the helpers of J1.3.1 both blocks
 * use (IsCorePowered(), DoubleLockStatus(), SoftwareLockStatus(),
 * IsMostSecureAccess(), ...) and the generic mechanism. */
#include "sysreg/external.h"

#include <string.h>

#include "core/arch.h"
#include "sysreg/sysreg.h"

/* ---- Pseudocode helpers (J1.3.1) ---- */

/* IsCorePowered() */
bool IsCorePowered(const armprof_pe *pe)
{
    return pe->ctx.core_powered;
}

/* OSLockStatus() is in core/arch.h. */

/* DoubleLockStatus(): OSDLR_EL1.DLK == '1' && DBGPRCR_EL1.CORENPDRQ == '0' &&
 * !Halted(). */
bool DoubleLockStatus(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, DoubleLock)) return false;
    return pe->ctx.os_double_lock && FIELD(pe, DBGPRCR_EL1, CORENPDRQ) == 0 && !Halted(pe);
}

/* HaveSoftwareLock(component): 'if IsFeatureImplemented(FEAT_Debugv8p4)
 * then return FALSE; if IsFeatureImplemented(FEAT_DoPD) && component !=
 * Component_CTI then return FALSE', then IMPLEMENTATION DEFINED "PMU has
 * Software Lock" (option pmu_software_lock) or "Debug has Software Lock"
 * (option ed_software_lock). */
bool HaveSoftwareLock(const armprof_pe *pe, unsigned component)
{
    if (IsFeatureImplemented(pe, Debugv8p4) || IsFeatureImplemented(pe, DoPD)) return false;
    return component == ARMPROF_EXT_DEBUG ? OPTION_VALUE(pe, ED_SOFTWARE_LOCK) != 0
                                          : OPTION_VALUE(pe, PMU_SOFTWARE_LOCK) != 0;
}

/* SoftwareLockStatus() with GetAccessComponent() == component: PMLSR.SLK or
 * EDLSR.SLK. It 'depends on the type of access attempted': SLK is RES0 'for
 * an access to LSR that is not a memory-mapped access', so the lock binds
 * memory-mapped accesses only. */
bool SoftwareLockStatus(const armprof_pe *pe, const armprof_ext_access *a, unsigned component)
{
    if (!HaveSoftwareLock(pe, component) || !a->memory_mapped) return false;
    const pe_external *x = &SYSREG_LEVEL(pe)->ext;
    return component == ARMPROF_EXT_DEBUG ? x->edlsr_slk : x->pmlsr_slk;
}

/* NonSecureOnlyImplementation(): without EL3 the PE has one Security state,
 * option secure_only_implementation. */
bool NonSecureOnlyImplementation(const armprof_pe *pe)
{
    return !HaveEL(pe, EL3) && !OPTION_VALUE(pe, SECURE_ONLY);
}

/* IsMostSecureAccess(). The last branch asserts the PAS is Non-secure; an
 * access from another PAS to a Non-secure-only PE is taken as not Most
 * secure. */
bool IsMostSecureAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    if (IsFeatureImplemented(pe, RME)) return a->pas == ARMPROF_PAS_ROOT;
    if (HaveEL(pe, EL3) || OPTION_VALUE(pe, SECURE_ONLY)) return a->pas == ARMPROF_PAS_SECURE;
    return a->pas == ARMPROF_PAS_NONSECURE;
}

/* AllowExternalPMUAccess() and AllowExternalDebugAccess() differ only in the
 * MDCR_EL3 controls they read: ade:ad is <EPMADE,EPMAD> or <EDADE,EDAD>. With
 * EL3 using AArch32 the pseudocode reads SDCR.EPMAD or SDCR.EDAD: SDCR is
 * architecturally mapped to MDCR_EL3[31:0], the bits at the same positions,
 * so the model reads the one state. */
bool allow_external_access(const armprof_pe *pe, const armprof_ext_access *a, unsigned ade,
                           unsigned ad)
{
    const armprof_pas pas = a->pas;
    if (IsFeatureImplemented(pe, RME)) {
        switch (ade << 1 | ad) {
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
    if (HaveEL(pe, EL3)) return ad == 0;
    return NonSecureOnlyImplementation(pe);
}

/* AllowExternalDebugAccess() (the External DBGBVR<n>_EL1 ... registers and,
 * from Armv8.2, OSLAR_EL1): MDCR_EL3.<EDADE,EDAD>. */
bool AllowExternalDebugAccess(const armprof_pe *pe, const armprof_ext_access *a)
{
    return allow_external_access(pe, a, (unsigned)FIELD(pe, MDCR_EL3, EDADE),
                                 (unsigned)FIELD(pe, MDCR_EL3, EDAD));
}

/* FEAT_PCSRv8p2 without the Performance Monitors Extension: the PC sample
 * registers alone in the area reserved for the PMU (H7.1.2, Table H7-1). */
bool PCSROnly(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8p2) && !IsFeatureImplemented(pe, PMUv3);
}

/* ---- The Accessing bullets (perm column) ---- */

/* The Software Lock bullet of an entry that has one (EXT_SWLOCK): 'When
 * SoftwareLockStatus(), accesses to this register are RO' (WI for a WO
 * register). */
static ext_decision swlock_bullet(const armprof_pe *pe, const armprof_ext_access *a,
                                  const ext_desc *d, const char **why)
{
    if ((d->flags & EXT_SWLOCK) && SoftwareLockStatus(pe, a, d->component)) {
        *why = "SoftwareLockStatus()";
        return EXT_WI;
    }
    return EXT_ALLOW;
}

/* The CoreSight management registers of both blocks (PMLAR, PMLSR,
 * PMAUTHSTATUS, PMDEVARCH, PMDEVID, PMDEVTYPE, PMPIDR<n>, PMCIDR<n>,
 * PMDEVAFF<n>; EDLAR, EDLSR, EDDEVARCH, EDDEVTYPE, EDDEVID<n>, EDPIDR<n>,
 * EDCIDR<n>, EDDEVAFF<n>, EDITCTRL), and EDPRCR and EDPRSR: 'When FEAT_DoPD is
 * implemented and !IsCorePowered(), accesses to this register generate an
 * error response' (ERROR); without FEAT_DoPD they are in the Debug power
 * domain, which the model keeps powered. Then the Software Lock bullet, for
 * the entries that have one (EDPRCR, EDITCTRL: 'When SoftwareLockStatus(),
 * accesses to this register are RO'). */
ext_decision perm_DOPD(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                       unsigned n, const char **why)
{
    (void)n;
    if (IsFeatureImplemented(pe, DoPD) && !IsCorePowered(pe))
        return ext_refuse(why, "!IsCorePowered()");
    return swlock_bullet(pe, a, d, why);
}

/* The debug registers in the Core power domain without an OS Lock bullet
 * (EDCLAIMSET, EDCLAIMCLR; docs/spec-notes.md): DoubleLockStatus() or
 * !IsCorePowered() -> ERROR; SoftwareLockStatus() -> RO; otherwise RW. */
ext_decision perm_CORE(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                       unsigned n, const char **why)
{
    (void)n;
    if (DoubleLockStatus(pe)) return ext_refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return ext_refuse(why, "!IsCorePowered()");
    return swlock_bullet(pe, a, d, why);
}

/* OSLAR_EL1 in the external debug block (OSLAR_EL1.external-debug.md): 'When
 * (DoubleLockStatus() || (!IsCorePowered())) || ((!AllowExternalDebugAccess(
 * addrdesc)) && IsFeatureImplemented(FEAT_Debugv8p2)), accesses to this
 * register return an ERROR'; 'When AllowExternalDebugAccess(addrdesc) and
 * SoftwareLockStatus(), accesses to this register are WI'; then WO. Without
 * FEAT_Debugv8p2 'it is IMPLEMENTATION DEFINED whether external debug
 * accesses to OSLAR_EL1 are ignored and return an error when
 * AllowExternalDebugAccess() returns FALSE' (option ed_oslar_edad; its
 * default is the Armv8.2 rule). */
ext_decision perm_EDOSLAR(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                          unsigned n, const char **why)
{
    (void)n;
    if (DoubleLockStatus(pe)) return ext_refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return ext_refuse(why, "!IsCorePowered()");
    const bool checked = IsFeatureImplemented(pe, Debugv8p2) || OPTION_VALUE(pe, ED_OSLAR_EDAD);
    if (checked && !AllowExternalDebugAccess(pe, a))
        return ext_refuse(why, "!AllowExternalDebugAccess()");
    return swlock_bullet(pe, a, d, why);
}

/* The external debug registers EDPCSR, EDCIDSR, EDVIDSR and EDSCR: 'When
 * DoubleLockStatus(), or !IsCorePowered(), or OSLockStatus(), accesses to this
 * register return an ERROR.' (OSLockStatus() alone: these pages have no
 * FEAT_PMUv3_EXTPMN term.) Then EDSCR's 'When SoftwareLockStatus(), accesses
 * to this register are RO' (its entry has EXT_SWLOCK). */
ext_decision perm_DBG(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,
                      unsigned n, const char **why)
{
    (void)n;
    if (DoubleLockStatus(pe)) return ext_refuse(why, "DoubleLockStatus()");
    if (!IsCorePowered(pe)) return ext_refuse(why, "!IsCorePowered()");
    if (OSLockStatus(pe)) return ext_refuse(why, "OSLockStatus()");
    return swlock_bullet(pe, a, d, why);
}

/* PMLSR.SLK and EDLSR.SLK: 'On a External debug reset, this field resets to
 * '1''. The model has no separate External debug reset; a Cold reset
 * (power-on) includes one. Without the Software Lock, SLK is RES0 and the lock
 * is never set, so that Read_PMPCSR(), which reads PMLSR.SLK, sees '0'.
 * EDPRCR.COREPURQ: 'On an External debug reset this field resets to 0'. The
 * claim tags: 0 on a Cold reset (docs/spec-notes.md). EDPRSR: SPD 'On a Cold
 * reset, this field resets to '1'', SPMAD, SDAD and STAD to '0'; SR 'On a Warm
 * reset, this field resets to '1''; SDR 'On a Warm reset, this field resets
 * to an architecturally UNKNOWN value': 0, the bit of option unknown_fill. */
void external_reset(armprof_pe *pe, bool cold)
{
    pe_external *x = &SYSREG_LEVEL(pe)->ext;
    if (cold) {
        x->pmlsr_slk = HaveSoftwareLock(pe, ARMPROF_EXT_PMU);
        x->edlsr_slk = HaveSoftwareLock(pe, ARMPROF_EXT_DEBUG);
        x->edprcr_corepurq = false;
        x->claim = 0;
        x->edprsr = EDPRSR_SPD;
    }
    x->edprsr = (uint16_t)((x->edprsr & ~EDPRSR_SDR) | EDPRSR_SR |
                           (OPTION_VALUE(pe, UNKNOWN_FILL) & EDPRSR_SDR));
}

void ext_edprsr_set(armprof_pe *pe, unsigned bits)
{
    SYSREG_LEVEL(pe)->ext.edprsr |= (uint16_t)(bits & EDPRSR_STICKY);
}

/* An access refused because AllowExternalPMUAccess() or
 * AllowExternalDebugAccess() is FALSE sets EDPRSR.SPMAD or EDPRSR.SDAD. With
 * FEAT_Debugv8p4 the pages count 'Non-secure external debug interface
 * accesses' only (SPMAD needs FEAT_PMUv3_EXT, where the field exists). */
static void note_refusal(armprof_pe *pe, const armprof_ext_access *a, const char *why)
{
    if (!why) return;
    if (IsFeatureImplemented(pe, Debugv8p4) && a->pas != ARMPROF_PAS_NONSECURE) return;
    if (!strcmp(why, "!AllowExternalPMUAccess()") && IsFeatureImplemented(pe, PMUv3_EXT))
        ext_edprsr_set(pe, EDPRSR_SPMAD);
    else if (!strcmp(why, "!AllowExternalDebugAccess()"))
        ext_edprsr_set(pe, EDPRSR_SDAD);
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

bool ext_entry_present(const armprof_pe *pe, unsigned id)
{
    const ext_desc *d = &ext_catalog_of(pe)->regs[id];
    if (!component_present(pe, d->component) || !d->present(&pe->cfg)) return false;
    return d->sysreg < 0 || sysreg_info(pe, (unsigned)d->sysreg)->state;
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

/* Where instance m of entry d starts in its block. */
static uint32_t instance_base(const ext_desc *d, unsigned m)
{
    return d->offset + (uint32_t)m * d->stride;
}

static bool overlaps(const ext_desc *d, unsigned m, uint32_t offset, unsigned size)
{
    const uint32_t base = instance_base(d, m);
    return offset + size > base && offset < base + d->width / 8u;
}

void external_configure(armprof_pe *pe)
{
    pe_external *x = &SYSREG_LEVEL(pe)->ext;
    const ext_catalog *cat = ext_catalog_of(pe);
    memset(x->first_entry, EXT_NO_ENTRY, sizeof x->first_entry);
    /* from the last entry down, so that the lowest id stays */
    for (unsigned id = cat->count; id-- > 0;) {
        const ext_desc *d = &cat->regs[id];
        for (unsigned m = 0; m < d->count; m++) {
            const uint32_t base = instance_base(d, m);
            for (uint32_t w = base / 4; w < (base + d->width / 8u + 3) / 4; w++)
                if (d->component < EXT_COMPONENTS && w < EXT_BLOCK_BYTES / 4)
                    x->first_entry[d->component][w] = (uint8_t)id;
        }
    }
}

/* The entries before the lowest one the index gives for the words the
 * access covers have no instance there, and so no part in the result. */
static int find_location(const armprof_pe *pe, unsigned component, uint32_t offset, unsigned size,
                         ext_location *loc)
{
    int result = LOC_RESERVED;
    bool declared = false;
    const uint8_t *first = SYSREG_LEVEL(pe)->ext.first_entry[component];
    unsigned start = EXT_NO_ENTRY;
    for (uint32_t w = offset / 4; w < (offset + size) / 4; w++)
        if (first[w] < start) start = first[w];
    for (unsigned id = start; id < ext_catalog_of(pe)->count; id++) {
        const ext_desc *d = &ext_catalog_of(pe)->regs[id];
        const unsigned bytes = d->width / 8u;
        if (d->component != component || offset + size <= d->offset) continue;
        for (unsigned m = 0; m < d->count && !declared; m++)
            declared = overlaps(d, m, offset, size);
        if (!ext_entry_present(pe, id)) continue;
        for (unsigned m = 0; m < d->count; m++) {
            const uint32_t base = instance_base(d, m);
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
    const uint64_t v =
        (sysreg_read(pe, a, (unsigned)d->sysreg, m) & d->mask) >> view_shift(d->mask);
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
    const uint64_t keep = (d->flags & EXT_W1) ? 0 : sysreg_read(pe, a, sr, m) & ~writable;
    sysreg_write(pe, a, sr, m, keep | bits);
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
    const ext_desc *d = &ext_catalog_of(pe)->regs[loc.id];
    o.reg = loc.id;
    o.index = loc.m;
    o.sysreg = d->sysreg;
    const char *why = NULL;
    const ext_decision dec = d->perm(pe, &a, d, loc.m, &why);
    o.why = why;
    if (dec == EXT_ERROR) {
        o.kind = ARMPROF_EXT_ERROR;
        note_refusal(pe, &a, why);
        return o;
    }
    if (dec == EXT_RAZWI) {
        o.ignored = !is_read;
        return o;
    }
    /* The word a 4-byte access to a 64-bit location selects. */
    const unsigned word_shift = size == 4 && d->width == 64 ? 32u * loc.word : 0;
    const uint64_t size_mask = size == 8 ? ~0ull : 0xffffffffull;
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
    const armprof_ext_outcome o =
        ext_access(pe, ARMPROF_EXT_PMU, offset, size_bytes, false, value, how);
    sysreg_notify(pe);
    return o;
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
    const armprof_ext_outcome o =
        ext_access(pe, ARMPROF_EXT_DEBUG, offset, size_bytes, false, value, how);
    sysreg_notify(pe);
    return o;
}

bool armprof_ext_reg_present(const armprof_pe *pe, int reg)
{
    return pe && reg >= 0 && (unsigned)reg < ext_catalog_of(pe)->count &&
           ext_entry_present(pe, (unsigned)reg);
}

const char *armprof_pas_name(armprof_pas pas)
{
    static const char *const names[] = {"Non-secure", "Secure", "Realm", "Root"};
    return (unsigned)pas < 4 ? names[pas] : "?";
}
