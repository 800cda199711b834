/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors (chapter D13): event counters, the cycle and
 * instruction counters, filtering, overflow and PMUIRQ, and PMU snapshots
 * (FEAT_PMUv3_SS, D13.9). The counters' values live in the register table's
 * storage (PMEVCNTR<n>_EL0, PMCCNTR_EL0, PMICNTR_EL0); this layer holds what
 * the pseudocode keeps outside registers. */
#ifndef ARMPROF_PMU_PMU_H
#define ARMPROF_PMU_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "core/siblings.h"
#include "pmu/pmu_regs.h"
#include "sysreg/units.h"

#define CYCLE_COUNTER_ID       31
#define INSTRUCTION_COUNTER_ID 32

typedef struct pmu_state {
    uint64_t accumulator[31]; /* PMUEventAccumulator[] */
    uint64_t counting;        /* bit idx: CountPMUEvents(idx), when seen_gen is current */
    uint32_t long_counter;    /* bit idx: the Effective overflow width of counter idx is 64 (lp) */
    uint32_t chain_from;      /* bit idx: an overflow of counter idx is counted by CHAIN on idx+1 */
    uint16_t event_of[31];    /* PMEVTYPER<idx>_EL0.evtCount */
    /* event number -> counters counting it, filled on first use after each
     * refresh: a small direct-mapped cache keyed by the event number */
    uint16_t event_key[64];
    uint32_t event_counters[64];
    uint64_t event_valid; /* bit h: event_key[h] is valid */
    /* bit pmu_event_hash(e): some counter's evtCount hashes there, or e is
     * INST_RETIRED and the instruction counter is implemented (refresh()).
     * A clear bit means PMUEvent(e) changes nothing. */
    uint64_t event_bloom;
    uint32_t seen_gen;      /* armprof_pe.controls_gen counting was computed at */
    bool retire_events;     /* armprof_retire()'s events can reach a counter (refresh()) */
    bool exception_enabled; /* PMUExceptionEnabled(), when seen_gen is current */
    uint8_t cycles64;       /* HasElapsed64Cycles(): cycles since the last PMCR_EL0.D increment */
    bool pmuirq;            /* the PMUIRQ output level */
    bool capture_pending;   /* a Capture event was requested and has not completed */
    /* armprof_pe.controls_gen pmuirq was computed at: a refresh of the
     * counting controls alone (pmu_refresh(), as armprof_retire() makes)
     * leaves it stale. (Here, in what was padding: the fields before it
     * keep their places.) */
    uint32_t irq_gen;
    uint64_t capture_countdown;
    uint64_t captures, captures_prohibited; /* Capture events completed, for reports */
} pmu_state;

/* The unit's state, private to pmu/, at its place in the PE
 * (sysreg/units.h). */
#define PMU_STATE(pe) UNIT_STATE(pe, pmu_state, PMU_OFFSET)

/* GetPMUAccessMask(), GetPMUReadMask(), GetPMUWriteMask(write_counter):
 * bit n for PMEVCNTR<n>, bit 31 the cycle counter, bit 32 the instruction
 * counter. ext is the external access the mask is for (the external pages'
 * P<m>, C and F0 conditions, which do not depend on PSTATE.EL), NULL for
 * MRS/MSR. */
uint64_t GetPMUAccessMask(const struct armprof_pe *pe, const armprof_ext_access *ext);
uint64_t GetPMUReadMask(const struct armprof_pe *pe, const armprof_ext_access *ext);
uint64_t GetPMUWriteMask(const struct armprof_pe *pe, const armprof_ext_access *ext,
                         bool write_counter);

/* Recomputes what is counting after a control changed (seen_gen stale). */
void pmu_refresh(struct armprof_pe *pe);
/* PMUEvent() for an event event_bloom does not rule out, the cache current. */
void pmu_accumulate_event(struct armprof_pe *pe, uint16_t event, uint64_t increment);

/* PMUEvent(event, increment) (core/siblings.h) within the unit and for the
 * façade: the counters are updated at the end of the cycle (pmu_cycles).
 * Inline because the cycles' own event is generated at every call of
 * armprof_cycles(), which usually no counter counts. */
static inline void pmu_event(struct armprof_pe *pe, uint16_t event, uint64_t increment)
{
    /* Without FEAT_PMUv3, pmu_refresh() leaves event_bloom 0. */
    pmu_state *u = PMU_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen)) pmu_refresh(pe);
    if ((u->event_bloom >> pmu_event_hash(event)) & 1) pmu_accumulate_event(pe, event, increment);
}
/* PMUSwIncrement(): a write to PMSWINC_EL0 */
void PMUSwIncrement(struct armprof_pe *pe, uint64_t value);
/* ZeroPMUCounters(): a write to PMZR_EL0 (ext as for GetPMUWriteMask()) */
void ZeroPMUCounters(struct armprof_pe *pe, const armprof_ext_access *ext, uint64_t value);
/* A write of 1 to PMCR_EL0.P: reset the event counters PMCR_EL0.P resets
 * (those in the range the access controls). */
void pmu_reset_event_counters(struct armprof_pe *pe, const armprof_ext_access *ext);
/* A write of 1 to PMCR_EL0.C: reset the cycle counter. */
void pmu_reset_cycle_counter(struct armprof_pe *pe);

/* A PMU control changed (an MSR to a PMU register, a context change):
 * recompute what is counting and the PMUIRQ level. */
void pmu_changed(struct armprof_pe *pe);

/* n cycles end: AArch64.PMUCycle() n times. Events accumulated since the last
 * call are counted in the first of them. */
void pmu_cycles(struct armprof_pe *pe, uint64_t n);

/* The two sources of a Capture event request (RSCLCQ): a write of 1 to
 * PMSSCR_EL1.SS, and the external snapshot request. */
void pmu_capture_request(struct armprof_pe *pe, bool external);

/* PMUCaptureEventEnabled() (RYWLFL) and PMUCaptureEventAllowed() (RTSYTY) */
bool PMUCaptureEventEnabled(const struct armprof_pe *pe);
bool PMUCaptureEventAllowed(const struct armprof_pe *pe);
/* The requested Capture event completes now: PMUCaptureEvent(). */
void pmu_capture_complete(struct armprof_pe *pe);

/* The PMU events of a retired operation, when pmu_state.retire_events says
 * one can reach a counter (pmu/pmu_retire.h). */
void pmu_retire_events(struct armprof_pe *pe, const armprof_op *op);
/* Runs of plain operations (armprof_retire_run()). */
uint64_t pmu_ops_until_event(struct armprof_pe *pe);
/* armprof_pmu_ops_until_overflow() */
uint64_t pmu_ops_until_overflow(struct armprof_pe *pe);
void pmu_retire_run(struct armprof_pe *pe, const armprof_op_run *run);
/* The events of an operation that did not retire (armprof_op.misspeculated). */
void pmu_misspeculated_events(struct armprof_pe *pe, const armprof_op *op);

/* Cold and Warm reset of the unit (pe/units.h): its ID registers from the
 * configuration and its own state. */
void pmu_reset(struct armprof_pe *pe, bool cold);

#endif
