/* What the access checks share: the trap and route helpers every page's
 * 'Accessing' pseudocode uses. The checks themselves, access_<id>, are the
 * owners' (their prototypes come from the declarations: sysreg/access_decl.h). */
#ifndef ARMPROF_SYSREG_ACCESS_H
#define ARMPROF_SYSREG_ACCESS_H

#include "core/arch.h"
#include "sysreg/sysreg.h"

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

#endif
