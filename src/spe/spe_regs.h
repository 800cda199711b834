/* SPDX-License-Identifier: BSD-3-Clause */
/* The Statistical Profiling unit's registers and the Profiling Buffer's
 * (spe/regs/list.def): their ids, slots and field positions, numbered from
 * SR_SPE_FIRST, after the PMU's (sysreg/units.h, core/regdecl.h); their
 * access checks (access/) and hooks. */
#ifndef ARMPROF_SPE_SPE_REGS_H
#define ARMPROF_SPE_SPE_REGS_H

#include "sysreg/sysreg_access.h"
#include "sysreg/units.h"

#define REGDECL_OWNER      SPE
#define REGDECL_LIST       "spe/regs/list.def"
#define REGDECL_FIRST_ID   SR_SPE_FIRST
#define REGDECL_FIRST_SLOT STO_SPE_FIRST
#include "core/regdecl_enums.h"

#define SYSREG_OWNER_LIST "spe/regs/list.def"
#include "sysreg/owner_decl.h"

/* The shape the SPE and Profiling Buffer control pages share (PMBLIMITR_EL1,
 * PMBPTR_EL1, PMSICR_EL1, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1):
 *   EL1: SDD priority with the NSPB trap; the register's FEAT_FGT trap (its
 *        FGT fact); the page's EL2 trap (el2_trap: MDCR_EL2.E2PB for the
 *        buffer registers, MDCR_EL2.TPMS for the sampling ones); the NSPB
 *        trap to EL3; NVMem[offset] ('1x1', when the page has an NVMEM
 *        fact); the register.
 *   EL2: SDD priority with the NSPB trap; the NSPB trap; the register.
 *   EL3: the register. */
static inline sysreg_route spe_control_access(const armprof_pe *pe, const sysreg_desc *d,
                                              bool is_read, bool el2_trap)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (el2_trap) return route_trap(EL2, 0x18);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (d->facts->nv2_offset && nvx_1x1(pe)) return route_page_nvmem(d);
        return route_self(d, 0);
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* PMSIDR_EL1 and PMBIDR_EL1 from the configuration (idregs.c). */
void spe_idregs_init(armprof_pe *pe);

#endif
