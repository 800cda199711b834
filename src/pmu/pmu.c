/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' counting engine: CountPMUEvents(), PMUEvent(),
 * AArch64.PMUCycle() and the functions they call (J1.1.1, J1.3.1). */
#include "pmu/pmu.h"

#include "core/arch.h"
#include "pmu/external.h"

/* NUM_PMU_COUNTERS */
static unsigned num_counters(const armprof_pe *pe)
{
    return (unsigned)OPTION_VALUE(pe, NUM_EVENT_COUNTERS);
}

#define PMEVCNTR(pe, n)  ((pe)->regs[STO_PMEVCNTR_EL0 + (n)])
#define PMEVTYPER(pe, n) ((pe)->regs[STO_PMEVTYPER_EL0 + (n)])
#define BIT(v, n)        (((v) >> (n)) & 1u)

/* UsingAArch32() */
static bool UsingAArch32(const armprof_pe *pe)
{
    return ELUsingAArch32(pe, pe->ctx.el);
}

/* HaveAArch32(): AArch32 is supported at EL0 */
static bool HaveAArch32(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, AA32EL0);
}

/* PMUCounterRange */
enum pmu_range { RANGE_R1, RANGE_R2, RANGE_R3 };

/* GetPMUCounterRange() */
static enum pmu_range GetPMUCounterRange(const armprof_pe *pe, unsigned n)
{
    const unsigned epmn = EffectiveEPMN(pe), hpmn = EffectiveHPMN(pe);
    if (n < hpmn) return RANGE_R1;
    if (n < epmn) return RANGE_R2;
    if (n < num_counters(pe)) return RANGE_R3;
    return RANGE_R1; /* the cycle and instruction counters */
}

/* The event number a counter counts: PMEVTYPER<n>_EL0.evtCount, 16 bits from
 * FEAT_PMUv3p1, 10 bits before. */
static uint16_t evtCount(const armprof_pe *pe, unsigned n)
{
    const uint64_t mask = IsFeatureImplemented(pe, PMUv3p1) ? 0xffff : 0x3ff;
    return (uint16_t)(PMEVTYPER(pe, n) & mask);
}

/* IsSupportingPMUSynchronousMode(): the model implements no event that
 * supports synchronous mode (FEAT_SEBEP). */
static bool IsSupportingPMUSynchronousMode(uint16_t event)
{
    (void)event;
    return false;
}

/* EffectivePMEE(el, for_interrupt) */
static unsigned EffectivePMEE(const armprof_pe *pe, unsigned el, bool for_interrupt)
{
    unsigned val;
    switch (el) {
    case EL1:
        val = (unsigned)FIELD(pe, PMECR_EL1, PMEE);
        break;
    case EL2:
        val = (unsigned)FIELD(pe, MDCR_EL2, PMEE);
        break;
    default:
        val = (unsigned)FIELD(pe, MDCR_EL3, PMEE);
        break;
    }
    /* Unpredictable_RESPMEE: the model takes Constraint_DISABLED */
    if (val == 2 || (el == EL1 && val == 1)) val = for_interrupt ? 3 : 0;
    return val;
}

/* PMUExceptionEnabled(): only whether it is enabled; the model does not take
 * PMU exceptions (FEAT_EBEP) yet. */
static bool PMUExceptionEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, EBEP)) return false;
    const unsigned el3 = EffectivePMEE(pe, EL3, false), el2 = EffectivePMEE(pe, EL2, false);
    if (HaveEL(pe, EL3) && el3 != 1) return el3 == 3;
    if (EL2Enabled(pe) && el2 != 1) return el2 == 3;
    return EffectivePMEE(pe, EL1, false) == 3;
}

/* PMUInterruptEnabled() */
static bool PMUInterruptEnabled(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, EBEP)) return true;
    const unsigned el3 = EffectivePMEE(pe, EL3, true), el2 = EffectivePMEE(pe, EL2, true);
    if (HaveEL(pe, EL3) && el3 != 1) return el3 == 0;
    if (EL2Enabled(pe) && el2 != 1) return el2 == 0;
    return EffectivePMEE(pe, EL1, true) == 0;
}

/* PMUOverflowCondition */
enum overflow_reason { OVF_PMU_EXCEPTION, OVF_BRBE_FREEZE, OVF_FREEZE, OVF_IRQ, OVF_EDBGRQ };

