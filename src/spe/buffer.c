/* SPDX-License-Identifier: BSD-3-Clause */
/* The Profiling Buffer: SPEWriteToBuffer() and the buffer management events
 * (D17.7, D17.8), held records and PSB CSYNC (D17.9). */
#include "spe/buffer.h"

#include <stdlib.h>
#include <string.h>

#include "core/arch.h"
#include "core/siblings.h"
#include "spe/sample.h"
#include "spe/spe.h"

/* PMBSR_ELx.BSC values for EC Other (PMBSR_EL1.EC's values are named in
 * spe/regs/buffer.def) */
enum { BSC_NOT_ALLOWED = 0, BSC_BUFFER_FULL = 1 };

#define PMBSR_S  (1ull << PMBSR_EL1_S_LO)
#define PMBSR_DL (1ull << PMBSR_EL1_DL_LO)
#define PMBSR_EA (1ull << PMBSR_EL1_EA_LO)
#define GRANULE  4096u /* the smallest implemented translation granule */

/* PMBSR_EL[el] */
static uint64_t *PMBSR_EL(armprof_pe *pe, unsigned el)
{
    switch (el) {
    case EL3:
        return &REG(pe, PMBSR_EL3);
    case EL2:
        return &REG(pe, PMBSR_EL2);
    default:
        return &REG(pe, PMBSR_EL1);
    }
}

/* The syndrome write every management event ends with: EC, MSS and MSS2 are
 * written only if S was 0 ("a previous buffer management event has not been
 * handled" otherwise); S is then 1. A change of S changes
 * SPEProfilingStopped(), so the cached enables are recomputed. */
static void write_syndrome(armprof_pe *pe, unsigned el, unsigned ec, uint16_t mss, uint32_t mss2)
{
    uint64_t *r = PMBSR_EL(pe, el);
    if (!(*r & PMBSR_S)) {
        *r &=
            ~(FIELD_MASK(PMBSR_EL1, MSS2) | FIELD_MASK(PMBSR_EL1, EC) | FIELD_MASK(PMBSR_EL1, MSS));
        *r |= (uint64_t)mss2 << PMBSR_EL1_MSS2_LO | (uint64_t)ec << PMBSR_EL1_EC_LO | mss | PMBSR_S;
        SPE_STATE(pe)->stats.management_events++;
    }
    pe_controls_changed(pe);
}

/* EffectiveEA() */
static unsigned EffectiveEA(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL3) || Halted(pe)) return 0;
    return (unsigned)FIELD(pe, SCR_EL3, EA);
}

/* EffectiveHCR_TEA() */
static unsigned EffectiveHCR_TEA(const armprof_pe *pe)
{
    if (EL2Enabled(pe) && IsFeatureImplemented(pe, RAS)) return (unsigned)FIELD(pe, HCR_EL2, TEA);
    return 0;
}

/* ReportSPEEvent() */
unsigned ReportSPEEvent(const armprof_pe *pe, unsigned ec_bits, unsigned fsc_bits)
{
    bool route_to_el3 = false, route_to_el2 = false;
    if (IsFeatureImplemented(pe, SPE_EXC)) {
        const bool s1fault = ec_bits == PMBSR_EL1_EC_STAGE1;
        const bool s2fault = ec_bits == PMBSR_EL1_EC_STAGE2;
        bool gpcfault = false, gpfault = false;
        if (IsFeatureImplemented(pe, RME)) {
            gpcfault = ec_bits == PMBSR_EL1_EC_GPC;
            /* '10001x', '1001xx', '101000' */
            gpfault = (s1fault || s2fault) &&
                      ((fsc_bits & 0x3E) == 0x22 || (fsc_bits & 0x3C) == 0x24 || fsc_bits == 0x28);
        }
        /* '010000', '01001x', '0101xx', '011011' */
        const bool sync_ext_abort =
            (s1fault || s2fault) && (fsc_bits == 0x10 || (fsc_bits & 0x3E) == 0x12 ||
                                     (fsc_bits & 0x3C) == 0x14 || fsc_bits == 0x1B);
        const spe_owner owner = ProfilingBufferOwner(pe);
        if (HaveEL(pe, EL3) && (FIELD(pe, MDCR_EL3, PMSEE) & 2))
            route_to_el3 = FIELD(pe, MDCR_EL3, PMSEE) == MDCR_EL3_PMSEE_TRAP_ALL || gpcfault ||
                           (gpfault && FIELD(pe, SCR_EL3, GPF) == 1) ||
                           (sync_ext_abort && EffectiveEA(pe) == 1);
        if (EffectivePMSCR_EL2_EE(pe) & 2)
            route_to_el2 = FIELD(pe, PMSCR_EL2, EE) == PMSCR_EL2_EE_TRAP_ALL ||
                           (s1fault && owner.el == EL2) || s2fault || gpcfault ||
                           (gpfault && FIELD(pe, HCR_EL2, GPF) == 1) ||
                           (sync_ext_abort && EffectiveHCR_TEA(pe) == 1);
    }
    if (route_to_el3) return EL3;
    if (route_to_el2) return EL2;
    return EL1;
}

