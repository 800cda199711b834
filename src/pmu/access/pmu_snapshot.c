/* Access checks of the FEAT_PMUv3_SS registers. */
#include "pmu/pmu_regs.h"

/* Accessing PMSSCR_EL1 (MRS and MSR differ only in the FGT2 register). The
 * shared shape of PMSSCR_EL1, PMCCNTSVR_EL1 and PMICNTSVR_EL1: EL0 UNDEFINED;
 * MDCR_EL3.EnPMSS traps to EL3; a FEAT_FGT2 bit traps EL1 to EL2. */
static sysreg_route access_snapshot_register(const armprof_pe *pe, uint64_t fgt2_bit)
{
    const bool enpmss_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMSS) == 0;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (fgt2_trap(pe, fgt2_bit)) return route_trap(EL2, 0x18);
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_PMU_END, 0); /* the register itself: filled in by the caller */
    case EL2:
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_PMU_END, 0);
    default:
        return route_reg(SR_PMU_END, 0);
    }
}

static sysreg_route to_self(sysreg_route r, unsigned reg, unsigned m)
{
    return r.kind == ROUTE_REG ? route_reg(reg, m) : r;
}

/* Accessing PMSSCR_EL1 */
sysreg_route access_PMSSCR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    const uint64_t bit =
        is_read ? FIELD(pe, HDFGRTR2_EL2, nPMSSCR_EL1) : FIELD(pe, HDFGWTR2_EL2, nPMSSCR_EL1);
    return to_self(access_snapshot_register(pe, bit), SR_PMSSCR_EL1, m);
}

/* Accessing PMCCNTSVR_EL1 (MRS only) */
sysreg_route access_PMCCNTSVR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)is_read;
    return to_self(access_snapshot_register(pe, FIELD(pe, HDFGRTR2_EL2, nPMSSDATA)),
                   SR_PMCCNTSVR_EL1, m);
}

/* Accessing PMICNTSVR_EL1 (MRS only) */
sysreg_route access_PMICNTSVR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)is_read;
    return to_self(access_snapshot_register(pe, FIELD(pe, HDFGRTR2_EL2, nPMSSDATA)),
                   SR_PMICNTSVR_EL1, m);
}

/* Accessing PMEVCNTSVR<n>_EL1 (MRS only): as PMCCNTSVR_EL1, plus m beyond the
 * counters self-hosted software can use is UNDEFINED, and at EL1 beyond
 * MDCR_EL2.HPMN traps to EL2 (after the FGT2 trap, before the EL3 trap). */
sysreg_route access_PMEVCNTSVR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)is_read;
    if (m >= GetNumEventCountersSelfHosted(pe)) return route_undefined();
    const bool enpmss_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, EnPMSS) == 0;
    if (pe->ctx.el == EL1) {
        if (enpmss_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (fgt2_trap(pe, FIELD(pe, HDFGRTR2_EL2, nPMSSDATA))) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && m >= GetNumEventCountersAccessible(pe)) return route_trap(EL2, 0x18);
        if (enpmss_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_PMEVCNTSVR_EL1, m);
    }
    return to_self(access_snapshot_register(pe, 1), SR_PMEVCNTSVR_EL1, m);
}

/* Accessing PMECR_EL1: MDCR_EL3.EnPM2 and MDCR_EL3.TPM trap to EL3,
 * HDFGxTR2_EL2.nPMECR_EL1 and MDCR_EL2.TPM trap EL1 to EL2. */
sysreg_route access_PMECR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    const bool el3 = HaveEL(pe, EL3);
    const bool enpm2_trap = el3 && FIELD(pe, MDCR_EL3, EnPM2) == 0;
    const bool tpm_trap = el3 && FIELD(pe, MDCR_EL3, TPM) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        const uint64_t bit =
            is_read ? FIELD(pe, HDFGRTR2_EL2, nPMECR_EL1) : FIELD(pe, HDFGWTR2_EL2, nPMECR_EL1);
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (fgt2_trap(pe, bit)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1) return route_trap(EL2, 0x18);
        if (enpm2_trap || tpm_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_PMECR_EL1, m);
    }
    case EL2:
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpm2_trap || tpm_trap) return el3_trap_or_undefined(pe);
        return route_reg(SR_PMECR_EL1, m);
    default:
        return route_reg(SR_PMECR_EL1, m);
    }
}
