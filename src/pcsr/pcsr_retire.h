/* SPDX-License-Identifier: BSD-3-Clause */
/* PC sampling's part of one operation (its hooks in pe/units.h): a branch
 * retires, CreatePCSample() of its target, inline because it runs for every
 * branch a simulator retires; the context part of the sample is cached
 * (pcsr_refresh()). */
#ifndef ARMPROF_PCSR_PCSR_RETIRE_H
#define ARMPROF_PCSR_PCSR_RETIRE_H

#include "pcsr/pcsr.h"

/* CreatePCSample()'s part that every sample shares: the context ctx (the
 * VMID kept when EL2 is not enabled) and the PC. */
static inline void pcsr_take_sample(pcsr_state *p, const pc_sample *ctx, uint64_t pc)
{
    const uint16_t vmid = p->sample.vmid;
    p->sample = *ctx;
    if (!p->sample.has_el2) p->sample.vmid = vmid;
    p->sample.pc = pc;
    p->sampled = true;
}

/* The sample of a branch target whose context is ctx: CreatePCSample(),
 * then the "no branch since" states reset. */
static inline void pcsr_sample_branch(pcsr_state *p, const pc_sample *ctx, uint64_t target)
{
    pcsr_take_sample(p, ctx, target);
    p->branch_retired = p->sample.valid;
    if (p->sample.valid) p->branch_since_read = true;
}

/* Whether PC sampling is implemented, with its context current. */
static inline bool pcsr_current(armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, PCSRv8) && !IsFeatureImplemented(pe, PCSRv8p2)) return false;
    if (pe_controls_stale(pe, PCSR_STATE(pe)->seen_gen)) pcsr_refresh(pe);
    return true;
}

/* Whether a retiring branch's target can be sampled now: PC sampling is
 * implemented and not suspended (leaving suspended state needs a branch
 * before samples are known). Refreshes the cached context first. */
static inline bool pcsr_branch_samples(armprof_pe *pe)
{
    if (!pcsr_current(pe)) return false;
    pcsr_state *p = PCSR_STATE(pe);
    if (p->tmpl_suspended) {
        p->branch_retired = false;
        return false;
    }
    return true;
}

/* The sample of an operation at pc in the current context, made when next
 * read (pcsr_settle()): the per-operation path stores a PC. */
static inline void pcsr_defer(pcsr_state *p, uint64_t pc, bool branch)
{
    p->pending[branch ? PCSR_MARK_BRANCH : PCSR_MARK_OTHER] = true;
    p->pending_pc[1] = pc;
}

/* The pcsr_state.pending mark a plain operation sets: a branch's when on
 * (PC sampling is implemented and its context current, pcsr_current()),
 * another operation's when all (on, and pcsr_sample_all_instructions). */
static inline uint8_t pcsr_plain_mark(bool is_branch, bool on, bool all)
{
    if (is_branch) return on ? PCSR_MARK_BRANCH : PCSR_MARK_NONE;
    return all ? PCSR_MARK_OTHER : PCSR_MARK_NONE;
}

/* The cache brought current (armprof_retire()'s one check), and the marks
 * of plain operations with it. */
static inline void pcsr_make_current(armprof_pe *pe)
{
    const bool on = pcsr_current(pe);
    const bool all = on && OPTION_VALUE(pe, PCSR_SAMPLE_ALL) != 0;
    pcsr_state *p = PCSR_STATE(pe);
    for (unsigned is_branch = 0; is_branch < 2; is_branch++)
        p->plain_mark[is_branch] = pcsr_plain_mark(is_branch, on, all);
}

/* armprof_retire()'s PC sampling of a plain operation, the cache current,
 * deferred without a test of the class. */
static inline void pcsr_retire_plain(armprof_pe *pe, const armprof_op *op, bool is_branch)
{
    pcsr_state *p = PCSR_STATE(pe);
    const uint8_t mark = p->plain_mark[is_branch];
    /* The PC, the next instruction's for a branch, or a taken branch's
     * target, selected by a mask (all ones for a taken branch) rather than
     * by branches: */
    const uint64_t taken = -(uint64_t)(is_branch & op->taken);
    const uint64_t pc = op->pc + ((uint64_t)is_branch << 2);
    p->pending_pc[mark != PCSR_MARK_NONE] = (op->target & taken) | (pc & ~taken);
    p->pending[mark] = true;
}

/* CreatePCSample(target) in the current context. */
static inline void pcsr_branch_retired(armprof_pe *pe, uint64_t target)
{
    if (pcsr_current(pe)) pcsr_defer(PCSR_STATE(pe), target, true);
}

/* One retired operation (armprof_retire()'s general path): a branch target
 * can always be PC-sampled; a conditional branch that fails its condition
 * check targets the next instruction; an exception entry or return's target
 * runs at the level it goes to. Another operation is sampled with
 * pcsr_sample_all_instructions. */
static inline void pcsr_retire(armprof_pe *pe, const armprof_op *op)
{
    if (op->op_class == ARMPROF_OP_BRANCH) {
        if (op->branch_kind >= ARMPROF_BRANCH_ERET && OP_HAS(op, target_el) &&
            op->target_el_valid && op->target_el <= 3 && op->taken)
            pcsr_branch_retired_at(pe, op->target, op->target_el);
        else
            pcsr_branch_retired(pe, op->taken ? op->target : op->pc + 4);
    } else if (OPTION_VALUE(pe, PCSR_SAMPLE_ALL) &&
               (IsFeatureImplemented(pe, PCSRv8) || IsFeatureImplemented(pe, PCSRv8p2))) {
        CreatePCSample(pe, op->pc);
    }
}

/* What did not retire takes no PC sample. */
static inline void pcsr_retire_misspeculated(armprof_pe *pe, const armprof_op *op)
{
    (void)pe;
    (void)op;
}
static inline void pcsr_retire_not_arch_executed(armprof_pe *pe, const armprof_op *op)
{
    (void)pe;
    (void)op;
}

/* The lean path of armprof_retire() always includes the deferred sample
 * (pcsr_retire_plain()). */
static inline bool pcsr_lean(armprof_pe *pe)
{
    (void)pe;
    return true;
}

/* PC sampling never needs an operation to take the full path. */
static inline uint64_t pcsr_ops_until_event(armprof_pe *pe)
{
    (void)pe;
    return UINT64_MAX;
}

/* A run of plain operations (armprof_retire_run()): the samples its
 * branches, and with pcsr_sample_all_instructions its other operations, would
 * leave one after the other come down to the last one's. */
static inline void pcsr_retire_run(armprof_pe *pe, const armprof_op_run *run)
{
    const bool all = OPTION_VALUE(pe, PCSR_SAMPLE_ALL) != 0;
    if (run->branches == 0 && !all) return;
    if (!pcsr_current(pe)) return;
    pcsr_defer(PCSR_STATE(pe), all && !run->last_is_branch ? run->last_pc : run->last_branch_next,
               run->branches > 0);
}

#endif
