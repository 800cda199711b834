/* SPDX-License-Identifier: BSD-3-Clause */
/* PC Sample-based Profiling (H7.1): CreatePCSample(), the suspended and
 * active states, Read_PMPCSR(), Read_EDPCSRlo() and the PC sample written by
 * a PMU snapshot Capture event. */
#include "pcsr/pcsr.h"
#include "pcsr/pcsr_retire.h"

#include "core/arch.h"

#define PMPCSCTL_EN  (1u << 0)
#define PMPCSCTL_IMP (1u << 1)
#define PMPCSCTL_SS  (1u << 4)

/* PMPCSCTL.IMP: an IMPLEMENTATION DEFINED read-only bit (option). */
static bool pmpcsctl_imp(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8p9) && (PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_IMP);
}

/* PMPCSCTL.SS with FEAT_PMUv3_SS: sampling on Capture events instead of on
 * reads, and PC sampling active whatever PMPCSCTL.EN is. */
static bool sampling_on_capture(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8p9) && IsFeatureImplemented(pe, PMUv3_SS) &&
           (PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_SS);
}

/* PCSRSuspended() (H7.1.1.1) */
bool PCSRSuspended(const armprof_pe *pe)
{
    if (sampling_on_capture(pe)) return false;
    if (pmpcsctl_imp(pe)) return !(PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_EN);
    return PCSR_STATE(pe)->suspended;
}

/* SetPCSRActive() */
static void SetPCSRActive(armprof_pe *pe)
{
    if (pmpcsctl_imp(pe))
        PCSR_STATE(pe)->pmpcsctl |= PMPCSCTL_EN;
    else
        PCSR_STATE(pe)->suspended = false;
    pe_controls_changed(pe); /* PCSRSuspended() changed */
}

/* H7.1.1: PC sampling is allowed */
bool pcsr_allowed(const armprof_pe *pe)
{
    return ExternalNoninvasiveDebugAllowed(pe, pe->ctx.el);
}

void pcsr_left_sampling(armprof_pe *pe)
{
    pcsr_settle(pe);
    PCSR_STATE(pe)->branch_retired = false;
}

/* CreatePCSample(). The VMID is 8 bits unless FEAT_VMID16 is implemented and
 * VTCR_EL2.VS is 1. */
/* The context part of CreatePCSample() for an instruction at Exception level
 * el in the Security state it runs in. */
static void pcsr_make_template(const armprof_pe *pe, unsigned el, pc_sample *s)
{
    s->valid = ExternalNoninvasiveDebugAllowed(pe, el) && !Halted(pe);
    s->el = (uint8_t)el;
    s->rw = ELUsingAArch32(pe, el) ? 0 : 1;
    s->ss = (uint8_t)SecurityStateAtEL(pe, el);
    s->contextidr = (uint32_t)REG(pe, CONTEXTIDR_EL1);
    s->has_el2 = el != EL3 && EL2Enabled(pe);
    if (s->has_el2) {
        const uint64_t vmid = FIELD(pe, VTTBR_EL2, VMID);
        const bool vmid16 = IsFeatureImplemented(pe, VMID16) && FIELD(pe, VTCR_EL2, VS) == 1;
        s->vmid = (uint16_t)(vmid16 ? vmid : vmid & 0xff);
    }
    if ((IsFeatureImplemented(pe, VHE) || IsFeatureImplemented(pe, Debugv8p2)) &&
        !ELUsingAArch32(pe, EL2))
        s->contextidr_el2 = (uint32_t)REG(pe, CONTEXTIDR_EL2);
    else
        s->contextidr_el2 = (uint32_t)OPTION_VALUE(pe, UNKNOWN_FILL); /* bits(32) UNKNOWN */
    s->el0h = el == EL0 && ELIsInHost(pe, EL0);
}

/* The context part of CreatePCSample(), computed once per context. */
void pcsr_refresh(armprof_pe *pe)
{
    pcsr_settle(pe); /* the pending samples are of the old context */
    PCSR_STATE(pe)->tmpl_suspended = PCSRSuspended(pe);
    pcsr_make_template(pe, pe->ctx.el, &PCSR_STATE(pe)->tmpl);
    PCSR_STATE(pe)->seen_gen = pe->controls_gen;
}