/* CheckPMUOverflowCondition() */
static bool CheckPMUOverflowCondition(const armprof_pe *pe, enum overflow_reason reason,
                                      bool include_r1, bool include_r2, bool include_r3)
{
    bool check_e, check_inten, exclude_cyc, exclude_sync;
    switch (reason) {
    case OVF_PMU_EXCEPTION:
        check_e = check_inten = true;
        exclude_cyc = false;
        exclude_sync = IsFeatureImplemented(pe, SEBEP);
        break;
    case OVF_BRBE_FREEZE:
    case OVF_FREEZE:
        check_e = check_inten = false;
        exclude_cyc = true;
        exclude_sync = IsFeatureImplemented(pe, SEBEP);
        break;
    default:
        check_e = check_inten = true;
        exclude_cyc = exclude_sync = false;
        break;
    }
    uint64_t ovsf = REG(pe, PMOVSSET_EL0) & ((1ull << 33) - 1);
    if (!IsFeatureImplemented(pe, PMUv3_ICNTR)) ovsf &= ~(1ull << INSTRUCTION_COUNTER_ID);
    const unsigned counters = num_counters(pe);
    ovsf &= ~(((1ull << 31) - 1) & ~((1ull << counters) - 1)); /* unimplemented counters */
    const uint64_t pmcr_e = FIELD(pe, PMCR_EL0, E);
    for (unsigned idx = 0; idx < counters; idx++) {
        uint64_t global_en;
        switch (GetPMUCounterRange(pe, idx)) {
        case RANGE_R1:
            global_en = pmcr_e;
            if (!include_r1) ovsf &= ~(1ull << idx);
            break;
        case RANGE_R2:
            global_en = FIELD(pe, MDCR_EL2, HPME);
            if (!include_r2) ovsf &= ~(1ull << idx);
            break;
        default:
            global_en = FIELD(pe, PMCCR, EPME);
            if (!include_r3) ovsf &= ~(1ull << idx);
            break;
        }
        if (exclude_sync && BIT(PMEVTYPER(pe, idx), PMEVTYPER_EL0_SYNC_LO)) ovsf &= ~(1ull << idx);
        if (check_e && !global_en) ovsf &= ~(1ull << idx);
    }
    if (exclude_cyc || !include_r1) ovsf &= ~(1ull << CYCLE_COUNTER_ID);
    if (check_e && !pmcr_e) ovsf &= ~(1ull << CYCLE_COUNTER_ID);
    if (IsFeatureImplemented(pe, PMUv3_ICNTR)) {
        if (!include_r1) ovsf &= ~(1ull << INSTRUCTION_COUNTER_ID);
        if (exclude_sync && FIELD(pe, PMICFILTR_EL0, SYNC))
            ovsf &= ~(1ull << INSTRUCTION_COUNTER_ID);
        if (check_e && !pmcr_e) ovsf &= ~(1ull << INSTRUCTION_COUNTER_ID);
    }
    if (check_inten) ovsf &= REG(pe, PMINTENSET_EL1);
    return ovsf != 0;
}

/* ShouldPMUFreeze() */
static bool ShouldPMUFreeze(const armprof_pe *pe, enum pmu_range r)
{
    if (r == RANGE_R3) return false;
    return CheckPMUOverflowCondition(pe, OVF_FREEZE, r == RANGE_R1, r == RANGE_R2, false);
}

/* SPEFreezeOnEvent(): the SPE unit does not freeze counters yet (issue 5:
 * PMCR_EL0.FZS). */
static bool SPEFreezeOnEvent(const armprof_pe *pe, unsigned idx)
{
    (void)pe;
    (void)idx;
    return false;
}

/* CountPMUEvents() */
static bool CountPMUEvents(const armprof_pe *pe, unsigned idx)
{
    const bool debug = Halted(pe);
    const enum pmu_range counter_range = GetPMUCounterRange(pe, idx);
    const armprof_security_state ss = CurrentSecurityState(pe);
    const unsigned el = pe->ctx.el;

    /* Main enable controls */
    uint64_t global_en, counter_en;
    switch (counter_range) {
    case RANGE_R1:
        global_en = FIELD(pe, PMCR_EL0, E);
        break;
    case RANGE_R2:
        global_en = FIELD(pe, MDCR_EL2, HPME);
        break;
    default:
        global_en = FIELD(pe, PMCCR, EPME);
        break;
    }
    counter_en = BIT(REG(pe, PMCNTENSET_EL0), idx);
    if (idx < CYCLE_COUNTER_ID && IsFeatureImplemented(pe, SEBEP) &&
        BIT(PMEVTYPER(pe, idx), PMEVTYPER_EL0_SYNC_LO) &&
        !IsSupportingPMUSynchronousMode(evtCount(pe, idx)))
        counter_en = 0;
    bool enabled = global_en && counter_en;

    /* Event counting in Secure state or at EL3 is prohibited ... */
    bool prohibited = false;
    if (HaveEL(pe, EL3) && (ss == ARMPROF_SS_SECURE || el == EL3) && counter_range != RANGE_R3) {
        prohibited = FIELD(pe, MDCR_EL3, SPME) == 0 &&
                     (!IsFeatureImplemented(pe, PMUv3p7) || FIELD(pe, MDCR_EL3, MPMX) == 0);
        if (prohibited && el == EL0 && ELUsingAArch32(pe, EL1))
            prohibited = FIELD(pe, SDER32_EL3, SUNIDEN) == 0;
    }
    /* Event counting at EL3 with MDCR_EL3.MPMX */
    if (!prohibited && IsFeatureImplemented(pe, PMUv3p7) && el == EL3 && counter_range != RANGE_R3)
        prohibited = FIELD(pe, MDCR_EL3, MPMX) == 1 &&
                     (FIELD(pe, MDCR_EL3, SPME) == 0 || counter_range == RANGE_R1);
    /* Event counting at EL2 with MDCR_EL2.HPMD */
    if (!prohibited && el == EL2 && IsFeatureImplemented(pe, PMUv3p1) && counter_range == RANGE_R1)
        prohibited = FIELD(pe, MDCR_EL2, HPMD) == 1;
    /* The authentication interface might override software */
    if (prohibited && !IsFeatureImplemented(pe, Debugv8p2))
        prohibited = !ExternalSecureNoninvasiveDebugEnabled(pe);

    bool frozen = false;
    if (IsFeatureImplemented(pe, PMUv3p7)) {
        uint64_t fz = 0;
        if (counter_range == RANGE_R1)
            fz = FIELD(pe, PMCR_EL0, FZO);
        else if (counter_range == RANGE_R2)
            fz = FIELD(pe, MDCR_EL2, HPMFZO);
        frozen = fz == 1 && ShouldPMUFreeze(pe, counter_range);
        frozen = frozen || SPEFreezeOnEvent(pe, idx);
    }

    /* PMCR_EL0.DP disables the cycle counter when counting is prohibited or
     * frozen; otherwise those do not affect the cycle counter. */
    if (idx == CYCLE_COUNTER_ID) {
        if (prohibited || frozen) enabled = enabled && FIELD(pe, PMCR_EL0, DP) == 0;
        prohibited = frozen = false;
        if (IsFeatureImplemented(pe, PMUv3p5)) {
            if (HaveEL(pe, EL3) && (ss == ARMPROF_SS_SECURE || el == EL3) &&
                FIELD(pe, MDCR_EL3, SCCD) == 1)
                prohibited = true;
            if (el == EL2 && FIELD(pe, MDCR_EL2, HCCD) == 1) prohibited = true;
        }
        if (IsFeatureImplemented(pe, PMUv3p7) && el == EL3 && FIELD(pe, MDCR_EL3, MCCD) == 1)
            prohibited = true;
    }

    /* Filtering by the {P, U, NSK, NSU, NSH, M, SH, RLK, RLU, RLH} bits */
    uint64_t filter;
    if (idx == INSTRUCTION_COUNTER_ID)
        filter = REG(pe, PMICFILTR_EL0);
    else if (idx == CYCLE_COUNTER_ID)
        filter = REG(pe, PMCCFILTR_EL0);
    else
        filter = PMEVTYPER(pe, idx);
    const unsigned p = BIT(filter, 31), u = BIT(filter, 30);
    const unsigned nsk = HaveEL(pe, EL3) ? BIT(filter, 29) : 0;
    const unsigned nsu = HaveEL(pe, EL3) ? BIT(filter, 28) : 0;
    const unsigned nsh = HaveEL(pe, EL2) ? BIT(filter, 27) : 0;
    const unsigned m = HaveEL(pe, EL3) ? BIT(filter, 26) : 0;
    const unsigned sh = HaveEL(pe, EL3) && IsFeatureImplemented(pe, SEL2) ? BIT(filter, 24) : 0;
    const unsigned rlk = IsFeatureImplemented(pe, RME) ? BIT(filter, 22) : 0;
    const unsigned rlu = IsFeatureImplemented(pe, RME) ? BIT(filter, 21) : 0;
    const unsigned rlh = IsFeatureImplemented(pe, RME) ? BIT(filter, 20) : 0;
    bool filtered;
    switch (el) {
    case EL0:
        filtered = ss == ARMPROF_SS_NONSECURE ? u != nsu
                   : ss == ARMPROF_SS_SECURE  ? u == 1
                                              : u != rlu;
        break;
    case EL1:
        filtered = ss == ARMPROF_SS_NONSECURE ? p != nsk
                   : ss == ARMPROF_SS_SECURE  ? p == 1
                                              : p != rlk;
        break;
    case EL2:
        filtered = ss == ARMPROF_SS_NONSECURE ? nsh == 0
                   : ss == ARMPROF_SS_SECURE  ? nsh == sh
                                              : nsh == rlh;
        break;
    default:
        filtered = m != p;
        break;
    }
    return !debug && enabled && !prohibited && !filtered && !frozen;
}

