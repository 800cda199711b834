/* SPDX-License-Identifier: BSD-3-Clause */
/* Access checks and hooks of the PMUv3 control registers: PMCR_EL0,
 * PMCNTENSET_EL0, PMCNTENCLR_EL0, PMOVSSET_EL0, PMOVSCLR_EL0, PMINTENSET_EL1,
 * PMINTENCLR_EL1, PMSWINC_EL0, PMUSERENR_EL0, PMUACR_EL1, PMCEID0_EL0,
 * PMCEID1_EL0 and PMMIR_EL1 (declared in src/pmu/regs/pmu_control.def). */
#include "pmu/pmu.h"
#include "pmu/pmu_regs.h"

/* ---- Access checks ----
 *
 * Every page but PMUACR_EL1's has the same shape; they differ in what they
 * test at EL0 before the fine-grained trap, in the fine-grained trap bit, and
 * (PMCR_EL0) in a second MDCR_EL2 trap. The shape, for PSTATE.EL == EL0:
 *   if HaveEL(EL3) && EL3SDDUndefPriority() && MDCR_EL3.TPM == '1' then UNDEFINED;
 *   elsif <EL0 enable test> then
 *       if EL2Enabled() && HCR_EL2.TGE == '1' then AArch64.SystemAccessTrap(EL2, 0x18);
 *       else AArch64.SystemAccessTrap(EL1, 0x18);
 *   elsif EL2Enabled() && !ELIsInHost(EL0) && IsFeatureImplemented(FEAT_FGT) &&
 *         (!HaveEL(EL3) || SCR_EL3.FGTEn == '1') && HDFG<R|W>TR_EL2.<bit> == '1' then
 *       AArch64.SystemAccessTrap(EL2, 0x18);
 *   elsif EL2Enabled() && MDCR_EL2.TPM == '1' then AArch64.SystemAccessTrap(EL2, 0x18);
 *   [elsif EL2Enabled() && MDCR_EL2.TPMCR == '1' then AArch64.SystemAccessTrap(EL2, 0x18);]
 *   elsif HaveEL(EL3) && MDCR_EL3.TPM == '1' then
 *       if EL3SDDUndef() then UNDEFINED; else AArch64.SystemAccessTrap(EL3, 0x18);
 *   else <the register>;
 * PSTATE.EL == EL1: the same without the EL0 enable test and without
 * !ELIsInHost(EL0); EL2: the MDCR_EL3.TPM tests only; EL3: the register. */

/* What a page tests at EL0 ahead of the fine-grained trap. */
enum el0_test {
    EL0_UNDEFINED, /* 'elsif PSTATE.EL == EL0 then UNDEFINED' */
    EL0_NONE,      /* MRS PMUSERENR_EL0: no PMUSERENR_EL0 test */
    EL0_EN,        /* PMUSERENR_EL0.EN == '0' && (!FEAT_PMUv3p9 || PMUSERENR_EL0.UEN == '0') */
    EL0_EN_TID,    /* EL0_EN, then FEAT_PMUv3p9 && PMUSERENR_EL0.TID == '1' (PMCEID<n>_EL0) */
    EL0_PMCR,      /* PMUSERENR_EL0.EN == '0' || (FEAT_PMUv3p9 && PMUSERENR_EL0.UEN == '1') */
    EL0_SWINC, /* (FEAT_PMUv3p9 && <UEN,SW,EN> == '000') || (!FEAT_PMUv3p9 && <SW,EN> == '00') */
};

/* The EL0 enable test of a page; true when it traps. */
static bool el0_test_traps(const armprof_pe *pe, enum el0_test test)
{
    const bool p9 = IsFeatureImplemented(pe, PMUv3p9);
    const uint64_t en = FIELD(pe, PMUSERENR_EL0, EN);
    const uint64_t uen = FIELD(pe, PMUSERENR_EL0, UEN);
    switch (test) {
    case EL0_EN:
    case EL0_EN_TID:
        return en == 0 && (!p9 || uen == 0);
    case EL0_PMCR:
        return en == 0 || (p9 && uen == 1);
    case EL0_SWINC:
        return en == 0 && FIELD(pe, PMUSERENR_EL0, SW) == 0 && (!p9 || uen == 0);
    default:
        return false;
    }
}

