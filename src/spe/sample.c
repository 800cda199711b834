/* SPDX-License-Identifier: BSD-3-Clause */
/* The sample population, the sample interval counter, sample collisions and
 * the sample storage callbacks (D17.3, pseudocode/full/arm-J1.1.md J1.1.1.73
 * to J1.1.1.124). The model sees an operation once, when it retires, so the
 * callbacks an instruction makes while it executes in the pseudocode
 * (SPESampleLoadStore(), SPEBranch(), SPEEvent() ...) are made here from the
 * armprof_op that describes it. */
#include <string.h>

#include "core/arch.h"
#include "core/siblings.h"
#include "spe/spe_retire.h"
#include "spe/spe.h"

/* ---- SPEGetRandomInterval(), SPEGetRandomBoolean() ---- */

/* The generator (sample.h), one draw */
static uint64_t spe_random(spe_state *u)
{
    u->rng = spe_random_step(u->rng);
    return spe_random_output(u->rng);
}

/* SPEGetRandomBoolean() */
static bool SPEGetRandomBoolean(armprof_pe *pe)
{
    return spe_random(SPE_STATE(pe)) >> 63;
}

void spe_sample_reset(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    const armprof_spe_sink sink = u->sink;
    void *const sink_ctx = u->sink_ctx;
    const uint64_t count = u->physical_count;
    const uint64_t invalid_ops = u->invalid_ops;
    memset(u, 0, offsetof(spe_state, record));
    u->sink = sink;
    u->sink_ctx = sink_ctx;
    u->physical_count = count;
    u->invalid_ops = invalid_ops;
    const uint64_t seed = OPTION_VALUE(pe, SPE_RANDOM_SEED);
    u->rng = seed ? seed : 0x9E3779B97F4A7C15ull; /* xorshift needs a nonzero state */
    u->seen_gen = pe->controls_gen - 1;           /* stale */
    spe_packet_layouts(&pe->cfg, u->layout);
    u->filter_mask = spe_filter_mask(pe);
}

void spe_reset(armprof_pe *pe, bool cold)
{
    (void)cold; /* the unit's registers were reset with the others */
    spe_idregs_init(pe);
    spe_sample_reset(pe);
    spe_buffer_reset(pe);
}

/* The address packet's top byte for Exception level el in the Security state
 * it runs in: ns:el:nse:'0000' (SPESampleAddAddressPCVirtual(), SPEBranch()). */
static uint64_t address_tag_at(const armprof_pe *pe, unsigned el)
{
    unsigned ns = 0, nse = 0;
    switch (SecurityStateAtEL(pe, el)) {
    case ARMPROF_SS_SECURE:
        break;
    case ARMPROF_SS_NONSECURE:
        ns = 1;
        break;
    case ARMPROF_SS_REALM:
        ns = 1;
        nse = 1;
        break;
    default: /* Unreachable(): profiling is never enabled at EL3 */
        break;
    }
    return (uint64_t)ns << 63 | (uint64_t)(el & 3u) << 61 | (uint64_t)nse << 60;
}

/* ... for the current context. */
static uint64_t address_tag(const armprof_pe *pe)
{
    return address_tag_at(pe, pe->ctx.el);
}

static void refresh_sample_controls(const armprof_pe *pe, spe_sample_controls *sc);

/* The cached values spe_retire() tests on every operation (docs/design.md rule
 * 4): recomputed after an MSR or a context change. */
void spe_refresh(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    u->enabled = IsFeatureImplemented(pe, SPE) && StatisticalProfilingEnabled(pe, pe->ctx.el);
    u->pbt = IsFeatureImplemented(pe, SPE_PBT);
    const bool rnd = FIELD(pe, PMSIRR_EL1, RND) == 1;
    u->ernd_rnd = IsFeatureImplemented(pe, SPE_ERnd) && rnd;
    u->reload_rnd = !IsFeatureImplemented(pe, SPE_ERnd) && rnd;
    u->reload = (uint32_t)FIELD(pe, PMSIRR_EL1, INTERVAL) << 8;
    u->pop_counted = pmu_event_counted(pe, PMU_EVENT_SAMPLE_POP);
    u->pmu_filter = pmu_event_filter(pe);
    u->pbt_tag = u->enabled ? address_tag(pe) : 0;
    refresh_sample_controls(pe, &u->sc);
    u->seen_gen = pe->controls_gen;
}

/* ---- The sample interval counter ---- */

/* The interval counter's state: PMSICR_EL1's COUNT and ECOUNT and the
 * generator's, which SPEToCollectSample() steps, on the registers or on
 * copies (spe_event_plan()). */
typedef struct spe_interval {
    uint32_t count, ecount;
    uint64_t rng;
} spe_interval;