/* OtherSPEManagementEvent(bsc) */
static void OtherSPEManagementEvent(armprof_pe *pe, unsigned bsc)
{
    const unsigned target_el = ReportSPEEvent(pe, 0, 0); /* DefaultSPEEvent() */
    write_syndrome(pe, target_el, PMBSR_EL1_EC_OTHER, (uint16_t)bsc, 0);
}

/* D17.8.5 Access not allowed: an Other event with BSC 0b000000, and DL set
 * to 1 (which OtherSPEManagementEvent() alone does not do). */
static void access_not_allowed(armprof_pe *pe)
{
    const unsigned target_el = ReportSPEEvent(pe, 0, 0);
    if (!(*PMBSR_EL(pe, target_el) & PMBSR_S)) *PMBSR_EL(pe, target_el) |= PMBSR_DL;
    OtherSPEManagementEvent(pe, BSC_NOT_ALLOWED);
}

/* The buffer full event (D17.8.2): OtherSPEManagementEvent('000001') and
 * the SAMPLE_BUFFER_FULL PMU event. */
static void buffer_full_event(armprof_pe *pe)
{
    OtherSPEManagementEvent(pe, BSC_BUFFER_FULL);
    spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_BUFFER_FULL));
}

void armprof_spe_impdef_event(armprof_pe *pe, uint16_t mss)
{
    const unsigned target_el = ReportSPEEvent(pe, 0, 0);
    write_syndrome(pe, target_el, PMBSR_EL1_EC_IMPDEF, mss, 0);
    sysreg_notify(pe);
}

/* DebugWriteFault(vaddress, fault), with the DL rule of D17.8.3 and RYZJQX:
 * DL is set when PMBPTR_EL1 (the faulting address) is not the first byte
 * after the last complete record, that is, when the fault is not on the
 * first byte of a record (docs/spec-notes.md). */
static void DebugWriteFault(armprof_pe *pe, const armprof_buffer_result *f, bool mid_record)
{
    uint32_t mss2 = 0;
    if ((f->fsc & 0x3C) == 0x0C) { /* Fault_Permission */
        mss2 |= (uint32_t)f->toplevel << 8 | (uint32_t)f->assuredonly << 7 |
                (uint32_t)f->overlay << 6 | (uint32_t)f->dirtybit << 5;
    }
    const uint16_t mss = f->ec == PMBSR_EL1_EC_GPC ? 0 : f->fsc;
    const unsigned target_el = ReportSPEEvent(pe, f->ec, mss & 0x3F);
    uint64_t *r = PMBSR_EL(pe, target_el);
    const uint64_t dl_rule = mid_record ? ARMPROF_SPE_FAULT_DL_AT_RECORD_END_SET
                                        : OPTION_VALUE(pe, SPE_FAULT_DL_AT_RECORD_END);
    if (!(*r & PMBSR_S)) {
        if (dl_rule == ARMPROF_SPE_FAULT_DL_AT_RECORD_END_SET) *r |= PMBSR_DL;
        if (dl_rule == ARMPROF_SPE_FAULT_DL_AT_RECORD_END_CLEAR) *r &= ~PMBSR_DL;
    }
    write_syndrome(pe, target_el, f->ec, mss, mss2);
}

/* DebugWriteExternalAbort(): returns true when the abort stops the write
 * (it is reported to the SPU); an ignored abort or one taken as an SError
 * lets the write go on. start is the record's first byte. */
