/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' work of one retired operation, inline: it runs
 * for every operation a simulator retires, so its common case (no counter
 * counts a retirement event) costs a load and a test (docs/design.md rule 4). */
#ifndef ARMPROF_PMU_RETIRE_H
#define ARMPROF_PMU_RETIRE_H

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
static inline void pmu_retire_current(armprof_pe *pe, const armprof_op *op)
{
    if (PMU_STATE(pe)->retire_events) pmu_retire_events(pe, op);
}

/* Whether a retired operation leaves every counter as it is (the cache
 * current): pmu_retire_current() would do nothing. */
static inline bool pmu_retire_quiet(armprof_pe *pe)
{
    return !PMU_STATE(pe)->retire_events;
}

/* The cache brought current (armprof_retire()'s one check). */
static inline void pmu_make_current(armprof_pe *pe)
{
    if (pe_controls_stale(pe, PMU_STATE(pe)->seen_gen)) pmu_refresh(pe);
}

#endif
