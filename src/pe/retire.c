/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-operation entry points: the order in which one operation visits
 * the units. Statistical Profiling first (the operation is a member of the
 * sample population, and a sampled one completes its record), then the
 * PMU's retirement events, then PC sampling of the next PC. */
#include "pcsr/branch.h"
#include "pe/instance.h"
#include "pmu/retire.h"
#include "spe/retire.h"

/* An op_class outside the enum: the operation is refused (armprof.h). The
 * one check on every operation; the kinds its class uses are checked when
 * it is sampled (SPECompleteSample()), where they are read: checking them
 * here cost the benchmark's operations a sixth of their throughput. */
static inline bool op_class_invalid(const armprof_op *op)
{
    return (unsigned)op->op_class > ARMPROF_OP_STORE;
}

/* armprof_retire() for an operation the fast path does not take: a class
 * out of range, a misspeculated, not Architecturally executed or
 * dispatched operation, an exception entry or return. Each unit checks its own cache. */
static void retire_general(armprof_pe *pe, const armprof_op *op)
{
    if (op_class_invalid(op)) {
        PE_INSTANCE(pe)->invalid_ops++;
        return;
    }
    if (op_misspeculated(op)) {
        /* It did not retire: no retirement events, no PC sampling. */
        spe_retire_misspeculated(pe, op);
        pmu_misspeculated_events(pe, op);
        pe_outputs_after_op(pe);
        return;
    }
    if (op_not_arch_executed(op)) {
        /* An exception stopped it: it did not retire, and its access (if
         * any) was not made, so no PMU event and no PC sampling; it is
         * still an operation of the sample population. */
        spe_retire_not_arch_executed(pe, op);
        pe_outputs_after_op(pe);
        return;
    }
    spe_retire(pe, op);
    pmu_retire(pe, op);
    if (op->op_class == ARMPROF_OP_BRANCH) {
        /* A branch target can always be PC-sampled; a conditional branch
         * that fails its condition check targets the next instruction. An
         * exception entry or return's target runs at the level it goes to. */
        if (op->branch_kind >= ARMPROF_BRANCH_ERET && OP_HAS(op, target_el) &&
            op->target_el_valid && op->target_el <= 3 && op->taken)
            pcsr_branch_retired_at(pe, op->target, op->target_el);
        else
            pcsr_branch_retired(pe, op->taken ? op->target : op->pc + 4);
    } else if (OPTION_VALUE(pe, PCSR_SAMPLE_ALL) &&
               (IsFeatureImplemented(pe, PCSRv8) || IsFeatureImplemented(pe, PCSRv8p2))) {
        CreatePCSample(pe, op->pc);
    }
    pe_outputs_after_op(pe);
}

/* Brings every unit's cache to the current controls generation. */
static void retire_refresh(armprof_pe *pe)
{
    pe_instance *inst = PE_INSTANCE(pe);
    spe_make_current(pe);
    pmu_make_current(pe);
    const bool pcsr_on = pcsr_current(pe);
    const bool pcsr_all = pcsr_on && OPTION_VALUE(pe, PCSR_SAMPLE_ALL) != 0;
    for (unsigned is_branch = 0; is_branch < 2; is_branch++)
        inst->pcsr_mark[is_branch] = pcsr_plain_mark(is_branch, pcsr_on, pcsr_all);
    inst->retire_gen = pe->controls_gen;
    const bool lean = spe_counts_only(pe) && pmu_retire_quiet(pe) && !inst->out.fn;
    inst->lean_gen = inst->retire_gen - !lean;
}

/* Misspeculated or not Architecturally executed: one test of .size for an
 * operation of the current version (not_arch_executed comes later). */
static inline bool op_not_retired(const armprof_op *op)
{
    return OP_HAS(op, misspeculated) &&
           (op->misspeculated | (OP_HAS(op, not_arch_executed) && op->not_arch_executed));
}

/* Whether armprof_retire() can take an operation as it is: not out of
 * range, misspeculated, not Architecturally executed or dispatched, and not
 * an exception entry or return (for those retire_general() tests the
 * class). */
static inline bool op_plain(const armprof_op *op)
{
    const bool is_branch = op->op_class == ARMPROF_OP_BRANCH;
    return !((op_class_invalid(op) | op->dispatched |
              (is_branch & (op->branch_kind >= ARMPROF_BRANCH_ERET))) ||
             op_not_retired(op));
}

