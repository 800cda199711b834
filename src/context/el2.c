/* Access checks of the EL2 controls (HCR_EL2, MDCR_EL2, VTTBR_EL2, VTCR_EL2). */
#include "context/context.h"

/* NVMem offsets under FEAT_NV2 (the pages' NVMem[...] accesses) */
#define NV2_OFFSET_VTTBR_EL2 0x020
#define NV2_OFFSET_HCR_EL2   0x078
#define NV2_OFFSET_VTCR_EL2  0x040

/* The shape HCR_EL2 and VTTBR_EL2 share, MRS and MSR alike: EL1 accesses are
 * turned into memory accesses by FEAT_NV2, trapped by FEAT_NV, UNDEFINED
 * otherwise; EL2 and EL3 access the register. */
static sysreg_route nv2_memory_or_register(const armprof_pe *pe, unsigned offset, unsigned reg)
{
    const unsigned nvx = EffectiveHCR_EL2_NVx(pe);
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if ((nvx & 5) == 5) return route_nvmem(offset); /* IN {'1x1'} */
        if (nvx & 1) return route_trap(EL2, 0x18);      /* IN {'xx1'} */
        return route_undefined();
    default:
        return route_reg(reg, 0);
    }
}

/* Accessing HCR_EL2 */
sysreg_route access_HCR_EL2(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    return nv2_memory_or_register(pe, NV2_OFFSET_HCR_EL2, SR_HCR_EL2);
}

/* Accessing MDCR_EL2 (MRS and MSR alike) */
sysreg_route access_MDCR_EL2(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    const bool tda_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TDA) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el2_register_at_el1(pe);
    case EL2:
        if (tda_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tda_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_MDCR_EL2, 0);
    default:
        return route_reg(SR_MDCR_EL2, 0);
    }
}

/* Accessing VTTBR_EL2: the MRS and MSR forms (bits [63:0]). The FEAT_D128
 * MRRS and MSRR forms are not modelled: the model has no 128-bit accesses. */
sysreg_route access_VTTBR_EL2(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    return nv2_memory_or_register(pe, NV2_OFFSET_VTTBR_EL2, SR_VTTBR_EL2);
}

/* Accessing VTCR_EL2 (MRS and MSR alike): EL0 UNDEFINED; EL1 NVMem[0x040]
 * when EffectiveHCR_EL2_NVx() IN {'1x1'}, AArch64.SystemAccessTrap(EL2, 0x18)
 * when IN {'xx1'}, UNDEFINED otherwise; EL2 and EL3 the register. */
sysreg_route access_VTCR_EL2(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    return nv2_memory_or_register(pe, NV2_OFFSET_VTCR_EL2, SR_VTCR_EL2);
}
