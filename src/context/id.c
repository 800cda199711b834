/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the AArch64 ID registers. Every ID_AA64*_EL1 register in
 * the HCR_EL2.TID3 group has the same MRS pseudocode (the pages of
 * ID_AA64DFR0_EL1, ID_AA64DFR1_EL1 and ID_AA64MMFR0_EL1); the registers with
 * no page here (ID_AA64PFR0_EL1, ID_AA64MMFR1_EL1, ID_AA64MMFR2_EL1,
 * ID_AA64MMFR3_EL1, ID_AA64ISAR2_EL1) have that same pseudocode in the Arm ARM.
 * None has an MSR form (SR_RO). */
#include "context/context.h"

/* HaveEL(EL3) && IsFeatureImplemented(FEAT_IDTE3) && SCR_EL3.TID3 == '1' */
static bool el3_tid3(const armprof_pe *pe)
{
    return HaveEL(pe, EL3) && IsFeatureImplemented(pe, IDTE3) && FIELD(pe, SCR_EL3, TID3) == 1;
}

/* The MRS pseudocode of the ID_AA64*_EL1 pages. At EL0 the ID space is
 * UNDEFINED unless FEAT_IDST makes it a trap to EL1 (EL2 when HCR_EL2.TGE). */
sysreg_route access_id_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        if (IsFeatureImplemented(pe, IDST)) {
            if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1) return route_trap(EL2, 0x18);
            return route_trap(EL1, 0x18);
        }
        return route_undefined();
    case EL1:
        if (EL3SDDUndefPriority(pe) && el3_tid3(pe)) return route_undefined();
        if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TID3) == 1) return route_trap(EL2, 0x18);
        if (el3_tid3(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL2:
        if (EL3SDDUndefPriority(pe) && el3_tid3(pe)) return route_undefined();
        if (el3_tid3(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}
