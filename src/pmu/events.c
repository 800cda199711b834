/* SPDX-License-Identifier: BSD-3-Clause */
/* The PMU events by name (armprof_pmu_event_number()): the events the model
 * generates, core/events.def. */
#include <string.h>

#include "armprof/armprof.h"

static const struct {
    const char *name;
    uint16_t number;
} event_names[] = {
#define EVENT(name, number) {#name, number},
#include "core/events.def"
#undef EVENT
};

/* The number of a named event ("INST_RETIRED", with or without a PMU_EVENT_
 * prefix); -1 if unknown. */
int armprof_pmu_event_number(const char *name)
{
    if (!name) return -1;
    if (strncmp(name, "PMU_EVENT_", 10) == 0) name += 10;
    for (size_t i = 0; i < sizeof event_names / sizeof event_names[0]; i++)
        if (strcmp(event_names[i].name, name) == 0) return event_names[i].number;
    return -1;
}
