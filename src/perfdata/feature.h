/* SPDX-License-Identifier: BSD-3-Clause */
/* A header feature's contents, built in memory before the writer knows
 * where they go: writer.c's features and topology.c's. */
#ifndef ARMPROF_PERFDATA_FEATURE_H
#define ARMPROF_PERFDATA_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct perf_feature {
    uint8_t *p;
    size_t size, cap;
    bool failed; /* out of memory: the contents are incomplete */
} perf_feature;

void perf_feature_put(perf_feature *f, const void *p, size_t n);
void perf_feature_u32(perf_feature *f, uint32_t v);
void perf_feature_u64(perf_feature *f, uint64_t v);
/* perf's do_write_string(): the length with the NUL padded to
 * PERF_NAME_ALIGN, then the bytes and zeros. */
void perf_feature_string(perf_feature *f, const char *s);

#endif
