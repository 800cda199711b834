/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks of the FEAT_PMUv3_SS registers. */
#include "pmu/pmu_regs.h"

/* Accessing PMSSCR_EL1, PMCCNTSVR_EL1 and PMICNTSVR_EL1 (MRS and MSR differ
 * only in the FGT2 register): EL0 UNDEFINED; MDCR_EL3.EnPMSS traps to EL3;
 * the register's FEAT_FGT2 bit (its FGT facts: nPMSSCR_EL1, or nPMSSDATA for
 * the saved values) traps EL1 to EL2. */
sysreg_route access_snapshot_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                      bool is_read)
{
    const bool enpmss_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMSS) == 0;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_self(d, m);
    case EL2:
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_self(d, m);
    default:
        return route_self(d, m);
    }
}

/* Accessing PMEVCNTSVR<n>_EL1 (MRS only): as PMCCNTSVR_EL1, plus m beyond the
 * counters self-hosted software can use is UNDEFINED, and at EL1 beyond
 * MDCR_EL2.HPMN traps to EL2 (after the FGT2 trap, before the EL3 trap). */
sysreg_route access_PMEVCNTSVR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read)
{
    if (m >= GetNumEventCountersSelfHosted(pe)) return route_undefined();
    const bool enpmss_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMSS) == 0;
    if (pe->ctx.el == EL1) {
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && m >= GetNumEventCountersAccessible(pe)) return route_trap(EL2, 0x18);
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_self(d, m);
    }
    return access_snapshot_register(pe, d, m, is_read);
}

/* Accessing PMECR_EL1: MDCR_EL3.EnPM2 and MDCR_EL3.TPM trap to EL3,
 * HDFGxTR2_EL2.nPMECR_EL1 and MDCR_EL2.TPM trap EL1 to EL2. */
sysreg_route access_PMECR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    const bool el3 = HaveEL(pe, EL3);
    const bool enpm2_trap = el3 && FIELD(pe, MDCR_EL3, EnPM2) == 0;
    const bool tpm_trap = el3 && FIELD(pe, MDCR_EL3, TPM) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1) return route_trap(EL2, 0x18);
        if (enpm2_trap || tpm_trap) return el3_trap_or_undefined(pe);
        return route_self(d, m);
    case EL2:
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpm2_trap || tpm_trap) return el3_trap_or_undefined(pe);
        return route_self(d, m);
    default:
        return route_self(d, m);
    }
}
