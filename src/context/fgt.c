/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the debug fine-grained trap registers (HDFGRTR_EL2,
 * HDFGWTR_EL2, HDFGRTR2_EL2, HDFGWTR2_EL2). */
#include "context/context.h"

/* The shape the four pages share, MRS and MSR alike; they differ in the NVMem
 * offset (their NVMEM facts) and in the SCR_EL3 enable (FGTEn for the
 * FEAT_FGT registers, FGTEn2 for the FEAT_FGT2 ones), passed as enable_bit. */
static sysreg_route fgt_register(const armprof_pe *pe, const sysreg_desc *d, uint64_t enable_bit)
{
    const bool el3_trap = HaveEL(pe, EL3) && enable_bit == 0;
    const unsigned nvx = EffectiveHCR_EL2_NVx(pe);
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if ((nvx & 5) == 5) return route_page_nvmem(d); /* IN {'1x1'} */
        if (nvx & 1) return route_trap(EL2, 0x18);      /* IN {'xx1'} */
        return route_undefined();
    case EL2:
        if (el3_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (el3_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* Accessing HDFGRTR_EL2, HDFGWTR_EL2 */
sysreg_route access_fgt_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    (void)m;
    (void)is_read;
    return fgt_register(pe, d, FIELD(pe, SCR_EL3, FGTEn));
}

/* Accessing HDFGRTR2_EL2, HDFGWTR2_EL2 */
sysreg_route access_fgt2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read)
{
    (void)m;
    (void)is_read;
    return fgt_register(pe, d, FIELD(pe, SCR_EL3, FGTEn2));
}
