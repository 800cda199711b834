/* Access checks: one per declared register, access_<id>, each the
 * transliteration of the 'Accessing <register>' pseudocode on its page.
 * Prototypes come from the declarations. */
#ifndef ARMPROF_SYSREG_ACCESS_H
#define ARMPROF_SYSREG_ACCESS_H

#include "core/arch.h"
#include "sysreg/sysreg_table.h"

#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    sysreg_route access_##id(const armprof_pe *pe, unsigned m, bool is_read);
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond)                     SYSREG(id, enc, cond, 0, 0, 0)
#include "sysreg/regs/all.def"

/* The EL3 half of the pattern every page uses for an EL3 control:
 *   if EL3SDDUndef() then UNDEFINED; else AArch64.SystemAccessTrap(EL3, 0x18); */
static inline sysreg_route el3_trap_or_undefined(const armprof_pe *pe)
{
    return EL3SDDUndef(pe) ? route_undefined() : route_trap(EL3, 0x18);
}

/* The EL1 branch of an EL2 register's page:
 *   if EffectiveHCR_EL2_NVx() IN {'xx1'} then AArch64.SystemAccessTrap(EL2, 0x18);
 *   else UNDEFINED; */
static inline sysreg_route el2_register_at_el1(const armprof_pe *pe)
{
    return (EffectiveHCR_EL2_NVx(pe) & 1) ? route_trap(EL2, 0x18) : route_undefined();
}

/* The EL1 branch of an EL12 alias's page:
 *   if EffectiveHCR_EL2_NVx() == '101' then NVMem[offset];
 *   elsif EffectiveHCR_EL2_NVx() IN {'xx1'} then AArch64.SystemAccessTrap(EL2, 0x18);
 *   else UNDEFINED; */
static inline sysreg_route el12_alias_at_el1(const armprof_pe *pe, unsigned nv2_offset)
{
    return EffectiveHCR_EL2_NVx(pe) == 5 ? route_nvmem(nv2_offset) : el2_register_at_el1(pe);
}

/* The fine-grained trap enable of the FEAT_FGT2 registers:
 *   EL2Enabled() && IsFeatureImplemented(FEAT_FGT2) &&
 *   ((HaveEL(EL3) && SCR_EL3.FGTEn2 == '0') || <bit> == '0') */
static inline bool fgt2_trap(const armprof_pe *pe, uint64_t bit)
{
    return EL2Enabled(pe) && IsFeatureImplemented(pe, FGT2) &&
           ((HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, FGTEn2) == 0) || bit == 0);
}

/* The fine-grained trap enable of the FEAT_FGT registers:
 *   EL2Enabled() && IsFeatureImplemented(FEAT_FGT) &&
 *   (!HaveEL(EL3) || SCR_EL3.FGTEn == '1') && <bit> == '1' */
static inline bool fgt_trap(const armprof_pe *pe, uint64_t bit)
{
    return EL2Enabled(pe) && IsFeatureImplemented(pe, FGT) &&
           (!HaveEL(pe, EL3) || FIELD(pe, SCR_EL3, FGTEn) == 1) && bit == 1;
}

/* HaveEL(EL3) && CheckMDCR_EL3_NSPBTrap(): the EL3 trap of every SPE and
 * Profiling Buffer control page */
static inline bool nspb_trap(const armprof_pe *pe)
{
    return HaveEL(pe, EL3) && CheckMDCR_EL3_NSPBTrap(pe);
}

/* EffectiveHCR_EL2_NVx() IN {'1x1'} */
static inline bool nvx_1x1(const armprof_pe *pe)
{
    return (EffectiveHCR_EL2_NVx(pe) & 5) == 5;
}

#define NO_NV2_OFFSET 0

/* The shape the SPE and Profiling Buffer control pages share (PMBLIMITR_EL1,
 * PMBPTR_EL1, PMSICR_EL1, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1):
 *   EL1: SDD priority with the NSPB trap; the FEAT_FGT trap (fgt_bit); the
 *        page's EL2 trap (el2_trap: MDCR_EL2.E2PB for the buffer registers,
 *        MDCR_EL2.TPMS for the sampling ones); the NSPB trap to EL3;
 *        NVMem[nv2_offset] ('1x1', when the page has one); the register.
 *   EL2: SDD priority with the NSPB trap; the NSPB trap; the register.
 *   EL3: the register. */
static inline sysreg_route spe_control_access(const armprof_pe *pe, uint64_t fgt_bit, bool el2_trap,
                                              unsigned reg, unsigned nv2_offset)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (fgt_trap(pe, fgt_bit)) return route_trap(EL2, 0x18);
        if (el2_trap) return route_trap(EL2, 0x18);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (nv2_offset != NO_NV2_OFFSET && nvx_1x1(pe)) return route_nvmem(nv2_offset);
        return route_reg(reg, 0);
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_reg(reg, 0);
    default:
        return route_reg(reg, 0);
    }
}

#endif
