/* SPDX-License-Identifier: BSD-3-Clause */
/* Gathering the report's statistics record by record. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_stats.h"

#define FREQ_VALUES 65536u

bool report_stats_init(report_stats *s, size_t max_distinct)
{
    memset(s, 0, sizeof *s);
    const size_t limit = max_distinct ? max_distinct : REPORT_MAX_DISTINCT;
    s->pcs.limit = s->sources.limit = s->contexts[0].limit = s->contexts[1].limit = limit;
    for (unsigned i = 0; i < REPORT_LATENCIES; i++) {
        s->latency[i].freq = calloc(FREQ_VALUES, sizeof *s->latency[i].freq);
        if (!s->latency[i].freq) {
            report_stats_free(s);
            return false;
        }
    }
    return true;
}

void report_stats_free(report_stats *s)
{
    for (unsigned i = 0; i < REPORT_LATENCIES; i++) {
        free(s->latency[i].freq);
        s->latency[i].freq = NULL;
    }
    report_map_free(&s->pcs);
    report_map_free(&s->sources);
    report_map_free(&s->contexts[0]);
    report_map_free(&s->contexts[1]);
    free(s->pc_list);
    free(s->source_list);
    free(s->context_list[0]);
    free(s->context_list[1]);
    s->pc_list = s->source_list = s->context_list[0] = s->context_list[1] = NULL;
}

bool report_stats_sort(report_stats *s)
{
    return report_map_sorted(&s->pcs, &s->pc_list) &&
           report_map_sorted(&s->sources, &s->source_list) &&
           report_map_sorted(&s->contexts[0], &s->context_list[0]) &&
           report_map_sorted(&s->contexts[1], &s->context_list[1]);
}

void report_distinct(const report_map *m, char *buf, size_t size)
{
    if (m->folded_keys)
        /* a value folded and seen again counts again from 1: after a fold
         * the kept counts are lower bounds, the folded row takes the rest */
        snprintf(buf, size, "%zu kept of more than %zu distinct, counts at least", m->used,
                 m->limit);
    else
        snprintf(buf, size, "%zu distinct", m->used);
}

bool report_folded_label(const report_map *m, const char *what, char *buf, size_t size)
{
    buf[0] = 0;
    if (!m->folded_keys) return false;
    /* folded_keys counts a value once per fold, not once: no count of
     * distinct values is claimed */
    snprintf(buf, size, "(other %s, folded at the cap of %zu)", what, m->limit);
    return true;
}

unsigned report_bucket_of(uint16_t value)
{
    unsigned b = 0;
    for (unsigned v = value; v; v >>= 1)
        b++;
    return b;
}

void report_bucket_label(unsigned bucket, char *buf, size_t size)
{
    if (bucket < 2) {
        snprintf(buf, size, "%u", bucket);
        return;
    }
    const unsigned lo = 1u << (bucket - 1);
    snprintf(buf, size, "%u-%u", lo, 2 * lo - 1);
}

uint16_t report_percentile(const report_histogram *h, unsigned pct)
{
    if (!h->samples) return 0;
    /* Nearest rank: ceil(pct/100 * n), and at least the first sample. */
    uint64_t rank = (h->samples * pct + 99) / 100;
    if (rank == 0) rank = 1;
    uint64_t seen = 0;
    for (unsigned v = h->min; v <= h->max; v++) {
        seen += h->freq[v];
        if (seen >= rank) return (uint16_t)v;
    }
    return h->max;
}

static void add_latency(report_histogram *h, uint16_t v)
{
    if (!h->samples || v < h->min) h->min = v;
    if (!h->samples || v > h->max) h->max = v;
    h->samples++;
    h->sum += v;
    h->bucket[report_bucket_of(v)]++;
    h->freq[v]++;
}

static void add_op(report_stats *s, const armprof_spe_record *r)
{
    if (!r->op_valid) {
        s->no_op++;
        return;
    }
    const armprof_spe_op op = armprof_spe_decode_op(r->op_class, r->op_subclass);
    s->op_kind[op.kind]++;
    s->op_name[op.kind] = op.name;
    if (op.kind == ARMPROF_SPE_OP_BRANCH) {
        s->branches++;
        s->branch_cond += op.cond;
        s->branch_indirect += op.ind;
        s->branch_link += op.cr == 1;
        s->branch_return += op.cr == 2;
        /* E[7] and E[6] are about the branch outcome: only a branch's
         * record gives them that meaning. */
        if (r->events_valid) {
            s->branch_mispredicted += r->events >> 7 & 1;
            s->branch_not_taken += r->events >> 6 & 1;
        }
    } else if (op.kind == ARMPROF_SPE_OP_OTHER) {
        s->other_ase += op.ase;
        s->other_fp += op.fp;
    } else if (op.kind >= ARMPROF_SPE_OP_LDST_GP && op.kind <= ARMPROF_SPE_OP_LDST_GCS) {
        /* LDST is 1 for a store or an access that returns no value. */
        if (op.ldst)
            s->stores++;
        else
            s->loads++;
    }
}

static void add_timestamp(report_stats *s, uint64_t ts)
{
    if (!s->with_timestamp) {
        s->ts_first = s->ts_min = s->ts_max = ts;
    } else {
        if (ts < s->ts_last) s->ts_backwards++;
        if (ts < s->ts_min) s->ts_min = ts;
        if (ts > s->ts_max) s->ts_max = ts;
    }
    s->ts_last = ts;
    s->with_timestamp++;
}

bool report_stats_add(report_stats *s, const armprof_spe_record *r)
{
    s->records++;
    s->packets += r->packets;
    s->ignored += r->ignored;
    add_op(s, r);
    if (r->address_valid >> ARMPROF_SPE_ADDR_PC & 1) {
        s->with_pc++;
        if (!report_map_add(&s->pcs, r->address[ARMPROF_SPE_ADDR_PC])) return false;
    }
    for (unsigned i = 0; i < REPORT_LATENCIES; i++)
        if (r->counter_valid >> i & 1) add_latency(&s->latency[i], r->counter[i]);
    if (r->data_source_valid) {
        s->with_source++;
        if (!report_map_add(&s->sources, r->data_source)) return false;
    }
    if (r->events_valid) {
        s->with_events++;
        for (unsigned b = 0; b < 64; b++)
            s->event[b] += r->events >> b & 1;
    }
    if (r->timestamp_valid) add_timestamp(s, r->timestamp);
    for (unsigned i = 0; i < 2; i++) {
        if (!(r->context_valid >> i & 1)) continue;
        s->with_context[i]++;
        if (!report_map_add(&s->contexts[i], r->context[i])) return false;
    }
    return true;
}

int report_collect(report_stats *s, record_source *src)
{
    armprof_spe_stream d;
    armprof_spe_stream_init(&d);
    armprof_spe_record r;
    armprof_spe_decode_status st;
    int rc = 0;
    while ((st = armprof_spe_stream_next_record(&d, &r)) != ARMPROF_SPE_DECODE_EOF) {
        if (st == ARMPROF_SPE_DECODE_MORE) {
            if (!record_source_refill(src, &d)) rc = -2;
        } else if (st == ARMPROF_SPE_DECODE_ERROR) {
            /* The unfinished record is left out: its latency or PC may be
             * missing, and counting it would mix a partial sample with
             * whole ones. */
            s->error = d.error;
            s->error_offset = d.error_offset;
            if (!rc) rc = 1;
            break;
        } else if (!report_stats_add(s, &r)) {
            rc = -1;
            break;
        }
    }
    s->bytes = src->bytes;
    return rc;
}