static bool DebugWriteExternalAbort(armprof_pe *pe, const armprof_buffer_result *f,
                                    uint64_t address, uint64_t start)
{
    const uint64_t ea = OPTION_VALUE(pe, PMBIDR_EA);
    if (ea == ARMPROF_PMBIDR_EA_IGNORED) return false; /* D17.8.4.1 */
    if (f->async || ea == ARMPROF_PMBIDR_EA_SERROR) {
        /* Reported as an SError (D17.8.4.2): PMBSR_ELx unchanged. */
        SPE_STATE(pe)->stats.serrors++;
        return false;
    }
    /* Reported to the SPU (D17.8.4.4). FEAT_SPE_EXC implementations do not
     * take this path (the configuration rejects EA 0 with FEAT_SPEv1p3,
     * which FEAT_SPE_EXC requires). */
    const bool handle_async = OPTION_VALUE(pe, SPE_EXTABORT_ASYNC) != 0;
    uint64_t syndrome = REG(pe, PMBSR_EL1);
    const unsigned ec = f->ec == PMBSR_EL1_EC_GPC      ? PMBSR_EL1_EC_GPC
                        : f->ec == PMBSR_EL1_EC_STAGE2 ? PMBSR_EL1_EC_STAGE2
                                                       : PMBSR_EL1_EC_STAGE1;
    const uint16_t mss = handle_async ? 0x11 : f->fsc;
    if (handle_async || start != address) syndrome |= PMBSR_DL;
    syndrome |= PMBSR_EA;
    REG(pe, PMBSR_EL1) = syndrome;
    write_syndrome(pe, EL1, ec, mss, 0);
    return true;
}

/* The translation of one chunk (bytes in one 4KB page) by the model's
 * walker: a fault comes back as the result an embedder's hook would give. */
static armprof_buffer_result model_translate(armprof_pe *pe, const armprof_buffer_write *w,
                                             mmu_result *t)
{
    armprof_buffer_result res = {.outcome = ARMPROF_BUFFER_WRITTEN, .written = w->size};
    spe_write_context *c = &SPE_BUFFER(pe)->wctx;
    if (w->pas == c->walk.pas) {
        *t = mmu_translate_spe_write_cached(SPE_BUFFER(pe)->mem, &c->walk, w->address, &c->page,
                                            OPTION_VALUE(pe, SPE_BUFFER_TLB) != 0);
    } else { /* RVCYWL's SCR_EL3 PAS: stage 1 starts there */
        mmu_walk_config cfg = c->walk;
        cfg.pas = w->pas;
        *t = mmu_translate_spe_write(SPE_BUFFER(pe)->mem, &cfg, w->address);
    }
    /* An asynchronous External abort on a descriptor access pends an
     * SError and the walk goes on. */
    if (t->async_abort_on_walk) SPE_STATE(pe)->stats.serrors++;
    if (t->fault.type == MMU_FAULT_NONE) {
        /* t->attrs.mecid is the walk's output MECID (RDFFVT) */
        t->attrs.tagged = false; /* Tag Unchecked (D17.7.6) */
        return res;
    }
    res.written = 0;
    const bool gpc_other = t->fault.type == MMU_FAULT_GPC && !t->fault.gpf;
    res.ec = gpc_other              ? PMBSR_EL1_EC_GPC
             : t->fault.secondstage ? PMBSR_EL1_EC_STAGE2
                                    : PMBSR_EL1_EC_STAGE1;
    res.fsc = mmu_fault_fsc(&t->fault);
    res.assuredonly = t->fault.assuredonly;
    res.toplevel = t->fault.toplevel;
    res.dirtybit = t->fault.dirtybit;
    if (t->fault.type == MMU_FAULT_SYNC_EXTERNAL_WALK) {
        res.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT;
        res.ttw = true;
    } else {
        res.outcome = ARMPROF_BUFFER_FAULT;
    }
    return res;
}

/* The result of a chunk whose PhysMemWrite() got an External abort: a
 * synchronous abort (EncodeLDFSC(Fault_SyncExternal) 0x10) writes nothing,
 * an asynchronous one (Fault_AsyncExternal, 0x11) comes after the write. */
static armprof_buffer_result external_abort_result(size_t size, bool async)
{
    const armprof_buffer_result res = {.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT,
                                       .written = async ? size : 0,
                                       .async = async,
                                       .ec = PMBSR_EL1_EC_STAGE1,
                                       .fsc = async ? 0x11 : 0x10};
    return res;
}

/* PhysMemWrite() of a translated chunk. */
static armprof_buffer_result model_store(armprof_pe *pe, const armprof_buffer_write *w,
                                         const mmu_result *t)
{
    const armprof_buffer_result written = {.outcome = ARMPROF_BUFFER_WRITTEN, .written = w->size};
    const mem_status s = mem_write(SPE_BUFFER(pe)->mem, t->pas, t->pa, w->data, w->size,
                                   IsFeatureImplemented(pe, RME), &t->attrs);
    switch (s) {
    case MEM_OK:
    case MEM_GPF: /* the walker checked the output address already */
    case MEM_GPT_WALK:
        break;
    case MEM_ASYNC_EXTERNAL:
        return external_abort_result(w->size, true);
    case MEM_SYNC_EXTERNAL:
        return external_abort_result(w->size, false);
    }
    return written;
}

