/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks and hooks of the SPE sampling and filter registers
 * (PMSICR_EL1, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSNEVFR_EL1, PMSLATFR_EL1,
 * PMSDSFR_EL1), each the transliteration of its page's 'Accessing ...'
 * pseudocode. The MRS and MSR pseudocode of each page differ only in the
 * fine-grained trap register (HDFGRTR_EL2/HDFGRTR2_EL2 for MRS,
 * HDFGWTR_EL2/HDFGWTR2_EL2 for MSR) and the direction of the transfer. */
#include "spe/spe_regs.h"

/* The NVMem offsets are the registers' NVMEM facts (spe/regs/spe_filters.def).
 * The PMSFCR_EL1 page has no NVMem branch: with FEAT_NV2 an EL1 access still
 * reaches the register. */

/* EL2Enabled() && MDCR_EL2.TPMS == '1' */
static bool tpms_trap(const armprof_pe *pe)
{
    return EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPMS) == 1;
}

/* Accessing PMSICR_EL1, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1:
 * the shared page shape with the MDCR_EL2.TPMS trap, the register's own
 * FEAT_FGT bit (HDFGRTR_EL2.<reg> for MRS, HDFGWTR_EL2.<reg> for MSR) and
 * NVMem offset (none for PMSFCR_EL1), both facts of its declaration.
 * The extracted MRS pseudocode of PMSICR_EL1 and PMSFCR_EL1 breaks off after
 * the EL2 NSPB trap ('formula-not-decoded'); the rest is taken to be the MSR
 * pseudocode's, as on every sibling page. */
sysreg_route access_sampling_reg(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    (void)m;
    return spe_control_access(pe, d, is_read, tpms_trap(pe));
}

/* Accessing PMSNEVFR_EL1: as PMSEVFR_EL1 with the FEAT_SPE_FnE trap
 * MDCR_EL3.EnPMSN == '0' to EL3 after each NSPB test, and the negative FGT bit
 * HDFGRTR_EL2/HDFGWTR_EL2.nPMSNEVFR_EL1 ('0' traps). */
sysreg_route access_PMSNEVFR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    (void)m;
    const bool enpmsn_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMSN) == 0;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (EL3SDDUndefPriority(pe) && enpmsn_trap) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (tpms_trap(pe)) return route_trap(EL2, 0x18);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (enpmsn_trap) return el3_trap_or_undefined(pe);
        if (nvx_1x1(pe)) return route_page_nvmem(d);
        return route_self(d, 0);
    }
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (EL3SDDUndefPriority(pe) && enpmsn_trap) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (enpmsn_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* Accessing PMSDSFR_EL1: the FEAT_SPE_FDS trap MDCR_EL3.EnPMS3 == '0' to EL3
 * (at EL1 tested before the NSPB trap, at EL2 after it) and the FEAT_FGT2 trap
 * HDFGRTR2_EL2/HDFGWTR2_EL2.nPMSDSFR_EL1. */
sysreg_route access_PMSDSFR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)m;
    const bool enpms3_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMS3) == 0;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (EL3SDDUndefPriority(pe) && enpms3_trap) return route_undefined();
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (tpms_trap(pe)) return route_trap(EL2, 0x18);
        if (enpms3_trap) return el3_trap_or_undefined(pe);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (nvx_1x1(pe)) return route_page_nvmem(d);
        return route_self(d, 0);
    }
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (EL3SDDUndefPriority(pe) && enpms3_trap) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (enpms3_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* ---- Hooks ---- */

/* The stored value with the configuration's RES0/RES1 applied (what a read
 * without a hook returns). */
static uint64_t stored(const armprof_pe *pe, unsigned reg, uint64_t raw)
{
    return (raw & ~sysreg_info(pe, reg)->res0) | sysreg_info(pe, reg)->res1;
}

/* E[1] of PMSEVFR_EL1: with spe_speculative_sampling < 2 the PE does not
 * sample speculative instructions ('Otherwise: Reserved, UNKNOWN') or always
 * discards their records ('this bit reads as an UNKNOWN value and the PE
 * ignores its value'). The field is then absent (RES0: writes ignored) and
 * reads as the unknown_fill bit. */
uint64_t read_PMSEVFR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)m;
    uint64_t v = stored(pe, reg, REG(pe, PMSEVFR_EL1));
    if (OPTION_VALUE(pe, SPE_SPECULATIVE) != ARMPROF_SPE_SPECULATIVE_RECORDED)
        v |= OPTION_VALUE(pe, UNKNOWN_FILL) & 1ull << PMSEVFR_EL1_E1_LO;
    return v;
}

/* E[1] of PMSNEVFR_EL1: UNKNOWN only when speculative instructions are
 * sampled and their records always discarded (spe_speculative_sampling
 * DISCARDED);
 * without speculative sampling the page says 'Otherwise: Reserved, RAZ/WI'. */
uint64_t read_PMSNEVFR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)m;
    uint64_t v = stored(pe, reg, REG(pe, PMSNEVFR_EL1));
    if (OPTION_VALUE(pe, SPE_SPECULATIVE) == ARMPROF_SPE_SPECULATIVE_DISCARDED)
        v |= OPTION_VALUE(pe, UNKNOWN_FILL) & 1ull << PMSNEVFR_EL1_E1_LO;
    return v;
}

/* 'If PMSIDR_EL1.CountSize is 0b0010, PMSLATFR_EL1.MINLAT[15:12] is RES0'
 * (12-bit saturating counters). */
static uint64_t minlat_res0_now(const armprof_pe *pe)
{
    return FIELD(pe, PMSIDR_EL1, CountSize) == 2 ? 0xfull << (PMSLATFR_EL1_MINLAT_LO + 12) : 0;
}

uint64_t read_PMSLATFR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)m;
    return stored(pe, reg, REG(pe, PMSLATFR_EL1)) & ~minlat_res0_now(pe);
}

/* The RES0 bits ignore the write; the stored bits are kept, as the PMSCR_ELx
 * hooks do. */
void write_PMSLATFR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m, uint64_t value)
{
    (void)ext;
    const uint64_t keep = minlat_res0_now(pe);
    const uint64_t merged = sysreg_merge_write(pe, reg, m, value);
    sysreg_store(pe, reg, m, (merged & ~keep) | (REG(pe, PMSLATFR_EL1) & keep));
}
