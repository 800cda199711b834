/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the generic timer registers the SPE timestamp reads
 * (CNTVOFF_EL2, CNTPOFF_EL2, CNTHCTL_EL2). MRS and MSR have the same
 * branches on each page. None of the three pages has a fine-grained trap or a
 * trap by another register, so no undeclared trap control is involved.
 *
 * Not modelled: the CNTHCTL_EL2 page's 'When FEAT_VHE is implemented'
 * CNTKCTL_EL1 encoding, which at EL2 with ELIsInHost(EL2) accesses
 * CNTHCTL_EL2 through CNTHCTL_EL2_VHE(). CNTKCTL_EL1 has no page in spec/ and
 * is not declared, so MRS/MSR CNTKCTL_EL1 is 'unmodelled'.
 *
 * CNTVOFF_EL2's page has the shape access_el2_register_nvmem (NVMem 0x060),
 * CNTHCTL_EL2's access_el2_register (sysreg/access_shapes.c). */
#include "context/context.h"

/* Accessing CNTPOFF_EL2:
 *   EL0: UNDEFINED.
 *   EL1: EffectiveHCR_EL2_NVx() IN {'1x1'} -> NVMem[0x1A8];
 *        IN {'xx1'} -> AArch64.SystemAccessTrap(EL2, 0x18); else UNDEFINED.
 *   EL2: HaveEL(EL3) && EL3SDDUndefPriority() && SCR_EL3.ECVEn == '0' -> UNDEFINED;
 *        HaveEL(EL3) && SCR_EL3.ECVEn == '0' -> UNDEFINED if EL3SDDUndef(),
 *        else AArch64.SystemAccessTrap(EL3, 0x18);
 *        else CNTPOFF_EL2.
 *   EL3: CNTPOFF_EL2. */
sysreg_route access_CNTPOFF_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (nvx_1x1(pe)) return route_page_nvmem(d);
        return el2_register_at_el1(pe);
    case EL2: {
        /* SCR_EL3.ECVEn exists whenever CNTPOFF_EL2 does (FEAT_ECV_POFF) */
        const bool ecven_trap = HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, ECVEn) == 0;
        if (ecven_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (ecven_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    }
    default:
        return route_self(d, 0);
    }
}
