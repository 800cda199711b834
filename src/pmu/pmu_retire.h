/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' work of one retired operation, inline: it runs
 * for every operation a simulator retires, so its common case (no counter
 * counts a retirement event) costs a load and a test (docs/design.md rule 4). */
#ifndef ARMPROF_PMU_PMU_RETIRE_H
#define ARMPROF_PMU_PMU_RETIRE_H

#include "pmu/pmu.h"

static inline void pmu_retire(armprof_pe *pe, const armprof_op *op)
{
    /* Without FEAT_PMUv3, pmu_refresh() leaves retire_events false. */
    pmu_state *u = PMU_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) pmu_refresh(pe);
    /* Skipped when no counter has one of these events as its evtCount
     * and the instruction counter is not counting: PMUEvent() would
     * change nothing. */
    if (u->retire_events) pmu_retire_events(pe, op);
}

/* pmu_retire() once armprof_retire() has brought the cache current. */
static inline void pmu_retire_plain(armprof_pe *pe, const armprof_op *op, bool is_branch)
{
    (void)is_branch;
    if (PMU_STATE(pe)->retire_events) pmu_retire_events(pe, op);
}

/* Whether a retired operation leaves every counter as it is (the cache
 * current): pmu_retire_plain() would do nothing, and armprof_retire()'s lean
 * path can leave the PMU out. */
static inline bool pmu_lean(armprof_pe *pe)
{
    return !PMU_STATE(pe)->retire_events;
}

/* The cache brought current (armprof_retire()'s one check). */
static inline void pmu_make_current(armprof_pe *pe)
{
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
}

/* An operation that did not retire: the events it still generates
 * (pmu_misspeculated_events()). */
static inline void pmu_retire_misspeculated(armprof_pe *pe, const armprof_op *op)
{
    pmu_misspeculated_events(pe, op);
}

/* An exception stopped it: it did not retire, and its access (if any) was
 * not made, so no PMU event. */
static inline void pmu_retire_not_arch_executed(armprof_pe *pe, const armprof_op *op)
{
    (void)pe;
    (void)op;
}

#endif
