/* SPDX-License-Identifier: BSD-3-Clause */
/* The Statistical Profiling unit's state (sampling and the Profiling
 * Buffer), private to spe/, at its place in the PE (sysreg/units.h). */
#ifndef ARMPROF_SPE_SPE_UNIT_H
#define ARMPROF_SPE_SPE_UNIT_H

#include "spe/buffer.h"
#include "spe/sample.h"
#include "spe/spe_regs.h"
#include "sysreg/units.h"

typedef struct spe_unit {
    spe_state spe;
    spe_buffer_state buf;
} spe_unit;
#define SPE_STATE(pe)  (&UNIT_STATE(pe, spe_unit, SPE_OFFSET)->spe)
#define SPE_BUFFER(pe) (&UNIT_STATE(pe, spe_unit, SPE_OFFSET)->buf)

/* An SPE event for the PMU's counters (core/siblings.h): PMUEvent() when
 * the PMU's filter, as of SPE's cache, lets it through, or when that cache
 * is out of date. Inline: a sample generates several, which usually no
 * counter counts. */
static inline void spe_event(struct armprof_pe *pe, uint16_t event)
{
    const spe_state *u = SPE_STATE(pe);
    if (pe_controls_stale(pe, u->seen_gen) || ((u->pmu_filter >> pmu_event_hash(event)) & 1))
        PMUEvent(pe, event, 1);
}
/* The SPE events whose number is an option (SAMPLE_FEED_BR ...): generated
 * only when the option names a number. */
static inline void spe_pmu_event(struct armprof_pe *pe, uint64_t number)
{
    if (number <= 0xffff) spe_event(pe, (uint16_t)number);
}

/* Cold and Warm reset of the unit (pe/units.h): its ID registers from the
 * configuration, sampling (spe_sample_reset()) and the Profiling Buffer's
 * held records. */
void spe_reset(struct armprof_pe *pe, bool cold);

/* What in the unit's state belongs to this process rather than to the PE's
 * architectural state: memory, the embedder's hook and sink, the held
 * records' storage. A checkpoint restore keeps the target's (pe/checkpoint.c). */
typedef struct spe_links {
    armprof_mem *mem;
    armprof_buffer_hook hook;
    void *hook_ctx;
    uint8_t *held;
    armprof_spe_sink sink;
    void *sink_ctx;
} spe_links;
void spe_links_get(const struct armprof_pe *pe, spe_links *links);
void spe_links_set(struct armprof_pe *pe, const spe_links *links);
/* The records held inside the unit (option spe_held_records): their bytes
 * and their length, and replacing them (len at most the held capacity). */
const uint8_t *spe_held_records(const struct armprof_pe *pe, size_t *len);
bool spe_set_held_records(struct armprof_pe *pe, const uint8_t *data, size_t len);
size_t spe_held_capacity(const struct armprof_pe *pe);

#endif
