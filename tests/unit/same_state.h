/* SPDX-License-Identifier: BSD-3-Clause */
/* Two PEs driven two ways that must end alike (runs against single
 * retirements): the records each sink saw, and every piece of state the
 * public API shows. */
#ifndef ARMPROF_TEST_SAME_STATE_H
#define ARMPROF_TEST_SAME_STATE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"

/* Every record a PE's sink saw, in order. */
typedef struct sink_log {
    uint8_t *bytes;
    size_t size, cap;
} sink_log;

static inline void sink_log_record(void *ctx, const uint8_t *record, size_t size)
{
    sink_log *l = ctx;
    if (l->size + size > l->cap) {
        l->cap = (l->size + size) * 2 + 256;
        l->bytes = realloc(l->bytes, l->cap);
        if (!l->bytes) abort();
    }
    memcpy(l->bytes + l->size, record, size);
    l->size += size;
}

/* The differences between a (one at a time) and b (the other way): every
 * register instance, the SPE statistics, PMUIRQ and PMBIRQ, the records,
 * the Non-secure bytes [buf, buf + buf_size) and the PC sample (PMPCSR,
 * read at external offset 0x200). The first five are printed, after what. */
static inline unsigned same_state_differences(armprof_pe *a, armprof_pe *b, const sink_log *la,
                                              const sink_log *lb, uint64_t buf, size_t buf_size,
                                              const char *what)
{
    unsigned diffs = 0;
    for (size_t reg = 0; reg < armprof_reg_count(); reg++) {
        const unsigned n = armprof_reg_instances((int)reg);
        for (unsigned i = 0; i < (n ? n : 1); i++) {
            const uint64_t va = armprof_reg_get(a, (int)reg, i),
                           vb = armprof_reg_get(b, (int)reg, i);
            if (va != vb && diffs++ < 5)
                fprintf(stderr, "%s: %s[%u] 0x%llx one at a time, 0x%llx the other way\n", what,
                        armprof_reg_name((int)reg), i, (unsigned long long)va,
                        (unsigned long long)vb);
        }
    }
    const armprof_spe_stats sa = armprof_spe_get_stats(a), sb = armprof_spe_get_stats(b);
    if (memcmp(&sa, &sb, sizeof sa) != 0 && diffs++ < 5)
        fprintf(stderr, "%s: SPE statistics differ (population %llu / %llu)\n", what,
                (unsigned long long)sa.population, (unsigned long long)sb.population);
    if ((armprof_pmuirq(a) != armprof_pmuirq(b) || armprof_pmbirq(a) != armprof_pmbirq(b)) &&
        diffs++ < 5)
        fprintf(stderr, "%s: PMUIRQ or PMBIRQ differ\n", what);
    if ((la->size != lb->size || (la->size && memcmp(la->bytes, lb->bytes, la->size) != 0)) &&
        diffs++ < 5)
        fprintf(stderr, "%s: records differ (%zu / %zu bytes)\n", what, la->size, lb->size);
    uint8_t *ma = malloc(buf_size), *mb = malloc(buf_size);
    if (!ma || !mb) abort();
    armprof_mem_read(armprof_pe_memory(a), ARMPROF_PAS_NONSECURE, buf, ma, buf_size);
    armprof_mem_read(armprof_pe_memory(b), ARMPROF_PAS_NONSECURE, buf, mb, buf_size);
    if (memcmp(ma, mb, buf_size) != 0 && diffs++ < 5)
        fprintf(stderr, "%s: Profiling Buffer bytes differ\n", what);
    free(ma);
    free(mb);
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    const armprof_ext_outcome pa = armprof_external_read(a, 0x200, 8, &how);
    const armprof_ext_outcome pb = armprof_external_read(b, 0x200, 8, &how);
    if ((pa.kind != pb.kind || pa.value != pb.value) && diffs++ < 5)
        fprintf(stderr, "%s: PMPCSR 0x%llx / 0x%llx\n", what, (unsigned long long)pa.value,
                (unsigned long long)pb.value);
    return diffs;
}

#endif