/* ---- Access masks ---- */

uint64_t GetPMUAccessMask(const armprof_pe *pe, const armprof_ext_access *ext)
{
    /* An external access: the external pages' P<m>, C and F0 conditions,
     * none of which depends on PSTATE.EL. */
    if (ext) return ext_pmu_counter_mask(pe, ext);
    uint64_t mask = 0;
    if (IsFeatureImplemented(pe, PMUv3_ICNTR) && !UsingAArch32(pe)) {
        if (pe->ctx.el != EL0 || FIELD(pe, PMUSERENR_EL0, UEN) == 1)
            mask |= 1ull << INSTRUCTION_COUNTER_ID;
    }
    mask |= 1ull << CYCLE_COUNTER_ID;
    const unsigned counters = GetNumEventCountersAccessible(pe);
    mask |= (1ull << counters) - 1;
    if (IsFeatureImplemented(pe, PMUv3p9) && !ELUsingAArch32(pe, EL1) && pe->ctx.el == EL0 &&
        FIELD(pe, PMUSERENR_EL0, UEN) == 1)
        mask &= REG(pe, PMUACR_EL1);
    return mask;
}

/* The PMICNTR_EL0 control bits follow whether an access to its filter (or,
 * for a counter write, to the counter) would be trapped to EL3 or EL2. */
static uint64_t icntr_trap_mask(const armprof_pe *pe, uint64_t mask, uint64_t fgt_bit)
{
    if (!IsFeatureImplemented(pe, PMUv3_ICNTR) || !BIT(mask, INSTRUCTION_COUNTER_ID)) return mask;
    const uint64_t icntr = 1ull << INSTRUCTION_COUNTER_ID;
    if (HaveEL(pe, EL3) && pe->ctx.el != EL3 && FIELD(pe, MDCR_EL3, EnPM2) == 0) mask &= ~icntr;
    const bool host = FIELD(pe, HCR_EL2, E2H) == 1 && FIELD(pe, HCR_EL2, TGE) == 1;
    if (EL2Enabled(pe) && pe->ctx.el <= EL1 && !host) {
        if ((HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, FGTEn2) == 0) || fgt_bit == 0) mask &= ~icntr;
    }
    return mask;
}

uint64_t GetPMUReadMask(const armprof_pe *pe, const armprof_ext_access *ext)
{
    if (ext) return ext_pmu_counter_mask(pe, ext);
    return icntr_trap_mask(pe, GetPMUAccessMask(pe, NULL), FIELD(pe, HDFGRTR2_EL2, nPMICFILTR_EL0));
}

