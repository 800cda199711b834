/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-operation entry points: the order in which one operation visits
 * the units. Statistical Profiling first (the operation is a member of the
 * sample population, and a sampled one completes its record), then the
 * PMU's retirement events, then PC sampling of the next PC. */
#include "pcsr/branch.h"
#include "pe/instance.h"
#include "pmu/retire.h"
#include "spe/retire.h"

void armprof_retire(armprof_pe *pe, const armprof_op *op)
{
    spe_retire(pe, op);
    pmu_retire(pe, op);
    if (op->op_class == ARMPROF_OP_BRANCH) {
        /* A branch target can always be PC-sampled; a conditional branch
         * that fails its condition check targets the next instruction. */
        pcsr_branch_retired(pe, op->taken ? op->target : op->pc + 4);
    } else if (OPTION_VALUE(pe, PCSR_SAMPLE_ALL) &&
               (IsFeatureImplemented(pe, PCSRv8) || IsFeatureImplemented(pe, PCSRv8p2))) {
        CreatePCSample(pe, op->pc);
    }
    pe_outputs_after_op(pe);
}

bool armprof_dispatch(armprof_pe *pe, armprof_op *op)
{
    const bool selected = spe_dispatch(pe, op);
    pe_outputs_after_op(pe);
    return selected;
}

void armprof_cycles(armprof_pe *pe, uint64_t n)
{
    pmu_cycles(pe, n);
    pe_outputs_after_op(pe);
}

void armprof_pmu_event(armprof_pe *pe, uint16_t event, uint64_t count)
{
    PMUEvent(pe, event, count);
    pe_outputs_after_op(pe);
}
