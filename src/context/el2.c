/* SPDX-License-Identifier: BSD-3-Clause */
/* Access check of MDCR_EL2. HCR_EL2, VTTBR_EL2 and VTCR_EL2 share a shape,
 * MRS and MSR alike: EL1 accesses are turned into memory accesses by
 * FEAT_NV2, trapped by FEAT_NV, UNDEFINED otherwise; EL2 and EL3 access the
 * register (access_el2_register_nvmem, with their NVMEM offsets in
 * core/regs/el2.def). */
#include "context/context.h"

/* Accessing MDCR_EL2 (MRS and MSR alike) */
sysreg_route access_MDCR_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
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
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* VSTTBR_EL2 and VSTCR_EL2 (FEAT_SEL2): EL0 UNDEFINED; EL1 the EL2
 * register's NV trap (el2_register_at_el1(); their NVMem offsets are not in
 * the project's copy, so the NV2 redirection is not modelled); EL2 only in
 * Secure state; EL3 only with SCR_EL3.EEL2 set. */
sysreg_route access_secure_el2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                        bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el2_register_at_el1(pe);
    case EL2:
        return CurrentSecurityState(pe) == ARMPROF_SS_SECURE ? route_self(d, 0) : route_undefined();
    default:
        return FIELD(pe, SCR_EL3, EEL2) == 1 ? route_self(d, 0) : route_undefined();
    }
}