uint64_t GetPMUWriteMask(const armprof_pe *pe, const armprof_ext_access *ext, bool write_counter)
{
    if (ext) return ext_pmu_counter_mask(pe, ext);
    uint64_t mask = GetPMUAccessMask(pe, NULL);
    if (IsFeatureImplemented(pe, PMUv3p9) && !ELUsingAArch32(pe, EL1) && pe->ctx.el == EL0 &&
        FIELD(pe, PMUSERENR_EL0, UEN) == 1) {
        if (IsFeatureImplemented(pe, PMUv3_ICNTR) && FIELD(pe, PMUSERENR_EL0, IR) == 1)
            mask &= ~(1ull << INSTRUCTION_COUNTER_ID);
        if (FIELD(pe, PMUSERENR_EL0, CR) == 1) mask &= ~(1ull << CYCLE_COUNTER_ID);
        if (FIELD(pe, PMUSERENR_EL0, ER) == 1) mask &= ~((1ull << 31) - 1);
    }
    const uint64_t fgt_bit = write_counter ? FIELD(pe, HDFGWTR2_EL2, nPMICNTR_EL0)
                                           : FIELD(pe, HDFGWTR2_EL2, nPMICFILTR_EL0);
    return icntr_trap_mask(pe, mask, fgt_bit);
}

/* ---- Events and counting ---- */

/* IncrementInstructionCounter(): the Effective value of PMCR_EL0.LP is 1 for
 * the instruction counter. */
static void IncrementInstructionCounter(armprof_pe *pe, uint64_t increment)
{
    if (!(PMU_STATE(pe)->counting >> INSTRUCTION_COUNTER_ID & 1)) return;
    const uint64_t old_value = REG(pe, PMICNTR_EL0);
    const uint64_t new_value = old_value + increment;
    REG(pe, PMICNTR_EL0) = new_value;
    if (new_value < old_value) {
        REG(pe, PMOVSSET_EL0) |= 1ull << INSTRUCTION_COUNTER_ID;
        /* The overflow can freeze counters and raise PMUIRQ: what counts and
         * the PMUIRQ level are computed again before they are next used. */
        pe_controls_changed(pe);
    }
}

/* PMUEvent() once the PMU is known to be implemented and its cache current. */
static inline void accumulate_event(armprof_pe *pe, uint16_t event, uint64_t increment)
{
    /* The counters whose evtCount is this event, from the cache. */
    pmu_state *u = PMU_STATE(pe);
    const unsigned h = pmu_event_hash(event);
    if (!((u->event_valid >> h) & 1) || u->event_key[h] != event) {
        uint32_t mask = 0;
        const unsigned counters = num_counters(pe);
        for (unsigned idx = 0; idx < counters; idx++)
            if (u->event_of[idx] == event) mask |= 1u << idx;
        u->event_key[h] = event;
        u->event_counters[h] = mask;
        u->event_valid |= 1ull << h;
    }
    for (uint32_t mask = u->event_counters[h]; mask; mask &= mask - 1)
        u->accumulator[__builtin_ctz(mask)] += increment;
    if (IsFeatureImplemented(pe, PMUv3_ICNTR) && event == PMU_EVENT_INST_RETIRED)
        IncrementInstructionCounter(pe, increment);
}

void pmu_accumulate_event(armprof_pe *pe, uint16_t event, uint64_t increment)
{
    accumulate_event(pe, event, increment);
}

/* How many times adding increment to a counter whose overflow width is 32
 * bits wraps it: each wrap is one overflow, counted by CHAIN. */
static uint64_t wraps32(uint64_t old_value, uint64_t increment)
{
    const uint64_t low = (old_value & 0xffffffffu) + (increment & 0xffffffffu);
    return (increment >> 32) + (low >> 32);
}

/* Whether adding increment to old_value changes bits [64:ovflw] of the
 * (65-bit) sum: the overflow test of the Increment functions. */
static bool crosses(uint64_t old_value, uint64_t increment, unsigned ovflw)
{
    const uint64_t sum = old_value + increment;
    const bool carry = sum < old_value;
    if (ovflw == 64) return carry;
    return carry || (sum >> ovflw) != (old_value >> ovflw);
}

/* PMUCountValue(): FEAT_PMUv3_TH threshold counting is not modelled yet; the
 * counter increments by the event's value (docs/spec-notes.md). */
static uint64_t PMUCountValue(const armprof_pe *pe, unsigned n, uint64_t vb, uint64_t vm)
{
    (void)pe;
    (void)n;
    (void)vm;
    return vb;
}

/* The lp of AArch64.IncrementEventCounter(): whether counter idx overflows at
 * bit 64 (FEAT_PMUv3p5) rather than 32. Cached by refresh(). */
static bool counter_is_long(const armprof_pe *pe, unsigned idx)
{
    if (!IsFeatureImplemented(pe, PMUv3p5)) return false;
    if (PMUExceptionEnabled(pe)) return true;
    switch (GetPMUCounterRange(pe, idx)) {
    case RANGE_R1:
        return FIELD(pe, PMCR_EL0, LP) == 1;
    case RANGE_R2:
        return FIELD(pe, MDCR_EL2, HLP) == 1;
    default:
        return true;
    }
}

/* AArch64.IncrementEventCounter(), with lp and the CHAIN condition taken from
 * the cache. */
static uint64_t IncrementEventCounter(armprof_pe *pe, unsigned idx, uint64_t increment_in,
                                      uint64_t vm)
{
    const uint64_t old_value = PMEVCNTR(pe, idx);
    const uint64_t increment = PMUCountValue(pe, idx, increment_in, vm);
    const uint64_t new_value = old_value + increment;
    const bool lp = (PMU_STATE(pe)->long_counter >> idx) & 1;
    PMEVCNTR(pe, idx) = IsFeatureImplemented(pe, PMUv3p5) ? new_value : new_value & 0xffffffffu;
    if (increment && crosses(old_value, increment, lp ? 64 : 32)) {
        REG(pe, PMOVSSET_EL0) |= 1ull << idx;
        /* The CHAIN event from an even counter */
        if ((PMU_STATE(pe)->chain_from >> idx) & 1 &&
            PMU_STATE(pe)->event_of[idx + 1] == PMU_EVENT_CHAIN)
            PMU_STATE(pe)->accumulator[idx + 1] += wraps32(old_value, increment);
    }
    return increment;
}

