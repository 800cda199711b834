/* SPDX-License-Identifier: BSD-3-Clause */
/* The report's counting table: open addressing with linear probing, grown
 * at half full so that probes stay short. */
#include <stdlib.h>
#include <string.h>

#include "cli/report_map.h"

/* Keys are often aligned addresses whose low bits are all zero; multiplying
 * by an odd constant and taking the high half spreads them over the table. */
static size_t slot_of(uint64_t key, size_t cap)
{
    const uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(h ^ h >> 29) & (cap - 1);
}

static report_count *find(report_count *slot, size_t cap, uint64_t key)
{
    size_t i = slot_of(key, cap);
    while (slot[i].count && slot[i].key != key)
        i = (i + 1) & (cap - 1);
    return &slot[i];
}

static bool grow(report_map *m)
{
    const size_t cap = m->cap ? m->cap * 2 : 64;
    if (cap < m->cap || cap > SIZE_MAX / sizeof(report_count)) return false;
    report_count *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].count) *find(slot, cap, m->slot[i].key) = m->slot[i];
    free(m->slot);
    m->slot = slot;
    m->cap = cap;
    return true;
}

static int by_count_then_key(const void *pa, const void *pb);

/* The limit is reached: the less frequent half of the keys go to the
 * folded totals, the rest are put back. */
static bool fold(report_map *m)
{
    report_count *list = malloc((m->used ? m->used : 1) * sizeof *list);
    if (!list) return false;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].count) list[n++] = m->slot[i];
    qsort(list, n, sizeof *list, by_count_then_key);
    const size_t keep = n / 2;
    for (size_t i = keep; i < n; i++) {
        m->folded_keys++;
        m->folded_samples += list[i].count;
    }
    memset(m->slot, 0, m->cap * sizeof *m->slot);
    for (size_t i = 0; i < keep; i++)
        *find(m->slot, m->cap, list[i].key) = list[i];
    m->used = keep;
    free(list);
    return true;
}

bool report_map_add(report_map *m, uint64_t key)
{
    /* A new key at the limit: fold first, so that the table never grows
     * past the limit's size. */
    if (m->limit && m->used >= m->limit && !find(m->slot, m->cap, key)->count && !fold(m))
        return false;
    if ((m->used + 1) * 2 > m->cap && !grow(m)) return false;
    report_count *c = find(m->slot, m->cap, key);
    if (!c->count) {
        c->key = key;
        m->used++;
    }
    c->count++;
    return true;
}

static int by_count_then_key(const void *pa, const void *pb)
{
    const report_count *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

bool report_map_sorted(const report_map *m, report_count **out)
{
    /* One spare entry so that an empty map still gives a pointer to free. */
    report_count *list = malloc((m->used + 1) * sizeof *list);
    if (!list) return false;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].count) list[n++] = m->slot[i];
    qsort(list, n, sizeof *list, by_count_then_key);
    *out = list;
    return true;
}

void report_map_free(report_map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}
