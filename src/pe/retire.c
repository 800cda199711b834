/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-operation entry points: one operation visits the units in the
 * order of their table (pe/units.h), each through its inline hooks. */
#include "pcsr/pcsr_retire.h"
#include "pe/instance.h"
#include "pmu/pmu_retire.h"
#include "spe/spe_retire.h"

/* The units' hooks, called in the table's order: each macro below is
 * applied to every unit by PE_UNITS(), so that every path follows the one
 * table; the calls are to inline functions, no pointer. */
#define UNIT_RETIRE(name, state, place)        name##_retire(pe, op);
#define UNIT_RETIRE_PLAIN(name, state, place)  name##_retire_plain(pe, op, is_branch);
#define UNIT_RETIRE_RUN(name, state, place)    name##_retire_run(pe, run);
#define UNIT_MISSPECULATED(name, state, place) name##_retire_misspeculated(pe, op);
#define UNIT_NOT_EXECUTED(name, state, place)  name##_retire_not_arch_executed(pe, op);
#define UNIT_MAKE_CURRENT(name, state, place)  name##_make_current(pe);
#define UNIT_LEAN(name, state, place)          &&name##_lean(pe)
#define UNIT_UNTIL_EVENT(name, state, place)                                                       \
    {                                                                                              \
        const uint64_t n = name##_ops_until_event(pe);                                             \
        if (n < until) until = n;                                                                  \
    }

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
 * dispatched operation, an exception entry or return. Each unit checks its
 * own cache. */
static void retire_general(armprof_pe *pe, const armprof_op *op)
{
    if (op_class_invalid(op)) {
        PE_INSTANCE(pe)->invalid_ops++;
        return;
    }
    if (op_misspeculated(op)) {
        /* It did not retire: no retirement events, no PC sampling. */
        PE_UNITS(UNIT_MISSPECULATED)
    } else if (op_not_arch_executed(op)) {
        /* An exception stopped it: it did not retire, and its access (if
         * any) was not made; it is still an operation of the sample
         * population. */
        PE_UNITS(UNIT_NOT_EXECUTED)
    } else {
        PE_UNITS(UNIT_RETIRE)
    }
    pe_outputs_after_op(pe);
}

/* Brings every unit's cache to the current controls generation. */
static void retire_refresh(armprof_pe *pe)
{
    pe_instance *inst = PE_INSTANCE(pe);
    PE_UNITS(UNIT_MAKE_CURRENT)
    inst->retire_gen = pe->controls_gen;
    const bool lean = !inst->out.fn PE_UNITS(UNIT_LEAN);
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
 * operation's class that a simulator's mix of operations would mispredict
 * (<unit>_retire_plain()): SPE's countdown, the PMU's events when a counter
 * counts one, the PC sample deferred to its next read. Not inlined (gcc and clang): its calls
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
    PE_UNITS(UNIT_RETIRE_PLAIN)
    pe_outputs_after_op(pe);
}

/* The lean path, for a plain operation that is not sampled while nothing
 * but SPE's interval counter, its previous branch target and the deferred
 * PC sample can change (lean_gen, every unit's <unit>_lean()): the units'
 * work with no call, so that the common case stores no registers of its
 * caller's. It names the two units that have work on it, in the table's
 * order: SPE's countdown, which can send the operation to the full path
 * before anything changed, and PC sampling's deferred sample (the PMU's
 * part is empty when lean). Otherwise the generation is its first test, so
 * that the full path pays little more. */
PER_OPERATION void armprof_retire(armprof_pe *pe, const armprof_op *op)
{
    pe_instance *inst = PE_INSTANCE(pe);
    const bool is_branch = op->op_class == ARMPROF_OP_BRANCH;
    if (inst->lean_gen != pe->controls_gen || !op_plain(op) ||
        !spe_retire_counting(pe, op, is_branch)) {
        retire_full(pe, op);
        return;
    }
    pcsr_retire_plain(pe, op, is_branch);
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
    uint64_t until = UINT64_MAX;
    PE_UNITS(UNIT_UNTIL_EVENT)
    return until;
}

size_t armprof_event_plan(armprof_pe *pe, uint64_t *gaps, size_t n)
{
    if (!pe || !gaps || n == 0) return 0;
    const size_t planned = spe_event_plan(pe, gaps, n);
    /* the other units' bounds come nearer by one at every operation,
     * plain or not: the plan ends at the first gap they cut short */
    uint64_t bound = pmu_ops_until_event(pe);
    const uint64_t pcsr = pcsr_ops_until_event(pe);
    if (pcsr < bound) bound = pcsr;
    uint64_t done = 0;
    for (size_t i = 0; i < planned; i++) {
        if (gaps[i] >= bound - done) {
            gaps[i] = bound - done;
            return i + 1;
        }
        done += gaps[i] + 1;
    }
    return planned;
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
    PE_UNITS(UNIT_RETIRE_RUN)
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