/* The security state SCR_EL3.{NSE,NS} select for the ELs below EL3. */
static armprof_security_state scr_security_state(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL3)) return CurrentSecurityState(pe);
    const unsigned nse = EffectiveSCR_EL3_NSE(pe), ns = EffectiveSCR_EL3_NS(pe);
    if (nse && ns) return ARMPROF_SS_REALM;
    if (nse) return ARMPROF_SS_ROOT; /* reserved: no lower EL runs */
    return ns ? ARMPROF_SS_NONSECURE : ARMPROF_SS_SECURE;
}

static int pas_of(armprof_security_state ss)
{
    switch (ss) {
    case ARMPROF_SS_SECURE:
        return ARMPROF_PAS_SECURE;
    case ARMPROF_SS_REALM:
        return ARMPROF_PAS_REALM;
    case ARMPROF_SS_ROOT:
        return ARMPROF_PAS_ROOT;
    default:
        return ARMPROF_PAS_NONSECURE;
    }
}

enum { CROSS_WRITE, CROSS_FAULT, CROSS_DISCARD, CROSS_DISCARD_COUNTED };

static bool same_attrs(const armprof_mem_attrs *a, const armprof_mem_attrs *b)
{
    return a->type == b->type && a->shareability == b->shareability &&
           (a->type == ARMPROF_MEM_DEVICE ? a->device == b->device
                                          : a->inner == b->inner && a->outer == b->outer);
}

/* D17.7.7: what a record does where it crosses from memory with attributes
 * prev into a 4KB page with attributes next. The two CONSTRAINED
 * UNPREDICTABLE lists share their last three outcomes. */
static unsigned crossing_action(const armprof_pe *pe, const armprof_mem_attrs *prev,
                                const armprof_mem_attrs *next)
{
    if (!same_attrs(prev, next)) {
        static const unsigned mismatch[] = {
            [ARMPROF_UNPRED_SPE_PAGE_MISMATCH_OWN_ATTRIBUTES] = CROSS_WRITE,
            [ARMPROF_UNPRED_SPE_PAGE_MISMATCH_ALIGNMENT_FAULT] = CROSS_FAULT,
            [ARMPROF_UNPRED_SPE_PAGE_MISMATCH_DISCARD] = CROSS_DISCARD,
            [ARMPROF_UNPRED_SPE_PAGE_MISMATCH_DISCARD_COUNTED] = CROSS_DISCARD_COUNTED};
        return mismatch[constrained_unpredictable(pe, SPE_PAGE_MISMATCH)];
    }
    if (next->type != ARMPROF_MEM_DEVICE) return CROSS_WRITE;
    static const unsigned device[] = {
        [ARMPROF_UNPRED_SPE_DEVICE_CROSS_NO_EFFECT] = CROSS_WRITE,
        [ARMPROF_UNPRED_SPE_DEVICE_CROSS_NO_EFFECT_UNORDERED] = CROSS_WRITE,
        [ARMPROF_UNPRED_SPE_DEVICE_CROSS_ALIGNMENT_FAULT] = CROSS_FAULT,
        [ARMPROF_UNPRED_SPE_DEVICE_CROSS_DISCARD] = CROSS_DISCARD,
        [ARMPROF_UNPRED_SPE_DEVICE_CROSS_DISCARD_COUNTED] = CROSS_DISCARD_COUNTED};
    return device[constrained_unpredictable(pe, SPE_DEVICE_CROSS)];
}

/* A stage 1 Alignment fault at the current pointer (RPGGHS, D17.7.7). */
static void alignment_fault(armprof_pe *pe, bool mid_record)
{
    const armprof_buffer_result f = {.outcome = ARMPROF_BUFFER_FAULT,
                                     .ec = PMBSR_EL1_EC_STAGE1,
                                     .fsc = 0x21}; /* EncodeLDFSC(Fault_Alignment) */
    DebugWriteFault(pe, &f, mid_record);
}

/* RHXSYK and RHLXGD, as the write finds them: the pointer at least one
 * maximum-size record below the limit, the same top byte, aligned. */