/* An exception entry or return retires: CreatePCSample() of its target runs
 * at the level it goes to (armprof_op.target_el), where the instruction
 * there executes; otherwise as pcsr_branch_retired(). */
void pcsr_branch_retired_at(armprof_pe *pe, uint64_t target, unsigned el)
{
    pcsr_settle(pe);
    if (!pcsr_branch_samples(pe)) return;
    pc_sample ctx = {0};
    pcsr_make_template(pe, el, &ctx);
    pcsr_sample_branch(PCSR_STATE(pe), &ctx, target);
}

void pcsr_settle(armprof_pe *pe)
{
    pcsr_state *p = PCSR_STATE(pe);
    if (!(p->pending[PCSR_MARK_OTHER] | p->pending[PCSR_MARK_BRANCH])) return;
    const bool branch = p->pending[PCSR_MARK_BRANCH];
    p->pending[PCSR_MARK_OTHER] = p->pending[PCSR_MARK_BRANCH] = false;
    if (p->tmpl_suspended) {
        /* Leaving suspended state needs a branch before samples are known */
        p->branch_retired = false;
        return;
    }
    /* CreatePCSample() of the last; each before it was overwritten, and
     * left branch_retired and branch_since_read as a branch sets them
     * (pcsr_sample_branch()) or an other operation leaves them. */
    pcsr_take_sample(p, &p->tmpl, p->pending_pc[1]);
    if (!p->sample.valid) {
        p->branch_retired = false;
    } else if (branch) {
        p->branch_retired = true;
        p->branch_since_read = true;
    }
}

void CreatePCSample(armprof_pe *pe, uint64_t pc)
{
    pcsr_settle(pe);
    if (pe_controls_stale(pe, PCSR_STATE(pe)->seen_gen)) pcsr_refresh(pe);
    if (PCSR_STATE(pe)->tmpl_suspended) {
        /* Leaving suspended state needs a branch before samples are known */
        PCSR_STATE(pe)->branch_retired = false;
        return;
    }
    pcsr_take_sample(PCSR_STATE(pe), &PCSR_STATE(pe)->tmpl, pc);
    const pc_sample *s = &PCSR_STATE(pe)->sample;
    /* Leaving a state where sampling is prohibited: the sample is UNKNOWN
     * until a branch retires. */
    if (!s->valid) PCSR_STATE(pe)->branch_retired = false;
}

/* The value a bits(n) UNKNOWN takes (option unknown_fill). */
static uint64_t unknown_bits(const armprof_pe *pe, unsigned n)
{
    const uint64_t fill = OPTION_VALUE(pe, UNKNOWN_FILL);
    return n >= 64 ? fill : fill & ((1ull << n) - 1);
}

/* SetPCSample(): the PC sample registers take the sample. PMPCSR: NS [63],
 * EL [62:61], NSE [59] with FEAT_RME, PC [55:0]. */
static void SetPCSample(armprof_pe *pe)
{
    const pc_sample *s = &PCSR_STATE(pe)->sample;
    uint64_t v = s->pc & 0xffffffffu;
    if (s->rw) v |= s->pc & 0x00ffffff00000000ull;
    v |= (uint64_t)(s->el & 3) << 61;
    unsigned ns, nse = 0;
    if (IsFeatureImplemented(pe, RME)) {
        ns = s->ss == ARMPROF_SS_NONSECURE || s->ss == ARMPROF_SS_REALM;
        nse = s->ss == ARMPROF_SS_ROOT || s->ss == ARMPROF_SS_REALM;
    } else {
        ns = s->ss != ARMPROF_SS_SECURE;
    }
    v |= (uint64_t)ns << 63 | (uint64_t)nse << 59;
    PCSR_STATE(pe)->pmpcsr = v;
    const uint32_t contextidr_el2 = s->has_el2 ? s->contextidr_el2 : (uint32_t)unknown_bits(pe, 32);
    uint16_t vmid = (uint16_t)unknown_bits(pe, 16);
    if (s->has_el2 && s->el <= EL1 && !s->el0h) vmid = s->vmid;
    /* With FEAT_PMUv3_EXT64, PMCCIDSR is CONTEXTIDR_EL2:CONTEXTIDR_EL1 and
     * PMVCIDSR.VMID the VMID: the same values as the EXT32 registers hold. */
    PCSR_STATE(pe)->pmcid1sr = s->contextidr;
    PCSR_STATE(pe)->pmcid2sr = contextidr_el2;
    PCSR_STATE(pe)->pmvidsr = vmid;
}