/* if EL2Enabled() && HCR_EL2.TGE == '1' then AArch64.SystemAccessTrap(EL2, 0x18);
 * else AArch64.SystemAccessTrap(EL1, 0x18); */
static sysreg_route el0_trap(const armprof_pe *pe)
{
    if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1) return route_trap(EL2, 0x18);
    return route_trap(EL1, 0x18);
}

/* The shape described above. The fine-grained trap bit of the access is the
 * register's FGT fact (none for MRS PMCR_EL0); tpmcr adds the MDCR_EL2.TPMCR
 * trap (PMCR_EL0). */
static sysreg_route pmu_tpm_access(const armprof_pe *pe, const sysreg_desc *d, bool is_read,
                                   enum el0_test test, bool tpmcr)
{
    const bool el3_tpm = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TPM) == 1;
    const bool el2_tpm = EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1;
    const bool el2_tpmcr = tpmcr && EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPMCR) == 1;
    const bool fgt = page_fgt_trap(pe, d, is_read);
    switch (pe->ctx.el) {
    case EL0:
        if (test == EL0_UNDEFINED) return route_undefined();
        if (el3_tpm && EL3SDDUndefPriority(pe)) return route_undefined();
        if (el0_test_traps(pe, test)) return el0_trap(pe);
        if (test == EL0_EN_TID && IsFeatureImplemented(pe, PMUv3p9) &&
            FIELD(pe, PMUSERENR_EL0, TID) == 1)
            return el0_trap(pe);
        if (!ELIsInHost(pe, EL0) && fgt) return route_trap(EL2, 0x18);
        if (el2_tpm) return route_trap(EL2, 0x18);
        if (el2_tpmcr) return route_trap(EL2, 0x18);
        if (el3_tpm) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL1:
        if (el3_tpm && EL3SDDUndefPriority(pe)) return route_undefined();
        if (fgt) return route_trap(EL2, 0x18);
        if (el2_tpm) return route_trap(EL2, 0x18);
        if (el2_tpmcr) return route_trap(EL2, 0x18);
        if (el3_tpm) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    case EL2:
        if (el3_tpm && EL3SDDUndefPriority(pe)) return route_undefined();
        if (el3_tpm) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* Accessing PMCR_EL0. EL0: EN == '0' || (FEAT_PMUv3p9 && UEN == '1') traps
 * (UEN does not open PMCR_EL0 to EL0). MRS has no fine-grained trap (HDFGRTR_EL2
 * has no PMCR_EL0 bit); MSR: HDFGWTR_EL2.PMCR_EL0. Then MDCR_EL2.TPM and
 * MDCR_EL2.TPMCR. */
sysreg_route access_PMCR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, EL0_PMCR, true);
}

/* Accessing PMCNTENSET_EL0 / PMCNTENCLR_EL0, PMOVSSET_EL0 / PMOVSCLR_EL0: the
 * EL0 enable test, then the shape with the pair's fine-grained trap bit
 * HDFGRTR_EL2.<PMCNTEN|PMOVS> (MRS) or HDFGWTR_EL2.<...> (MSR). */
sysreg_route access_pmu_el0_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                     bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, EL0_EN, false);
}

/* Accessing PMINTENSET_EL1 / PMINTENCLR_EL1 (HDFG<R|W>TR_EL2.PMINTEN) and
 * PMMIR_EL1 (MRS only, HDFGRTR_EL2.PMMIR_EL1): EL0 is UNDEFINED. */
sysreg_route access_pmu_el1_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                     bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, EL0_UNDEFINED, false);
}

/* Accessing PMSWINC_EL0 (MSR only): EL0 traps on PMUSERENR_EL0.{UEN,SW,EN}
 * all 0 (FEAT_PMUv3p9) or {SW,EN} both 0; HDFGWTR_EL2.PMSWINC_EL0. */
sysreg_route access_PMSWINC_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, EL0_SWINC, false);
}

/* Accessing PMUSERENR_EL0: MRS at EL0 has no PMUSERENR_EL0 test; MSR at EL0
 * is UNDEFINED. HDFGRTR_EL2.PMUSERENR_EL0 / HDFGWTR_EL2.PMUSERENR_EL0. */
sysreg_route access_PMUSERENR_EL0(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, is_read ? EL0_NONE : EL0_UNDEFINED, false);
}