static bool pointer_restrictions_hold(const armprof_pe *pe, uint64_t ptr)
{
    const uint64_t limit = REG(pe, PMBLIMITR_EL1) & ~0xFFFull;
    const uint64_t max = 1ull << OPTION_VALUE(pe, PMSIDR_MAXSIZE);
    const uint64_t align = (1ull << OPTION_VALUE(pe, PMBIDR_ALIGN)) - 1;
    return limit >= max && ptr <= limit - max && (ptr >> 56) == (limit >> 56) && !(ptr & align);
}

void armprof_spe_tlb_invalidate(armprof_pe *pe)
{
    SPE_BUFFER(pe)->wctx.page.valid = false;
}

/* The write context for the registers in force now (spe_write_context). */
static const spe_write_context *write_context(armprof_pe *pe)
{
    spe_write_context *c = &SPE_BUFFER(pe)->wctx;
    if (c->valid && !pe_controls_stale(pe, c->seen_gen)) return c;
    c->enabled = ProfilingBufferEnabled(pe);
    c->stopped = SPEProfilingStopped(pe);
    const spe_owner owner = ProfilingBufferOwner(pe);
    const int pas = pas_of(owner.ss == ARMPROF_SS_ROOT ? ARMPROF_SS_NONSECURE : owner.ss);
    c->ss_mismatch = HaveEL(pe, EL3) && scr_security_state(pe) != owner.ss;
    c->scr_pas = pas_of(scr_security_state(pe));
    c->identity = (armprof_buffer_write){.owning_ss = (int)owner.ss,
                                         .owning_el = owner.el,
                                         .regime = (int)SPEOwningTranslationRegime(pe),
                                         .nvm = EffectivePMBLIMITR_EL1_nVM(pe) == 1,
                                         .pas = pas};
    for (unsigned va55 = 0; va55 < 2; va55++) {
        c->identity.address = (uint64_t)va55 << 55;
        spe_write_identity(pe, &c->identity);
        c->mecid_by_va55[va55] = c->identity.mecid;
    }
    c->identity.address = 0;
    spe_walk_config(pe, pas, &c->walk);
    c->page.valid = false;
    c->seen_gen = pe->controls_gen;
    c->valid = true;
    return c;
}

/* An embedder's hook result as the model may use it (memory.h): written
 * at most the write's size, and an outcome outside the enumeration taken
 * as an External abort at byte written, since the model cannot know the
 * bytes arrived; PMBPTR_EL1 never moves past what the hook was given. */
static armprof_buffer_result hook_result(armprof_buffer_result r, size_t size)
{
    if (r.written > size) r.written = size;
    if (r.outcome != ARMPROF_BUFFER_WRITTEN && r.outcome != ARMPROF_BUFFER_FAULT &&
        r.outcome != ARMPROF_BUFFER_EXTERNAL_ABORT)
        r = (armprof_buffer_result){.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT, .written = r.written};
    return r;
}

/* SPEWriteToBuffer() for one record. Returns true if a management event or
 * a discard ended it (the caller then skips the buffer full check). */
