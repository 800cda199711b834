/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the Profiling Buffer registers and the SPE ID registers
 * (PMBLIMITR_EL1, PMBPTR_EL1, PMBSR_EL1, PMBSR_EL12, PMBSR_EL2, PMBSR_EL3,
 * PMBMAR_EL1, PMBIDR_EL1, PMSIDR_EL1). */
#include "spe/spe.h"
#include "spe/spe_regs.h"

/* EL2Enabled() && MDCR_EL2.E2PB IN {'x0'} */
static bool e2pb_trap(const armprof_pe *pe)
{
    return EL2Enabled(pe) && (FIELD(pe, MDCR_EL2, E2PB) & 1) == 0;
}

/* Accessing PMBLIMITR_EL1 and PMBPTR_EL1: the shared SPE control shape with
 * the MDCR_EL2.E2PB trap, the register's FEAT_FGT bit
 * (HDFG<R|W>TR_EL2.<reg>) and NVMem offset. */
sysreg_route access_buffer_address(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read)
{
    (void)m;
    return spe_control_access(pe, d, is_read, e2pb_trap(pe));
}

/* Accessing PMBSR_EL1: as PMBLIMITR_EL1, except that with FEAT_SPE_EXC the
 * NVMem redirection and the EL2 host view depend on the SPE Profiling
 * exception controls (EffectivePMSCR_EL2_EE()). */
sysreg_route access_PMBSR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (e2pb_trap(pe)) return route_trap(EL2, 0x18);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (nvx_1x1(pe) &&
            (EffectivePMSCR_EL2_EE(pe) == PMSCR_EL2_EE_DISABLED ||
             FIELD(pe, PMSCR_EL1, EE) == PMSCR_EL1_EE_DISABLED || EffectiveHCR_EL2_NVx(pe) == 7))
            return route_page_nvmem(d);
        return route_self(d, 0);
    }
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (EffectivePMSCR_EL2_EE(pe) != PMSCR_EL2_EE_DISABLED) return route_el2_view(pe, d);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* Accessing PMBSR_EL12 (on the PMBSR_EL1 page) */
sysreg_route access_PMBSR_EL12(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, d);
    case EL2:
        if (!ELIsInHost(pe, EL2)) return route_undefined();
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_alias_target(d);
    default:
        if (ELIsInHost(pe, EL2)) return route_alias_target(d);
        return route_undefined();
    }
}

/* Accessing PMBSR_EL2 (MRS and MSR are the same) */
sysreg_route access_PMBSR_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    /* Two EL3 controls, each "UNDEFINED with EL3SDDUndefPriority(), else
     * the EL3 trap": whichever applies first, the outcome is the same. */
    const bool pmsee_trap =
        HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, PMSEE) == MDCR_EL3_PMSEE_DISABLED;
    return el2_register_shape(pe, el3_control_or_self(pe, nspb_trap(pe) || pmsee_trap, d),
                              route_self(d, 0));
}

/* Accessing PMBSR_EL3 */
sysreg_route access_PMBSR_EL3(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    return pe->ctx.el == EL3 ? route_self(d, 0) : route_undefined();
}

/* Accessing PMBMAR_EL1. MDCR_EL3.EnPMS4 traps it to EL3 as well; at EL1 its
 * SDD priority check comes before the NSPB one, at EL2 after it. */
sysreg_route access_PMBMAR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    const bool enpms4_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMS4) == 0;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (EL3SDDUndefPriority(pe) && enpms4_trap) return route_undefined();
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (e2pb_trap(pe)) return route_trap(EL2, 0x18);
        if (enpms4_trap) return el3_trap_or_undefined(pe);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    }
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (EL3SDDUndefPriority(pe) && enpms4_trap) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        if (enpms4_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* Accessing PMBIDR_EL1 (MRS only) */
sysreg_route access_PMBIDR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    if (pe->ctx.el == EL0) return route_undefined();
    if (pe->ctx.el == EL1 && page_fgt_trap(pe, d, true)) return route_trap(EL2, 0x18);
    return route_self(d, 0);
}

/* Accessing PMSIDR_EL1 (MRS only). Unlike the buffer registers, EL1 is
 * trapped by MDCR_EL2.TPMS, not MDCR_EL2.E2PB. */
sysreg_route access_PMSIDR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, true)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPMS) == 1) return route_trap(EL2, 0x18);
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL2:
        if (EL3SDDUndefPriority(pe) && nspb_trap(pe)) return route_undefined();
        if (nspb_trap(pe)) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* ---- PMBIDR_EL1's fields that depend on the context ---- */

/* P: 'Programming not allowed': 0 at EL3; elsewhere 1 when the owning
 * Exception level is higher than the current one or the owning Security
 * state is not the current one (the page's list spells this out per
 * MDCR_EL3.{NSPB,NSPBE} and MDCR_EL2.E2PB; ProfilingBufferOwner() gives the
 * same owner). AddrMode (FEAT_SPE_nVM): 0b01 when the Effective
 * PMSCR_EL2.EnVM is 1 and P reads 0, else 0b00. */
uint64_t read_PMBIDR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)reg;
    (void)m;
    uint64_t v = REG(pe, PMBIDR_EL1) & ~(1ull << PMBIDR_EL1_P_LO | 3ull << PMBIDR_EL1_AddrMode_LO);
    const spe_owner owner = ProfilingBufferOwner(pe);
    const unsigned el = pe->ctx.el;
    const bool p = el != EL3 && (owner.el > el || owner.ss != CurrentSecurityState(pe));
    v |= (uint64_t)p << PMBIDR_EL1_P_LO;
    if (IsFeatureImplemented(pe, SPE_nVM) && EffectivePMSCR_EL2_EnVM(pe) == 1 && !p)
        v |= 1ull << PMBIDR_EL1_AddrMode_LO;
    return v;
}
