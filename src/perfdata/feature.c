/* SPDX-License-Identifier: BSD-3-Clause */
/* A header feature's contents in memory (perfdata/feature.h). */
#include <stdlib.h>
#include <string.h>

#include "perfdata/feature.h"
#include "perfdata/format.h"

void perf_feature_put(perf_feature *f, const void *p, size_t n)
{
    if (f->failed) return;
    if (f->size + n > f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 256;
        while (cap < f->size + n)
            cap *= 2;
        uint8_t *q = realloc(f->p, cap);
        if (!q) {
            f->failed = true;
            return;
        }
        f->p = q;
        f->cap = cap;
    }
    memcpy(f->p + f->size, p, n);
    f->size += n;
}

void perf_feature_u32(perf_feature *f, uint32_t v)
{
    uint8_t b[4];
    put_le32(b, v);
    perf_feature_put(f, b, 4);
}

void perf_feature_u64(perf_feature *f, uint64_t v)
{
    uint8_t b[8];
    put_le64(b, v);
    perf_feature_put(f, b, 8);
}

void perf_feature_string(perf_feature *f, const char *s)
{
    const size_t len = strlen(s) + 1;
    const size_t padded = (len + PERF_NAME_ALIGN - 1) & ~(size_t)(PERF_NAME_ALIGN - 1);
    perf_feature_u32(f, (uint32_t)padded);
    perf_feature_put(f, s, len);
    static const uint8_t zeros[PERF_NAME_ALIGN];
    perf_feature_put(f, zeros, padded - len);
}
