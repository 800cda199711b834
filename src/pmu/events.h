/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU event numbers (events.def). */
#ifndef ARMPROF_PMU_EVENTS_H
#define ARMPROF_PMU_EVENTS_H

#include <stdint.h>

enum pmu_event_number {
#define EVENT(name, number) PMU_EVENT_##name = (number),
#include "pmu/events.def"
#undef EVENT
};

/* The number of a named event ("INST_RETIRED", with or without a PMU_EVENT_
 * prefix); -1 if unknown. */
int pmu_event_lookup(const char *name);

#endif