/* AArch64.IncrementCycleCounter() for n cycles. The divide-by-64 phase
 * advances on the cycles the counter counts. */
static void IncrementCycleCounter(armprof_pe *pe, uint64_t n)
{
    if (!(PMU_STATE(pe)->counting >> CYCLE_COUNTER_ID & 1)) return;
    unsigned d = (unsigned)FIELD(pe, PMCR_EL0, D);
    unsigned lc = (unsigned)FIELD(pe, PMCR_EL0, LC);
    if (PMU_STATE(pe)->exception_enabled) lc = 1; /* PMUExceptionEnabled(), cached */
    if (lc == 1) d = 0;
    uint64_t increment = n;
    if (d == 1) {
        const uint64_t total = PMU_STATE(pe)->cycles64 + n;
        increment = total / 64;
        PMU_STATE(pe)->cycles64 = (uint8_t)(total % 64);
        if (increment == 0) return;
    }
    const uint64_t old_value = REG(pe, PMCCNTR_EL0);
    REG(pe, PMCCNTR_EL0) = old_value + increment;
    const unsigned ovflw = HaveAArch32(pe) && lc == 0 ? 32 : 64;
    if (crosses(old_value, increment, ovflw)) REG(pe, PMOVSSET_EL0) |= 1ull << CYCLE_COUNTER_ID;
}

/* CheckForPMUOverflow(): the PMUIRQ level. BRBE freeze on overflow is not
 * modelled (no BRBE registers yet). */
static void CheckForPMUOverflow(armprof_pe *pe)
{
    const bool pmuirq = CheckPMUOverflowCondition(pe, OVF_IRQ, true, true, true);
    PMU_STATE(pe)->pmuirq = PMUInterruptEnabled(pe) && pmuirq;
    PMU_STATE(pe)->irq_gen = pe->controls_gen;
}

/* Whether event is one of those pmu_retire_events() generates for a retired
 * operation, at most one each. */
static bool retirement_event(uint16_t event)
{
    switch (event) {
    case PMU_EVENT_INST_RETIRED:
    case PMU_EVENT_BR_RETIRED:
    case PMU_EVENT_BR_MIS_PRED_RETIRED:
    case PMU_EVENT_LD_RETIRED:
    case PMU_EVENT_ST_RETIRED:
    case PMU_EVENT_MEM_ACCESS:
    case PMU_EVENT_L1D_CACHE:
    case PMU_EVENT_L1D_CACHE_REFILL:
        return true;
    default:
        return false;
    }
}

/* The cached CountPMUEvents(), event numbers, overflow widths and CHAIN
 * conditions of every counter (docs/design.md rule 4): recomputed when a
 * control or the context changes, not on every event. */
void pmu_refresh(armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PMUv3)) {
        /* Nothing counts: the per-operation path tests retire_events only. */
        PMU_STATE(pe)->counting = 0;
        PMU_STATE(pe)->retire_events = false;
        PMU_STATE(pe)->event_bloom = 0;
        PMU_STATE(pe)->seen_gen = pe->controls_gen;
        return;
    }
    uint64_t counting = 0;
    uint32_t long_counter = 0, chain_from = 0;
    const unsigned counters = num_counters(pe);
    for (unsigned idx = 0; idx < counters; idx++) {
        PMU_STATE(pe)->event_of[idx] = evtCount(pe, idx);
        if (CountPMUEvents(pe, idx)) counting |= 1ull << idx;
        const bool lp = counter_is_long(pe, idx);
        if (lp) long_counter |= 1u << idx;
        if ((idx & 1) == 0 && idx + 1 < counters && !lp &&
            (GetPMUCounterRange(pe, idx) == GetPMUCounterRange(pe, idx + 1) ||
             constrained_unpredictable(pe, COUNT_CHAIN) == ARMPROF_UNPRED_COUNT_CHAIN_TRUE))
            chain_from |= 1u << idx;
    }
    if (CountPMUEvents(pe, CYCLE_COUNTER_ID)) counting |= 1ull << CYCLE_COUNTER_ID;
    if (IsFeatureImplemented(pe, PMUv3_ICNTR) && CountPMUEvents(pe, INSTRUCTION_COUNTER_ID))
        counting |= 1ull << INSTRUCTION_COUNTER_ID;
    PMU_STATE(pe)->counting = counting;
    PMU_STATE(pe)->exception_enabled = PMUExceptionEnabled(pe);
    /* Whether armprof_retire() can change a counter: some counter's evtCount
     * is one of the events a retired operation generates, or the
     * instruction counter counts. */
    bool retire_events = (counting >> INSTRUCTION_COUNTER_ID) & 1;
    for (unsigned idx = 0; idx < counters && !retire_events; idx++)
        if (retirement_event(PMU_STATE(pe)->event_of[idx])) retire_events = true;
    PMU_STATE(pe)->retire_events = retire_events;
    PMU_STATE(pe)->long_counter = long_counter;
    PMU_STATE(pe)->chain_from = chain_from;
    uint64_t bloom = 0;
    for (unsigned idx = 0; idx < counters; idx++)
        bloom |= 1ull << pmu_event_hash(PMU_STATE(pe)->event_of[idx]);
    if (IsFeatureImplemented(pe, PMUv3_ICNTR))
        bloom |= 1ull << pmu_event_hash(PMU_EVENT_INST_RETIRED);
    PMU_STATE(pe)->event_bloom = bloom;
    PMU_STATE(pe)->event_valid = 0;
    PMU_STATE(pe)->seen_gen = pe->controls_gen;
}

