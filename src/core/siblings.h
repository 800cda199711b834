/* SPDX-License-Identifier: BSD-3-Clause */
/* What a unit asks of a sibling (docs/architecture.md, "Units side by
 * side"): declared here, below the units, and defined by the unit that owns
 * the state. A unit includes this and never a sibling's header; only the
 * façade (pe/) includes the units' own headers. Each function is the owning
 * unit's: its name says whose (the pseudocode's name where it has one). */
#ifndef ARMPROF_CORE_SIBLINGS_H
#define ARMPROF_CORE_SIBLINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pe.h"

/* The PMU event numbers the model generates (core/events.def): the PMU
 * counts them; the PMU and SPE generate them. */
enum pmu_event_number {
#define EVENT(name, number) PMU_EVENT_##name = (number),
#include "core/events.def"
#undef EVENT
};

/* ---- The PMU's (pmu/pmu.c) ---- */

/* PMUEvent(event, increment): accumulate an event for the counters counting
 * it (counted at the end of the cycle). */
void PMUEvent(armprof_pe *pe, uint16_t event, uint64_t increment);
/* The PMU's filter of the events some counter counts: bit
 * pmu_event_hash(e) clear means PMUEvent(e) changes nothing. It holds for
 * the controls generation it was taken at (the PMU brings its cache current
 * first): a unit that generates events keeps it with its own cache and
 * calls PMUEvent() only for an event whose bit is set. */
uint64_t pmu_event_filter(armprof_pe *pe);
/* The bit of event in pmu_event_filter() (and in the PMU's event cache). */
static inline unsigned pmu_event_hash(uint16_t event)
{
    return (event ^ (event >> 6) ^ (event >> 12)) & 63u;
}
/* Whether some event counter's PMEVTYPER<n>_EL0.evtCount is event (whether
 * or not it is counting now: PMUEvent() accumulates for it either way). A
 * unit that would generate an event on every operation asks once per
 * controls generation and calls PMUEvent() only then. */
bool pmu_event_counted(armprof_pe *pe, uint16_t event);

/* ---- PC sampling's (pcsr/pcsr.c) ---- */

/* The PC sampling part of PMUCaptureEvent(): when FEAT_PCSRv8p9 is
 * implemented and PMPCSCTL.SS is 1, SetPCSRActive() and SetPCSample(), or
 * PMPCSR<31:0> = Ones(32). Called before PMSSCR_EL1.{NC,SS} is set to 00. */
void pcsr_on_capture(armprof_pe *pe, bool debug_state);

#endif