/* Accessing PMCEID0_EL0 and PMCEID1_EL0 (MRS only): EL0 adds the
 * FEAT_PMUv3p9 PMUSERENR_EL0.TID trap after the enable test;
 * HDFGRTR_EL2.PMCEIDn_EL0. */
sysreg_route access_pmceid(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    return pmu_tpm_access(pe, d, is_read, EL0_EN_TID, false);
}

/* Accessing PMUACR_EL1: EL0 UNDEFINED; MDCR_EL3.EnPM2 == '0' and
 * MDCR_EL3.TPM == '1' trap to EL3 (EnPM2 first); the FEAT_FGT2 bit
 * HDFGRTR2_EL2.nPMUACR_EL1 / HDFGWTR2_EL2.nPMUACR_EL1 and MDCR_EL2.TPM trap
 * EL1 to EL2, ahead of the EL3 traps. */
sysreg_route access_PMUACR_EL1(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    const bool el3 = HaveEL(pe, EL3);
    const bool enpm2_trap = el3 && FIELD(pe, MDCR_EL3, EnPM2) == 0;
    const bool tpm_trap = el3 && FIELD(pe, MDCR_EL3, TPM) == 1;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EL2Enabled(pe) && FIELD(pe, MDCR_EL2, TPM) == 1) return route_trap(EL2, 0x18);
        if (enpm2_trap) return el3_trap_or_undefined(pe);
        if (tpm_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    }
    case EL2:
        if (enpm2_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (tpm_trap && EL3SDDUndefPriority(pe)) return route_undefined();
        if (enpm2_trap) return el3_trap_or_undefined(pe);
        if (tpm_trap) return el3_trap_or_undefined(pe);
        return route_self(d, 0);
    default:
        return route_self(d, 0);
    }
}

/* ---- Hooks ---- */

/* A register's storage after the configuration's RES0/RES1 (what a read
 * without a hook returns). */
static uint64_t stored(const armprof_pe *pe, unsigned reg)
{
    const sysreg_pe_info *in = sysreg_info(pe, reg);
    return (pe->regs[sysreg_desc_of(pe, reg)->storage] & ~in->res0) | in->res1;
}

/* PMCR_EL0.{P,C}: write-only actions, 'Access to this field is WO/RAZ'. */
#define PMCR_ACTIONS (1ull << PMCR_EL0_P_LO | 1ull << PMCR_EL0_C_LO)

/* N: 'When EL2 is implemented and enabled for the current Security state,
 * reads of this field from EL1 and EL0 return the Effective value of
 * MDCR_EL2.HPMN' (RNNBYQ); otherwise the counters self-hosted software has
 * (with FEAT_PMUv3_EXTPMN the Effective PMCCR.EPMN, RZCCDD). That is
 * GetNumEventCountersAccessible(). */
uint64_t read_PMCR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)m;
    const uint64_t n_mask = BITS_MASK(PMCR_EL0_N_LO + PMCR_EL0_N_W - 1, PMCR_EL0_N_LO);
    const uint64_t n = (uint64_t)GetNumEventCountersAccessible(pe) << PMCR_EL0_N_LO;
    return (stored(pe, reg) & ~PMCR_ACTIONS & ~n_mask) | (n & n_mask);
}

/* The fields are stored; P = 1 resets the event counters PMCR_EL0.P affects
 * (the first range, and the second when EL2 is disabled or the PE is at EL2
 * or EL3: the PMU layer picks them), C = 1 resets PMCCNTR_EL0. Neither is
 * stored (they read as 0). Then the PMU recomputes what counts (E, LC, LP,
 * DP, FZO, FZS). */
void write_PMCR_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                    uint64_t value)
{
    sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value) & ~PMCR_ACTIONS);
    if ((value >> PMCR_EL0_P_LO) & 1) pmu_reset_event_counters(pe, ext);
    if ((value >> PMCR_EL0_C_LO) & 1) pmu_reset_cycle_counter(pe);
    pmu_changed(pe);
}