/* SPEGetRandomInterval(), from the copy's generator */
static uint32_t interval_draw(spe_interval *s)
{
    s->rng = spe_random_step(s->rng);
    return (uint32_t)(spe_random_output(s->rng) >> 56);
}

/* SPEToCollectSample(), with SPEResetSampleCounter() for COUNT 0, on s: the
 * cache (reload, RND, ERnd) is current. */
static bool interval_step(const spe_state *u, spe_interval *s)
{
    if (s->count == 0) {
        s->count = u->reload; /* PMSIRR_EL1.INTERVAL << 8 */
        if (u->reload_rnd) s->count |= interval_draw(s);
    } else {
        s->count--;
        if (s->count == 0) {
            if (u->ernd_rnd) {
                s->ecount = interval_draw(s);
                return s->ecount == 0;
            }
            return true;
        }
    }
    if (u->ernd_rnd && s->ecount != 0) {
        s->ecount--;
        if (s->ecount == 0) return true;
    }
    return false;
}

/* SPEToCollectSample() */
bool SPEToCollectSample(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    const uint64_t icr = REG(pe, PMSICR_EL1);
    spe_interval s = {(uint32_t)icr, (uint32_t)(icr >> PMSICR_EL1_ECOUNT_LO), u->rng};
    const bool selected = interval_step(u, &s);
    REG(pe, PMSICR_EL1) =
        (icr & ~(FIELD_MASK(PMSICR_EL1, COUNT) | FIELD_MASK(PMSICR_EL1, ECOUNT))) | s.count |
        (uint64_t)s.ecount << PMSICR_EL1_ECOUNT_LO;
    u->rng = s.rng;
    return selected;
}

/* n operations through SPEToCollectSample() on s, none of them selected
 * (the plan's gap): COUNT and a counting ECOUNT count down together, and the
 * operations at their boundaries (COUNT 1 or 0, ECOUNT 1) step one by one,
 * as spe_retire_run() does on the registers. */
static void interval_skip(const spe_state *u, spe_interval *s, uint64_t n)
{
    while (n) {
        const bool ecounting = u->ernd_rnd && s->ecount != 0;
        if (s->count <= 1 || (ecounting && s->ecount <= 1)) {
            (void)interval_step(u, s);
            n--;
            continue;
        }
        uint64_t step = s->count - 1;
        if (ecounting && s->ecount - 1 < step) step = s->ecount - 1;
        if (step > n) step = n;
        s->count -= (uint32_t)step;
        if (ecounting) s->ecount -= (uint32_t)step;
        n -= step;
    }
}

size_t spe_event_plan(armprof_pe *pe, uint64_t *gaps, size_t n)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    if (!u->enabled) {
        gaps[0] = UINT64_MAX;
        return 1;
    }
    /* a dispatched operation's sample completes later: not planned */
    if (u->in_flight) return 0;
    const uint64_t icr = REG(pe, PMSICR_EL1);
    spe_interval s = {(uint32_t)icr, (uint32_t)(icr >> PMSICR_EL1_ECOUNT_LO), u->rng};
    for (size_t i = 0; i < n; i++) {
        /* what spe_ops_until_event() will say then, the plain operations,
         * then the operation that takes the full path */
        gaps[i] = spe_unselected_ops(u, s.rng, s.count, s.ecount);
        interval_skip(u, &s, gaps[i]);
        (void)interval_step(u, &s);
    }
    return n;
}

/* ---- Sample collisions ---- */

/* DefaultSPEEvent(): ReportSPEEvent(Zeros(6), -). With ec_bits zero every
 * fault term of ReportSPEEvent() is FALSE, leaving the EE controls. */
static unsigned DefaultSPEEvent(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, SPE_EXC)) return EL1;
    if (HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, PMSEE) == MDCR_EL3_PMSEE_TRAP_ALL) return EL3;
    if ((EffectivePMSCR_EL2_EE(pe) & 2) && FIELD(pe, PMSCR_EL2, EE) == PMSCR_EL2_EE_TRAP_ALL)
        return EL2;
    return EL1;
}

/* SPESampleCollision() */
static void SPESampleCollision(armprof_pe *pe)
{
    spe_event(pe, PMU_EVENT_SAMPLE_COLLISION);
    SPE_STATE(pe)->stats.collisions++;
    const uint64_t coll = 1ull << PMBSR_EL1_COLL_LO;
    switch (DefaultSPEEvent(pe)) {
    case EL3:
        REG(pe, PMBSR_EL3) |= coll;
        break;
    case EL2:
        REG(pe, PMBSR_EL2) |= coll;
        break;
    default:
        REG(pe, PMBSR_EL1) |= coll;
        break;
    }
}

/* ---- Sample storage ---- */