void PMUEvent(armprof_pe *pe, uint16_t event, uint64_t increment)
{
    pmu_event(pe, event, increment);
}

uint64_t pmu_event_filter(armprof_pe *pe)
{
    /* Without FEAT_PMUv3, pmu_refresh() leaves event_bloom 0. */
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
    return PMU_STATE(pe)->event_bloom;
}

bool pmu_event_counted(armprof_pe *pe, uint16_t event)
{
    if (!IsFeatureImplemented(pe, PMUv3)) return false;
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
    const unsigned counters = num_counters(pe);
    for (unsigned idx = 0; idx < counters; idx++)
        if (PMU_STATE(pe)->event_of[idx] == event) return true;
    return false;
}

void pmu_changed(armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PMUv3)) return;
    pmu_refresh(pe);
    CheckForPMUOverflow(pe);
}

/* AArch64.PMUCycle(), for cycles that end together: events accumulated so far
 * count in the first. */
static void pmu_cycle_batch(armprof_pe *pe, uint64_t n)
{
    if (n == 0) return;
    const bool controls_changed = pe_controls_stale(pe, PMU_STATE(pe)->seen_gen);
    pmu_event(pe, PMU_EVENT_CPU_CYCLES, n);
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
    const unsigned counters = num_counters(pe);
    const uint64_t overflow_before = REG(pe, PMOVSSET_EL0);
    uint64_t vm = 0;
    for (unsigned idx = 0; idx < counters; idx++) {
        const uint64_t accumulated = PMU_STATE(pe)->accumulator[idx];
        /* The pseudocode clears the accumulator only for a counter that counts;
         * the model clears it for every counter, so that a counter does not
         * count, once enabled, events that happened while it was disabled
         * (docs/spec-notes.md). */
        PMU_STATE(pe)->accumulator[idx] = 0;
        /* Nothing to add (PMUCountValue() is the identity without
         * FEAT_PMUv3_TH modelled): the counter and Vm are unchanged. */
        if (!accumulated || !(PMU_STATE(pe)->counting >> idx & 1)) continue;
        if ((idx & 1) == 0) vm = 0;
        vm = IncrementEventCounter(pe, idx, accumulated, vm);
    }
    IncrementCycleCounter(pe, n);
    /* Only a new overflow changes PMUIRQ, or freezes counters (PMCR_EL0.FZO,
     * MDCR_EL2.HPMFZO) from the next cycle on: the controls' own changes go
     * through pmu_changed(). */
    if (controls_changed || REG(pe, PMOVSSET_EL0) != overflow_before) {
        if (IsFeatureImplemented(pe, PMUv3p7)) pmu_refresh(pe);
        CheckForPMUOverflow(pe);
    }
}

/* Whether an overflow in one cycle can change what counts in the next:
 * PMCR_EL0.FZO or MDCR_EL2.HPMFZO (FEAT_PMUv3p7). Then cycles end in
 * batches that stop at each new overflow (cycles_to_new_overflow()). */
static bool freeze_possible(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PMUv3p7) &&
           (FIELD(pe, PMCR_EL0, FZO) == 1 || FIELD(pe, MDCR_EL2, HPMFZO) == 1);
}

/* Saturating arithmetic for the freeze point: a cycle count beyond 2^64 - 1
 * is "never" within any armprof_cycles() call. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The increments event counter idx takes before the next one overflows it:
 * 2^width - 1 less its value, at the overflow width refresh() cached (the
 * bits above a 32-bit width do not count). */
static uint64_t event_counter_room(const armprof_pe *pe, unsigned idx)
{
    const uint64_t limit_minus_1 =
        (PMU_STATE(pe)->long_counter >> idx & 1) ? UINT64_MAX : 0xffffffffull;
    return limit_minus_1 - (PMEVCNTR(pe, idx) & limit_minus_1);
}

/* The first of the coming cycles (1-based, saturating) at which the cycle
 * counter overflows, were it to count: the (room + 1)-th increment of
 * AArch64.IncrementCycleCounter(), every cycle, or every 64th with PMCR_EL0.D
 * (the first after 64 - cycles64). */
static uint64_t cycle_counter_overflow_cycle(const armprof_pe *pe)
{
    unsigned d = (unsigned)FIELD(pe, PMCR_EL0, D);
    unsigned lc = (unsigned)FIELD(pe, PMCR_EL0, LC);
    if (PMU_STATE(pe)->exception_enabled) lc = 1;
    if (lc == 1) d = 0;
    const unsigned width = HaveAArch32(pe) && lc == 0 ? 32 : 64;
    const uint64_t limit_minus_1 = width == 64 ? UINT64_MAX : 0xffffffffull;
    const uint64_t room = limit_minus_1 - (REG(pe, PMCCNTR_EL0) & limit_minus_1);
    return d == 0 ? sat_add(room, 1) : sat_add(64u - PMU_STATE(pe)->cycles64, sat_mul(room, 64));
}

/* The first of the next n cycles at which a counter that counts sets an
 * overflow bit of PMOVSSET_EL0 that is clear now (1-based; n when none does
 * within n): up to that cycle the cycles can end in one batch, since only a
 * new overflow can freeze counters (PMCR_EL0.FZO, MDCR_EL2.HPMFZO) or
 * change PMUIRQ. An overflow bit already set does not change when its
 * counter wraps again. Events accumulated so far count in the first cycle
 * (pmu_cycle_batch()); after it, a counter changes only if it counts
 * CPU_CYCLES, is the cycle counter, or counts CHAIN from a partner that
 * does. The arithmetic makes the time independent of n. */