static bool SPEWriteToBuffer(armprof_pe *pe, const uint8_t *rec, size_t size)
{
    spe_state *u = SPE_STATE(pe);
    /* The record is written with the registers in force now (D17.9), which
     * need not be those it was sampled under. */
    const spe_write_context *c = write_context(pe);
    if (!c->enabled) {
        /* RSXWCP, and RQJWVQ for a reserved MDCR_EL3.{NSPBE,NSPB} */
        switch (constrained_unpredictable(pe, SPE_BUFFER_DISABLED)) {
        case ARMPROF_UNPRED_SPE_BUFFER_DISABLED_WRITE:
            break;
        case ARMPROF_UNPRED_SPE_BUFFER_DISABLED_ACCESS_NOT_ALLOWED:
            u->stats.lost++;
            access_not_allowed(pe);
            return true;
        case ARMPROF_UNPRED_SPE_BUFFER_DISABLED_DISCARD:
        default:
            u->stats.lost++;
            return true;
        }
    }
    armprof_buffer_write w = c->identity;
    if (c->ss_mismatch) {
        /* RVCYWL */
        switch (constrained_unpredictable(pe, SPE_SS_MISMATCH)) {
        case ARMPROF_UNPRED_SPE_SS_MISMATCH_WRITE_SCR:
            w.pas = c->scr_pas;
            break;
        case ARMPROF_UNPRED_SPE_SS_MISMATCH_DISCARD:
            u->stats.lost++;
            return true;
        case ARMPROF_UNPRED_SPE_SS_MISMATCH_ACCESS_NOT_ALLOWED:
            u->stats.lost++;
            access_not_allowed(pe);
            return true;
        case ARMPROF_UNPRED_SPE_SS_MISMATCH_WRITE_OWNING:
        default:
            break;
        }
    }
    if (c->stopped) {
        /* Every byte's write is skipped (the loop's SPEProfilingStopped()
         * test): the record is lost without a syndrome. */
        u->stats.lost++;
        return true;
    }

    const uint64_t start = REG(pe, PMBPTR_EL1);
    if (!pointer_restrictions_hold(pe, start)) {
        const uint64_t limit = REG(pe, PMBLIMITR_EL1) & ~0xFFFull;
        switch (constrained_unpredictable(pe, SPE_BADPTR)) {
        case ARMPROF_UNPRED_SPE_BADPTR_WRITE_IF_FITS:
            if (start < limit && limit - start >= size) break;
            u->stats.lost++;
            return true;
        case ARMPROF_UNPRED_SPE_BADPTR_BUFFER_FULL:
            u->stats.lost++;
            buffer_full_event(pe);
            return true;
        case ARMPROF_UNPRED_SPE_BADPTR_ACCESS_NOT_ALLOWED:
            u->stats.lost++;
            access_not_allowed(pe);
            return true;
        case ARMPROF_UNPRED_SPE_BADPTR_ALIGNMENT_FAULT:
            u->stats.lost++;
            alignment_fault(pe, false);
            return true;
        case ARMPROF_UNPRED_SPE_BADPTR_DISCARD_SAMPLE_BUFFER_FULL:
            spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_BUFFER_FULL));
            u->stats.lost++;
            return true;
        case ARMPROF_UNPRED_SPE_BADPTR_DISCARD:
        default:
            u->stats.lost++;
            return true;
        }
    }

    /* The whole buffer shares the limit's top byte (RHLXGD): bit 55 of the
     * record's first byte picks the MECID of an EL2&0 regime's half. */
    w.mecid = c->mecid_by_va55[(start >> 55) & 1];
    armprof_mem_attrs prev = {0};
    size_t off = 0;
    while (off < size) {
        const uint64_t address = REG(pe, PMBPTR_EL1);
        size_t n = GRANULE - (size_t)(address & (GRANULE - 1));
        if (n > size - off) n = size - off;
        w.address = address;
        w.data = rec + off;
        w.size = n;
        armprof_buffer_result r;
        mmu_result t = {0};
        if (SPE_BUFFER(pe)->hook) {
            r = hook_result(SPE_BUFFER(pe)->hook(SPE_BUFFER(pe)->hook_ctx, &w), n);
        } else {
            r = model_translate(pe, &w, &t);
            if (r.outcome == ARMPROF_BUFFER_WRITTEN && off > 0) {
                /* D17.7.7: the record crosses a 4KB boundary. */
                const unsigned action = crossing_action(pe, &prev, &t.attrs);
                if (action == CROSS_FAULT) {
                    u->stats.lost++;
                    alignment_fault(pe, true);
                    return true;
                }
                if (action != CROSS_WRITE) {
                    if (action == CROSS_DISCARD_COUNTED) REG(pe, PMBPTR_EL1) = start + size;
                    u->stats.lost++;
                    return true;
                }
            }
            if (r.outcome == ARMPROF_BUFFER_WRITTEN) r = model_store(pe, &w, &t);
        }
        prev = t.attrs;
        if (r.outcome == ARMPROF_BUFFER_FAULT ||
            (r.outcome == ARMPROF_BUFFER_EXTERNAL_ABORT && r.ttw &&
             OPTION_VALUE(pe, SPE_TTW_ABORT_AS_FAULT))) {
            REG(pe, PMBPTR_EL1) = address + r.written;
            const bool mid_record = address + r.written != start;
            if (r.outcome == ARMPROF_BUFFER_EXTERNAL_ABORT) {
                /* the walk's External abort, reported as an MMU fault */
                r.ec = r.ec ? r.ec : PMBSR_EL1_EC_STAGE1;
                if (OPTION_VALUE(pe, SPE_TTW_FAULT_SETS_EA))
                    *PMBSR_EL(pe, ReportSPEEvent(pe, r.ec, r.fsc)) |= PMBSR_EA;
            }
            DebugWriteFault(pe, &r, mid_record);
            u->stats.lost++;
            return true;
        }
        if (r.outcome == ARMPROF_BUFFER_EXTERNAL_ABORT) {
            if (DebugWriteExternalAbort(pe, &r, address + r.written, start)) {
                REG(pe, PMBPTR_EL1) = address + r.written;
                u->stats.lost++;
                return true;
            }
        }
        u->stats.written_bytes += n;
        REG(pe, PMBPTR_EL1) = address + n;
        off += n;
    }
    u->stats.written++;
    return false;
}