/* SPEResetSampleStorage(): field by field, as the pseudocode does. A memset
 * of the whole sample compiles (gcc, x86-64) to rep stosq, whose start-up
 * cost a tenth of a record's time; these stores do not. */
static void SPEResetSampleStorage(spe_sample *s)
{
    s->context_el1 = 0;
    s->context_el1_valid = false;
    s->context_el2 = 0;
    s->context_el2_valid = false;
    for (unsigned i = 0; i < SPE_NUM_COUNTERS; i++)
        s->counter[i] = 0;
    s->counter_valid = 0;
    for (unsigned i = 0; i < SPE_NUM_ADDRS; i++)
        s->address[i] = 0;
    s->address_valid = 0;
    s->data_source = 0;
    s->data_source_valid = false;
    s->timestamp = 0;
    s->timestamp_valid = false;
    s->events = 0;
    s->opattr = (SPEOpAttr){.op_type = SPEOpType_Invalid, .ldst_type = SPELDSTType_Unspecified};
}

/* CollectContextIDR1() */
static bool CollectContextIDR1(const armprof_pe *pe)
{
    if (pe->ctx.el == EL2) return false;
    if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1) return false;
    return FIELD(pe, PMSCR_EL1, CX) == 1;
}

/* CollectContextIDR2() */
static bool CollectContextIDR2(const armprof_pe *pe)
{
    if (!EL2Enabled(pe)) return false;
    return FIELD(pe, PMSCR_EL2, CX) == 1;
}

/* SPESampleAddContext(); both functions also test
 * StatisticalProfilingEnabled(), which holds for a sample being started. */
static void SPESampleAddContext(armprof_pe *pe, spe_sample *s)
{
    const spe_sample_controls *sc = &SPE_STATE(pe)->sc;
    if (sc->collect_context1) {
        s->context_el1 = (uint32_t)REG(pe, CONTEXTIDR_EL1);
        s->context_el1_valid = true;
    }
    if (sc->collect_context2) {
        s->context_el2 = (uint32_t)REG(pe, CONTEXTIDR_EL2);
        s->context_el2_valid = true;
    }
}

#define ADDR_55_0 0x00ffffffffffffffull

static void set_address(spe_sample *s, unsigned index, uint64_t value)
{
    s->address[index] = value;
    s->address_valid |= (uint8_t)(1u << index);
}

/* SPEStartSample() after StatisticalProfilingEnabled() was found TRUE and
 * SAMPLE_POP generated (start_sample()), from SPEToCollectSample() on. */
bool SPEStartSample(armprof_pe *pe, uint64_t pc)
{
    spe_state *u = SPE_STATE(pe);
    if (!SPEToCollectSample(pe)) return false;
    if (u->in_flight) {
        SPESampleCollision(pe);
        return false;
    }
    u->in_flight = true;
    spe_sample *s = &u->sample;
    SPEResetSampleStorage(s);
    /* SPEStartCounter(TotalLatency), SPEStartCounter(IssueLatency): the
     * counts come from the operation when it completes. */
    set_address(s, SPEAddrPosPCVirtual, (pc & ADDR_55_0) | address_tag(pe));
    /* The previous branch target is "the most recently taken branch
     * operation in program order before the sampled operation" (D18.2.1):
     * taken now, so that an operation other than a branch can keep it
     * (option spe_prev_br_if_not_branch); SPEBranch() sets the same value
     * for a sampled branch. */
    if (u->pbt && u->prev_branch_valid) set_address(s, SPEAddrPosPrevBranchTarget, u->prev_branch);
    s->opattr.op_type = SPEOpType_Other; /* SPESampleOpOther(FALSE) */
    s->opattr.is_conditional = false;
    SPESampleAddContext(pe, s);
    SPESampleAddTimeStamp(pe);
    return true;
}

/* ---- SPEBranch() ---- */

/* In the pseudocode one instruction executes at a time, so a sample in
 * flight during SPEBranch() is the branch's own; with armprof_dispatch()
 * another operation's sample can be in flight, so the test is whether this
 * branch is the sampled operation. */