/* SetPCSRUnknown(): sampling is prohibited. */
static void SetPCSRUnknown(armprof_pe *pe)
{
    PCSR_STATE(pe)->pmpcsr = unknown_bits(pe, 32) << 32 | 0xffffffffu;
    PCSR_STATE(pe)->pmcid1sr = (uint32_t)unknown_bits(pe, 32);
    PCSR_STATE(pe)->pmcid2sr = (uint32_t)unknown_bits(pe, 32);
    PCSR_STATE(pe)->pmvidsr = (uint32_t)unknown_bits(pe, 16);
}

/* Whether the sample can be reported now: it was taken while sampling was
 * allowed (pc_sample.valid), and the PE is not now in Debug state or in a
 * state where sampling is prohibited (PMPCSR and EDPCSR read as 0xFFFF_FFFF
 * then, and a Capture event writes Ones). Being prohibited now also means a
 * branch must retire before later samples are known (H7.1.3). */
static bool sample_usable(armprof_pe *pe)
{
    if (Halted(pe) || !pcsr_allowed(pe)) {
        PCSR_STATE(pe)->branch_retired = false;
        return false;
    }
    return PCSR_STATE(pe)->sample.valid;
}

/* H7.1.3: when no branch has retired since the PE left Debug, suspended or
 * prohibited state (or, without FEAT_MOPS and FEAT_PCSRv8p2, since the last
 * read), the sample is UNKNOWN; option pcsr_unknown_sample picks the value:
 * SET_PCSR_UNKNOWN reads as 0xFFFF_FFFF (SetPCSRUnknown()), PREVIOUS_SAMPLE
 * gives the stale sample. */
static bool sample_unknown(const armprof_pe *pe)
{
    if (!PCSR_STATE(pe)->branch_retired) return true;
    if (!IsFeatureImplemented(pe, MOPS) && !IsFeatureImplemented(pe, PCSRv8p2) &&
        !PCSR_STATE(pe)->branch_since_read)
        return true;
    return false;
}

/* H7.1.3 leaves the value of an UNKNOWN sample open: as SetPCSRUnknown()
 * leaves PMPCSR, or the stale sample. */
static bool unknown_is_set_pcsr_unknown(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PCSR_UNKNOWN_SAMPLE) == ARMPROF_PCSR_UNKNOWN_SAMPLE_SET_PCSR_UNKNOWN;
}

/* Read_PMPCSR(). H7.1.1.1 makes a read activate a suspended unit only when
 * "PC sampling is allowed" (and sampling on reads is enabled, PMPCSCTL.SS 0),
 * a condition the pseudocode's side-effect branch does not repeat: a read
 * while sampling is prohibited leaves the unit suspended and the sample as it
 * was (docs/spec-notes.md). */
