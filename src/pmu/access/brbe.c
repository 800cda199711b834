/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the BRBE control registers (BRBCR_EL1, BRBCR_EL12,
 * BRBCR_EL2, BRBFCR_EL1): 'Accessing BRBCR_EL1' and 'Accessing BRBFCR_EL1'
 * (registers/BRBCR_EL1.md, BRBFCR_EL1.md); 'Accessing BRBCR_EL2' from the Arm
 * ARM, as the project's copy has no page for it. The leading
 * '!IsFeatureImplemented(FEAT_BRBE) then UNDEFINED' is the presence condition
 * (brbe.def). */
#include "pmu/pmu_regs.h"

/* The MDCR_EL3.SBRBE condition every BRBE page repeats as two lines:
 *   HaveEL(EL3) && MDCR_EL3.SBRBE != '11' && SCR_EL3.NS == '0'
 *   HaveEL(EL3) && MDCR_EL3.SBRBE IN {'x0'} && SCR_EL3.NS == '1'
 * Both lines lead to the same outcome (UNDEFINED when EL3SDDUndefPriority(),
 * else UNDEFINED or the trap to EL3), so one test stands for the pair. The
 * pages test SCR_EL3.NS alone: Realm state (NSE = 1, NS = 1) is governed by
 * the Non-secure line. */
static bool sbrbe_blocks(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL3)) return false;
    const unsigned sbrbe = (unsigned)FIELD(pe, MDCR_EL3, SBRBE);
    if (FIELD(pe, SCR_EL3, NS) == 0) return sbrbe != 3;
    return (sbrbe & 1) == 0;
}

/* The EL1 branch of BRBCR_EL1 and BRBFCR_EL1 up to the register access:
 * SDD-priority UNDEFINED, the FGT trap to EL2, then the SBRBE trap to EL3.
 * Returns true with *r set when the access does not reach the register. */
static bool el1_checks(const armprof_pe *pe, const sysreg_desc *d, bool is_read, sysreg_route *r)
{
    if (EL3SDDUndefPriority(pe) && sbrbe_blocks(pe)) {
        *r = route_undefined();
        return true;
    }
    /* EL2Enabled() && IsFeatureImplemented(FEAT_FGT) && (!HaveEL(EL3) ||
     * SCR_EL3.FGTEn == '1') && HDFG{R,W}TR_EL2.nBRBCTL == '0' (an FGTN fact) */
    if (page_fgt_trap(pe, d, is_read)) {
        *r = route_trap(EL2, 0x18);
        return true;
    }
    if (sbrbe_blocks(pe)) {
        *r = el3_trap_or_undefined(pe);
        return true;
    }
    return false;
}

/* The EL2 branch (and BRBCR_EL12's ELIsInHost(EL2) branch): the same without
 * the FGT trap, which does not apply at EL2. */
static bool el2_checks(const armprof_pe *pe, sysreg_route *r)
{
    if (EL3SDDUndefPriority(pe) && sbrbe_blocks(pe)) {
        *r = route_undefined();
        return true;
    }
    if (sbrbe_blocks(pe)) {
        *r = el3_trap_or_undefined(pe);
        return true;
    }
    return false;
}

/* Accessing BRBCR_EL1, and BRBFCR_EL1, whose page is the same without the
 * NVMem redirection and the ELIsInHost(EL2) redirection (there is no
 * BRBFCR_EL2): both are facts of the declarations (NVMEM, EL2_HOST). */
sysreg_route access_brbe_control(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    sysreg_route r;
    (void)m;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (el1_checks(pe, d, is_read, &r)) return r;
        /* EffectiveHCR_EL2_NVx() IN {'111'} */
        if (d->facts->nv2_offset && EffectiveHCR_EL2_NVx(pe) == 7) return route_page_nvmem(d);
        return route_self(d, 0);
    case EL2:
        if (el2_checks(pe, &r)) return r;
        return route_el2_view(pe, d);
    default:
        return route_self(d, 0);
    }
}

/* Accessing BRBCR_EL12 ('When FEAT_VHE is implemented') */
sysreg_route access_BRBCR_EL12(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    sysreg_route r;
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, d);
    case EL2:
        if (!ELIsInHost(pe, EL2)) return route_undefined();
        if (el2_checks(pe, &r)) return r;
        return route_alias_target(d);
    default:
        if (ELIsInHost(pe, EL2)) return route_alias_target(d);
        return route_undefined();
    }
}

/* Accessing BRBCR_EL2. Not in the project's copy of the manual: from the Arm
 * ARM (DDI0487 K.a/L.a), the pattern of the EL2 registers with the SBRBE
 * controls of the BRBCR_EL1 page:
 *   if !IsFeatureImplemented(FEAT_BRBE) then UNDEFINED;
 *   elsif PSTATE.EL == EL0 then UNDEFINED;
 *   elsif PSTATE.EL == EL1 then
 *       if EffectiveHCR_EL2_NVx() IN {'xx1'} then AArch64.SystemAccessTrap(EL2, 0x18);
 *       else UNDEFINED;
 *   elsif PSTATE.EL == EL2 then
 *       if HaveEL(EL3) && EL3SDDUndefPriority() && MDCR_EL3.SBRBE != '11' && SCR_EL3.NS == '0' then
 * UNDEFINED; elsif HaveEL(EL3) && EL3SDDUndefPriority() && MDCR_EL3.SBRBE IN {'x0'} && SCR_EL3.NS
 * == '1' then UNDEFINED; elsif HaveEL(EL3) && MDCR_EL3.SBRBE != '11' && SCR_EL3.NS == '0' then if
 * EL3SDDUndef() then UNDEFINED; else AArch64.SystemAccessTrap(EL3, 0x18); elsif HaveEL(EL3) &&
 * MDCR_EL3.SBRBE IN {'x0'} && SCR_EL3.NS == '1' then if EL3SDDUndef() then UNDEFINED; else
 * AArch64.SystemAccessTrap(EL3, 0x18); else X[t, 64] = BRBCR_EL2; elsif PSTATE.EL == EL3 then X[t,
 * 64] = BRBCR_EL2; */
sysreg_route access_BRBCR_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    sysreg_route r;
    (void)m;
    (void)is_read;
    const sysreg_route at_el2 = el2_checks(pe, &r) ? r : route_self(d, 0);
    return el2_register_shape(pe, at_el2, route_self(d, 0));
}
