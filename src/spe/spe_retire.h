/* SPDX-License-Identifier: BSD-3-Clause */
/* The Statistical Profiling work of one retired operation, inline: it runs
 * for every operation a simulator retires, so its common case (profiling
 * disabled, or the interval counter counting down) must cost a few
 * instructions (docs/design.md rule 4). The rest is in sample.c. */
#ifndef ARMPROF_SPE_SPE_RETIRE_H
#define ARMPROF_SPE_SPE_RETIRE_H

#include "spe/spe_unit.h"
#include "core/siblings.h"
#include "spe/sample.h"

/* SPEStartSample() for a member of the sample population, once
 * StatisticalProfilingEnabled() holds: SAMPLE_POP, then SPEToCollectSample()
 * with its common case here: while COUNT stays nonzero and ECOUNT is not
 * counting, a decrement and FALSE. */
static inline bool spe_start_sample(armprof_pe *pe, uint64_t pc)
{
    spe_state *u = SPE_STATE(pe);
    u->stats.population++;
    if (u->pop_counted) PMUEvent(pe, PMU_EVENT_SAMPLE_POP, 1);
    const uint64_t icr = REG(pe, PMSICR_EL1);
    if ((uint32_t)icr > 1 && !(u->ernd_rnd && (icr >> 56) != 0)) {
        REG(pe, PMSICR_EL1) = icr - 1;
        return false;
    }
    return SPEStartSample(pe, pc);
}

/* The cache brought current (armprof_retire()'s one check). */
static inline void spe_make_current(armprof_pe *pe)
{
    if (pe_controls_stale(pe, SPE_STATE(pe)->seen_gen)) spe_refresh(pe);
}

/* A branch's part of spe_retire() and the completion of a sample, once
 * whether the operation completes one is known. */
static inline void spe_retire_tail(armprof_pe *pe, const armprof_op *op, bool completes)
{
    spe_state *u = SPE_STATE(pe);
    if (op->op_class == ARMPROF_OP_BRANCH) {
        /* SPEBranch() for a branch that is not sampled and not an exception
         * entry or return (whose previous-target tracking is an option):
         * a taken branch is the new previous branch target while profiling
         * is enabled, and invalidates it while it is disabled. */
        if (completes || op->branch_kind >= ARMPROF_BRANCH_ERET)
            SPEBranch(pe, op, completes);
        else if (!u->enabled)
            u->prev_branch_valid = u->prev_branch_valid && !op->taken;
        else if (op->taken && u->pbt) {
            u->prev_branch = (op->target & 0x00ffffffffffffffull) | u->pbt_tag;
            u->prev_branch_valid = true;
        }
    }
    if (completes) SPECompleteSample(pe, op);
}

/* One operation retires: it is a member of the sample population (unless
 * armprof_dispatch() counted it), a branch runs SPEBranch(), and a sampled
 * operation completes its sample. */
static inline void spe_retire(armprof_pe *pe, const armprof_op *op)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    bool completes;
    if (op->dispatched) {
        completes = op->spe_selected && u->in_flight;
    } else {
        if (!u->enabled && op->op_class != ARMPROF_OP_BRANCH) return;
        completes = u->enabled && spe_start_sample(pe, op->pc);
    }
    spe_retire_tail(pe, op, completes);
}

/* SPEBranch() for a plain operation that is not sampled, with profiling
 * enabled: a taken branch is the new previous branch target (as
 * spe_retire_tail() for an unsampled branch), selected by a mask, since a
 * conditional move is what the compiler may not pick. */
static inline void spe_track_unsampled(spe_state *u, const armprof_op *op, bool taken_branch)
{
    const bool track = taken_branch & u->pbt;
    const uint64_t keep = (uint64_t)track - 1; /* all ones unless track */
    const uint64_t target = (op->target & 0x00ffffffffffffffull) | u->pbt_tag;
    u->prev_branch = (u->prev_branch & keep) | (target & ~keep);
    u->prev_branch_valid |= track;
}

/* spe_retire() for a plain operation (not dispatched, and not an exception
 * entry or return) with the cache current: while the interval counter
 * counts down, no test of the operation's class that a simulator's mix of
 * operations would mispredict. */
static inline void spe_retire_plain(armprof_pe *pe, const armprof_op *op, bool is_branch)
{
    spe_state *u = SPE_STATE(pe);
    const bool taken_branch = is_branch & op->taken;
    if (!u->enabled) {
        u->prev_branch_valid &= !taken_branch;
        return;
    }
    if (spe_start_sample(pe, op->pc)) {
        spe_retire_tail(pe, op, true);
        return;
    }
    spe_track_unsampled(u, op, taken_branch);
}

/* Whether spe_retire_counting() applies (the cache current): no counter
 * counts SAMPLE_POP and FEAT_SPE_ERnd's ECOUNT is not in use, so that an
 * operation that is not sampled only counts down (armprof_retire()'s lean
 * path). */
static inline bool spe_lean(armprof_pe *pe)
{
    const spe_state *u = SPE_STATE(pe);
    return !u->pop_counted && !u->ernd_rnd;
}

/* spe_retire_plain() while spe_lean() holds, for an operation that
 * is not sampled: false, having changed nothing, for one that reaches
 * SPEToCollectSample()'s full path (COUNT 1 or 0), which
 * spe_retire_plain() takes. */
