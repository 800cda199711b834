/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks and hooks of the debug registers (regs/debug.def). */
#include "context/context.h"

/* Accessing DBGAUTHSTATUS_EL1 (MRS only; registers/DBGAUTHSTATUS_EL1.md):
 *   EL0: UNDEFINED.
 *   EL1: MDCR_EL3.TDA with EL3SDDUndefPriority() -> UNDEFINED;
 *        HDFGRTR_EL2.DBGAUTHSTATUS_EL1 (FEAT_FGT) -> trap to EL2;
 *        EL2Enabled() && MDCR_EL2.<TDE,TDA> != '00' -> trap to EL2;
 *        MDCR_EL3.TDA -> UNDEFINED under EL3SDDUndef(), else trap to EL3.
 *   EL2: the two MDCR_EL3.TDA branches.
 *   EL3: the register. */
sysreg_route access_DBGAUTHSTATUS_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                      bool is_read)
{
    (void)m;
    (void)is_read;
    const bool tda_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TDA) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (tda_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, true)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && (FIELD(pe, MDCR_EL2, TDE) != 0 || FIELD(pe, MDCR_EL2, TDA) != 0))
            return route_trap(EL2, 0x18);
        if (tda_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL2:
        if (tda_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tda_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* DBGAUTHSTATUS_EL1 holds what UpdateDbgAuthStatus() last wrote: the
 * authentication signals as they are now (the model updates it at once when a
 * signal changes). */
uint64_t read_DBGAUTHSTATUS_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg,
                                unsigned m)
{
    (void)ext;
    (void)reg;
    (void)m;
    return DbgAuthStatus(pe);
}

/* Accessing OSLAR_EL1 and Accessing OSLSR_EL1: the same tests, MDCR_EL3.TDOSA
 * and MDCR_EL2.<TDE,TDOSA>; the fine-grained trap bit is each page's. */
sysreg_route access_os_lock(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    const bool tdosa_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TDOSA) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (tdosa_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && (FIELD(pe, MDCR_EL2, TDE) != 0 || FIELD(pe, MDCR_EL2, TDOSA) != 0))
            return route_trap(EL2, 0x18);
        if (tdosa_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL2:
        return el3_control_or_self(pe, tdosa_trap, d);
    default:
        return route_self(d, 0);
    }
}

/* OSLAR_EL1: "On writes to OSLAR_EL1, bit[0] is copied to the OS Lock." */
void write_OSLAR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                     uint64_t value)
{
    (void)ext;
    (void)reg;
    (void)m;
    pe->ctx.os_lock = (value & 1) != 0;
}

/* OSLSR_EL1: OSLM '10' (bits [3] and [0]), nTT 0, OSLK the OS Lock. */
uint64_t read_OSLSR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)reg;
    (void)m;
    return 1ull << OSLSR_EL1_OSLM_HI_LO | (uint64_t)OSLockStatus(pe) << OSLSR_EL1_OSLK_LO;
}