static uint64_t cycles_to_new_overflow(armprof_pe *pe, uint64_t n)
{
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
    const pmu_state *u = PMU_STATE(pe);
    const uint64_t set = REG(pe, PMOVSSET_EL0);
    const unsigned counters = num_counters(pe);
    uint64_t first = n;
    /* The cycles until an event counter idx reaches 2^width, counting one a
     * cycle from the first with acc more in the first. */
    for (unsigned idx = 0; idx < counters; idx++) {
        if (!(u->counting >> idx & 1) || (set >> idx & 1)) continue;
        const uint64_t room = event_counter_room(pe, idx);
        const uint64_t acc = u->accumulator[idx];
        uint64_t t = UINT64_MAX;
        if (u->event_of[idx] == PMU_EVENT_CPU_CYCLES) {
            /* value + acc + k > limit - 1 first at k = limit - value - acc */
            t = acc > room ? 1 : room - acc + 1;
        } else if (u->event_of[idx] == PMU_EVENT_CHAIN && idx > 0 &&
                   (u->chain_from >> (idx - 1) & 1) && (u->counting >> (idx - 1) & 1) &&
                   u->event_of[idx - 1] == PMU_EVENT_CPU_CYCLES) {
            /* One increment each time the even counter wraps (32 bits): it
             * first wraps after t0 cycles, then every 2^32. */
            const uint64_t even_acc = u->accumulator[idx - 1];
            const uint64_t even_room = event_counter_room(pe, idx - 1); /* not long: chain_from */
            const uint64_t t0 = even_acc > even_room ? 1 : even_room - even_acc + 1;
            t = acc > room ? 1 : sat_add(t0, sat_mul(room - acc, 1ull << 32));
        } else if (acc != 0 && acc > room) {
            t = 1;
        }
        if (t < first) first = t;
    }
    if ((u->counting >> CYCLE_COUNTER_ID & 1) && !(set >> CYCLE_COUNTER_ID & 1)) {
        const uint64_t t = cycle_counter_overflow_cycle(pe);
        if (t < first) first = t;
    }
    return first == 0 ? 1 : first;
}

PER_OPERATION void pmu_cycles(armprof_pe *pe, uint64_t n)
{
    if (!IsFeatureImplemented(pe, PMUv3)) return;
    const bool freeze = freeze_possible(pe);
    while (n > 0) {
        /* With a freeze possible, batches end at each new overflow. */
        uint64_t step = freeze ? cycles_to_new_overflow(pe, n) : n;
        /* A Capture event completes at its own cycle, between the counts of
         * the cycles before and after it. */
        if (PMU_STATE(pe)->capture_pending && PMU_STATE(pe)->capture_countdown < step)
            step = PMU_STATE(pe)->capture_countdown;
        pmu_cycle_batch(pe, step);
        n -= step;
        if (PMU_STATE(pe)->capture_pending) {
            PMU_STATE(pe)->capture_countdown -= step;
            if (PMU_STATE(pe)->capture_countdown == 0) {
                pmu_capture_complete(pe);
                continue;
            }
        }
    }
}

void PMUSwIncrement(armprof_pe *pe, uint64_t value)
{
    uint64_t mask = 0;
    const unsigned counters = GetNumEventCountersAccessible(pe);
    if (counters > 0) mask = (1ull << counters) - 1;
    if (pe->ctx.el == EL0 && FIELD(pe, PMUSERENR_EL0, UEN) == 1 &&
        FIELD(pe, PMUSERENR_EL0, SW) == 0)
        mask &= REG(pe, PMUACR_EL1) & ((1ull << 31) - 1);
    value &= mask;
    for (unsigned idx = 0; idx < 31; idx++)
        if (BIT(value, idx) && evtCount(pe, idx) == PMU_EVENT_SW_INCR)
            PMU_STATE(pe)->accumulator[idx] += 1;
}

void ZeroPMUCounters(armprof_pe *pe, const armprof_ext_access *ext, uint64_t value)
{
    const uint64_t masked = value & GetPMUWriteMask(pe, ext, true);
    const unsigned counters = num_counters(pe);
    for (unsigned idx = 0; idx < 33; idx++) {
        if (!BIT(masked, idx)) continue;
        if (idx < 31 && (idx >= counters || GetPMUCounterRange(pe, idx) == RANGE_R3)) continue;
        if (idx == INSTRUCTION_COUNTER_ID)
            REG(pe, PMICNTR_EL0) = 0;
        else if (idx == CYCLE_COUNTER_ID)
            REG(pe, PMCCNTR_EL0) = 0;
        else if (IsFeatureImplemented(pe, PMUv3p5))
            PMEVCNTR(pe, idx) = 0;
        else
            PMEVCNTR(pe, idx) &= ~0xffffffffull;
    }
}

/* ClearEventCounters(): a write of 1 to PMCR_EL0.P */
void pmu_reset_event_counters(armprof_pe *pe, const armprof_ext_access *ext)
{
    ZeroPMUCounters(pe, ext, (1ull << 31) - 1);
}

/* A write of 1 to PMCR_EL0.C */
void pmu_reset_cycle_counter(armprof_pe *pe)
{
    REG(pe, PMCCNTR_EL0) = 0;
}

void pmu_reset(armprof_pe *pe, bool cold)
{
    (void)cold; /* the counters are registers, reset with the others */
    pmu_idregs_init(pe);
    const pmu_state zero = {0};
    *PMU_STATE(pe) = zero;
    PMU_STATE(pe)->seen_gen = pe->controls_gen - 1; /* stale */
    pe_controls_changed(pe);
}

bool armprof_pmuirq(armprof_pe *pe)
{
    if (pe_controls_stale(pe, PMU_STATE(pe)->irq_gen)) pmu_changed(pe);
    return PMU_STATE(pe)->pmuirq;
}

