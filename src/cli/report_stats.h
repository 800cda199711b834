/* SPDX-License-Identifier: BSD-3-Clause */
/* The statistics of `armprof report`, gathered from decoded SPE records
 * (D18) and kept apart from the renderers so that each output format shows
 * the same numbers. */
#ifndef ARMPROF_CLI_REPORT_STATS_H
#define ARMPROF_CLI_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/decode.h"
#include "cli/report_source.h"
#include "cli/report_map.h"

/* Latency buckets by powers of two: 0, 1, 2-3, 4-7, ..., 32768-65535. A
 * Counter payload is 16 bits (D18.2.3), so 17 buckets hold every value. */
#define REPORT_BUCKETS 17
/* Counter INDEX 0 total, 1 issue, 2 translation latency (D18.2.3). */
#define REPORT_LATENCIES 3

typedef struct report_histogram {
    uint64_t samples; /* records with this counter */
    uint64_t sum;
    uint16_t min, max;
    uint64_t bucket[REPORT_BUCKETS];
    /* Samples of each of the 65536 values: the percentiles are exact, not
     * estimated from the buckets. */
    uint64_t *freq;
} report_histogram;

typedef struct report_stats {
    size_t bytes;
    uint64_t records;
    uint64_t packets;  /* in complete records, Padding excluded */
    uint64_t ignored;  /* of which unknown or holding reserved values */
    const char *error; /* the decoder's reason, NULL if the stream is well formed */
    size_t error_offset;

    /* Operation Type (D18.2.7), by payload type. */
    uint64_t op_kind[ARMPROF_SPE_OP_RESERVED + 1];
    const char *op_name[ARMPROF_SPE_OP_RESERVED + 1]; /* the decoder's, once seen */
    uint64_t no_op;                                   /* records without an Operation Type packet */
    uint64_t loads, stores;                           /* load/store types, by LDST */
    uint64_t branches, branch_cond, branch_indirect;
    uint64_t branch_link, branch_return;            /* CR 0b01, 0b10 (FEAT_SPE_CRR) */
    uint64_t other_ase, other_fp;                   /* Other: ASE, FP */
    uint64_t branch_mispredicted, branch_not_taken; /* Events E[7], E[6] */

    uint64_t with_pc;
    report_map pcs; /* by the whole PC payload: address, EL, NS, NSE */

    report_histogram latency[REPORT_LATENCIES];

    uint64_t with_source;
    report_map sources;

    uint64_t with_events;
    uint64_t event[64];

    uint64_t with_timestamp;
    uint64_t ts_first, ts_last, ts_min, ts_max;
    uint64_t ts_backwards; /* records whose timestamp is below the previous one */

    uint64_t with_context[2]; /* CONTEXTIDR_EL1, CONTEXTIDR_EL2 */
    report_map contexts[2];

    /* Filled by report_stats_sort(): each map's entries, most frequent
     * first (map.used of them). */
    report_count *pc_list, *source_list, *context_list[2];
} report_stats;

/* The distinct PCs, context IDs and Data Source values each list keeps by
 * default: memory stays bounded (about 48 bytes a value at the peak) when
 * a file has more; the less frequent are then folded into one count
 * (report_map.h). */
#define REPORT_MAX_DISTINCT 1000000u

/* Every list keeps at most max_distinct values (0: REPORT_MAX_DISTINCT).
 * False if out of memory; then nothing needs freeing. */
bool report_stats_init(report_stats *s, size_t max_distinct);
void report_stats_free(report_stats *s);

/* Adds one complete record; false if out of memory. */
bool report_stats_add(report_stats *s, const armprof_spe_record *r);

/* Decodes the stream, a block at a time, and adds its complete records.
 * Returns 0, 1 if the stream is malformed (s->error says why and where), -1
 * if out of memory, -2 on a read error (src->read_errno says why). */
int report_collect(report_stats *s, record_source *src);

/* Orders the maps into the *_list arrays for the renderers; false if out
 * of memory. */
bool report_stats_sort(report_stats *s);

/* "N distinct", or once the list folded some, "N kept of more than M
 * distinct". */
void report_distinct(const report_map *m, char *buf, size_t size);
/* Once the list folded some: "(N folded at the cap of M)", the label of
 * the row of their samples; false (and buf "") otherwise. */
bool report_folded_label(const report_map *m, const char *what, char *buf, size_t size);

unsigned report_bucket_of(uint16_t value);
/* "0", "1", "2-3", ... */
void report_bucket_label(unsigned bucket, char *buf, size_t size);
/* The lowest value v such that at least pct% of the samples are <= v
 * (nearest rank); 0 without samples. */
uint16_t report_percentile(const report_histogram *h, unsigned pct);

#endif