/* armprof_retire() but for the lean path: one check of the controls
 * generation, then each unit's common case without a test of the
 * operation's class that a simulator's mix of operations would mispredict:
 * SPE's countdown, the PMU's events when a counter counts one, the PC
 * sample deferred to its next read. Not inlined (gcc and clang): its calls
 * would make the lean path save its caller's registers. */
__attribute__((noinline)) PER_OPERATION static void retire_full(armprof_pe *pe,
                                                                const armprof_op *op)
{
    if (!op_plain(op)) {
        retire_general(pe, op);
        return;
    }
    pe_instance *inst = PE_INSTANCE(pe);
    const bool is_branch = op->op_class == ARMPROF_OP_BRANCH;
    if (inst->retire_gen != pe->controls_gen) retire_refresh(pe);
    spe_retire_plain(pe, op, is_branch);
    pmu_retire_current(pe, op);
    pcsr_retire_deferred(pe, op, is_branch, inst->pcsr_mark[is_branch]);
    pe_outputs_after_op(pe);
}

/* The lean path, for a plain operation that is not sampled while nothing
 * but SPE's interval counter, its previous branch target and the deferred
 * PC sample can change (lean_gen): the units' work with no call, so that
 * the common case stores no registers of its caller's. Otherwise the
 * generation is its first test, so that the full path pays little more. */
PER_OPERATION void armprof_retire(armprof_pe *pe, const armprof_op *op)
{
    pe_instance *inst = PE_INSTANCE(pe);
    const bool is_branch = op->op_class == ARMPROF_OP_BRANCH;
    if (inst->lean_gen != pe->controls_gen || !op_plain(op) ||
        !spe_retire_counting(pe, op, is_branch)) {
        retire_full(pe, op);
        return;
    }
    pcsr_retire_deferred(pe, op, is_branch, inst->pcsr_mark[is_branch]);
}

bool armprof_dispatch(armprof_pe *pe, armprof_op *op)
{
    if (op_class_invalid(op)) {
        PE_INSTANCE(pe)->invalid_ops++;
        op->dispatched = false;
        op->spe_selected = false;
        return false;
    }
    const bool selected = spe_dispatch(pe, op);
    pe_outputs_after_op(pe);
    return selected;
}

uint64_t armprof_ops_until_event(armprof_pe *pe)
{
    const uint64_t spe = spe_ops_until_event(pe), pmu = pmu_ops_until_event(pe);
    return spe < pmu ? spe : pmu;
}

uint64_t armprof_pmu_ops_until_overflow(armprof_pe *pe)
{
    return pe ? pmu_ops_until_overflow(pe) : UINT64_MAX;
}

/* A run adds up: its parts fit in its operations (a run from a newer header
 * is read as far as this library knows it: every field is of the first
 * version). */
static bool run_valid(const armprof_op_run *run)
{
    return run->branches <= run->ops && run->mispredicted <= run->branches &&
           run->loads <= run->ops - run->branches &&
           run->stores <= run->ops - run->branches - run->loads &&
           run->l1d_access <= run->loads + run->stores && run->l1d_refill <= run->l1d_access &&
           (!run->any_taken || run->branches > 0) && (!run->last_is_branch || run->branches > 0);
}

bool armprof_retire_run(armprof_pe *pe, const armprof_op_run *run)
{
    if (!pe || !run || !run_valid(run) || run->ops > armprof_ops_until_event(pe)) return false;
    if (run->ops == 0) return true;
    spe_retire_run(pe, run);
    pmu_retire_run(pe, run);
    pcsr_retire_run(pe, run);
    pe_outputs_after_op(pe);
    return true;
}

uint64_t armprof_invalid_ops(const armprof_pe *pe)
{
    return ((const pe_instance *)pe)->invalid_ops + spe_invalid_ops(pe);
}

PER_OPERATION void armprof_cycles(armprof_pe *pe, uint64_t n)
{
    pmu_cycles(pe, n);
    pe_outputs_after_op(pe);
}

void armprof_pmu_event(armprof_pe *pe, uint16_t event, uint64_t count)
{
    pmu_event(pe, event, count);
    pe_outputs_after_op(pe);
}

/* A branch to pc retired, with nothing else of it modelled: its target's
 * PC sample (CreatePCSample(), H7.1). */
void armprof_pcsr_observe(armprof_pe *pe, uint64_t pc)
{
    if (!pe) return;
    pcsr_branch_retired(pe, pc);
}