/* SPEBufferIsFull(), for the pointer the records written and held so far
 * leave. */
static bool SPEBufferIsFull(const armprof_pe *pe, uint64_t current_write_pointer)
{
    const uint64_t write_pointer_limit = REG(pe, PMBLIMITR_EL1) & ~0xFFFull;
    const uint64_t record_max_size = 1ull << OPTION_VALUE(pe, PMSIDR_MAXSIZE);
    /* current > limit - max, without wrapping below zero */
    return current_write_pointer + record_max_size > write_pointer_limit ||
           current_write_pointer + record_max_size < current_write_pointer;
}

/* Writes every held record, oldest first. Returns true if one of them
 * ended in a management event or discard. */
static bool write_held(armprof_pe *pe)
{
    spe_buffer_state *b = SPE_BUFFER(pe);
    bool ended = false;
    size_t off = 0;
    for (unsigned i = 0; i < b->held_count; i++) {
        ended = SPEWriteToBuffer(pe, b->held + off, b->held_size[i]) || ended;
        off += b->held_size[i];
    }
    b->held_count = 0;
    b->held_bytes = 0;
    SPE_STATE(pe)->stats.held = 0;
    return ended;
}

void spe_buffer_complete_record(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    spe_buffer_state *b = SPE_BUFFER(pe);
    const size_t size = u->record_size;
    bool ended = false;
    /* The hold has room for spe_held_records records of 2^MaxSize bytes,
     * but a record is padded to PMBIDR_EL1.Align as the register reads,
     * which a debugger store (armprof_reg_set) can make larger: write what
     * is held first, oldest first, and a record larger than the whole hold
     * directly, rather than overrun it. */
    if (b->held_capacity && b->held_bytes + size > b->held_capacity) ended = write_held(pe);
    if (b->held_capacity && size <= b->held_capacity) {
        /* Hold the record; write them all when the hold is full or when
         * this record leaves the buffer full (the event must find them
         * written, D17.8.2). */
        memcpy(b->held + b->held_bytes, u->record, size);
        b->held_size[b->held_count++] = (uint16_t)size;
        b->held_bytes += size;
        u->stats.held = b->held_count;
        const bool full = SPEBufferIsFull(pe, REG(pe, PMBPTR_EL1) + b->held_bytes);
        if (!full && b->held_count < OPTION_VALUE(pe, SPE_HELD_RECORDS)) return;
        ended = write_held(pe) || ended;
    } else {
        ended = SPEWriteToBuffer(pe, u->record, size) || ended;
    }
    /* RDTGVZ: a fault or abort on the write takes priority over the buffer
     * full event, which is then not reported. */
    if (!ended && SPEBufferIsFull(pe, REG(pe, PMBPTR_EL1))) buffer_full_event(pe);
}

/* ProfilingSynchronizationBarrier() */
void ProfilingSynchronizationBarrier(armprof_pe *pe)
{
    if (SPE_BUFFER(pe)->held_count == 0) return;
    if (!write_held(pe) && SPEBufferIsFull(pe, REG(pe, PMBPTR_EL1))) buffer_full_event(pe);
}

void armprof_psb_csync(armprof_pe *pe)
{
    sysreg_pull(pe);
    ProfilingSynchronizationBarrier(pe);
    sysreg_notify(pe);
}

/* SPEInterruptEnabled() */
bool SPEInterruptEnabled(const armprof_pe *pe)
{
    return EffectivePMSCR_EL1_EE(pe) == PMSCR_EL1_EE_DISABLED;
}

/* SPECycle(): PMBIRQ is asserted while the interrupt is enabled and
 * PMBSR_EL1.S is 1 (RTSJRP, IGRLRX). */
bool armprof_pmbirq(armprof_pe *pe)
{
    return IsFeatureImplemented(pe, SPE) && SPEInterruptEnabled(pe) && FIELD(pe, PMBSR_EL1, S) == 1;
}

/* CheckForSPEException(), returning where the exception would be taken
 * instead of taking it. The order of the three checks is IMPLEMENTATION
 * DEFINED; the model takes EL3, then EL2, then EL1, as the pseudocode
 * lists them. */