void SPEBranch(armprof_pe *pe, const armprof_op *op, bool sampled)
{
    spe_state *u = SPE_STATE(pe);
    const bool taken = op->taken;
    bool collect_prev_br;
    /* An exception entry or return runs SPEBranch() at the level it goes to
     * (armprof_op.target_el): StatisticalProfilingEnabled() and the target's
     * ns:el:nse are that level's. */
    bool enabled = u->enabled;
    uint64_t tag = u->pbt_tag;
    switch (op->branch_kind) {
    case ARMPROF_BRANCH_EXCEPTION:
        collect_prev_br = OPTION_VALUE(pe, SPE_PREV_BR_EXCEPTION) != 0;
        break;
    case ARMPROF_BRANCH_ERET:
        collect_prev_br = OPTION_VALUE(pe, SPE_PREV_BR_ERET) != 0;
        break;
    default:
        collect_prev_br = true; /* !is_isb */
        break;
    }
    if (op->branch_kind >= ARMPROF_BRANCH_ERET && OP_HAS(op, target_el) && op->target_el_valid &&
        op->target_el <= EL3) {
        enabled = IsFeatureImplemented(pe, SPE) && StatisticalProfilingEnabled(pe, op->target_el);
        tag = address_tag_at(pe, op->target_el);
    }
    if (taken && u->pbt && enabled && collect_prev_br) {
        if (sampled) {
            u->sample.address[SPEAddrPosPrevBranchTarget] = u->prev_branch;
            if (u->prev_branch_valid)
                u->sample.address_valid |= 1u << SPEAddrPosPrevBranchTarget;
            else
                u->sample.address_valid &= (uint8_t) ~(1u << SPEAddrPosPrevBranchTarget);
        }
        u->prev_branch = (op->target & ADDR_55_0) | tag;
        u->prev_branch_valid = true;
    }
    if (!enabled) {
        if (taken) u->prev_branch_valid = false;
        return;
    }
    if (!sampled) return;
    SPEOpAttr *a = &u->sample.opattr;
    const armprof_branch_kind k = op->branch_kind;
    a->branch_is_direct = k == ARMPROF_BRANCH_DIRECT || k == ARMPROF_BRANCH_DIRECT_CALL;
    a->branch_has_link = k == ARMPROF_BRANCH_DIRECT_CALL || k == ARMPROF_BRANCH_INDIRECT_CALL;
    a->procedure_return = k == ARMPROF_BRANCH_RETURN;
    a->op_type = SPEOpType_Branch;
    a->is_conditional = op->conditional;
    a->cond_pass = taken;
    if (taken) set_address(&u->sample, SPEAddrPosBranchTarget, (op->target & ADDR_55_0) | tag);
}

/* ---- Loads and stores ---- */

/* SPEMultiAccessSample() */
static bool SPEMultiAccessSample(armprof_pe *pe)
{
    const bool ft = FIELD(pe, PMSFCR_EL1, FT) == 1;
    const bool loads_pass_filter = ft && FIELD(pe, PMSFCR_EL1, LD) == 1;
    const bool stores_pass_filter = ft && FIELD(pe, PMSFCR_EL1, ST) == 1;
    if (loads_pass_filter && !stores_pass_filter) return true;
    if (!loads_pass_filter && stores_pass_filter) return false;
    return SPEGetRandomBoolean(pe);
}

/* SPEEncodeEVL() */
static uint8_t SPEEncodeEVL(uint32_t vl)
{
    uint8_t evl = 0;
    for (uint32_t limit = 32; vl > limit && evl < 7; limit <<= 1)
        evl++;
    return evl; /* '111' above 2048 bits (FEAT_SPE_SME) */
}

/* SPEEncodeETS() */
static uint8_t SPEEncodeETS(uint32_t size)
{
    uint8_t ets = 0;
    for (uint32_t limit = 128; size > limit && ets < 12; limit <<= 1)
        ets++;
    return ets == 12 ? 15 : ets;
}

/* CollectPhysicalAddress() */
static bool CollectPhysicalAddress(const armprof_pe *pe)
{
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (HaveEL(pe, EL2) && (owner.ss != ARMPROF_SS_SECURE || IsSecureEL2Enabled(pe)))
        return FIELD(pe, PMSCR_EL2, PA) == 1 && (owner.el == EL2 || FIELD(pe, PMSCR_EL1, PA) == 1);
    return FIELD(pe, PMSCR_EL1, PA) == 1;
}

/* What a sample reads of the controls, for spe_refresh(). */
static void refresh_sample_controls(const armprof_pe *pe, spe_sample_controls *sc)
{
    sc->collect_context1 = CollectContextIDR1(pe);
    sc->collect_context2 = CollectContextIDR2(pe);
    sc->collect_pa = CollectPhysicalAddress(pe);
    sc->buffer_enabled = ProfilingBufferEnabled(pe);
    sc->discard = IsFeatureImplemented(pe, SPEv1p2) &&
                  FIELD(pe, PMBLIMITR_EL1, FM) == PMBLIMITR_EL1_FM_DISCARD;
    sc->timestamp = (uint8_t)CollectTimeStamp(pe);
}