/* The SET/CLR pairs. The state is the SET register's storage. A read through
 * either register returns it masked by GetPMUReadMask() (the pages: RAZ for
 * counters beyond GetNumEventCountersAccessible(), for those PMUACR_EL1 hides
 * at EL0, and for F0 where a read of PMICFILTR_EL0 would trap); a write sets
 * (SET) or clears (CLR) the bits written as 1 within GetPMUWriteMask(FALSE)
 * (W1S/W1C, WI where the pages say RAZ/WI or RO). The CLR register's own
 * storage is kept equal to the state after each MSR to either register, so
 * that the value an MSR outcome reports is the register's; nothing reads it. */
static uint64_t set_clr_read(armprof_pe *pe, const armprof_ext_access *ext, unsigned set_reg)
{
    return stored(pe, set_reg) & GetPMUReadMask(pe, ext);
}

static void set_clr_write(armprof_pe *pe, const armprof_ext_access *ext, unsigned set_reg,
                          unsigned clr_reg, uint64_t value, bool set)
{
    const uint64_t bits = value & GetPMUWriteMask(pe, ext, false) & ~sysreg_info(pe, set_reg)->res0;
    const uint64_t old = pe->regs[sysreg_desc_of(pe, set_reg)->storage];
    const uint64_t now = set ? old | bits : old & ~bits;
    sysreg_store(pe, set_reg, 0, now);
    sysreg_store(pe, clr_reg, 0, now);
    pmu_changed(pe);
}

/* The read and write hooks of a SET/CLR pair: both read the shared state,
 * SET writes ones, CLR clears them. */
#define SET_CLR_HOOKS(set, clr)                                                                    \
    uint64_t read_##set(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)   \
    {                                                                                              \
        (void)reg;                                                                                 \
        (void)m;                                                                                   \
        return set_clr_read(pe, ext, SR_##set);                                                    \
    }                                                                                              \
    void write_##set(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,      \
                     uint64_t value)                                                               \
    {                                                                                              \
        (void)reg;                                                                                 \
        (void)m;                                                                                   \
        set_clr_write(pe, ext, SR_##set, SR_##clr, value, true);                                   \
    }                                                                                              \
    uint64_t read_##clr(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)   \
    {                                                                                              \
        (void)reg;                                                                                 \
        (void)m;                                                                                   \
        return set_clr_read(pe, ext, SR_##set);                                                    \
    }                                                                                              \
    void write_##clr(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,      \
                     uint64_t value)                                                               \
    {                                                                                              \
        (void)reg;                                                                                 \
        (void)m;                                                                                   \
        set_clr_write(pe, ext, SR_##set, SR_##clr, value, false);                                  \
    }

SET_CLR_HOOKS(PMCNTENSET_EL0, PMCNTENCLR_EL0)
SET_CLR_HOOKS(PMOVSSET_EL0, PMOVSCLR_EL0)
SET_CLR_HOOKS(PMINTENSET_EL1, PMINTENCLR_EL1)

/* PMSWINC_EL0: PMUSwIncrement() applies the masks (counters accessible, and
 * PMUACR_EL1 when PMUSERENR_EL0.<UEN,SW> == '10' at EL0). WO/RAZ: nothing is
 * stored. */
void write_PMSWINC_EL0(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                       uint64_t value)
{
    (void)ext;
    (void)reg;
    (void)m;
    PMUSwIncrement(pe, value);
}

/* PMUACR_EL1.P<m>: 'When m >= GetNumEventCountersAccessible(), access to this
 * field is RAZ/WI' - at EL1 with EL2 enabled, the counters of the second
 * range. The stored bits of those counters are kept (EL2 and EL3 see and
 * write them). */
static uint64_t pmuacr_inaccessible(const armprof_pe *pe)
{
    const unsigned n = GetNumEventCountersAccessible(pe);
    return BITS_MASK(30, 0) & ~(n ? BITS_MASK(n - 1, 0) : 0);
}

uint64_t read_PMUACR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    (void)ext;
    (void)m;
    return stored(pe, reg) & ~pmuacr_inaccessible(pe);
}

void write_PMUACR_EL1(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                      uint64_t value)
{
    (void)ext;
    const uint64_t keep = pmuacr_inaccessible(pe);
    const uint64_t merged = sysreg_merge_write(pe, reg, m, value);
    sysreg_store(pe, reg, m,
                 (merged & ~keep) | (pe->regs[sysreg_desc_of(pe, reg)->storage] & keep));
}