bool armprof_spe_exception(armprof_pe *pe, unsigned *target_el)
{
    if (!IsFeatureImplemented(pe, SPE_EXC)) return false;
    if (Halted(pe)) return false; /* Restarting() is not modelled: never */
    bool route_to_el3 = false, route_to_el2 = false, route_to_el1 = false;
    const unsigned el = pe->ctx.el;
    const bool pm = pe->ctx.pstate_pm;
    if (HaveEL(pe, EL3) && (FIELD(pe, MDCR_EL3, PMSEE) & 2)) {
        const bool pending = FIELD(pe, PMBSR_EL3, S) == 1;
        const bool masked = el == EL3;
        route_to_el3 = pending && !masked;
    }
    const spe_owner owner = ProfilingBufferOwner(pe);
    const bool in_owning_ss = CurrentSecurityState(pe) == owner.ss;
    if (EffectivePMSCR_EL2_EE(pe) & 2) {
        const bool pending = FIELD(pe, PMBSR_EL2, S) == 1;
        const bool masked = !in_owning_ss || el == EL3 ||
                            (el == EL2 && (FIELD(pe, PMSCR_EL2, EE) != PMSCR_EL2_EE_TRAP_ALL ||
                                           FIELD(pe, PMSCR_EL2, KE) == 0 || pm));
        route_to_el2 = pending && !masked;
    }
    if (EffectivePMSCR_EL1_EE(pe) == PMSCR_EL1_EE_ENABLED) {
        const bool pending = FIELD(pe, PMBSR_EL1, S) == 1;
        const bool masked = !in_owning_ss || el == EL3 || el == EL2 ||
                            (el == EL1 && (FIELD(pe, PMSCR_EL1, KE) == 0 || pm));
        if (EL2Enabled(pe) && FIELD(pe, HCR_EL2, TGE) == 1) /* EffectiveTGE() */
            route_to_el2 = route_to_el2 || (pending && !masked);
        else
            route_to_el1 = pending && !masked;
    }
    unsigned target = route_to_el3 ? EL3 : route_to_el2 ? EL2 : EL1;
    if (target_el) *target_el = target;
    return route_to_el3 || route_to_el2 || route_to_el1;
}

void armprof_spe_set_buffer_hook(armprof_pe *pe, armprof_buffer_hook hook, void *ctx)
{
    SPE_BUFFER(pe)->hook = hook;
    SPE_BUFFER(pe)->hook_ctx = ctx;
}

armprof_mem *armprof_pe_memory(armprof_pe *pe)
{
    return pe ? SPE_BUFFER(pe)->mem : NULL;
}

bool spe_buffer_init(armprof_pe *pe)
{
    spe_buffer_state *b = SPE_BUFFER(pe);
    b->mem = armprof_mem_create();
    if (!b->mem) return false;
    const size_t n = (size_t)OPTION_VALUE(pe, SPE_HELD_RECORDS);
    if (n) {
        b->held_capacity = n << OPTION_VALUE(pe, PMSIDR_MAXSIZE);
        b->held = malloc(b->held_capacity);
        if (!b->held) return false;
    }
    return true;
}

void spe_buffer_free(armprof_pe *pe)
{
    armprof_mem_destroy(SPE_BUFFER(pe)->mem);
    free(SPE_BUFFER(pe)->held);
}

void spe_buffer_reset(armprof_pe *pe)
{
    SPE_BUFFER(pe)->held_count = 0;
    SPE_BUFFER(pe)->held_bytes = 0;
    SPE_BUFFER(pe)->wctx.valid = false;
}

void spe_links_get(const armprof_pe *pe, spe_links *links)
{
    const spe_buffer_state *b = SPE_BUFFER(pe);
    const spe_state *u = SPE_STATE(pe);
    *links = (spe_links){b->mem, b->hook, b->hook_ctx, b->held, u->sink, u->sink_ctx};
}

void spe_links_set(armprof_pe *pe, const spe_links *links)
{
    spe_buffer_state *b = SPE_BUFFER(pe);
    spe_state *u = SPE_STATE(pe);
    b->mem = links->mem;
    b->hook = links->hook;
    b->hook_ctx = links->hook_ctx;
    b->held = links->held;
    u->sink = links->sink;
    u->sink_ctx = links->sink_ctx;
}

const uint8_t *spe_held_records(const armprof_pe *pe, size_t *len)
{
    *len = SPE_BUFFER(pe)->held_bytes;
    return SPE_BUFFER(pe)->held;
}

bool spe_set_held_records(armprof_pe *pe, const uint8_t *data, size_t len)
{
    spe_buffer_state *b = SPE_BUFFER(pe);
    if (len > b->held_capacity) return false;
    if (len) memcpy(b->held, data, len);
    return true;
}

size_t spe_held_capacity(const armprof_pe *pe)
{
    return SPE_BUFFER(pe)->held_capacity;
}