/* SPESetDataVirtualAddress(); EffectiveTBI() is the operation's .tbi */
static void SPESetDataVirtualAddress(armprof_pe *pe, spe_sample *s, const armprof_op *op)
{
    const bool non_tbi_is_zeros = OPTION_VALUE(pe, SPE_NON_TBI_TAG_ZERO) != 0;
    set_address(s, SPEAddrPosDataVirtual,
                op->tbi || !non_tbi_is_zeros ? op->vaddr : op->vaddr & ADDR_55_0);
}

/* SPESetDataPhysicalAddress() */
static void SPESetDataPhysicalAddress(armprof_pe *pe, spe_sample *s, const armprof_op *op)
{
    unsigned ns = 0, nse = 0, ch = 0, lat = 0;
    switch (op->pas) {
    case ARMPROF_PAS_NONSECURE:
        ns = 1;
        break;
    case ARMPROF_PAS_REALM:
        ns = 1;
        nse = 1;
        break;
    default: /* Secure (Root is Unreachable(): no records at EL3) */
        break;
    }
    if (IsFeatureImplemented(pe, MTE2)) {
        const unsigned logical_tag =
            (unsigned)(op->vaddr >> 56) & 15u; /* AArch64.LogicalAddressTag() */
        if (op->tag_checked) {
            ch = 1;
            lat = logical_tag;
        } else {
            lat = OPTION_VALUE(pe, SPE_PAT_UNCHECKED_ZERO) ? 0 : logical_tag;
        }
    }
    set_address(s, SPEAddrPosDataPhysical,
                (op->paddr & ADDR_55_0) | (uint64_t)ns << 63 | (uint64_t)ch << 62 |
                    (uint64_t)nse << 60 | (uint64_t)lat << 56);
}

/* SPESetDataVirtualAddress() and, when collected, SPESetDataPhysicalAddress():
 * not for an operation whose embedder does not know its address
 * (armprof_op.data_address_unknown), whose record has neither packet. */
static void set_data_addresses(armprof_pe *pe, spe_sample *s, const armprof_op *op)
{
    if (OP_HAS(op, data_address_unknown) && op->data_address_unknown) return;
    SPESetDataVirtualAddress(pe, s, op);
    if (SPE_STATE(pe)->sc.collect_pa) SPESetDataPhysicalAddress(pe, s, op);
}

/* The instruction's own callback (SPESampleGeneralPurposeLoadStore(),
 * SPESampleExtendedLoadStore(), SPESampleSIMDFPLoadStore(),
 * SPESampleOpSVESMELoadStore(), SPESampleMemCopy(), SPESampleMemSet(), ...),
 * then SPESampleLoadStore() for its first access. */
static void sample_load_store(armprof_pe *pe, spe_sample *s, const armprof_op *op)
{
    SPEOpAttr *a = &s->opattr;
    bool is_load = op->op_class == ARMPROF_OP_LOAD;
    const SPEOpType ld_or_st = is_load ? SPEOpType_Load : SPEOpType_Store;
    switch (op->ldst_kind) {
    case ARMPROF_LDST_GENERAL:
        a->ldst_type = SPELDSTType_General;
        a->op_type = ld_or_st;
        break;
    case ARMPROF_LDST_EXTENDED:
        a->is_acquire_release = op->acquire_release;
        a->is_exclusive = op->exclusive;
        a->ldst_type = SPELDSTType_Extended;
        a->at = op->atomic;
        a->op_type =
            is_load ? (op->atomic ? SPEOpType_LoadAtomic : SPEOpType_Load) : SPEOpType_Store;
        /* the ordered SIMD&FP forms are FP or SIMD for filtering (D17.8.3) */
        a->is_simd = op->simd;
        a->is_floating_point = op->fp;
        break;
    case ARMPROF_LDST_SIMDFP:
        a->ldst_type = SPELDSTType_SIMDFP;
        a->op_type = ld_or_st;
        a->is_simd = op->simd;
        a->is_floating_point = !op->simd;
        break;
    case ARMPROF_LDST_SVE_SME:
        a->is_gather_scatter = op->gather_scatter;
        a->is_predicated = op->predicated;
        a->evl = SPEEncodeEVL(op->vector_length);
        a->op_type = ld_or_st;
        a->ldst_type = SPELDSTType_SVESME;
        break;
    case ARMPROF_LDST_TAGS:
        a->ldst_type = SPELDSTType_Tags;
        a->op_type = ld_or_st;
        break;
    case ARMPROF_LDST_MEMCOPY:
        is_load = SPEMultiAccessSample(pe);
        a->op_type = is_load ? SPEOpType_Load : SPEOpType_Store;
        a->ldst_type = SPELDSTType_MemCopy;
        break;
    case ARMPROF_LDST_MEMSET:
        is_load = false;
        a->op_type = SPEOpType_Store;
        a->ldst_type = SPELDSTType_MemSet;
        break;
    case ARMPROF_LDST_GCS: /* accdesc.acctype == AccessType_GCS */
        a->ldst_type = SPELDSTType_GCS;
        a->op_type = ld_or_st;
        break;
    case ARMPROF_LDST_NV2: /* accdesc.acctype == AccessType_NV2 */
        a->op_type = ld_or_st;
        a->ldst_type = SPELDSTType_NV2;
        break;
    default: /* ARMPROF_LDST_UNSPECIFIED: SPESampleLoadStore()'s default */
        a->op_type = ld_or_st;
        a->ldst_type = SPELDSTType_Unspecified;
        break;
    }
    /* SPESampleLoadStore(is_load, accdesc, addrdesc) for the sampled access */
    set_data_addresses(pe, s, op);
    a->addr_valid = true;
    /* SPEGetDataSource(): IMPLEMENTATION DEFINED; the model reports the
     * operation's data source for loads when Data Source packets exist. */
    if (is_load && op->data_source_valid && SPEGetDataSourcePayloadSize(&pe->cfg) != 0) {
        s->data_source_valid = true;
        s->data_source = op->data_source;
    }
}