/* The PMU events of a retired operation (PMUEvent() for each; pmu_retire()
 * has checked the PMU is implemented and refreshed its cache). */
PER_OPERATION void pmu_retire_events(armprof_pe *pe, const armprof_op *op)
{
    accumulate_event(pe, PMU_EVENT_INST_RETIRED, 1);
    switch (op->op_class) {
    case ARMPROF_OP_BRANCH:
        accumulate_event(pe, PMU_EVENT_BR_RETIRED, 1);
        if (op->mispredicted) accumulate_event(pe, PMU_EVENT_BR_MIS_PRED_RETIRED, 1);
        break;
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        accumulate_event(
            pe, op->op_class == ARMPROF_OP_LOAD ? PMU_EVENT_LD_RETIRED : PMU_EVENT_ST_RETIRED, 1);
        accumulate_event(pe, PMU_EVENT_MEM_ACCESS, 1);
        if (op->l1d_access) accumulate_event(pe, PMU_EVENT_L1D_CACHE, 1);
        if (op->l1d_refill) accumulate_event(pe, PMU_EVENT_L1D_CACHE_REFILL, 1);
        break;
    default:
        break;
    }
}

/* How many instructions can retire before the instruction counter overflows
 * (its overflow can freeze counters and raise PMUIRQ mid-run): UINT64_MAX
 * when it does not count. */
uint64_t pmu_ops_until_event(armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PMUv3)) return UINT64_MAX;
    pmu_state *u = PMU_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) pmu_refresh(pe);
    if (!IsFeatureImplemented(pe, PMUv3_ICNTR) || !(u->counting >> INSTRUCTION_COUNTER_ID & 1))
        return UINT64_MAX;
    return UINT64_MAX - REG(pe, PMICNTR_EL0); /* adding as many does not wrap */
}

/* How many operations can retire, each adding at most one to each
 * retirement event and taking at least one cycle, before a counter that
 * counts could overflow (armprof_pmu_ops_until_overflow()): the instruction
 * counter (pmu_ops_until_event()), each event counter of a retirement event,
 * SAMPLE_POP (SPE's retirement) or CPU_CYCLES less the events it has
 * accumulated, and the cycle counter at one cycle an operation. A CHAIN
 * counter moves only when its even partner overflows, which bounds it
 * already; other events do not come from retirement, but any counter whose
 * accumulated events already carry it over overflows at the next cycle,
 * whatever retires: 0. An overflow bit already set does not exempt its
 * counter: its value still wraps. */
uint64_t pmu_ops_until_overflow(armprof_pe *pe)
{
    uint64_t first = pmu_ops_until_event(pe); /* refreshes the cache */
    if (!IsFeatureImplemented(pe, PMUv3)) return first;
    const pmu_state *u = PMU_STATE(pe);
    const unsigned counters = num_counters(pe);
    for (unsigned idx = 0; idx < counters; idx++) {
        if (!(u->counting >> idx & 1)) continue;
        const uint16_t event = u->event_of[idx];
        const uint64_t room = event_counter_room(pe, idx), acc = u->accumulator[idx];
        if (acc > room) return 0;
        if (!(retirement_event(event) || event == PMU_EVENT_SAMPLE_POP ||
              event == PMU_EVENT_CPU_CYCLES))
            continue;
        if (room - acc < first) first = room - acc;
    }
    if (u->counting >> CYCLE_COUNTER_ID & 1) {
        const uint64_t ops = cycle_counter_overflow_cycle(pe) - 1; /* the cycles before it */
        if (ops < first) first = ops;
    }
    return first;
}

/* The retirement events of a run of plain operations (armprof_retire_run()),
 * as pmu_retire_events() of each accumulates them. */
void pmu_retire_run(armprof_pe *pe, const armprof_op_run *run)
{
    if (!IsFeatureImplemented(pe, PMUv3)) return;
    pmu_state *u = PMU_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) pmu_refresh(pe);
    if (!u->retire_events) return;
    accumulate_event(pe, PMU_EVENT_INST_RETIRED, run->ops);
    if (run->branches) accumulate_event(pe, PMU_EVENT_BR_RETIRED, run->branches);
    if (run->mispredicted) accumulate_event(pe, PMU_EVENT_BR_MIS_PRED_RETIRED, run->mispredicted);
    if (run->loads) accumulate_event(pe, PMU_EVENT_LD_RETIRED, run->loads);
    if (run->stores) accumulate_event(pe, PMU_EVENT_ST_RETIRED, run->stores);
    if (run->loads + run->stores)
        accumulate_event(pe, PMU_EVENT_MEM_ACCESS, run->loads + run->stores);
    if (run->l1d_access) accumulate_event(pe, PMU_EVENT_L1D_CACHE, run->l1d_access);
    if (run->l1d_refill) accumulate_event(pe, PMU_EVENT_L1D_CACHE_REFILL, run->l1d_refill);
}

/* A misspeculated operation (armprof_op.misspeculated): no architectural
 * event (it did not retire); the microarchitectural ones of its memory
 * access still count. */
void pmu_misspeculated_events(armprof_pe *pe, const armprof_op *op)
{
    pmu_state *u = PMU_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) pmu_refresh(pe);
    if (!IsFeatureImplemented(pe, PMUv3)) return;
    if (op->op_class != ARMPROF_OP_LOAD && op->op_class != ARMPROF_OP_STORE) return;
    accumulate_event(pe, PMU_EVENT_MEM_ACCESS, 1);
    if (op->l1d_access) accumulate_event(pe, PMU_EVENT_L1D_CACHE, 1);
    if (op->l1d_refill) accumulate_event(pe, PMU_EVENT_L1D_CACHE_REFILL, 1);
}