uint64_t Read_PMPCSR(armprof_pe *pe, bool memory_mapped)
{
    pcsr_settle(pe);
    /* The Software Lock is OPTIONAL: software-locked reads have no side effects */
    bool update = !memory_mapped || !ext_pmlsr_slk(pe);
    if (IsFeatureImplemented(pe, PCSRv8p9) && update) {
        if (sampling_on_capture(pe)) {
            update = false;
        } else if (((pmpcsctl_imp(pe) && !(PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_EN)) ||
                    (!pmpcsctl_imp(pe) && PCSRSuspended(pe))) &&
                   pcsr_allowed(pe)) {
            /* A read while suspended makes sampling active; this read has no
             * sample (pc_sample.valid = FALSE) */
            PCSR_STATE(pe)->sample.valid = false;
            SetPCSRActive(pe);
        }
    } else if (update && PCSRSuspended(pe) && pcsr_allowed(pe)) {
        /* Without FEAT_PCSRv8p9 the pseudocode is silent; H7.1.1.1: a read
         * while suspended, with sampling allowed, makes PC Sample-based
         * Profiling active. */
        PCSR_STATE(pe)->sample.valid = false;
        SetPCSRActive(pe);
    }
    if (!update) {
        /* Sampling on Capture events (PMPCSCTL.SS): the last sample or the
         * Cold reset value (H7.1.1.1). A software-locked read: the register,
         * or UNKNOWN:Ones(32) without a valid sample (Read_PMPCSR()). */
        if (!sampling_on_capture(pe) && !PCSR_STATE(pe)->sample.valid)
            return unknown_bits(pe, 32) << 32 | 0xffffffffu;
        return PCSR_STATE(pe)->pmpcsr;
    }
    const bool valid = sample_usable(pe);
    if (valid && !(sample_unknown(pe) && unknown_is_set_pcsr_unknown(pe))) {
        SetPCSample(pe);
    } else {
        SetPCSRUnknown(pe);
    }
    PCSR_STATE(pe)->branch_since_read = false;
    return PCSR_STATE(pe)->pmpcsr;
}

uint32_t Read_EDPCSRlo(armprof_pe *pe, bool memory_mapped)
{
    pcsr_settle(pe);
    (void)memory_mapped; /* EDLSR (the external debug Software Lock) is not modelled */
    const pc_sample *s = &PCSR_STATE(pe)->sample;
    uint32_t sample;
    const bool sc2 = PCSR_STATE(pe)->edscr_sc2;
    if (sample_usable(pe) && !(sample_unknown(pe) && unknown_is_set_pcsr_unknown(pe))) {
        sample = (uint32_t)s->pc;
        if (IsFeatureImplemented(pe, VHE) && sc2) {
            /* EDPCSRhi.PC [23:0], EL [30:29], NS [31] */
            uint32_t hi = s->rw ? (uint32_t)(s->pc >> 32) & 0xffffffu : 0;
            hi |= (uint32_t)(s->el & 3) << 29; /* EDPCSR.EL is bits [62:61] */
            hi |= (uint32_t)(s->ss != ARMPROF_SS_SECURE) << 31;
            PCSR_STATE(pe)->edpcsrhi = hi;
        } else {
            PCSR_STATE(pe)->edpcsrhi = s->rw ? (uint32_t)(s->pc >> 32) : 0;
        }
        PCSR_STATE(pe)->edcidsr = s->contextidr;
        if ((IsFeatureImplemented(pe, VHE) || IsFeatureImplemented(pe, Debugv8p2)) && sc2) {
            PCSR_STATE(pe)->edvidsr =
                s->has_el2 ? s->contextidr_el2 : (uint32_t)unknown_bits(pe, 32);
        } else {
            /* EDVIDSR: NS [31], E2 [30], E3 [29], HV [28], VMID [15:0] */
            uint32_t v = s->has_el2 && s->el <= EL1 ? s->vmid : 0;
            v |= (uint32_t)(s->ss != ARMPROF_SS_SECURE) << 31;
            v |= (uint32_t)(s->el == EL2) << 30;
            v |= (uint32_t)((s->el == EL3) & s->rw) << 29;
            /* HV: 1 when EDPCSRhi is nonzero; otherwise IMPLEMENTATION
             * DEFINED, the model takes pc_sample.rw (the example the
             * pseudocode gives) */
            v |= (uint32_t)(PCSR_STATE(pe)->edpcsrhi != 0 ? 1 : s->rw) << 28;
            PCSR_STATE(pe)->edvidsr = v;
        }
    } else {
        sample = 0xffffffffu;
        PCSR_STATE(pe)->edpcsrhi = (uint32_t)unknown_bits(pe, 32);
        PCSR_STATE(pe)->edcidsr = (uint32_t)unknown_bits(pe, 32);
        PCSR_STATE(pe)->edvidsr = (uint32_t)unknown_bits(pe, 32);
    }
    PCSR_STATE(pe)->branch_since_read = false;
    return sample;
}