static inline bool spe_retire_counting(armprof_pe *pe, const armprof_op *op, bool is_branch)
{
    spe_state *u = SPE_STATE(pe);
    const bool taken_branch = is_branch & op->taken;
    if (!u->enabled) {
        u->prev_branch_valid &= !taken_branch;
        return true;
    }
    const uint64_t icr = REG(pe, PMSICR_EL1);
    if ((uint32_t)icr <= 1) return false;
    u->stats.population++;
    REG(pe, PMSICR_EL1) = icr - 1;
    spe_track_unsampled(u, op, taken_branch);
    return true;
}

/* An operation is dispatched (armprof_dispatch()): it is a member of the
 * sample population now, and whether it was selected travels with it to
 * its retirement. */
static inline bool spe_dispatch(armprof_pe *pe, armprof_op *op)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    op->dispatched = true;
    op->spe_selected = u->enabled && spe_start_sample(pe, op->pc);
    return op->spe_selected;
}

/* The interval SPEGetRandomInterval() draws next from the generator's
 * state rng, without drawing it. */
static inline uint64_t spe_next_random_interval(uint64_t rng)
{
    return spe_random_output(spe_random_step(rng)) >> 56;
}

/* How many operations after an interval counter of (count, ecount), with
 * the generator at rng, are not selected, SPEToCollectSample() followed through the reload of COUNT
 * (SPEResetSampleCounter()) and FEAT_SPE_ERnd's draw of ECOUNT, each of
 * which takes the one next random value (the other never draws). An
 * answer of 0 is always safe: the next operation takes the full path. */
static inline uint64_t spe_unselected_ops(const spe_state *u, uint64_t rng, uint32_t count,
                                          uint32_t ecount)
{
    if (u->ernd_rnd && ecount != 0) {
        /* ECOUNT counts down alongside COUNT: selected when it reaches 0,
         * unless COUNT reaches 0 first and a draw replaces it */
        if (count == 0) return ecount <= u->reload ? ecount - 1 : 0; /* the reload first */
        return ecount < count ? ecount - 1 : count - 1;
    }
    if (count == 0) {
        /* the next operation reloads COUNT; the rest count from there */
        uint64_t reload = u->reload;
        if (u->reload_rnd) reload |= spe_next_random_interval(rng);
        if (reload == 0) return 1;
        /* with ERnd the reload draws nothing, and the operations after it
         * count as from COUNT = reload */
        return u->ernd_rnd ? 1 + spe_unselected_ops(u, rng, reload, 0) : reload;
    }
    if (!u->ernd_rnd) return count - 1;
    /* COUNT reaches 0 at its count-th operation, which draws ECOUNT: 0
     * selects that operation, else the ECOUNT-th after it, before the
     * reloaded COUNT could reach 0 again */
    const uint64_t e = spe_next_random_interval(rng);
    return e == 0 || e > u->reload ? count - 1 : count - 1 + e;
}

/* How many plain operations can retire before one is selected for a
 * sample (armprof_ops_until_event()); 0 when the next operation takes the
 * full path; UINT64_MAX while profiling is disabled. */
static inline uint64_t spe_ops_until_event(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    if (!u->enabled) return UINT64_MAX;
    const uint64_t icr = REG(pe, PMSICR_EL1);
    return spe_unselected_ops(u, u->rng, (uint32_t)icr, (uint32_t)(icr >> 56));
}

/* A run of plain operations, none selected (the caller checked
 * spe_ops_until_event()): the population, SAMPLE_POP, the interval counter
 * and the previous branch target, as spe_retire() of each would leave them. */
static inline void spe_retire_run(armprof_pe *pe, const armprof_op_run *run)
{
    spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) spe_refresh(pe);
    if (!u->enabled) {
        /* A taken branch invalidates the previous branch target. */
        if (run->any_taken) u->prev_branch_valid = false;
        return;
    }
    u->stats.population += run->ops;
    if (u->pop_counted) PMUEvent(pe, PMU_EVENT_SAMPLE_POP, run->ops);
    /* COUNT, and with ERnd a counting ECOUNT (bits 63:56), count down
     * together; an operation at which COUNT is 1 or 0 (ECOUNT's draw,
     * COUNT's reload) goes through SPEToCollectSample() itself, which
     * selects none of them in a run that spe_ops_until_event() allowed */
    uint64_t left = run->ops;
    while (left) {
        const uint64_t icr = REG(pe, PMSICR_EL1);
        const uint32_t count = (uint32_t)icr;
        const bool ecounting = u->ernd_rnd && (icr >> 56) != 0;
        if (count <= 1) {
            (void)SPEToCollectSample(pe);
            left--;
            continue;
        }
        uint64_t step = count - 1;
        if (ecounting && (icr >> 56) - 1 < step) step = (icr >> 56) - 1;
        if (step > left) step = left;
        if (step == 0) break; /* ECOUNT at 1 selects: never in an allowed run */
        REG(pe, PMSICR_EL1) = icr - (step | (ecounting ? step << 56 : 0));
        left -= step;
    }
    if (run->any_taken && u->pbt) {
        u->prev_branch = (run->last_taken_target & 0x00ffffffffffffffull) | u->pbt_tag;
        u->prev_branch_valid = true;
    }
}

#endif