/* SPESampleLoadStore() for the Guarded Control Stack access of a BL/BLR
 * (a store of the return address) or RET (a load of it). */
static void sample_gcs_branch(armprof_pe *pe, spe_sample *s, const armprof_op *op)
{
    s->opattr.ldst_type = SPELDSTType_GCS;
    set_data_addresses(pe, s, op);
    s->opattr.addr_valid = true;
    if (s->opattr.procedure_return && op->data_source_valid &&
        SPEGetDataSourcePayloadSize(&pe->cfg) != 0) {
        s->data_source_valid = true;
        s->data_source = op->data_source;
    }
}

/* SPESampleOpOther(), SPESampleOpSVEOther(), SPESampleOpSMEArrayOther() */
static void sample_other(spe_sample *s, const armprof_op *op)
{
    SPEOpAttr *a = &s->opattr;
    switch (op->other_kind) {
    case ARMPROF_OTHER_SVE:
        a->is_predicated = op->predicated;
        a->is_floating_point = op->fp;
        a->evl = SPEEncodeEVL(op->vector_length);
        a->op_type = SPEOpType_OtherSVE;
        break;
    case ARMPROF_OTHER_SME:
        a->is_floating_point = op->fp;
        a->ets = SPEEncodeETS(op->tile_size);
        a->op_type = SPEOpType_OtherSME;
        a->is_simd = true;
        break;
    default:
        a->is_simd = op->simd;
        a->cond_pass = !op->cond_failed;
        a->is_floating_point = op->fp;
        a->is_conditional = op->conditional;
        a->op_type = SPEOpType_Other;
        break;
    }
}

/* The Events packet bits SPEEvent() sets for the PMU events the operation
 * generated, and the IMPLEMENTATION DEFINED ones SPECompleteSample() adds. */
static uint64_t sample_events(const armprof_pe *pe, const armprof_op *op)
{
    const bool v1p1 = IsFeatureImplemented(pe, SPEv1p1), v1p4 = IsFeatureImplemented(pe, SPEv1p4);
    uint64_t e = op->events &
                 (ARMPROF_SPE_EV_EXCEPTION | ARMPROF_SPE_EV_TLB_ACCESS | ARMPROF_SPE_EV_TLB_WALK |
                  ARMPROF_SPE_EV_LLC_ACCESS | ARMPROF_SPE_EV_LLC_MISS | ARMPROF_SPE_EV_REMOTE);
    /* SPESampleOnSharedResource() is an SME implementation's call; with
     * FEAT_SPEv1p4 and no FEAT_SPE_SME, E[25] reads as zero (D18.2.6). */
    if (IsFeatureImplemented(pe, SPE_SME)) e |= op->events & ARMPROF_SPE_EV_SHARED_RESOURCE;
    if (v1p1) e |= op->events & ARMPROF_SPE_EV_MISALIGNED;
    /* SVE_PRED_* events exist only with SVE or SME: D18.2.6 defines E[17]
     * and E[18] when FEAT_SPEv1p1 and (FEAT_SVE or FEAT_SME). */
    if (v1p1 && (IsFeatureImplemented(pe, SVE) || IsFeatureImplemented(pe, SME)))
        e |= op->events & (ARMPROF_SPE_EV_PARTIAL_PRED | ARMPROF_SPE_EV_EMPTY_PRED);
    if (v1p4) e |= op->events & (0x1fu << 19); /* bits 23:19 */
    /* INST_RETIRED: the operation retired. A misspeculated one sets neither
     * event 0 nor event 1 (D17.6.7). One an exception stopped did not
     * retire either, E[0] saying why; where the PE does not sample
     * speculative instructions E[1] reads as one (D18.2.6). */
    if (op_misspeculated(op))
        e &= ~(uint64_t)ARMPROF_SPE_EV_EXCEPTION;
    else if (!op_not_arch_executed(op) ||
             OPTION_VALUE(pe, SPE_SPECULATIVE) == ARMPROF_SPE_SPECULATIVE_NOT_SUPPORTED)
        e |= 1u << 1;
    /* An access the exception stopped was not made: no cache event, as the
     * PMU counts none (D18.2.6, "consistently with L1D_CACHE"). */
    const bool accessed = !op_not_arch_executed(op);
    if (op->l1d_access && accessed) e |= 1u << 2; /* L1D_CACHE */
    if (op->l1d_refill && accessed && (!v1p4 || op->op_class == ARMPROF_OP_LOAD))
        e |= 1u << 3; /* L1D_CACHE_REFILL, or L1D_CACHE_LMISS_RD with FEAT_SPEv1p4 */
    if (op->mispredicted) e |= 1u << 7; /* BR_MIS_PRED */
    /* SPECompleteSample(): IMPLEMENTATION DEFINED events */
    e |= (uint64_t)op->impdef_events << 48;
    if (!v1p4) {
        e = (e & ~(0xffull << 24)) | (op->events & (0xffull << 24));
        e = (e & ~(0xfull << 12)) | (op->events & (0xfull << 12));
    }
    if (IsFeatureImplemented(pe, SPE_SME)) /* PSTATE.SM */
        e = (e & ~(1ull << 24)) | (op->events & ARMPROF_SPE_EV_STREAMING);
    return e;
}