void pcsr_on_capture(armprof_pe *pe, bool debug_state)
{
    pcsr_settle(pe);
    if (!sampling_on_capture(pe)) return; /* PMPCSCTL.SS == '0': registers unchanged */
    /* D13.9: the sample is UNKNOWN when no branch retired since the previous
     * Capture event, since PMPCSCTL.SS was set to 1, or since leaving Debug,
     * suspended or prohibited state (option pcsr_unknown_sample). */
    const bool unknown = !PCSR_STATE(pe)->branch_retired || !PCSR_STATE(pe)->branch_since_read;
    if (!debug_state && sample_usable(pe) && !(unknown && unknown_is_set_pcsr_unknown(pe))) {
        SetPCSRActive(pe);
        SetPCSample(pe);
    } else {
        /* PMPCSR<31:0> = Ones(32); the other PC sample registers unchanged */
        PCSR_STATE(pe)->pmpcsr |= 0xffffffffu;
    }
    PCSR_STATE(pe)->branch_since_read = false;
}

void pcsr_write_pmpcsctl(armprof_pe *pe, uint32_t value)
{
    uint32_t v = PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_IMP; /* IMP is read-only */
    if (pmpcsctl_imp(pe)) v |= value & PMPCSCTL_EN;
    if (IsFeatureImplemented(pe, PMUv3_SS)) v |= value & PMPCSCTL_SS;
    pcsr_settle(pe);
    const bool was_suspended = PCSRSuspended(pe);
    const bool ss_set = (v & PMPCSCTL_SS) && !(PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_SS);
    PCSR_STATE(pe)->pmpcsctl = v;
    pe_controls_changed(pe); /* PCSRSuspended() */
    if (!was_suspended && PCSRSuspended(pe)) PCSR_STATE(pe)->branch_retired = false;
    if (ss_set) PCSR_STATE(pe)->branch_since_read = false; /* "since PMPCSCTL.SS was set to 1" */
}

void pcsr_reset(armprof_pe *pe, bool cold)
{
    pcsr_state *p = PCSR_STATE(pe);
    pcsr_settle(pe);
    if (cold) {
        /* The PC sample registers: UNKNOWN on a Cold reset */
        const uint64_t fill = OPTION_VALUE(pe, UNKNOWN_FILL);
        p->pmpcsr = fill;
        p->pmcid1sr = p->pmcid2sr = (uint32_t)fill;
        p->pmvidsr = (uint32_t)(fill & 0xffff);
        p->edpcsrhi = p->edcidsr = p->edvidsr = (uint32_t)fill;
        p->sampled = false;
        p->sample.valid = false;
    }
    /* Warm reset: PMPCSCTL.{SS, EN} reset to 0; IMP reads the configuration;
     * without IMP the state is suspended or active as configured. */
    p->pmpcsctl = OPTION_VALUE(pe, PCSR_PMPCSCTL_IMP) ? PMPCSCTL_IMP : 0;
    p->suspended = OPTION_VALUE(pe, PCSR_ACTIVE_AT_RESET) == 0;
    pe_controls_changed(pe);
    if (cold) p->edscr_sc2 = false; /* EDSCR.SC2 resets on a Cold reset */
    p->branch_retired = false;
    p->branch_since_read = false;
}

bool pcsr_edvidsr_implemented(const armprof_config *c)
{
    /* FEAT_PCSRv8's registers, 'IMPLEMENTATION DEFINED whether EDVIDSR is
     * implemented' only without EL2 and EL3 */
    const bool pcsrv8 =
        armprof_config_has(c, ARMPROF_FEAT_PCSRv8) && !armprof_config_has(c, ARMPROF_FEAT_PCSRv8p2);
    return pcsrv8 &&
           (armprof_config_has(c, ARMPROF_FEAT_EL2) || armprof_config_has(c, ARMPROF_FEAT_EL3) ||
            c->options[ARMPROF_OPT_PCSR_EDVIDSR] != 0);
}
