/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' external-only registers (pmu/regs/external_pmu.def):
 * PMCFGR, PMIIDR, the Software Lock (PMLAR, PMLSR), PMAUTHSTATUS and the
 * CoreSight identification registers, and the counters an external access
 * reaches (chapter I5 and the pages registers/<NAME>.external.md). */
#include "pmu/external.h"

#include "core/arch.h"
#include "sysreg/coresight.h"

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

/* PMLAR and PMLSR: the PMU's Software Lock (coresight_lar_write(),
 * coresight_lsr_read()). */
EXT_WRITE_FN(ext_write_PMLAR)
{
    (void)bits;
    (void)m;
    coresight_lar_write(pe, a, ARMPROF_EXT_PMU, value);
}

EXT_READ_FN(ext_read_PMLSR)
{
    (void)bits;
    (void)m;
    return coresight_lsr_read(pe, a, ARMPROF_EXT_PMU);
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

/* PMPIDR0..4 from option pmiidr (coresight_pidr(): 'Matches the
 * PMPIDR1.PART_1, PMPIDR0.PART_0 fields', 'Matches the PMPIDR2.REVISION
 * field', 'Matches the PMPIDR3.REVAND field'). */
EXT_PIDR_FN(ext_read_PMPIDR0, PMIIDR, 0)
EXT_PIDR_FN(ext_read_PMPIDR1, PMIIDR, 1)
EXT_PIDR_FN(ext_read_PMPIDR2, PMIIDR, 2)
EXT_PIDR_FN(ext_read_PMPIDR3, PMIIDR, 3)
EXT_PIDR_FN(ext_read_PMPIDR4, PMIIDR, 4)

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

/* ---- The counters an external access reaches ---- */

uint64_t ext_pmu_counter_mask(const armprof_pe *pe, const armprof_ext_access *a)
{
    unsigned n = (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
    if (IsFeatureImplemented(pe, PMUv3_EXTPMN) && !IsMostSecureAccess(pe, a) &&
        EffectiveEPMN(pe) < n)
        n = EffectiveEPMN(pe);
    uint64_t mask = 1ull << CYCLE_COUNTER_ID | ((1ull << n) - 1);
    if (IsFeatureImplemented(pe, PMUv3_ICNTR)) mask |= 1ull << INSTRUCTION_COUNTER_ID;
    return mask;
}