/* Whether a field the operation's class uses to describe it has a value
 * outside its enum (the class itself armprof_retire() has checked). Read
 * here, for sampled operations only, to keep the per-operation path free
 * of it. */
static bool op_kind_invalid(const armprof_op *op)
{
    switch (op->op_class) {
    case ARMPROF_OP_BRANCH:
        return (unsigned)op->branch_kind > ARMPROF_BRANCH_EXCEPTION ||
               (OP_HAS(op, gcs) && op->gcs && (unsigned)op->pas > ARMPROF_PAS_ROOT);
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        return (unsigned)op->ldst_kind > ARMPROF_LDST_NV2 || (unsigned)op->pas > ARMPROF_PAS_ROOT;
    case ARMPROF_OP_OTHER:
        return (unsigned)op->other_kind > ARMPROF_OTHER_SME;
    default:
        return true;
    }
}

uint64_t spe_invalid_ops(const armprof_pe *pe)
{
    return SPE_STATE(pe)->invalid_ops;
}

/* The operation's part of a sample (the callbacks), then
 * SPECompleteSample(). An operation whose kind is out of range completes
 * no sample: it is dropped as if never selected, before SAMPLE_FEED, and
 * counted for armprof_invalid_ops(). */
void SPECompleteSample(armprof_pe *pe, const armprof_op *op)
{
    spe_state *u = SPE_STATE(pe);
    spe_sample *s = &u->sample;
    if (op_kind_invalid(op)) {
        u->invalid_ops++;
        u->in_flight = false;
        SPEResetSampleStorage(s);
        return;
    }
    switch (op->op_class) {
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        sample_load_store(pe, s, op);
        break;
    case ARMPROF_OP_BRANCH:
        /* SPEBranch() has run. A BL/BLR or RET with the Guarded Control
         * Stack ran SPESampleLoadStore() first: a GCS store (call) or load
         * (return); SPEBranch() then made the operation a branch. */
        if (OP_HAS(op, gcs) && op->gcs && IsFeatureImplemented(pe, GCS) &&
            s->opattr.op_type == SPEOpType_Branch &&
            (s->opattr.branch_has_link || s->opattr.procedure_return))
            sample_gcs_branch(pe, s, op);
        break;
    default:
        sample_other(s, op);
        break;
    }
    s->events = sample_events(pe, op);
    /* SPEStopCounter() for the pending counters */
    s->counter[SPECounterPosTotalLatency] = op->total_latency;
    s->counter[SPECounterPosIssueLatency] = op->issue_latency;
    s->counter_valid = 1u << SPECounterPosTotalLatency | 1u << SPECounterPosIssueLatency;
    if (s->opattr.addr_valid) {
        s->counter[SPECounterPosTranslationLatency] = op->translation_latency;
        s->counter_valid |= 1u << SPECounterPosTranslationLatency;
    }
    if (IsFeatureImplemented(pe, SPE_ALTCLK) && (op->events & ARMPROF_SPE_EV_SHARED_RESOURCE)) {
        s->counter[SPECounterPosAltIssueLatency] = op->alt_issue_latency;
        s->counter_valid |= 1u << SPECounterPosAltIssueLatency;
    }

    /* SPECompleteSample() */
    spe_event(pe, PMU_EVENT_SAMPLE_FEED);
    u->stats.selected++;
    /* A misspeculated operation whose record the PE does not capture
     * (spe_speculative_sampling DISCARDED): "no packets are output and the
     * sample is not counted by the SAMPLE_FILTRATE event" (D17.2). */
    if (op_misspeculated(op) &&
        OPTION_VALUE(pe, SPE_SPECULATIVE) != ARMPROF_SPE_SPECULATIVE_RECORDED) {
        u->in_flight = false;
        SPEResetSampleStorage(s);
        return;
    }
    if (s->opattr.is_conditional && !s->opattr.cond_pass) s->events |= 1u << 6;
    const bool collect_record =
        SPECollectRecord(pe, s->events, s->counter[SPECounterPosTotalLatency], s->opattr.op_type);
    const bool discard = u->sc.discard;
    if (collect_record && discard) u->stats.discarded++;
    /* SPEWriteToBuffer() asserts ProfilingBufferEnabled(): a sample
     * completing after the buffer was disabled (possible only with
     * armprof_dispatch()) is RSXWCP's case, whose outcome is
     * Unpredictable_SPE_BUFFER_DISABLED; DISCARD (silently discarded) needs
     * no record at all (docs/spec-notes.md). */
    if (collect_record && !discard &&
        (u->sc.buffer_enabled || constrained_unpredictable(pe, SPE_BUFFER_DISABLED) !=
                                     ARMPROF_UNPRED_SPE_BUFFER_DISABLED_DISCARD)) {
        SPEConstructRecord(pe);
        u->stats.records++;
        u->stats.bytes += u->record_size;
        if (u->sink) u->sink(u->sink_ctx, u->record, u->record_size);
        spe_buffer_complete_record(pe);
    }
    u->in_flight = false;
    SPEResetSampleStorage(s);
}

