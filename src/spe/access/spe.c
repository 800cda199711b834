/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks and hooks of the SPE control registers (PMSCR_EL1, PMSCR_EL2,
 * PMSCR_EL12). */
#include "spe/spe_regs.h"

/* Accessing PMSCR_EL1 */
sysreg_route access_PMSCR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    const bool el3 = HaveEL(pe, EL3);
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (el3 && EL3SDDUndefPriority(pe) && CheckMDCR_EL3_NSPBTrap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPMS) == 1) return route_trap(EL2, 0x18);
        if (el3 && CheckMDCR_EL3_NSPBTrap(pe)) return el3_trap_or_undefined(pe);
        if (EffectiveHCR_EL2_NVx(pe) == 7) return route_page_nvmem(d);
        return route_self(d, 0);
    }
    case EL2:
        if (el3 && EL3SDDUndefPriority(pe) && CheckMDCR_EL3_NSPBTrap(pe)) return route_undefined();
        if (el3 && CheckMDCR_EL3_NSPBTrap(pe)) return el3_trap_or_undefined(pe);
        return route_el2_view(pe, d);
    default:
        return route_self(d, 0);
    }
}

/* Accessing PMSCR_EL2 */
sysreg_route access_PMSCR_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    return el2_register_shape(pe, el3_control_or_self(pe, nspb_trap(pe), d), route_self(d, 0));
}

/* Accessing PMSCR_EL12 */
sysreg_route access_PMSCR_EL12(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    const bool el3 = HaveEL(pe, EL3);
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, d);
    case EL2:
        if (!ELIsInHost(pe, EL2)) return route_undefined();
        if (el3 && EL3SDDUndefPriority(pe) && CheckMDCR_EL3_NSPBTrap(pe)) return route_undefined();
        if (el3 && CheckMDCR_EL3_NSPBTrap(pe)) return el3_trap_or_undefined(pe);
        return route_alias_target(d);
    default:
        if (ELIsInHost(pe, EL2)) return route_alias_target(d);
        return route_undefined();
    }
}

/* PMSCR_ELx.PCT<1> is RES0 without FEAT_ECV. */
static uint64_t pct_mask(const armprof_pe *pe, unsigned reg)
{
    if (IsFeatureImplemented(pe, ECV)) return 0;
    return 1ull << (reg == SR_PMSCR_EL2 ? PMSCR_EL2_PCT_LO + 1 : PMSCR_EL1_PCT_LO + 1);
}

/* PMSCR_EL2.{E2SPE, E0HSPE}: 'When MDCR_EL2.E2PB != 00, access to this field
 * is RES0'. The stored bits are kept (and read again once E2PB is 00). */
static uint64_t pmscr_el2_res0_now(const armprof_pe *pe)
{
    uint64_t mask = pct_mask(pe, SR_PMSCR_EL2);
    if (FIELD(pe, MDCR_EL2, E2PB) != 0)
        mask |= 1ull << PMSCR_EL2_E2SPE_LO | 1ull << PMSCR_EL2_E0HSPE_LO;
    return mask;
}

uint64_t read_PMSCR_EL2(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    const uint64_t v =
        (REG(pe, PMSCR_EL2) & ~sysreg_info(pe, reg)->res0) | sysreg_info(pe, reg)->res1;
    (void)m;
    return v & ~pmscr_el2_res0_now(pe);
}

void write_PMSCR_EL2(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                     uint64_t value)
{
    (void)ext;
    const uint64_t keep = pmscr_el2_res0_now(pe);
    const uint64_t merged = sysreg_merge_write(pe, reg, m, value);
    sysreg_store(pe, reg, m, (merged & ~keep) | (REG(pe, PMSCR_EL2) & keep));
}

/* Without EL2, PMSCR_EL1.PCT 'reads as 0b01 and ignores writes'. */
uint64_t read_PMSCR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    uint64_t v = (REG(pe, PMSCR_EL1) & ~sysreg_info(pe, reg)->res0) | sysreg_info(pe, reg)->res1;
    (void)m;
    if (!HaveEL(pe, EL2))
        v = (v & ~FIELD_MASK(PMSCR_EL1, PCT)) | (uint64_t)PMSCR_EL1_PCT_PHYSICAL
                                                    << PMSCR_EL1_PCT_LO;
    return v & ~pct_mask(pe, reg);
}

void write_PMSCR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                     uint64_t value)
{
    (void)ext;
    uint64_t keep = pct_mask(pe, reg);
    if (!HaveEL(pe, EL2)) keep = FIELD_MASK(PMSCR_EL1, PCT);
    const uint64_t merged = sysreg_merge_write(pe, reg, m, value);
    sysreg_store(pe, reg, m, (merged & ~keep) | (REG(pe, PMSCR_EL1) & keep));
}
