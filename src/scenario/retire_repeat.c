/* SPDX-License-Identifier: BSD-3-Clause */
/* `retire CLASS xN` through the skip-ahead interface (armprof.h, "Skipping
 * ahead"): a count of 10^12 takes as long as the events in it, not as 10^12
 * calls. */
#include "scenario/retire_repeat.h"

#include <stddef.h>

/* op as a run of one operation; false when a run cannot describe it (the
 * run's rules in armprof.h, and a refill without an access, which a run
 * cannot count). */
static bool run_of_one(const armprof_op *op, armprof_op_run *one)
{
    const bool is_branch = op->op_class == ARMPROF_OP_BRANCH;
    const bool is_memory = op->op_class == ARMPROF_OP_LOAD || op->op_class == ARMPROF_OP_STORE;
    /* read only when .size covers it (armprof_op's versions) */
    const bool misspeculated =
        op->size >= offsetof(armprof_op, misspeculated) + sizeof op->misspeculated &&
        op->misspeculated;
    const bool not_arch_executed =
        op->size >= offsetof(armprof_op, not_arch_executed) + sizeof op->not_arch_executed &&
        op->not_arch_executed;
    if ((unsigned)op->op_class > ARMPROF_OP_STORE || op->dispatched || misspeculated ||
        not_arch_executed || (is_branch && op->branch_kind >= ARMPROF_BRANCH_ERET) ||
        (is_memory && op->l1d_refill && !op->l1d_access))
        return false;
    *one = (armprof_op_run)ARMPROF_OP_RUN_INIT;
    one->ops = 1;
    one->branches = is_branch;
    one->mispredicted = is_branch && op->mispredicted;
    one->loads = op->op_class == ARMPROF_OP_LOAD;
    one->stores = op->op_class == ARMPROF_OP_STORE;
    one->l1d_access = is_memory && op->l1d_access;
    one->l1d_refill = is_memory && op->l1d_refill;
    one->any_taken = is_branch && op->taken;
    one->last_taken_target = op->target;
    one->last_is_branch = is_branch;
    one->last_branch_next = op->taken ? op->target : op->pc + 4;
    one->last_pc = op->pc;
    return true;
}

uint64_t scenario_retire_repeat(armprof_pe *pe, const armprof_op *op, uint64_t n)
{
    armprof_op_run one;
    const bool plain = run_of_one(op, &one);
    uint64_t singles = 0;
    while (n) {
        uint64_t k = plain ? armprof_ops_until_event(pe) : 0;
        if (k > n) k = n;
        if (k) {
            armprof_op_run run = one;
            run.ops = k;
            run.branches *= k;
            run.mispredicted *= k;
            run.loads *= k;
            run.stores *= k;
            run.l1d_access *= k;
            run.l1d_refill *= k;
            if (armprof_retire_run(pe, &run)) {
                n -= k;
                continue;
            }
        }
        /* where the next event happens, or an operation a run cannot be */
        armprof_retire(pe, op);
        singles++;
        n--;
    }
    return singles;
}