/* ---- Operations that do not retire ---- */

/* The sample of an operation that did not retire, member saying whether it
 * is a member of the sample population: a sample armprof_dispatch() started
 * for one that is not is abandoned (no SAMPLE_FEED, no record). It is not in
 * program order, so a branch does not become the previous branch target
 * (nor invalidate it); a sampled one still gets its branch attributes. */
static void spe_retire_unretired(armprof_pe *pe, const armprof_op *op, bool member)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    bool completes;
    if (op->dispatched) {
        completes = op->spe_selected && u->in_flight;
        if (completes && !member) {
            u->in_flight = false;
            SPEResetSampleStorage(&u->sample);
            return;
        }
    } else {
        completes = member && u->enabled && spe_start_sample(pe, op->pc);
    }
    if (!completes) return;
    if (op->op_class == ARMPROF_OP_BRANCH) {
        const uint64_t prev = u->prev_branch;
        const bool prev_valid = u->prev_branch_valid;
        SPEBranch(pe, op, true);
        u->prev_branch = prev;
        u->prev_branch_valid = prev_valid;
    }
    SPECompleteSample(pe, op);
}

/* A misspeculated operation (armprof_op.misspeculated), D17.2 and D17.6.7:
 * with spe_speculative_sampling NOT_SUPPORTED it is not a member of the
 * sample population. Otherwise it is sampled as any other, and
 * SPECompleteSample() then discards its record or records it with Events
 * bits 0 and 1 clear. */
void spe_retire_misspeculated(armprof_pe *pe, const armprof_op *op)
{
    spe_retire_unretired(
        pe, op, OPTION_VALUE(pe, SPE_SPECULATIVE) != ARMPROF_SPE_SPECULATIVE_NOT_SUPPORTED);
}

/* An operation a synchronous exception stopped
 * (armprof_op.not_arch_executed): an operation of the program, so a member
 * of the sample population whatever the PE does with speculative ones
 * (D17.6.10: its record has the Events packet and says whether it
 * generated an exception). */
void spe_retire_not_arch_executed(armprof_pe *pe, const armprof_op *op)
{
    spe_retire_unretired(pe, op, true);
}

/* ---- Entry points ---- */

void armprof_spe_set_sink(armprof_pe *pe, armprof_spe_sink sink, void *ctx)
{
    SPE_STATE(pe)->sink = sink;
    SPE_STATE(pe)->sink_ctx = ctx;
}

armprof_spe_stats armprof_spe_get_stats(const armprof_pe *pe)
{
    return SPE_STATE(pe)->stats;
}

void armprof_set_physical_count(armprof_pe *pe, uint64_t count)
{
    SPE_STATE(pe)->physical_count = count;
}

uint64_t armprof_get_physical_count(const armprof_pe *pe)
{
    return SPE_STATE(pe)->physical_count;
}
