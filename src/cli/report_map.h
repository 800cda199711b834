/* SPDX-License-Identifier: BSD-3-Clause */
/* A count per 64-bit key (a PC packet payload, a context ID, a Data Source
 * value) for the report's "most frequent" lists. */
#ifndef ARMPROF_CLI_REPORT_MAP_H
#define ARMPROF_CLI_REPORT_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct report_count {
    uint64_t key;
    uint64_t count; /* 0 marks an empty slot: a stored key has count >= 1 */
} report_count;

typedef struct report_map {
    report_count *slot; /* open addressing; cap is 0 or a power of two */
    size_t cap, used;
    /* At most limit keys are kept (0: no limit), so that memory is bounded
     * whatever the input. A new key when limit are kept first folds the
     * less frequent half (equal counts: the higher keys) into the two
     * totals below; a key seen again after its fold counts from 1. */
    size_t limit;
    uint64_t folded_keys;    /* keys folded, a key once per fold */
    uint64_t folded_samples; /* their counts */
} report_map;

/* Counts one more occurrence of key. False if out of memory (the map is
 * unchanged and still valid). A zeroed report_map is an empty map without
 * a limit. */
bool report_map_add(report_map *m, uint64_t key);

/* The entries, most frequent first and equal counts by ascending key, so
 * that the output does not depend on the hash. *out (m->used entries) is
 * the caller's to free; false if out of memory. */
bool report_map_sorted(const report_map *m, report_count **out);

void report_map_free(report_map *m);

#endif
